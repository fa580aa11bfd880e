"""How a hand ends: the win being checked or made (:class:`WinClaim`) and the result
(:class:`HandResult`), whose ``deltas`` are in points in every family.

The kinds are string enums whose values are the words of records, the wire and the database:
:class:`ResultKind` (``win``, ``draw``, ``abort``) and how a hand was won, an
:class:`AnyWinHow`: the shared :class:`WinHow` (``zimo``, ``discard``, ``robbing``) or a
family's own ways, an enum of its package subclassing :class:`AnyWinHow` (xiamen's
``XiamenWinHow``: 游金, 三金倒...).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from erren.hand import Hand
from erren.scoring.detail import FamilyScore
from erren.tiles import Tile

__all__ = ["AnyWinHow", "HandResult", "ResultKind", "WinClaim", "WinHow"]


class ResultKind(StrEnum):
    """How a hand ended."""

    WIN = "win"
    DRAW = "draw"
    """荒庄: the wall ran out."""
    ABORT = "abort"
    """A player escaped (逃跑)."""


class AnyWinHow(StrEnum):
    """How a hand was won: the shared :class:`WinHow` or one of a family's own ways (an enum of
    its package subclassing this one, with no member here).  The value is the way's word in
    records, on the wire and in the database."""


class WinHow(AnyWinHow):
    """The ways to win every family shares."""

    ZIMO = "zimo"
    """Self-drawn (自摸)."""
    DISCARD = "discard"
    """On the opponent's discard (点和)."""
    ROBBING = "robbing"
    """Robbing the opponent's added kong (抢杠和)."""


@dataclass(frozen=True, slots=True)
class WinClaim:
    """A win being checked or made: the hand and the flags of §2.11 the engine maintains."""

    winner: int
    how: AnyWinHow
    hand: Hand
    dealer: bool
    kong_replacement: bool = False
    last_tile: bool = False
    last_copy: bool = False
    ting: bool = False
    tianting: bool = False
    tianhu: bool = False
    dihu: bool = False
    round_wind: Tile = Tile.EAST

    @property
    def self_drawn(self) -> bool:
        return self.how is WinHow.ZIMO


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.  ``kind``: ``win``, ``draw`` (荒庄) or ``abort`` (escape).

    For a win: ``how`` (``zimo``/``discard``/``robbing``), the winner's ``hand`` (shown to both
    players, §2.11), ``fans`` as ``(name, value, count)`` rows, ``fan_total`` (flowers
    included, uncapped), ``points`` after ``base_points`` and ``cap_points`` (§6.1) and
    ``deltas``, the change of seat 0 and seat 1 in **points**, in every family and for every
    kind of end (a win, 荒庄, an escape's penalty) — never beans: a bean room converts them once,
    at its stake, in :func:`erren.server.settlement.to_beans`.  ``detail`` is the scorer's
    result as every family shows it (:class:`~erren.scoring.detail.FamilyScore`: rows with
    their tiles, steps, total), when it was available.
    """

    kind: ResultKind
    winner: int | None = None
    loser: int | None = None
    how: AnyWinHow | None = None
    hand: Hand | None = None
    claim: WinClaim | None = None
    fans: tuple[tuple[str, int, int], ...] = ()
    fan_total: int = 0
    points: int = 0
    deltas: tuple[int, int] = (0, 0)
    detail: FamilyScore | None = None

    def __str__(self) -> str:
        if self.kind is ResultKind.DRAW:
            return "荒庄 (exhaustive draw)"
        if self.kind is ResultKind.ABORT:
            return f"aborted: seat {self.loser} escaped; deltas {self.deltas}"
        fans = ", ".join(f"{n} {v}" + (f"×{c}" if c > 1 else "") for n, v, c in self.fans)
        return (
            f"seat {self.winner} wins by {self.how}: {self.hand}  [{fans}] "
            f"= {self.fan_total} fan, {self.points} points, deltas {self.deltas}"
        )
