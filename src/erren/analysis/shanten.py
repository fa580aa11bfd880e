"""Shanten and the win check: how far a count array is from a complete hand.

A hand is ``counts`` — 34 ints, copies of each kind (``erren.tiles`` order) in the concealed
part — plus ``wilds``, the number of wild tiles (arcade 财神, Xiamen 金) held apart from
``counts``.  Its *total* ``sum(counts) + wilds`` must be ``3n + 1`` (between draws) or ``3n + 2``
(after a draw) with ``0 <= n <= 4``: ``n`` is the number of sets the concealed part still has to
form (4 minus the melds).  Anything else raises :class:`~erren.errors.AnalysisError` (a
``ValueError``).

*Shanten* is the number of tile exchanges short of ready: ``-1`` complete (3n+2 only), ``0`` ready
(听), ``1`` one away, … .  It is ``distance - 1 - wilds`` where the distance is the least number of
tiles to add so that the natural tiles lie inside one complete hand of the shape with at most four
of any kind (arcade R5.2); the minimum is taken over ``shapes``.  The four-copies cap is used for
shanten under every ruleset; only :func:`is_complete` (the completeness test of
:mod:`erren.analysis.complete`, re-exported here) and :func:`erren.analysis.waits.waits` take
``max_copies=None`` (a Xiamen gold may be a fifth copy, R-3.2) and the tiles in melds (``held``:
the resolved hand *plus its melds* holds at most four of a kind, arcade R1.9d/R5.2) into account
exactly.

All work happens in the C kernel :mod:`erren.analysis._kernel`: table lookups (the uncapped tables
are built at the first ``max_copies=None`` call), plus a small exact search only when a wild could
give a melded kind a fifth copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis import _kernel
from erren.analysis.complete import is_complete
from erren.analysis.shapes import ALL_SHAPES, SHAPE_MASKS, Shape, ShapeSet

__all__ = ["is_complete", "shanten", "shanten_by_shape"]

_k_shanten = _kernel.shanten
_k_by_shape = _kernel.shanten_by_shape
_SHAPE_ORDER = tuple(Shape)


def shanten(counts: Sequence[int], *, wilds: int = 0, shapes: ShapeSet = ALL_SHAPES) -> int:
    """Shanten of a 3n+1 or 3n+2 hand: the minimum over ``shapes`` (``-1`` = complete).

    The special shapes count only when the total is 13 or 14 (a hand without melds), except
    组合龙 (:attr:`Shape.KNITTED_STRAIGHT`), whose one set may be a meld: it counts at 10/11 too.
    ``shanten([0]*34, wilds=2) == -1``: two wilds are a pair.
    """
    return _k_shanten(counts, wilds, SHAPE_MASKS[shapes])


def shanten_by_shape(
    counts: Sequence[int], *, wilds: int = 0, shapes: ShapeSet = ALL_SHAPES
) -> dict[Shape, int]:
    """Shanten of each shape in ``shapes`` that applies to the hand's total (REGULAR always)."""
    values = _k_by_shape(counts, wilds, SHAPE_MASKS[shapes])
    return {
        shape: value for shape, value in zip(_SHAPE_ORDER, values, strict=True) if value is not None
    }
