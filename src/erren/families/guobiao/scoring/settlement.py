"""Settlement (guobiao-2p §6): what a finished hand is worth in points and who pays whom.

Pure functions from a hand's outcome to a :class:`Settlement` value that explains itself::

    >>> options = SettlementOptions(fan_table="gb")
    >>> print(settle_win(25, winner=1, self_drawn=False, options=options).explain())
    win by seat 1 on a discard: F = 25 fan
    P = min(F + base 0, cap 13) = 13 points
    A = P × 1 (点和 multiplier) = 13 points
    seat 0 pays 13 points to seat 1

The rules, in one place:

* ``F`` is the fan total **including** flowers (§6.1); ``P = min(F + base_points, cap_points)``
  (no cap when ``cap_points`` is ``None``).  The cap defaults to 13 for table ``gb`` and to none
  for ``2p``; it clips the payment, never the fan total the calculator reports.
* The loser is always the single opponent (§6.2): the discarder, the kong declarer of a robbed
  加杠, or the opponent of a self-drawn win.  ``A = P × multiplier``, the multipliers for 自摸 and
  点和 both 1 by default (seed 002's "×3方" counts payers; two players have one).
* An escape (§6.5) costs ``escape_penalty_points``, all of it to the opponent; an exhaustive draw
  (§6.6) moves nothing.

Everything here is in **points**.  A bean room multiplies the points by its stake (底分) and
limits the payment by the payer's balance (§6.2–6.4) — once, in the server
(:func:`erren.server.settlement.to_beans`), for every family alike; the room tiers live with the
server's rooms (:mod:`erren.server.rooms`).

Seats are ``0`` and ``1``; which one deals does not matter to settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal

from erren.errors import ErrenError

if TYPE_CHECKING:
    from erren.families.guobiao.scoring.fan import ScoreResult

__all__ = [
    "CAP_POINTS",
    "MIN_FAN",
    "TABLE_DEFAULT",
    "BelowMinimumError",
    "Outcome",
    "Settlement",
    "SettlementOptions",
    "settle_draw",
    "settle_escape",
    "settle_score",
    "settle_win",
]

SEATS: Final = (0, 1)
TABLES: Final = ("2p", "gb")
CAP_POINTS: Final[dict[str, int | None]] = {"2p": None, "gb": 13}
"""Default ``cap_points`` per fan table (§6.1, Appendix A)."""
MIN_FAN: Final[dict[str, int]] = {"2p": 0, "gb": 8}
"""Default ``min_fan`` (起和) per fan table (§3.5, Appendix A)."""
TABLE_DEFAULT: Final = "table"
"""Value of an option whose default depends on the fan table; resolved at construction."""


class BelowMinimumError(ErrenError, ValueError):
    """A complete hand whose fans (flowers not counted) do not reach 起和: not a legal win."""

    def __init__(self, fans: int, min_fan: int) -> None:
        self.fans = fans
        self.min_fan = min_fan
        super().__init__(
            f"not a legal win: {fans} fan without flowers is below the minimum (起和) of {min_fan}"
        )


# --------------------------------------------------------------------------------------------
# Options (Appendix A)


@dataclass(frozen=True, slots=True)
class SettlementOptions:
    """The settlement options of Appendix A, with the spec's defaults.

    ``cap_points`` and ``min_fan`` default to :data:`TABLE_DEFAULT`, which is replaced at
    construction by the fan table's default (cap 13 for ``gb``, none for ``2p``; 起和 8 for
    ``gb``, 0 for ``2p``), so after construction they always read as numbers (or ``None``: no
    cap).
    """

    fan_table: str = "2p"
    base_points: int = 0
    cap_points: int | Literal["table"] | None = TABLE_DEFAULT
    min_fan: int | Literal["table"] = TABLE_DEFAULT
    self_drawn_multiplier: int = 1
    discard_multiplier: int = 1
    escape_penalty_points: int = 13

    def __post_init__(self) -> None:
        if self.fan_table not in TABLES:
            tables = ", ".join(TABLES)
            raise ValueError(f"fan_table must be one of {tables}, not {self.fan_table!r}")
        if self.cap_points == TABLE_DEFAULT:
            object.__setattr__(self, "cap_points", CAP_POINTS[self.fan_table])
        if self.min_fan == TABLE_DEFAULT:
            object.__setattr__(self, "min_fan", MIN_FAN[self.fan_table])
        checks: tuple[tuple[str, object, int], ...] = (
            ("base_points", self.base_points, 0),
            ("cap_points", 0 if self.cap_points is None else self.cap_points, 0),
            ("min_fan", self.min_fan, 0),
            ("self_drawn_multiplier", self.self_drawn_multiplier, 1),
            ("discard_multiplier", self.discard_multiplier, 1),
            ("escape_penalty_points", self.escape_penalty_points, 0),
        )
        for name, value, least in checks:
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{name} must be a whole number ≥ {least}, not {value!r}")

    @property
    def cap(self) -> int | None:
        """``cap_points`` as resolved for the table (``None``: uncapped)."""
        assert self.cap_points != TABLE_DEFAULT
        return self.cap_points

    @property
    def minimum(self) -> int:
        """``min_fan`` as resolved for the table."""
        assert self.min_fan != TABLE_DEFAULT
        return self.min_fan

    def points(self, fan_total: int) -> int:
        """``P = min(F + base_points, cap_points)`` (§6.1)."""
        raw = fan_total + self.base_points
        return raw if self.cap is None else min(raw, self.cap)

    def multiplier(self, *, self_drawn: bool) -> int:
        """The 自摸 or 点和 multiplier (§6.2); a robbed kong is a discard-type win."""
        return self.self_drawn_multiplier if self_drawn else self.discard_multiplier


# --------------------------------------------------------------------------------------------
# The result


class Outcome(Enum):
    """How the hand ended."""

    WIN = "win"
    ESCAPE = "escape"  # 逃跑
    DRAW = "draw"  # 荒庄


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a finished hand settles to, in points.

    ``receiver``/``payer`` are seats (``None`` for a draw); for an escape the payer is the
    escaper.  ``amount`` is the points owed (``P × multiplier``, or the escape penalty) and
    ``deltas[seat]`` each seat's change in points.  ``steps`` is the explanation, one line per
    rule applied.
    """

    outcome: Outcome
    receiver: int | None
    payer: int | None
    fan_total: int
    points: int
    multiplier: int
    amount: int
    deltas: tuple[int, int]
    capped: bool = False
    self_drawn: bool = False
    steps: tuple[str, ...] = ()

    def explain(self) -> str:
        return "\n".join(self.steps)

    def __str__(self) -> str:
        return self.explain()


