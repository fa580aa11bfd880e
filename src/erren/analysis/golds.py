"""Xiamen's golds on top of the kernel (xiamen.md R-1.8, R-3.3–R-3.5).

A hand is given by physical kind; :func:`functional_counts` turns it into the natural tiles by
the kind they play as (a White plays as the gold kind ``g`` unless ``g`` is the White) and the
number of golds.  Completeness with golds is the kernel's uncapped test
(``is_complete(..., max_copies=None)``: a gold may be a fifth copy, R-3.2).
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis.complete import is_complete
from erren.analysis.shapes import XIAMEN
from erren.tiles import NUM_KINDS, Tile

_WHITE = int(Tile.WHITE)


def functional_counts(hand: Sequence[int], gold: int) -> tuple[list[int], int]:
    """``(counts, golds)``: a concealed part's natural tiles by functional kind and its golds."""
    counts = list(hand)
    golds = counts[gold]
    counts[gold] = 0
    if gold != _WHITE:
        counts[gold] = counts[_WHITE]
        counts[_WHITE] = 0
    return counts, golds


def complete(counts: Sequence[int], golds: int) -> bool:
    """R-3.3: natural tiles (by functional kind) plus ``golds`` golds split into sets + pair."""
    return is_complete(counts, wilds=golds, shapes=XIAMEN, max_copies=None)


def _borrowable(counts: Sequence[int]) -> int | None:
    """A kind that can join no natural tile in a set but a pung or pair of its own kind: an
    honor with no natural copy, or a suit kind whose whole suit is absent."""
    for kind in range(27, NUM_KINDS):
        if counts[kind] == 0:
            return kind
    for suit in range(3):
        if not any(counts[suit * 9 : suit * 9 + 9]):
            return suit * 9
    return None


def you_ready(counts: Sequence[int], golds: int) -> bool:
    """R-3.5 游金-ready: a ``3n + 1`` part holding a gold that, with one gold taken out, forms
    exactly ``n`` sets — so the next tile, whatever it is, pairs with that gold.

    Tested as completeness of the rest plus a borrowed pair of a kind no natural tile can set
    with: a split that puts golds with the borrowed pair rearranges into one where the pair is
    the borrowed tiles (the golds that joined them make a gold-only set or finish the other
    pair).  Without such a kind, by the equivalent definition: complete for every kind.
    """
    if golds < 1 or (sum(counts) + golds) % 3 != 1:
        return False
    borrowed = _borrowable(counts)
    if borrowed is None:
        extended = list(counts)
        for kind in range(NUM_KINDS):
            extended[kind] += 1
            ok = complete(extended, golds)
            extended[kind] -= 1
            if not ok:
                return False
        return True
    extended = list(counts)
    extended[borrowed] = 2
    return complete(extended, golds - 1)
