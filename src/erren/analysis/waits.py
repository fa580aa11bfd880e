"""Waits, improving tiles and the discard table of a hand.

Same conventions as :mod:`erren.analysis.shanten` (34 counts plus ``wilds``; the total fixes the
number of sets).  *Improving kinds* of a 3n+1 hand are the kinds whose draw lowers its shanten
(often called effective or necessary tiles); its *waits* are the kinds that complete it.  Both come
from one kernel pass: the table rows of the blocks that reach the minimum say which added kind
lowers them, so nothing is tried 34 times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from erren.analysis import _kernel
from erren.analysis.shapes import ALL_SHAPES, SHAPE_MASKS, ShapeSet

__all__ = ["DiscardOption", "discard_table", "improving", "waits"]

_k_waits = _kernel.waits
_k_improving = _kernel.improving
_k_discard_rows = _kernel.discard_rows


def waits(
    counts: Sequence[int],
    *,
    wilds: int = 0,
    shapes: ShapeSet = ALL_SHAPES,
    held: Sequence[int] | None = None,
    max_copies: int | None = 4,
) -> list[int]:
    """The kinds ``t`` (ascending) for which a 3n+1 hand plus ``t`` is complete.

    A kind is left out when the player holds all four copies: ``counts[t] + held[t] >= 4``,
    ``held`` being the tiles of each kind in the player's melds (default none) — guobiao-2p §3.4.
    ``max_copies`` and ``held`` are as in :func:`erren.analysis.shanten.is_complete`: with
    ``max_copies=4`` no wild may give a kind a fifth copy counting the melds (arcade R5.2).  The
    hand is ready (听) iff the list is not empty.
    """
    return _k_waits(counts, wilds, SHAPE_MASKS[shapes], held, max_copies)


def improving(
    counts: Sequence[int], *, wilds: int = 0, shapes: ShapeSet = ALL_SHAPES
) -> tuple[int, list[int]]:
    """``(shanten, kinds)`` of a 3n+1 hand: the kinds whose draw lowers the shanten.

    A kind the hand already holds four of is never listed; drawing a wild always improves and is
    not listed (wilds are not a kind here).  At shanten 0 the kinds are the waits (before the
    ``held`` filter of :func:`waits`).
    """
    return _k_improving(counts, wilds, SHAPE_MASKS[shapes])


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One row of :func:`discard_table`: what the hand looks like after one discard.

    ``discard`` is the kind thrown (``None``: a wild); ``shanten`` that of the 3n+1 hand left;
    ``effective`` the kinds whose draw would lower it; ``remaining`` how many of those tiles the
    player has not seen, ``Σ (4 − visible[k])`` over ``effective``.
    """

    discard: int | None
    shanten: int
    effective: tuple[int, ...]
    remaining: int


def discard_table(
    counts: Sequence[int],
    *,
    wilds: int = 0,
    shapes: ShapeSet = ALL_SHAPES,
    visible: Sequence[int] | None = None,
) -> list[DiscardOption]:
    """One :class:`DiscardOption` per distinct discard of a 3n+2 hand, best first.

    Rows: each kind held, plus one wild row if ``wilds > 0``.  ``visible`` counts every tile the
    player can see (own hand, melds, all discards, indicators); default: the hand's own counts.
    Order: lower shanten, then more ``remaining``, then more effective kinds, then natural
    discards by kind index, the wild last.
    """
    return [
        DiscardOption(discard, value, effective, remaining)
        for discard, value, effective, remaining in _k_discard_rows(
            counts, wilds, SHAPE_MASKS[shapes], visible
        )
    ]
