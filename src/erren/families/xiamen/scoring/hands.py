"""Xiamen hands at count level: golds apart, Whites as the gold's face, completeness (R-3.3) and
游金-ready (R-3.5).

A hand is read as ``(counts, golds)``: 34 counts of the natural tiles by functional kind (a White
counts as ``g`` when ``g ≠ 5z``, R-1.8) and the number of golds.  :func:`complete` and
:func:`you_ready` are R-3.3 and R-3.5, answered by the analysis kernel
(:mod:`erren.analysis.golds`); the tests check them against brute-force substitution.
"""

from __future__ import annotations

from functools import lru_cache

from erren.analysis import golds as _golds
from erren.analysis.readings import Wilds
from erren.hand import Hand
from erren.tiles import NUM_KINDS, Tile

__all__ = ["complete", "gold_wilds", "hand_counts", "split_golds", "you_ready"]

Key = tuple[int, ...]


@lru_cache(maxsize=16)
def gold_wilds(gold: int) -> Wilds:
    """The :class:`~erren.analysis.readings.Wilds` of gold kind ``gold``: no copy limit
    (R-3.2), the White as stand-in unless it is the gold (R-1.8), the 16 kinds of the set."""
    return Wilds(
        kind=gold,
        max_copies=None,
        stand_in=Tile.WHITE if gold != Tile.WHITE else None,
        stands_for=frozenset(range(9)) | frozenset(range(27, 34)),
    )


def split_golds(
    tiles: tuple[int, ...] | list[int], gold: int, *, winning: int | None = None
) -> tuple[Key, int]:
    """``(counts, golds)`` of some concealed tiles (plus ``winning``): natural tiles counted by
    functional kind, golds apart."""
    counts = [0] * NUM_KINDS
    golds = 0
    fake = gold != Tile.WHITE
    for tile in (*tiles, *(() if winning is None else (winning,))):
        if tile == gold:
            golds += 1
        elif fake and tile == Tile.WHITE:
            counts[gold] += 1
        else:
            counts[tile] += 1
    return tuple(counts), golds


def hand_counts(hand: Hand, gold: int, *, with_winning: bool = True) -> tuple[Key, int]:
    """:func:`split_golds` of a hand's concealed part (the winning tile included by default)."""
    return split_golds(hand.concealed, gold, winning=hand.winning if with_winning else None)


def complete(counts: Key, golds: int) -> bool:
    """R-3.3: ``counts`` (natural tiles by functional kind) plus ``golds`` golds, ``3n + 2`` in
    all, split into ``n`` sets and one pair, each gold standing for any kind (the kernel's
    uncapped test, :func:`erren.analysis.golds.complete`)."""
    if (sum(counts) + golds) % 3 != 2:
        return False
    return _golds.complete(counts, golds)


def you_ready(counts: Key, golds: int) -> bool:
    """R-3.5 游金-ready: a ``3n + 1`` part holding a gold that, with one gold out, makes
    exactly ``n`` sets — so any tile drawn next completes it (paired with that gold)."""
    return _golds.you_ready(counts, golds)
