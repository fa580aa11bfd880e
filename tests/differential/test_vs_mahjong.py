"""erren's hand analysis against ``mahjong`` 2.1.0, the reference riichi calculator.

``mahjong`` takes the same 34-count arrays as erren, so no conversion is involved.  Compared:

* regular shanten (``Shanten.calculate_shanten_for_regular_hand``) on 14/13, 11/10 and 8/7 tiles;
* seven pairs, thirteen orphans and their minimum (``calculate_shanten``) on 13/14 tiles;
* the win check (``Agari.is_agari``) on dealt 14/11/8-tile hands and on every 13/10/7-tile hand
  plus each of the 34 kinds, and erren's waits against those 34 ``is_agari`` calls.

Definitional differences, each asserted in its exact form rather than skipped:

1. **Seven pairs: distinct kinds and four of a kind.**  Riichi needs seven *different* pairs:
   ``mahjong`` counts a held quad as one pair, and its shanten ``6 - pairs + max(0, 7 - kinds)``
   charges for every kind short of seven, because the third tile of a triple can never pair;
   ``is_agari`` accepts only counts of 0 or 2.  erren counts four of a kind as two pairs
   (guobiao-2p §3.2 and decision D22, MCR practice), so the odd tile of a triple is half of a
   second pair and the shanten is ``6 - Σ count // 2``.  The two agree when the hand has no quad
   and at least seven kinds; otherwise erren's value is that formula (never more than
   ``mahjong``'s; PyMahjongGB's ``SevenPairsShanten`` is checked against it exactly), and a
   14-tile hand whose counts are all even is complete for erren even when ``is_agari`` says no.
2. **Waits.**  ``mahjong`` has no waits; the 34 ``is_agari`` calls stand in for them.  erren
   leaves out a kind the player already holds all four of, concealed or in melds (guobiao-2p
   §3.4), which the comparison applies to the library side.
3. **Four copies in the regular shanten.**  Both count a hand whose only useful tile would be a
   fifth copy as not ready (erren: the four-copies cap of ``erren.analysis.shanten``; ``mahjong``:
   its ``_flag_four_copies`` correction).  ``mahjong``'s correction is a heuristic, so a
   disagreement on a hand holding a quad is accepted when erren equals the exact capped shanten
   of :mod:`tests.differential.oracle`; none has been seen on the seeded hands.
"""

from __future__ import annotations

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from erren.analysis.shanten import is_complete, shanten, shanten_by_shape
from erren.analysis.shapes import RIICHI, Shape
from erren.analysis.waits import waits
from erren.testing.differential import (
    SEED,
    Mismatch,
    gb_seven_pairs_shanten,
    is_gb_seven_pairs,
    report,
)
from erren.testing.hands import WallName, deal_batch
from erren.testing.oracles import regular_shanten

from ._support import WALLS

REGULAR = frozenset({Shape.REGULAR})
REGULAR_SIZES = {14: 3000, 13: 3000, 11: 3000, 10: 3000, 8: 3000, 7: 3000}
"""Hands per size and wall for the regular shanten: 36,000 in all."""
RIICHI_HANDS = 3000
"""Hands per 13/14 size and wall (mixed), plus as many again biased to thirteen orphans."""
WAITS_SIZES = {13: 1500, 10: 1500, 7: 1500}
"""Hands per size and wall whose 34 draws are checked: 9,000 hands, 306,000 win checks."""
WIN_SIZES = {14: 3000, 11: 3000, 8: 3000}

is_agari = Agari.is_agari


