"""erren's hand analysis against PyMahjongGB 1.4.0 (``MahjongGB``), the MCR/Guobiao calculator.

PyMahjongGB takes a tuple of tile names (``W``/``B``/``T`` 1–9 for 万/饼/条, ``F1``–``F4``
winds, ``J1`` 中 ``J2`` 发 ``J3`` 白; :func:`erren.testing.hands.to_gb`) and each ``…Shanten``
function returns ``(shanten, useful tiles)``.  Compared:

* regular shanten and useful tiles (``RegularShanten``) on 13/10/7 tiles, and the shanten of
  14/11/8 tiles as the minimum over discards;
* seven pairs (``SevenPairsShanten``) with quads — the MCR definition erren shares;
* thirteen orphans, 全不靠 (``HonorsAndKnittedTilesShanten``) and 组合龙
  (``KnittedStraightShanten``), on hands dealt near those shapes from the 136-tile wall and on
  64-tile hands (where they can never complete, guobiao-2p §3.3);
* at shanten 0, the useful tiles of each shape against erren's waits.

Definitional differences, each asserted in its exact form:

1. **No four-copies cap.**  PyMahjongGB counts a fifth copy as drawable: ``("W1",) * 4`` is
   "ready on W1", and useful tiles include kinds the hand holds four of.  erren caps every kind at
   four (guobiao-2p §3.4: a kind the player holds all four of is no wait; ``erren.analysis.shanten``
   caps shanten the same way).  A shanten disagreement is accepted when PyMahjongGB equals the
   uncapped and erren the capped exact value of :mod:`tests.differential.oracle`; useful tiles
   are compared after removing kinds held four times (concealed + melds), and an improving-tile
   disagreement is settled by the oracle the same way.
2. **Input sizes.**  PyMahjongGB accepts only 3n+1 standing tiles, and its special shapes only 13
   (组合龙 also 10).  14/11/8-tile shanten is compared through the minimum over the discards,
   which is the definition of the shanten of a 3n+2 hand.

组合龙 with a melded set: MCR allows the one set of 组合龙 to be a declared meld (10/11 standing
tiles).  ``KnittedStraightShanten`` computes the shape on 10 standing tiles and ``MahjongShanten``
(with the packs) the minimum over the shapes a hand with that meld can take; both are compared
with erren on 10-tile hands with one meld, and ``MahjongShanten`` also on 13-tile hands without
melds.  It matters only to table ``gb`` with three suits, never to guobiao-2p (§3.3).
"""

from __future__ import annotations

from collections.abc import Callable

import MahjongGB
import pytest

from erren.analysis.shanten import shanten, shanten_by_shape
from erren.analysis.shapes import GB, Shape
from erren.analysis.waits import improving, waits
from erren.testing.differential import SEED, Mismatch, gb_seven_pairs_shanten, report
from erren.testing.hands import (
    GB_NAMES,
    Hand,
    Method,
    WallName,
    deal_batch,
    from_gb,
    to_gb,
)
from erren.testing.oracles import NO_LIMIT, regular_shanten

from ._support import WALLS

REGULAR = frozenset({Shape.REGULAR})
UNCAPPED = [NO_LIMIT] * 34
REGULAR_SIZES = {13: 2000, 10: 2000, 7: 2000}
"""Hands per size and wall for regular shanten + useful tiles: 12,000 (12,000 library calls)."""
DISCARD_SIZES = {14: 150, 11: 150, 8: 150}
"""Hands per size and wall compared through the minimum over discards (≈ 10 calls each)."""
SPECIAL_HANDS = 4000
"""13-tile hands per wall and method for the special shapes: 16,000 in all."""
KNITTED_MELD_HANDS = 2000
"""10-tile hands with one meld (and 13-tile hands) for 组合龙 with a melded set."""

GbShanten = Callable[[tuple[str, ...]], tuple[int, tuple[str, ...]]]
GB_FUNCTIONS: dict[Shape, GbShanten] = {
    Shape.REGULAR: MahjongGB.RegularShanten,
    Shape.SEVEN_PAIRS: MahjongGB.SevenPairsShanten,
    Shape.THIRTEEN_ORPHANS: MahjongGB.ThirteenOrphansShanten,
    Shape.HONORS_AND_KNITTED: MahjongGB.HonorsAndKnittedTilesShanten,
    Shape.KNITTED_STRAIGHT: MahjongGB.KnittedStraightShanten,
}


