"""What a finished hand would pay, seen from one player's observation (guobiao-2p).

The payment is the table's own: the fan total of the C fan calculator
(:func:`erren.families.guobiao.scoring.score_fast`, flowers included) settled by
:func:`erren.families.guobiao.scoring.settlement.settle_win` with the ruleset's options (minimum,
cap,
base, multipliers).  A hand below the minimum (起和) pays nothing: it is not a legal win.

A ready hand's worth is the sum over its waits of (unseen copies × mean payment of a win on that
tile, half self-drawn and half on a discard): :meth:`Valuer.ready_value`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from erren.engine import Family
from erren.families.guobiao.game import GuobiaoFamily
from erren.families.guobiao.scoring import score_fast
from erren.families.guobiao.scoring.context import WinContext
from erren.families.guobiao.scoring.settlement import (
    BelowMinimumError,
    SettlementOptions,
    settle_win,
)
from erren.hand import Hand
from erren.melds import Meld
from erren.tiles import NUM_KINDS, Tile

__all__ = ["Valuer", "unseen"]

_TILES = tuple(Tile(i) for i in range(42))

_V = TypeVar("_V", int, float)
CACHE_SIZE = 50_000
"""Entries a :class:`Valuer` cache holds before it starts again."""
ZIMO_SHARE = 0.5
"""The share of wins assumed self-drawn when a wait is valued before it comes."""


def unseen(visible: Sequence[int], kind: int) -> int:
    """Copies of ``kind`` the player cannot see."""
    return max(0, 4 - visible[kind])


def _kept(cache: dict[tuple[object, ...], _V], key: tuple[object, ...], value: _V) -> _V:
    """``value``, stored in ``cache`` under ``key`` (emptied past :data:`CACHE_SIZE` entries)."""
    if len(cache) > CACHE_SIZE:
        cache.clear()
    cache[key] = value
    return value


class Valuer:
    """Payments of hypothetical wins under one guobiao ruleset, cached by hand."""

    def __init__(self, ruleset: Family) -> None:
        self.options: SettlementOptions = (
            ruleset.settlement_options()
            if isinstance(ruleset, GuobiaoFamily)
            else SettlementOptions()
        )
        self.table = self.options.fan_table
        self._cache: dict[tuple[object, ...], int] = {}
        self._waits: dict[tuple[object, ...], float] = {}

    def pay(
        self,
        counts: Sequence[int],
        melds: tuple[Meld, ...],
        winning: int,
        *,
        self_drawn: bool,
        ting: bool = False,
        flowers: int = 0,
        round_wind: Tile = Tile.EAST,
        dealer: bool = False,
    ) -> int:
        """Points the winner receives for ``counts`` (the 13-form, 34 kinds) + ``winning``;
        0 when that is not a legal win."""
        key = (tuple(counts), melds, winning, self_drawn, ting, flowers, round_wind, dealer)
        found = self._cache.get(key)
        if found is not None:
            return found
        concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(counts[k]))
        hand = Hand(concealed, melds, _TILES[winning])
        ctx = WinContext(
            self_drawn=self_drawn,
            seat_wind=Tile.EAST if dealer else Tile.SOUTH,
            round_wind=round_wind,
            flowers=flowers,
            ting=ting,
        )
        try:
            total, fans = score_fast(hand, ctx, table=self.table)
            bonus = sum(fan.value * n for fan, n in fans if fan.bonus)
            points = settle_win(
                total, winner=0, self_drawn=self_drawn, options=self.options, flower_points=bonus
            ).deltas[0]
        except (BelowMinimumError, ValueError):
            points = 0
        return _kept(self._cache, key, points)

    def wait_value(
        self,
        counts: Sequence[int],
        melds: tuple[Meld, ...],
        winning: int,
        *,
        ting: bool,
        flowers: int = 0,
        round_wind: Tile = Tile.EAST,
        dealer: bool = False,
    ) -> float:
        """The mean payment of a win on ``winning``, self-drawn with weight :data:`ZIMO_SHARE`."""
        key = (tuple(counts), melds, winning, ting, flowers, round_wind, dealer)
        found = self._waits.get(key)
        if found is not None:
            return found
        args = (counts, melds, winning)
        kw = {"ting": ting, "flowers": flowers, "round_wind": round_wind, "dealer": dealer}
        zimo = self.pay(*args, self_drawn=True, **kw)  # type: ignore[arg-type]
        ron = self.pay(*args, self_drawn=False, **kw)  # type: ignore[arg-type]
        return _kept(self._waits, key, ZIMO_SHARE * zimo + (1 - ZIMO_SHARE) * ron)

    def ready_value(
        self,
        counts: Sequence[int],
        melds: tuple[Meld, ...],
        waits: Sequence[int],
        visible: Sequence[int],
        *,
        ting: bool,
        flowers: int = 0,
        round_wind: Tile = Tile.EAST,
        dealer: bool = False,
    ) -> float:
        """Σ over ``waits`` of unseen copies × :meth:`wait_value`."""
        return sum(
            unseen(visible, t)
            * self.wait_value(
                counts,
                melds,
                t,
                ting=ting,
                flowers=flowers,
                round_wind=round_wind,
                dealer=dealer,
            )
            for t in waits
        )
