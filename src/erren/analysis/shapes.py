"""Winning shapes and the shape sets of each rules family.

A *shape* is a family of complete hands with its own shanten (distance to complete):

* :attr:`Shape.REGULAR` — n sets (chow or pung) plus one pair (guobiao-2p §3.1, xiamen R-3.1,
  arcade R5.1 "standard");
* :attr:`Shape.SEVEN_PAIRS` — seven pairs, four of a kind counting as two pairs (guobiao-2p §3.2);
* :attr:`Shape.THIRTEEN_ORPHANS` — the 13 terminal and honor kinds plus one more of them;
* :attr:`Shape.HONORS_AND_KNITTED` — 全不靠: 14 distinct tiles from the honors and a knitted set
  147/258/369 in three different suits (七星不靠 is the case with all seven honors);
* :attr:`Shape.KNITTED_STRAIGHT` — 组合龙: the nine knitted tiles 147/258/369 in three different
  suits plus one set and one pair; the set may be a declared meld (MCR), so the concealed part is
  13/14 tiles, or 10/11 with one meld.

Seven pairs, thirteen orphans and 全不靠 need a concealed hand of 13 or 14 tiles (no melds);
组合龙 needs 13/14 or 10/11; :attr:`~Shape.REGULAR` takes any 3n+1 or 3n+2 tiles.
A :data:`ShapeSet` is what a ruleset allows; the analysis takes the minimum over it.
"""

from __future__ import annotations

import enum


class Shape(enum.Enum):
    """One family of complete hands."""

    REGULAR = "regular"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONORS_AND_KNITTED = "honors_and_knitted"
    KNITTED_STRAIGHT = "knitted_straight"

    @property
    def bit(self) -> int:
        """The shape's bit in the kernel's shape mask (REGULAR = 1, SEVEN_PAIRS = 2, …)."""
        return _BITS[self]


_BITS: dict[Shape, int] = {shape: 1 << index for index, shape in enumerate(Shape)}

ShapeSet = frozenset[Shape]
"""The shapes a ruleset accepts as complete."""

ALL_SHAPES: ShapeSet = frozenset(Shape)
"""Every shape (the Guobiao/MCR list); the analysis default."""
GB: ShapeSet = ALL_SHAPES
"""Guobiao table ``gb``: all five shapes."""
GUOBIAO_2P: ShapeSet = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS})
"""guobiao-2p (one suit + honors): §3.3 makes the orphan and knitted shapes impossible."""
ARCADE: ShapeSet = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS})
"""The arcade family (R5.1; free green is a scoring pattern over these shapes)."""
XIAMEN: ShapeSet = frozenset({Shape.REGULAR})
"""Xiamen (R-3.1): sets and a pair only."""
RIICHI: ShapeSet = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS, Shape.THIRTEEN_ORPHANS})
"""Riichi's three shapes, for comparisons with the ``mahjong`` reference library."""


class _MaskCache(dict[frozenset[Shape], int]):
    """Shape set → kernel bit mask, filled on first use of a set."""

    def __missing__(self, shapes: frozenset[Shape]) -> int:
        if not shapes:
            raise ValueError("an empty shape set: give at least one Shape")
        mask = 0
        for shape in shapes:
            if not isinstance(shape, Shape):
                raise TypeError(f"not a Shape: {shape!r}")
            mask |= shape.bit
        self[shapes] = mask
        return mask


SHAPE_MASKS: dict[frozenset[Shape], int] = _MaskCache()
"""``SHAPE_MASKS[shapes]`` is the kernel's bit mask of a shape set (cached per set)."""


def shape_mask(shapes: ShapeSet) -> int:
    """The kernel bit mask of ``shapes`` (an OR of :attr:`Shape.bit`)."""
    return SHAPE_MASKS[frozenset(shapes)]
