"""Settlement (guobiao-2p §6): what a finished hand is worth and who pays whom.

Pure functions from a hand's outcome to a :class:`Settlement` value that explains itself::

    >>> options = SettlementOptions(fan_table="gb", room=ROOMS["normal"])
    >>> print(settle_win(25, winner=1, self_drawn=False, options=options).explain())
    win by seat 1 on a discard: F = 25 fan
    P = min(F + base 0, cap 13) = 13 points
    A = P × stake 200 (普通场 Normal) × 1 (点和 multiplier) = 2,600 beans
    seat 0 pays 2,600 beans to seat 1

The rules, in one place:

* ``F`` is the fan total **including** flowers (§6.1); ``P = min(F + base_points, cap_points)``
  (no cap when ``cap_points`` is ``None``).  The cap defaults to 13 for table ``gb`` and to none
  for ``2p``; it clips the payment, never the fan total the calculator reports.
* The loser is always the single opponent (§6.2): the discarder, the kong declarer of a robbed
  加杠, or the opponent of a self-drawn win.  ``A = P × stake × multiplier``, the multipliers for
  自摸 and 点和 both 1 by default (seed 002's "×3方" counts payers; two players have one).
* In a bean room (§6.3) ``stake`` is the room's 底分 and the loser pays ``min(A, balance)``; the
  winner receives exactly that.  In a score-only table (no room) ``stake = 1`` and there is no
  limit.  After every settlement, a seat whose balance is outside the room's entry limits must
  leave (§6.4) — that is not an escape.
* An escape (§6.5) costs ``escape_penalty_points × stake`` (bean room, limited by the balance) or
  the penalty points (score table), all of it to the opponent; an exhaustive draw (§6.6) moves
  nothing.

Seats are ``0`` and ``1``; which one deals does not matter to settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal

from erren.errors import ErrenError

if TYPE_CHECKING:
    from erren.scoring.guobiao.fan import ScoreResult

__all__ = [
    "CAP_POINTS",
    "MIN_FAN",
    "ROOMS",
    "TABLE_DEFAULT",
    "BelowMinimumError",
    "Outcome",
    "Room",
    "Settlement",
    "SettlementOptions",
    "find_room",
    "rooms_admitting",
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
# Rooms (§6.3, §6.4)


@dataclass(frozen=True, slots=True)
class Room:
    """A bean room tier: ``stake`` beans per point (底分) and the entry limits on the balance."""

    id: str
    name: str
    english: str
    stake: int
    entry_min: int
    entry_max: int

    def admits(self, balance: int) -> bool:
        """Whether a player with ``balance`` beans may sit (and stay) here (§6.4)."""
        return self.entry_min <= balance <= self.entry_max

    def __str__(self) -> str:
        return f"{self.name} {self.english}"

    def __repr__(self) -> str:
        return f"ROOMS[{self.id!r}]"


ROOMS: Final[dict[str, Room]] = {
    room.id: room
    for room in (
        Room("novice", "新手场", "Novice", 50, 1_000, 60_000),
        Room("normal", "普通场", "Normal", 200, 5_000, 80_000),
        Room("junior", "初级场", "Junior", 500, 10_000, 100_000),
        Room("intermediate", "中级场", "Intermediate", 2_000, 50_000, 1_000_000),
        Room("senior", "高级场", "Senior", 6_000, 200_000, 2_000_000_000),
    )
}
"""The five tiers of seed 002, by id, cheapest first."""


def find_room(name: str) -> Room:
    """A room by id, Chinese or English name: ``find_room("普通场") is ROOMS["normal"]``."""
    key = name.strip().lower()
    for room in ROOMS.values():
        if key in (room.id, room.name, room.english.lower()):
            return room
    known = ", ".join(f"{r.id} ({r.name})" for r in ROOMS.values())
    raise ValueError(f"no room {name!r}; the rooms are {known}")


def rooms_admitting(balance: int) -> tuple[Room, ...]:
    """The rooms a player with ``balance`` beans may enter, cheapest first."""
    return tuple(room for room in ROOMS.values() if room.admits(balance))


# --------------------------------------------------------------------------------------------
# Options (Appendix A)


@dataclass(frozen=True, slots=True)
class SettlementOptions:
    """The settlement options of Appendix A, with the spec's defaults.

    ``cap_points`` and ``min_fan`` default to :data:`TABLE_DEFAULT`, which is replaced at
    construction by the fan table's default (cap 13 for ``gb``, none for ``2p``; 起和 8 for
    ``gb``, 0 for ``2p``), so after construction they always read as numbers (or ``None``: no
    cap).  ``room=None`` is a score-only table.
    """

    fan_table: str = "2p"
    base_points: int = 0
    cap_points: int | Literal["table"] | None = TABLE_DEFAULT
    min_fan: int | Literal["table"] = TABLE_DEFAULT
    self_drawn_multiplier: int = 1
    discard_multiplier: int = 1
    escape_penalty_points: int = 13
    room: Room | None = None

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

    @property
    def stake(self) -> int:
        """Beans per point in the room, 1 in a score-only table."""
        return 1 if self.room is None else self.room.stake

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
    """What a finished hand settles to.

    ``receiver``/``payer`` are seats (``None`` for a draw); for an escape the payer is the
    escaper.  ``amount`` is what is owed (beans in a room, points in a score table),
    ``transferred`` what actually moves (the payer's balance limits it in a bean room), and
    ``deltas[seat]`` each seat's change.  ``balances`` are the balances (bean room) or match
    scores (score-only table) after settlement, when those before were given; ``must_leave``
    lists the seats whose balance then fails the room's entry limits (§6.4).  ``steps`` is the
    explanation, one line per rule applied.
    """

    outcome: Outcome
    receiver: int | None
    payer: int | None
    fan_total: int
    points: int
    multiplier: int
    stake: int
    amount: int
    transferred: int
    deltas: tuple[int, int]
    room: Room | None = None
    balances: tuple[int, int] | None = None
    must_leave: tuple[int, ...] = ()
    capped: bool = False
    self_drawn: bool = False
    steps: tuple[str, ...] = ()

    @property
    def unit(self) -> str:
        """``beans`` in a room, ``points`` in a score-only table."""
        return "points" if self.room is None else "beans"

    def explain(self) -> str:
        return "\n".join(self.steps)

    def __str__(self) -> str:
        return self.explain()


def _seat(seat: int, what: str) -> int:
    if seat not in SEATS:
        raise ValueError(f"{what} must be seat 0 or 1, not {seat!r}")
    return seat


def _balances(
    balances: tuple[int, int] | None, options: SettlementOptions
) -> tuple[int, int] | None:
    """Bean balances (≥ 0) in a room; match scores (any sign) in a score-only table."""
    if balances is None:
        return None
    least = 0 if options.room is not None else None
    if len(balances) != 2 or any(
        not isinstance(b, int) or (least is not None and b < least) for b in balances
    ):
        what = "two whole numbers ≥ 0 (beans)" if least is not None else "two whole numbers"
        raise ValueError(f"balances must be {what}, not {balances!r}")
    return (balances[0], balances[1])


def _n(value: int) -> str:
    return f"{value:,}"


def _transfer(
    payer: int,
    receiver: int,
    amount: int,
    *,
    options: SettlementOptions,
    balances: tuple[int, int] | None,
    steps: list[str],
) -> tuple[int, tuple[int, int], tuple[int, int] | None, tuple[int, ...]]:
    """Move ``amount`` from ``payer`` to ``receiver``, limited by the balance in a bean room."""
    room = options.room
    unit = "points" if room is None else "beans"
    transferred = amount
    if room is not None and balances is not None and balances[payer] < amount:
        transferred = balances[payer]
        steps.append(
            f"seat {payer} owes {_n(amount)} beans but holds {_n(balances[payer])}: "
            f"pays {_n(transferred)} (balances never go below 0)"
        )
    if amount == 0:
        steps.append("nothing changes hands")
    else:
        steps.append(f"seat {payer} pays {_n(transferred)} {unit} to seat {receiver}")
    deltas = [0, 0]
    deltas[payer] -= transferred
    deltas[receiver] += transferred
    after, leave = _after(options, balances, (deltas[0], deltas[1]), steps)
    return transferred, (deltas[0], deltas[1]), after, leave


def _after(
    options: SettlementOptions,
    balances: tuple[int, int] | None,
    deltas: tuple[int, int],
    steps: list[str],
) -> tuple[tuple[int, int] | None, tuple[int, ...]]:
    """Balances after settlement and the seats that fail the room's entry limits (§6.4)."""
    if balances is None:
        return None, ()
    after = (balances[0] + deltas[0], balances[1] + deltas[1])
    room = options.room
    if room is None:
        steps.append(f"scores: seat 0 {_n(after[0])}, seat 1 {_n(after[1])}")
        return after, ()
    steps.append(f"balances: seat 0 {_n(after[0])}, seat 1 {_n(after[1])} beans")
    leave = tuple(seat for seat in SEATS if not room.admits(after[seat]))
    for seat in leave:
        steps.append(
            f"seat {seat} is outside {room.name}'s entry limits "
            f"({_n(room.entry_min)}–{_n(room.entry_max)}) and leaves the table (not an escape)"
        )
    return after, leave


# --------------------------------------------------------------------------------------------
# Settling


def settle_win(
    fan_total: int,
    *,
    winner: int,
    self_drawn: bool,
    options: SettlementOptions | None = None,
    balances: tuple[int, int] | None = None,
    flower_points: int = 0,
) -> Settlement:
    """Settle a win worth ``fan_total`` fan (flowers included) for ``winner`` (§6.1–6.4).

    ``flower_points`` is the part of ``fan_total`` that came from 花牌/补花; the rest must reach
    ``min_fan`` or :class:`BelowMinimumError` is raised (§3.5: such a hu is never offered).
    ``self_drawn`` picks the multiplier; a robbed kong is not self-drawn.  ``balances`` (the
    two seats' balances before the hand) limit a bean payment and give ``must_leave``.
    """
    options = options or SettlementOptions()
    winner = _seat(winner, "winner")
    balances = _balances(balances, options)
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
    stake = options.stake
    amount = points * stake * multiplier
    if options.room is None:
        steps.append(
            f"A = P × {multiplier} ({label} multiplier) = {_n(amount)} points (score-only table)"
        )
    else:
        steps.append(
            f"A = P × stake {_n(stake)} ({options.room}) × {multiplier} ({label} multiplier) "
            f"= {_n(amount)} beans"
        )
    transferred, deltas, after, leave = _transfer(
        payer, winner, amount, options=options, balances=balances, steps=steps
    )
    return Settlement(
        outcome=Outcome.WIN,
        receiver=winner,
        payer=payer,
        fan_total=fan_total,
        points=points,
        multiplier=multiplier,
        stake=stake,
        amount=amount,
        transferred=transferred,
        deltas=deltas,
        room=options.room,
        balances=after,
        must_leave=leave,
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
    balances: tuple[int, int] | None = None,
) -> Settlement:
    """:func:`settle_win` for a fan calculator result (its total, flowers included)."""
    return settle_win(
        result.total,
        winner=winner,
        self_drawn=self_drawn,
        options=options,
        balances=balances,
        flower_points=result.flower_points,
    )


def settle_escape(
    escaper: int,
    *,
    options: SettlementOptions | None = None,
    balances: tuple[int, int] | None = None,
) -> Settlement:
    """A player left during the hand (§6.5): he loses ``escape_penalty_points`` points, i.e.
    ``penalty × stake`` beans in a room (limited by his balance), all to the opponent.  The hand
    is void otherwise.  In a score-only table the opponent gains what the escaper loses, as for
    a win."""
    options = options or SettlementOptions()
    escaper = _seat(escaper, "escaper")
    balances = _balances(balances, options)
    points = options.escape_penalty_points
    stake = options.stake
    amount = points * stake
    steps = [f"seat {escaper} escaped (逃跑): penalty {points} points, the hand is void"]
    if options.room is not None:
        steps.append(f"A = {points} × stake {_n(stake)} ({options.room}) = {_n(amount)} beans")
    transferred, deltas, after, leave = _transfer(
        escaper, 1 - escaper, amount, options=options, balances=balances, steps=steps
    )
    return Settlement(
        outcome=Outcome.ESCAPE,
        receiver=1 - escaper,
        payer=escaper,
        fan_total=0,
        points=points,
        multiplier=1,
        stake=stake,
        amount=amount,
        transferred=transferred,
        deltas=deltas,
        room=options.room,
        balances=after,
        must_leave=leave,
        steps=tuple(steps),
    )


def settle_draw(
    *,
    options: SettlementOptions | None = None,
    balances: tuple[int, int] | None = None,
) -> Settlement:
    """An exhaustive draw (荒庄, §6.6): no points and no beans change hands."""
    options = options or SettlementOptions()
    balances = _balances(balances, options)
    steps = ["exhaustive draw (荒庄): nothing changes hands; the dealership passes"]
    after, leave = _after(options, balances, (0, 0), steps)
    return Settlement(
        outcome=Outcome.DRAW,
        receiver=None,
        payer=None,
        fan_total=0,
        points=0,
        multiplier=1,
        stake=options.stake,
        amount=0,
        transferred=0,
        deltas=(0, 0),
        room=options.room,
        balances=after,
        must_leave=leave,
        steps=tuple(steps),
    )