@pytest.mark.parametrize("wall", WALLS)
def test_regular_shanten(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    for size, count in REGULAR_SIZES.items():
        for hand in deal_batch(wall, size, count, seed=SEED):
            counts = list(hand.concealed)
            ours = shanten(counts, shapes=REGULAR)
            theirs = Shanten.calculate_shanten_for_regular_hand(counts)
            checked += 1
            if ours == theirs:
                continue
            # Difference 3: mahjong's four-copies correction is a heuristic; erren must then be
            # the exact capped shanten.
            if hand.has_quad and ours == regular_shanten(counts):
                continue
            mismatches.append(Mismatch(hand, "regular shanten", ours, theirs))
    assert not mismatches, report(mismatches, checked)


@pytest.mark.parametrize("wall", WALLS)
def test_seven_pairs_orphans_and_minimum(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    batches = [
        deal_batch(wall, size, RIICHI_HANDS, seed=SEED, method=method)
        for size in (13, 14)
        for method in ("mixed", "special")
    ]
    for batch in batches:
        for hand in batch:
            counts = list(hand.concealed)
            ours = shanten_by_shape(counts, shapes=RIICHI)
            seven = Shanten.calculate_shanten_for_chiitoitsu_hand(counts)
            orphans = Shanten.calculate_shanten_for_kokushi_hand(counts)
            total = Shanten.calculate_shanten(counts)
            regular = Shanten.calculate_shanten_for_regular_hand(counts)
            checked += 1
            if ours[Shape.THIRTEEN_ORPHANS] != orphans:
                mismatches.append(Mismatch(hand, "thirteen orphans", ours, orphans))
            if ours[Shape.REGULAR] != regular and not (
                hand.has_quad and ours[Shape.REGULAR] == regular_shanten(counts)
            ):
                mismatches.append(Mismatch(hand, "regular", ours, regular))
            kinds = sum(1 for c in counts if c)
            if not hand.has_quad and kinds >= 7:
                if ours[Shape.SEVEN_PAIRS] != seven:
                    mismatches.append(Mismatch(hand, "seven pairs", ours, seven))
                if shanten(counts, shapes=RIICHI) != total:
                    mismatches.append(Mismatch(hand, "minimum", ours, total))
                continue
            # Difference 1: a quad is two pairs for erren, and the odd tile of a triple half of
            # one; riichi needs seven distinct kinds.
            expected_seven = gb_seven_pairs_shanten(counts)
            if ours[Shape.SEVEN_PAIRS] != expected_seven or expected_seven > seven:
                mismatches.append(Mismatch(hand, "seven pairs (quad or < 7 kinds)", ours, seven))
            expected_total = min(ours[Shape.REGULAR], orphans, expected_seven)
            if shanten(counts, shapes=RIICHI) != expected_total or expected_total > total:
                mismatches.append(Mismatch(hand, "minimum (quad or < 7 kinds)", ours, total))
    assert not mismatches, report(mismatches, checked)


def _mahjong_win(counts: list[int]) -> bool:
    """``is_agari``, widened by difference 1 (all-even 14 tiles with a quad is seven pairs)."""
    return is_agari(counts) or is_gb_seven_pairs(counts)


@pytest.mark.parametrize("wall", WALLS)
def test_waits_and_win_on_every_draw(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    for size, count in WAITS_SIZES.items():
        for hand in deal_batch(wall, size, count, seed=SEED):
            counts = list(hand.concealed)
            in_melds = hand.meld_counts
            expected: list[int] = []
            for kind in range(34):
                if counts[kind] == 4:
                    continue  # a fifth copy does not exist
                counts[kind] += 1
                ours_win = is_complete(counts, shapes=RIICHI)
                theirs_win = _mahjong_win(counts)
                counts[kind] -= 1
                checked += 1
                if ours_win != theirs_win:
                    mismatches.append(Mismatch(hand, f"win with +{kind}", ours_win, theirs_win))
                # Difference 2: a kind held four times (concealed + melds) is not a wait.
                if theirs_win and counts[kind] + in_melds[kind] < 4:
                    expected.append(kind)
            ours_waits = waits(counts, shapes=RIICHI, held=in_melds)
            if ours_waits != expected:
                mismatches.append(Mismatch(hand, "waits", ours_waits, expected))
            # Ready (shanten 0) iff some wait; shanten sees only the concealed counts, so with
            # melds a hand ready only on a kind whose other copies are melded has no waits.
            ready = shanten(counts, shapes=RIICHI) == 0
            if ready != bool(ours_waits) and not (ready and hand.melds):
                mismatches.append(Mismatch(hand, "ready iff waits", ready, ours_waits))
    assert not mismatches, report(mismatches, checked)


@pytest.mark.parametrize("wall", WALLS)
def test_win_check(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    wins = 0
    for size, count in WIN_SIZES.items():
        for hand in deal_batch(wall, size, count, seed=SEED):
            counts = list(hand.concealed)
            ours = is_complete(counts, shapes=RIICHI)
            theirs = _mahjong_win(counts)
            checked += 1
            wins += theirs
            if ours != theirs:
                mismatches.append(Mismatch(hand, "complete", ours, theirs))
            if ours != (shanten(counts, shapes=RIICHI) == -1):
                mismatches.append(Mismatch(hand, "complete iff shanten -1", ours, theirs))
    assert not mismatches, report(mismatches, checked)
    assert wins > checked // 20, "the near-complete deals should give complete hands"