def _seat(seat: int, what: str) -> int:
    if seat not in SEATS:
        raise ValueError(f"{what} must be seat 0 or 1, not {seat!r}")
    return seat


def _pay(payer: int, amount: int, steps: list[str]) -> tuple[int, int]:
    """The point deltas of ``payer`` paying ``amount`` to the other seat."""
    if amount == 0:
        steps.append("nothing changes hands")
    else:
        steps.append(f"seat {payer} pays {amount:,} points to seat {1 - payer}")
    deltas = [amount, amount]
    deltas[payer] = -amount
    return deltas[0], deltas[1]


# --------------------------------------------------------------------------------------------
# Settling


def settle_win(
    fan_total: int,
    *,
    winner: int,
    self_drawn: bool,
    options: SettlementOptions | None = None,
    flower_points: int = 0,
) -> Settlement:
    """Settle a win worth ``fan_total`` fan (flowers included) for ``winner`` (§6.1–6.2).

    ``flower_points`` is the part of ``fan_total`` that came from 花牌/补花; the rest must reach
    ``min_fan`` or :class:`BelowMinimumError` is raised (§3.5: such a hu is never offered).
    ``self_drawn`` picks the multiplier; a robbed kong is not self-drawn.
    """
    options = options or SettlementOptions()
    winner = _seat(winner, "winner")
    if fan_total < 0 or not 0 <= flower_points <= fan_total:
        raise ValueError(f"bad fan total {fan_total} with {flower_points} from flowers")
    if fan_total - flower_points < options.minimum:
        raise BelowMinimumError(fan_total - flower_points, options.minimum)
    payer = 1 - winner
    how = "self-drawn (自摸)" if self_drawn else "on a discard"
    flowers = f" ({flower_points} from flowers)" if flower_points else ""
    steps = [f"win by seat {winner} {how}: F = {fan_total} fan{flowers}"]
    points = options.points(fan_total)
    cap = options.cap
    capped = cap is not None and fan_total + options.base_points > cap
    if cap is None:
        steps.append(f"P = F + base {options.base_points} = {points} points (no cap)")
    else:
        steps.append(f"P = min(F + base {options.base_points}, cap {cap}) = {points} points")
    multiplier = options.multiplier(self_drawn=self_drawn)
    label = "自摸" if self_drawn else "点和"
    amount = points * multiplier
    steps.append(f"A = P × {multiplier} ({label} multiplier) = {amount:,} points")
    return Settlement(
        outcome=Outcome.WIN,
        receiver=winner,
        payer=payer,
        fan_total=fan_total,
        points=points,
        multiplier=multiplier,
        amount=amount,
        deltas=_pay(payer, amount, steps),
        capped=capped,
        self_drawn=self_drawn,
        steps=tuple(steps),
    )


def settle_score(
    result: ScoreResult,
    *,
    winner: int,
    self_drawn: bool,
    options: SettlementOptions | None = None,
) -> Settlement:
    """:func:`settle_win` for a fan calculator result (its total, flowers included)."""
    return settle_win(
        result.total,
        winner=winner,
        self_drawn=self_drawn,
        options=options,
        flower_points=result.flower_points,
    )


def settle_escape(escaper: int, *, options: SettlementOptions | None = None) -> Settlement:
    """A player left during the hand (§6.5): he loses ``escape_penalty_points`` points, all to
    the opponent.  The hand is void otherwise."""
    options = options or SettlementOptions()
    escaper = _seat(escaper, "escaper")
    points = options.escape_penalty_points
    steps = [f"seat {escaper} escaped (逃跑): penalty {points} points, the hand is void"]
    return Settlement(
        outcome=Outcome.ESCAPE,
        receiver=1 - escaper,
        payer=escaper,
        fan_total=0,
        points=points,
        multiplier=1,
        amount=points,
        deltas=_pay(escaper, points, steps),
        steps=tuple(steps),
    )


def settle_draw() -> Settlement:
    """An exhaustive draw (荒庄, §6.6): no points change hands."""
    steps = ("exhaustive draw (荒庄): nothing changes hands; the dealership passes",)
    return Settlement(
        outcome=Outcome.DRAW,
        receiver=None,
        payer=None,
        fan_total=0,
        points=0,
        multiplier=1,
        amount=0,
        deltas=(0, 0),
        steps=steps,
    )
