"""Is this hand complete?  erren's one completeness test: the C kernel's.

Every family, the engine and the scorers ask here (through the kernel
:mod:`erren.analysis._kernel`), each with its wild semantics:

* :func:`is_complete` — the general test: 34 counts of natural tiles plus ``wilds`` wild tiles,
  the shapes a ruleset accepts, and the four-copies cap (``max_copies=4``, with the melds'
  tiles ``held``: arcade R5.2, and every hand without wilds) or none (``max_copies=None``: a
  Xiamen gold may be a fifth copy, R-3.2; :func:`erren.analysis.golds.complete`);
* :func:`is_complete_ignoring_copies` — the same for natural tiles where one kind may be held
  five times: the shape-only question of MCR's wait rules ("ignoring how many copies remain",
  guobiao-2p §5.2 A15), which no real hand asks;
* :data:`is_complete_by_mask` — :func:`is_complete` itself, positional, with the shapes as a
  kernel mask (:func:`~erren.analysis.shapes.shape_mask`): for hot paths that fix their shapes
  once (the engine's win check), one call less.

The hand-level questions (:func:`erren.analysis.readings.is_winning`, the engine's
:func:`erren.engine.winning.is_complete`, the scorers' ``complete``) are thin wrappers of these.

>>> from erren.analysis.shapes import GUOBIAO_2P
>>> def parse(text: str) -> list[int]:  # numbers then a suit letter, as in the notation
...     counts, numbers = [0] * 34, ""
...     for ch in text:
...         if ch.isdigit():
...             numbers += ch
...         else:
...             for n in numbers:
...                 counts["mpsz".index(ch) * 9 + int(n) - 1] += 1
...             numbers = ""
...     return counts
>>> is_complete(parse("123456789m11122z"), shapes=GUOBIAO_2P)
True
>>> is_complete(parse("1111m"), wilds=1, shapes=GUOBIAO_2P, max_copies=None)
True
>>> is_complete_ignoring_copies(parse("11111m234m567m999m"))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis import _kernel
from erren.analysis.shapes import ALL_SHAPES, SHAPE_MASKS, Shape, ShapeSet
from erren.errors import AnalysisError
from erren.tiles import NUM_KINDS

__all__ = ["is_complete", "is_complete_by_mask", "is_complete_ignoring_copies"]

_k_is_complete = _kernel.is_complete
is_complete_by_mask = _kernel.is_complete
"""``is_complete_by_mask(counts, wilds, mask, max_copies=4, held=None, /)``: :func:`is_complete`
with the shapes as a kernel bit mask."""
_REGULAR = Shape.REGULAR.bit
_HONORS = range(27, NUM_KINDS)


def is_complete(
    counts: Sequence[int],
    *,
    wilds: int = 0,
    shapes: ShapeSet = ALL_SHAPES,
    max_copies: int | None = 4,
    held: Sequence[int] | None = None,
) -> bool:
    """Whether a 3n+2 hand forms one of ``shapes``, each wild standing for any kind.

    ``max_copies=4`` (arcade R5.2, and every hand without wilds): the resolved hand has at most
    four tiles of a kind, counting ``held`` — the tiles of each kind in the player's melds
    (default none; ``counts[k] + held[k] > 4`` raises :class:`~erren.errors.AnalysisError`).  So
    ``[555z']`` plus a wild cannot make a pung or a pair of 5z.  The melds matter only to the
    shapes that allow melds (regular, and 组合龙 with its one meld); seven pairs, thirteen orphans
    and 全不靠 presuppose none.  ``max_copies=None`` (Xiamen R-3.2): a wild may be a fifth copy
    (``held`` is then ignored); exact for the regular shape (the only Xiamen shape), the other
    shapes keep the cap.  A total that is not 3n+2 (at most 14) raises
    :class:`~erren.errors.AnalysisError`.
    """
    return _k_is_complete(counts, wilds, SHAPE_MASKS[shapes], max_copies, held)


def is_complete_ignoring_copies(counts: Sequence[int], *, shapes: ShapeSet = ALL_SHAPES) -> bool:
    """:func:`is_complete` of natural tiles (no wilds) where one kind may have a fifth copy.

    A fifth copy fits only the regular shape (five tiles of a kind make no seven pairs, no
    orphans, nothing knitted), and there it lies in a pung or in the pair: four sets hold at most
    four chows.  So the kernel answers two 4-copy questions: the hand less a pung of that kind
    is complete, or the hand less a pair of it is sets only — asked as "complete with a pair of
    an honor kind it lacks" (an honor pair can only be the pair).  More than five of a kind, or
    two kinds over four, raise :class:`~erren.errors.AnalysisError`.
    """
    over = [k for k in range(NUM_KINDS) if counts[k] > 4]
    if not over:
        return _k_is_complete(counts, 0, SHAPE_MASKS[shapes])
    if len(over) > 1 or counts[over[0]] > 5:
        raise AnalysisError("at most one kind may be held five times")
    if Shape.REGULAR not in shapes:
        return False
    kind = over[0]
    rest = list(counts)
    rest[kind] -= 3  # the fifth copy in a pung: the rest is n - 1 sets and the pair
    if _k_is_complete(rest, 0, _REGULAR):
        return True
    rest[kind] += 1  # in the pair: the rest (three of the kind left) must be n sets
    if any(rest[k] not in (0, 3) for k in _HONORS):
        return False  # a lone honor, a pair or a quad of one is in no set
    absent = next(k for k in _HONORS if rest[k] == 0)  # at most 4 of 7 honors fill 12 tiles
    rest[absent] = 2
    return _k_is_complete(rest, 0, _REGULAR)