def _regular_explained(counts: list[int], ours: int, theirs: int) -> bool:
    """Difference 1: erren is the capped and PyMahjongGB the uncapped exact shanten."""
    return ours == regular_shanten(counts) and theirs == regular_shanten(counts, limit=UNCAPPED)


def _drawable(kinds: list[int], hand: Hand) -> list[int]:
    """Kinds of ``kinds`` the player does not hold all four of (difference 1)."""
    held = hand.held
    return sorted(k for k in set(kinds) if held[k] < 4)


@pytest.mark.parametrize("wall", WALLS)
def test_regular_shanten_and_useful_tiles(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    for size, count in REGULAR_SIZES.items():
        for hand in deal_batch(wall, size, count, seed=SEED):
            counts = list(hand.concealed)
            theirs, useful_names = MahjongGB.RegularShanten(to_gb(counts))
            useful = from_gb(useful_names)
            ours, ours_improving = improving(counts, shapes=REGULAR)
            checked += 1
            if ours != theirs:
                if not _regular_explained(counts, ours, theirs):
                    mismatches.append(Mismatch(hand, "regular shanten", ours, theirs))
                continue
            if ours == 0:
                ours_waits = waits(counts, shapes=REGULAR, held=hand.meld_counts)
                if ours_waits != _drawable(useful, hand):
                    mismatches.append(Mismatch(hand, "waits", ours_waits, useful))
            # Improving tiles: PyMahjongGB lists kinds held four times too (difference 1); any
            # other disagreement must be the cap, as the oracle decides on the hand plus the tile.
            theirs_improving = [k for k in useful if counts[k] < 4]
            for kind in set(ours_improving) ^ set(theirs_improving):
                counts[kind] += 1
                capped = regular_shanten(counts) < ours
                uncapped = regular_shanten(counts, limit=UNCAPPED) < theirs
                counts[kind] -= 1
                if capped != (kind in ours_improving) or uncapped != (kind in theirs_improving):
                    mismatches.append(
                        Mismatch(hand, f"improving kind {kind}", ours_improving, theirs_improving)
                    )
    assert not mismatches, report(mismatches, checked)


@pytest.mark.parametrize("wall", WALLS)
def test_regular_shanten_after_a_draw(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    for size, count in DISCARD_SIZES.items():
        for hand in deal_batch(wall, size, count, seed=SEED):
            counts = list(hand.concealed)
            ours = shanten(counts, shapes=REGULAR)
            theirs = 99
            for kind in range(34):
                if counts[kind]:
                    counts[kind] -= 1
                    theirs = min(theirs, MahjongGB.RegularShanten(to_gb(counts))[0])
                    counts[kind] += 1
            # Difference 2: the shanten of a 3n+2 hand is its best discard's 3n+1 shanten, except
            # that a complete hand is -1 (its best discard leaves a ready hand, 0).
            checked += 1
            if ours == -1:
                agree = theirs == 0
            else:
                agree = ours == theirs or _regular_explained(counts, ours, theirs)
            if not agree:
                mismatches.append(Mismatch(hand, "regular shanten (3n+2)", ours, theirs))
    assert not mismatches, report(mismatches, checked)


@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize("method", ["mixed", "special"])
def test_special_shapes(wall: WallName, method: Method) -> None:
    """Seven pairs (quads as two pairs), thirteen orphans, 全不靠 and 组合龙 on 13 tiles."""
    mismatches: list[Mismatch] = []
    checked = 0
    quads = 0
    special = [s for s in GB if s is not Shape.REGULAR]
    for hand in deal_batch(wall, 13, SPECIAL_HANDS, seed=SEED, method=method):
        counts = list(hand.concealed)
        tiles = to_gb(counts)
        ours = shanten_by_shape(counts, shapes=GB)
        quads += hand.has_quad
        for shape in special:
            theirs, useful = GB_FUNCTIONS[shape](tiles)
            checked += 1
            if ours[shape] != theirs:
                mismatches.append(Mismatch(hand, shape.value, ours[shape], theirs))
                continue
            if shape is Shape.SEVEN_PAIRS and theirs != gb_seven_pairs_shanten(counts):
                mismatches.append(Mismatch(hand, "seven pairs formula", ours[shape], theirs))
            if theirs == 0:
                ours_waits = waits(counts, shapes=frozenset({shape}))
                if ours_waits != _drawable(from_gb(useful), hand):
                    mismatches.append(Mismatch(hand, f"{shape.value} waits", ours_waits, useful))
    assert not mismatches, report(mismatches, checked)
    if method == "mixed" and wall == "64":
        assert quads > 100, "the 64-tile deals should hold many quads"


def _gb_pack(meld: tuple[int, int, int]) -> tuple[str, str, int]:
    """A PyMahjongGB pack: ``("PENG", tile, 1)``, or ``("CHI", middle tile, 1)``."""
    if meld[0] == meld[1]:
        return ("PENG", GB_NAMES[meld[0]], 1)
    return ("CHI", GB_NAMES[meld[1]], 1)


def test_knitted_straight_with_a_meld() -> None:
    """组合龙 + one melded set: 10 standing tiles, shanten and waits of the shape alone."""
    mismatches: list[Mismatch] = []
    checked = ready = 0
    knitted = frozenset({Shape.KNITTED_STRAIGHT})
    for hand in deal_batch("136", 10, KNITTED_MELD_HANDS, seed=SEED, method="special"):
        counts = list(hand.concealed)
        theirs, useful = MahjongGB.KnittedStraightShanten(to_gb(counts))
        ours = shanten_by_shape(counts, shapes=GB)
        checked += 1
        if ours.get(Shape.KNITTED_STRAIGHT) != theirs:
            mismatches.append(Mismatch(hand, "组合龙 shanten", ours, theirs))
            continue
        if theirs == 0:
            ready += 1
            ours_waits = waits(counts, shapes=knitted, held=hand.meld_counts)
            if ours_waits != _drawable(from_gb(useful), hand):
                mismatches.append(Mismatch(hand, "组合龙 waits", ours_waits, useful))
        if theirs >= 0:  # improving kinds of the shape; PyMahjongGB lists them as useful tiles
            value, kinds = improving(counts, shapes=knitted)
            theirs_kinds = sorted(k for k in set(from_gb(useful)) if counts[k] < 4)
            if (value, kinds) != (theirs, theirs_kinds):
                mismatches.append(Mismatch(hand, "组合龙 improving", kinds, theirs_kinds))
    assert not mismatches, report(mismatches, checked)
    assert ready > 0, "ready 组合龙 hands with a meld should be exercised"


@pytest.mark.parametrize("size", [13, 10])
def test_overall_shanten_with_packs(size: int) -> None:
    """``MahjongShanten`` (every shape, packs included) against erren's minimum over ``GB``.

    13 tiles: no melds, all five shapes; 10 tiles: one meld, the regular shape and 组合龙.  A
    disagreement must be difference 1 on the regular shape (erren capped, PyMahjongGB not).
    """
    mismatches: list[Mismatch] = []
    checked = knitted_best = 0
    for method in ("special", "mixed"):
        for hand in deal_batch("136", size, KNITTED_MELD_HANDS, seed=SEED, method=method):
            counts = list(hand.concealed)
            packs = tuple(_gb_pack(meld) for meld in hand.melds)
            theirs = MahjongGB.MahjongShanten(pack=packs, hand=to_gb(counts))
            by_shape = shanten_by_shape(counts, shapes=GB)
            ours = min(by_shape.values())
            checked += 1
            knitted_best += by_shape[Shape.KNITTED_STRAIGHT] < by_shape[Shape.REGULAR]
            if ours == theirs:
                continue
            special = min(v for k, v in by_shape.items() if k is not Shape.REGULAR)
            capped = min(special, regular_shanten(counts))
            uncapped = min(special, regular_shanten(counts, limit=UNCAPPED))
            if not (ours == capped and theirs == uncapped):
                mismatches.append(Mismatch(hand, "shanten with packs", by_shape, theirs))
    assert not mismatches, report(mismatches, checked)
    assert knitted_best > 0, "hands where 组合龙 is the nearest shape should be exercised"
