"""The vocabulary of a hand's flow (guobiao-2p §2.2): the shared phases, how the last tile of a
turn arrived, and the bases of a family's own phases and per-hand data.

Phases (§2.2): ``DEAL`` waits for the chance actions of the setup (shuffle, dice); the deal, the
initial 补花 and every draw then follow from the wall.  ``TURN`` is player ``actor`` holding a
14-form with ``origin`` (deal/draw/replacement/claim); ``CLAIM`` is ``actor`` deciding on the
opponent's discard ``pending``; ``ROB`` is ``actor`` deciding whether to rob the opponent's 加杠
of ``pending``; ``END`` holds the :class:`~erren.engine.result.HandResult`.  The
``DRAW``/``REPLACE`` states of the spec are instantaneous here: draws are not decisions.

:class:`~erren.engine.state.State` re-exports every name here; families and the rest of the
code import them from there.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["NO_DATA", "TERMINAL", "FamilyData", "FamilyPhase", "Origin", "Phase"]

TERMINAL = -2
"""``current_player()`` once the hand is over."""


class Phase(StrEnum):
    """The shared phases of a hand (§2.2).  The value is the phase's name in observations (a
    string enum: it compares, hashes and serialises as that name)."""

    DEAL = "deal"
    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    END = "end"


class FamilyPhase(StrEnum):
    """Base of a family's own phases: each family subclasses it with its members (xiamen's
    ``XiamenPhase``, arcade's ``ArcadePhase``); ``value`` is the phase's name in observations."""


class FamilyData:
    """Base of a family's per-hand data (``state.data``, made by ``Family.new_data``): the
    family owns it and reads it through its own typed helper.  The base holds nothing."""

    __slots__ = ()

    def clone(self) -> FamilyData:
        """An independent copy (immutable data may return itself)."""
        return self

    def fingerprint(self) -> tuple[object, ...]:
        """Everything the data holds, for exact-replay checks."""
        return ()


NO_DATA = FamilyData()
"""The data of a family that keeps none (guobiao)."""


class Origin(StrEnum):
    """How the last tile of a ``TURN`` arrived (§2.2); the value is its name in observations."""

    DEAL = "deal"
    DRAW = "draw"
    REPLACEMENT = "replacement"
    CLAIM = "claim"
