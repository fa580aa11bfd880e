"""Xiamen's golds: functional counts and the 游金-ready test (xiamen.md R-1.8, R-3.5)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from erren.analysis.golds import complete, functional_counts, you_ready
from erren.testing.strategies import WALL_64, WALL_136, wild_hands
from erren.tiles import NUM_KINDS, Tile


def ready_for_every_kind(counts: list[int], golds: int) -> bool:
    """R-3.5's equivalent definition: the part plus any kind at all is complete."""
    extended = list(counts)
    for kind in range(NUM_KINDS):
        extended[kind] += 1
        ok = complete(extended, golds)
        extended[kind] -= 1
        if not ok:
            return False
    return True


@pytest.mark.slow
@settings(max_examples=400, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    st.sampled_from([WALL_64, WALL_136]).flatmap(
        lambda wall: wild_hands(total=(4, 7, 10, 13), kinds=wall, max_wilds=4, near=True)
    )
)
def test_you_ready_equals_complete_for_every_kind(hand: tuple[list[int], int]) -> None:
    counts, golds = hand
    assume(max(counts) <= 3)  # so that every kind can still be drawn
    assert you_ready(counts, golds) == (golds >= 1 and ready_for_every_kind(counts, golds))


def test_no_borrowable_kind_falls_back_to_the_definition() -> None:
    # every honor and every suit present: no kind can be borrowed as the pair
    counts = [0] * NUM_KINDS
    for kind in (0, 9, 18, 27, 28, 29, 30, 31, 32, 33):
        counts[kind] = 1
    assert not you_ready(counts, 3)
    assert you_ready([0] * NUM_KINDS, 1)  # four melds and a lone gold (n = 0)


def test_worked_position() -> None:
    # 234m345m666m8m with the gold 1z: 8m + gold would be the pair; 游金-ready needs the gold
    # alone beside complete sets: 234m 345m 666m + 8m is not, 234m 345m 666m + gold is.
    hand = [0] * NUM_KINDS
    for kind in (1, 2, 3, 2, 3, 4, 5, 5, 5):
        hand[kind] += 1
    assert you_ready(hand, 1)
    hand[7] += 1
    assert not you_ready(hand, 0)


def test_functional_counts_play_the_white_as_the_gold() -> None:
    hand = [0] * NUM_KINDS
    hand[Tile.WHITE] = 2
    hand[Tile.M3] = 1
    counts, golds = functional_counts(hand, Tile.M3)
    assert golds == 1 and counts[Tile.M3] == 2 and counts[Tile.WHITE] == 0
    counts, golds = functional_counts(hand, Tile.WHITE)
    assert golds == 2 and counts[Tile.M3] == 1
