"""Shanten, the win check and the distance tables, against slow pure-Python references.

The references (:mod:`erren.testing.oracles`) define every distance from scratch (the least number
of tiles to add so that the natural tiles lie inside one complete target with at most four of a
kind) and search the targets directly; the kernel's tables and formulas must agree with them
exactly.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erren.analysis import _kernel
from erren.analysis.shanten import is_complete, shanten, shanten_by_shape
from erren.analysis.shapes import (
    ALL_SHAPES,
    ARCADE,
    GUOBIAO_2P,
    XIAMEN,
    Shape,
    ShapeSet,
    shape_mask,
)
from erren.analysis.waits import discard_table, improving, waits
from erren.errors import AnalysisError
from erren.testing.oracles import (
    NUM_KINDS,
    parse,
    ref_block_row,
    ref_decomposes,
    ref_shanten_by_shape,
)
from erren.testing.strategies import (
    WALL_64,
    block_counts,
    complete_counts,
    concealed_counts,
    near_counts,
)

# ------------------------------------------------------------------------------------------------
# The tables


def test_tables_are_small_and_set_at_their_first_use() -> None:
    """Mapped from the tables file or built (``test_kernel_tables.py``); the times are printed by
    ``benchmarks/bench_analysis.py`` (kernel lines), not asserted."""
    assert _kernel.TABLE_BYTES <= 25_000_000
    is_complete(parse("1111m"), wilds=1, shapes=XIAMEN, max_copies=None)  # sets the uncapped
    assert _kernel.tables_source() in {"file", "built"}
    assert _kernel.tables_seconds() is not None
    assert _kernel.uncapped_tables_seconds() is not None


@pytest.mark.slow
@given(block_counts(9))
@settings(max_examples=60)
def test_suit_table_matches_brute_force(counts: list[int]) -> None:
    assert _kernel.block_row(counts, False) == ref_block_row(counts, honors=False)


@given(block_counts(7))
@settings(max_examples=60)
def test_honor_table_matches_brute_force(counts: list[int]) -> None:
    assert _kernel.block_row(counts, True) == ref_block_row(counts, honors=True)


@given(block_counts(9))
@settings(max_examples=60)
def test_uncapped_suit_table_matches_brute_force(counts: list[int]) -> None:
    """The tables of Xiamen golds: targets may hold any number of a kind."""
    assert _kernel.block_row(counts, False, True) == ref_block_row(counts, honors=False, cap=14)


@given(block_counts(7))
@settings(max_examples=60)
def test_uncapped_honor_table_matches_brute_force(counts: list[int]) -> None:
    assert _kernel.block_row(counts, True, True) == ref_block_row(counts, honors=True, cap=14)


def test_uncapped_table_rows() -> None:
    # four 1m: a pung and a pair need one more 1m, a fifth copy
    assert _kernel.block_row([4] + [0] * 8, False, True)[3] == 1
    assert _kernel.block_row([4] + [0] * 8, False)[3] == 2
    assert _kernel.block_row([0] * 7, True, True) == _kernel.block_row([0] * 7, True)


@pytest.mark.parametrize(
    ("counts", "honors", "row"),
    [
        ([0] * 9, False, (0, 2, 3, 5, 6, 8, 9, 11, 12, 14)),
        ([4] * 9, False, (0,) * 10),
        ([1, 1, 1, 0, 0, 0, 0, 0, 2], False, (0, 0, 0, 0, 1, 3, 4, 6, 7, 9)),
        ([1, 0, 1, 0, 0, 0, 0], True, (0, 1, 2, 3, 4, 6, 7, 9, 10, 12)),
    ],
)
def test_table_rows(counts: list[int], honors: bool, row: tuple[int, ...]) -> None:
    assert _kernel.block_row(counts, honors) == row


# ------------------------------------------------------------------------------------------------
# Shanten


@pytest.mark.parametrize(
    ("hand", "wilds", "shapes", "expected"),
    [
        ("123m456m789m11122z", 0, ALL_SHAPES, -1),
        ("123m456m789m1112z", 0, ALL_SHAPES, 0),
        ("19m19p19s1234567z", 0, ALL_SHAPES, 0),
        ("19m19p19s12345677z", 0, ALL_SHAPES, -1),
        ("19m19p19s1234567z", 0, GUOBIAO_2P, 6),
        ("11112222333344m", 0, ALL_SHAPES, -1),  # quads are two pairs
        ("1111222233334m", 0, GUOBIAO_2P, 0),
        ("147m258p369s12345z", 0, ALL_SHAPES, -1),  # 全不靠
        ("147m25p36s1234567z", 0, ALL_SHAPES, -1),  # 七星不靠
        ("147m258p369s1234z", 1, ALL_SHAPES, -1),  # 全不靠 with a wild
        ("147m258p369s111z22z", 0, ALL_SHAPES, -1),  # 组合龙 + pung + pair
        ("147m258p369s111z2z", 0, ALL_SHAPES, 0),
        ("", 2, ALL_SHAPES, -1),
        ("1m", 1, ALL_SHAPES, -1),
        ("1m", 0, ALL_SHAPES, 0),
        ("1m", 3, ALL_SHAPES, 0),  # 4 tiles: ready on anything
        ("1m", 4, ALL_SHAPES, -1),  # 1m + wild pair, a wild-only set
        ("123m", 1, XIAMEN, 0),
        ("1111m", 0, XIAMEN, 1),  # 111m + 1m: the 1m's mate would be a fifth copy
        ("19m19p19s123456z", 1, ARCADE, 0),
    ],
)
def test_known_hands(hand: str, wilds: int, shapes: ShapeSet, expected: int) -> None:
    counts = parse(hand)
    assert shanten(counts, wilds=wilds, shapes=shapes) == expected
    reference = min(ref_shanten_by_shape(counts, wilds, shapes).values())
    assert reference == expected


@pytest.mark.slow
@given(st.one_of(concealed_counts(total=range(1, 15)), near_counts(total=range(1, 15))))
@settings(max_examples=150)
def test_shanten_matches_reference(counts: list[int]) -> None:
    if sum(counts) % 3 == 0:
        counts[next(k for k in range(NUM_KINDS) if counts[k])] -= 1
    assert shanten_by_shape(counts) == ref_shanten_by_shape(counts, 0, ALL_SHAPES)


@pytest.mark.slow
@given(st.one_of(concealed_counts(kinds=WALL_64), near_counts(kinds=WALL_64)))
@settings(max_examples=200)
def test_shanten_matches_reference_64_wall(counts: list[int]) -> None:
    assert shanten_by_shape(counts, shapes=GUOBIAO_2P) == ref_shanten_by_shape(
        counts, 0, GUOBIAO_2P
    )


@given(st.one_of(concealed_counts(total=14), near_counts(total=14)))
@settings(max_examples=300)
def test_one_tile_moves_shanten_by_at_most_one(counts: list[int]) -> None:
    full = shanten(counts)
    for k in range(NUM_KINDS):
        if counts[k]:
            counts[k] -= 1
            assert full <= shanten(counts) <= full + 1
            counts[k] += 1


@given(st.one_of(concealed_counts(total=14), near_counts(total=14), complete_counts()))
@settings(max_examples=300)
def test_is_complete_matches_decomposition(counts: list[int]) -> None:
    regular = ref_decomposes(counts, 4)
    assert is_complete(counts, shapes=frozenset({Shape.REGULAR})) == regular
    pairs = sum(c // 2 for c in counts) == 7
    assert is_complete(counts, shapes=GUOBIAO_2P) == (regular or pairs)
    assert is_complete(counts) == (shanten(counts) == -1)


@given(complete_counts(sets=range(5)))
def test_complete_hands_are_complete(counts: list[int]) -> None:
    assert is_complete(counts, shapes=XIAMEN)
    assert is_complete(counts, shapes=XIAMEN, max_copies=None)
    assert shanten(counts, shapes=XIAMEN) == -1


def test_seven_pairs_with_a_quad() -> None:
    counts = parse("1111m2233p4455s66z")
    assert is_complete(counts, shapes=GUOBIAO_2P)
    assert not is_complete(counts, shapes=XIAMEN)
    assert shanten_by_shape(counts, shapes=GUOBIAO_2P)[Shape.SEVEN_PAIRS] == -1
    assert shanten(parse("1111m2233p4455s6z"), shapes=GUOBIAO_2P) == 0


def test_special_shapes_need_13_or_14_tiles() -> None:
    assert set(shanten_by_shape(parse("11m22p33s44z"))) == {Shape.REGULAR}
    assert set(shanten_by_shape(parse("11m22p33s4z"))) == {Shape.REGULAR}
    assert set(shanten_by_shape(parse("19m19p19s1234567z"))) == set(Shape)
    # 组合龙 keeps its one set as a meld: 10/11 concealed tiles
    ten = shanten_by_shape(parse("147m258p369s1z"))
    assert set(ten) == {Shape.REGULAR, Shape.KNITTED_STRAIGHT}
    assert ten[Shape.KNITTED_STRAIGHT] == 0


@pytest.mark.parametrize(
    ("hand", "wilds", "expected"),
    [
        ("147m258p369s11z", 0, True),  # 组合龙 + pair, the set melded
        ("147m258p369s77z", 0, True),
        ("147m258p36s11z", 1, True),  # a wild fills the knitted 9s
        ("147m258p369s1z", 1, True),  # a wild pairs the 1z
        ("147m258p369s12z", 0, False),
        ("147m258p369s", 2, True),  # a wild pair
        ("147m258p369m11z", 0, False),  # three patterns in one suit are not knitted
    ],
)
def test_knitted_straight_with_a_meld(hand: str, wilds: int, expected: bool) -> None:
    counts = parse(hand)
    assert is_complete(counts, wilds=wilds) == expected
    assert is_complete(counts, wilds=wilds, shapes=frozenset({Shape.KNITTED_STRAIGHT})) == expected
    assert not is_complete(counts, wilds=wilds, shapes=GUOBIAO_2P) or wilds == 2
    assert (shanten_by_shape(counts, wilds=wilds)[Shape.KNITTED_STRAIGHT] == -1) == expected


def test_knitted_straight_with_a_meld_waits_and_discards() -> None:
    ready = parse("147m258p369s1z")  # + a melded set: waits on the 1z pair only
    assert waits(ready) == [27]
    assert waits(ready, shapes=frozenset({Shape.REGULAR})) == []
    assert improving(ready) == (0, [27])
    one_short = parse("147m258p36s12z")  # the 9s or a pair
    value, kinds = improving(one_short)
    assert value == 1
    assert set(kinds) == {26, 27, 28}
    rows = discard_table(parse("147m258p369s12z"))
    assert rows[0].shanten == 0
    assert {row.discard for row in rows if row.shanten == 0} == {27, 28}
    # the other special shapes still need 13/14 tiles
    seven = shanten_by_shape(parse("1122m3344p55s6z"), shapes=ALL_SHAPES)
    assert set(seven) == {Shape.REGULAR, Shape.KNITTED_STRAIGHT}


# ------------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("counts", "wilds", "message"),
    [
        ([0] * 33, 0, "34 entries"),
        ([5] + [0] * 33, 0, "0 to 4 copies"),
        ([-1] + [0] * 33, 0, "0 to 4 copies"),
        ([3] + [0] * 33, 0, "3n+1 or 3n+2"),
        ([4] * 4 + [0] * 30, 0, "3n+1 or 3n+2"),
        ([0] * 34, -1, "wilds"),
    ],
)
def test_bad_hands_raise(counts: list[int], wilds: int, message: str) -> None:
    with pytest.raises(AnalysisError, match=re.escape(message)):
        shanten(counts, wilds=wilds)
    with pytest.raises(ValueError, match=re.escape(message)):
        shanten(counts, wilds=wilds)


def test_is_complete_needs_3n_plus_2() -> None:
    with pytest.raises(AnalysisError, match="3n\\+2"):
        is_complete(parse("123m456m789m1112z"))
    with pytest.raises(AnalysisError, match="max_copies"):
        is_complete(parse("11m"), max_copies=3)


def test_shape_masks() -> None:
    assert shape_mask(ALL_SHAPES) == 31
    assert shape_mask(GUOBIAO_2P) == 3
    with pytest.raises(ValueError, match="empty"):
        shanten([0] * 34, wilds=2, shapes=frozenset())
