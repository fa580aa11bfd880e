"""erren's hand analysis against cmajiang 0.0.1, a C++ port of majiang-core (a riichi engine).

cmajiang takes majiang-core text, ``"m123p456z11,z555="`` (melds after commas, ``=`` a pung,
``-`` a chow; :func:`erren.testing.hands.to_majiang`).  ``xiangting`` is the minimum of the regular,
seven-pairs and thirteen-orphans shanten; ``tingpai`` (3n+1 hands) lists the kinds whose draw
lowers it — the waits when the hand is ready.  Compared on 14/13, 11/10 and 8/7 tiles with the
melds given as melds: ``xiangting`` against erren's ``shanten(shapes=RIICHI)``, and at shanten 0
``tingpai`` against erren's waits.

Definitional differences, each asserted in its exact form:

1. **No four-copies cap in the regular shape** (as PyMahjongGB): erren caps every kind at four
   (guobiao-2p §3.4).  A disagreement is accepted when cmajiang equals the uncapped and erren the
   capped exact value (:mod:`tests.differential.oracle`).
2. **Seven pairs** as in ``mahjong`` (majiang-core's ``xiangting_qidui`` is the same formula):
   seven distinct kinds, a quad one pair; erren counts a quad as two pairs (§3.2, D22).
3. **tingpai** skips a kind only when four are in the concealed hand, not when copies sit in a
   meld; erren's waits leave out a kind held four times in all (§3.4).  It also knows no
   quad-as-two-pairs, so erren may wait on a kind that completes seven pairs with a quad.
4. cmajiang needs the melds: without them ``xiangting`` treats a short hand as missing sets.
"""

from __future__ import annotations

import pytest
from cmajiang import _cmajiang as cm
from mahjong.shanten import Shanten

from erren.analysis.shanten import shanten
from erren.analysis.shapes import RIICHI
from erren.analysis.waits import waits
from erren.testing.differential import (
    SEED,
    Mismatch,
    gb_seven_pairs_shanten,
    is_gb_seven_pairs,
    report,
)
from erren.testing.hands import MAJIANG_INDEX, Hand, WallName, deal_batch, to_majiang
from erren.testing.oracles import NO_LIMIT, regular_shanten

from ._support import WALLS

SIZES = {14: 2000, 13: 2000, 11: 2000, 10: 2000, 8: 2000, 7: 2000}
"""Hands per size and wall: 24,000 in all."""
UNCAPPED = [NO_LIMIT] * 34


def _by_definition(counts: list[int]) -> tuple[int, int]:
    """(erren's, cmajiang's) shanten from their definitions, via the oracle (slow, rare)."""
    capped = regular_shanten(counts)
    uncapped = regular_shanten(counts, limit=UNCAPPED)
    if sum(counts) < 13:
        return capped, uncapped
    orphans = Shanten.calculate_shanten_for_kokushi_hand(counts)
    riichi_seven = Shanten.calculate_shanten_for_chiitoitsu_hand(counts)
    return (
        min(capped, orphans, gb_seven_pairs_shanten(counts)),
        min(uncapped, orphans, riichi_seven),
    )


def _expected_waits(hand: Hand, tingpai: list[str]) -> list[int]:
    """cmajiang's ``tingpai`` at shanten 0, mapped onto erren's definition (differences 2, 3)."""
    counts = list(hand.concealed)
    held = hand.held
    kinds = {MAJIANG_INDEX[name] for name in tingpai}
    if not hand.melds:
        for kind in range(34):
            if counts[kind] < 4:
                counts[kind] += 1
                if is_gb_seven_pairs(counts):
                    kinds.add(kind)
                counts[kind] -= 1
    return sorted(k for k in kinds if held[k] < 4)


@pytest.mark.parametrize("wall", WALLS)
def test_xiangting_and_tingpai(wall: WallName) -> None:
    mismatches: list[Mismatch] = []
    checked = 0
    ready = 0
    for size, count in SIZES.items():
        for hand in deal_batch(wall, size, count, seed=SEED):
            counts = list(hand.concealed)
            shoupai = cm.Shoupai(to_majiang(counts, hand.melds))
            theirs = cm.xiangting(shoupai)
            ours = shanten(counts, shapes=RIICHI)
            checked += 1
            if ours != theirs and _by_definition(counts) != (ours, theirs):
                mismatches.append(Mismatch(hand, "shanten", ours, theirs))
            if size % 3 == 1 and ours == 0 and theirs == 0:
                ready += 1
                expected = _expected_waits(hand, cm.tingpai(shoupai))
                ours_waits = waits(counts, shapes=RIICHI, held=hand.meld_counts)
                if ours_waits != expected:
                    mismatches.append(Mismatch(hand, "waits", ours_waits, expected))
    assert not mismatches, report(mismatches, checked)
    assert ready > 500, "the near-complete deals should give many ready hands"
