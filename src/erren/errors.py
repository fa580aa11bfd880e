"""The errors erren raises.  Bad syntax and illegal play are different errors."""

from __future__ import annotations


class ErrenError(Exception):
    """Base class of every error erren raises on purpose."""


class NotationError(ErrenError, ValueError):
    """A tile, meld or hand string that does not parse; names the position and the reason."""

    def __init__(self, reason: str, text: str = "", position: int | None = None) -> None:
        self.reason = reason
        self.text = text
        self.position = position
        where = f" at position {position}" if position is not None else ""
        shown = f" in {text!r}" if text else ""
        super().__init__(f"{reason}{where}{shown}")


class NotAWinError(ErrenError, ValueError):
    """A hand given to a scorer that does not win: no reading in the family's winning shapes, or
    a win its rules cannot produce."""


class AnalysisError(ErrenError, ValueError):
    """A hand that cannot be analysed as asked (e.g. a tile count no hand can have)."""


class IllegalActionError(ErrenError):
    """An action the rules do not allow in this state (not a syntax error: that is a
    :class:`NotationError`).  ``rule`` is a short stable id (``"out-of-turn"``, ``"not-a-win"``,
    ...); the message cites the spec section.  The state that refused the action is unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"[{rule}] {message}")
