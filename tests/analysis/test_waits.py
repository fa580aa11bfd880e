"""Waits, improving kinds and the discard table, against brute force over the 34 kinds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erren.analysis.shanten import is_complete, shanten
from erren.analysis.shapes import ALL_SHAPES, GUOBIAO_2P, XIAMEN, ShapeSet
from erren.analysis.waits import DiscardOption, discard_table, improving, waits
from erren.errors import AnalysisError
from erren.testing.oracles import parse
from erren.testing.strategies import WALL_64, concealed_counts, near_counts

NUM_KINDS = 34
SHAPE_SETS = st.sampled_from([ALL_SHAPES, GUOBIAO_2P, XIAMEN])
HANDS_13 = st.one_of(
    concealed_counts(total=13),
    near_counts(total=13),
    near_counts(total=range(1, 14, 3), kinds=WALL_64),
)


def brute_improving(counts: list[int], shapes: ShapeSet) -> list[int]:
    """Kinds whose draw lowers the shanten, by 34 shanten calls."""
    base = shanten(counts, shapes=shapes)
    out = []
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            counts[k] += 1
            if shanten(counts, shapes=shapes) < base:
                out.append(k)
            counts[k] -= 1
    return out


@given(HANDS_13, SHAPE_SETS)
@settings(max_examples=400)
def test_improving_matches_brute_force(counts: list[int], shapes: ShapeSet) -> None:
    value, kinds = improving(counts, shapes=shapes)
    assert value == shanten(counts, shapes=shapes)
    assert kinds == brute_improving(counts, shapes)


@pytest.mark.slow
@given(HANDS_13, SHAPE_SETS)
@settings(max_examples=400)
def test_hand_plus_any_wait_is_complete(counts: list[int], shapes: ShapeSet) -> None:
    found = waits(counts, shapes=shapes)
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            counts[k] += 1
            assert is_complete(counts, shapes=shapes) == (k in found)
            counts[k] -= 1
        else:
            assert k not in found
    assert bool(found) == (shanten(counts, shapes=shapes) == 0)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1112345678999m", list(range(9))),  # nine gates
        ("123m456m789m1112z", [28]),
        ("19m19p19s1234567z", [0, 8, 9, 17, 18, 26, *range(27, 34)]),
        ("1122m3344p5566s7z", [33]),
        ("1111222233334m", [3, 4]),  # 4m: seven pairs (quads as two pairs) and regular; 5m
    ],
)
def test_known_waits(hand: str, expected: list[int]) -> None:
    assert waits(parse(hand)) == expected


def test_no_wait_when_all_four_copies_are_held() -> None:
    tanki = parse("123m456p789s111z4z")  # the lone 4z wait
    assert waits(tanki) == [30]
    held = [0] * NUM_KINDS
    held[30] = 3  # the other three 4z are in the player's melds
    assert waits(tanki, held=held) == []


def test_hand_holding_all_copies_of_its_only_wait() -> None:
    # Three melds plus 5555m: the only completion would be a fifth 5m.
    counts = parse("5555m")
    assert waits(counts, shapes=XIAMEN) == []
    assert shanten(counts, shapes=XIAMEN) == 1
    # Drawing any other kind X gives 555m + 5m X: discard 5m, wait on X.
    assert improving(counts, shapes=XIAMEN) == (1, [k for k in range(NUM_KINDS) if k != 4])
    counts = parse("1234m")
    assert waits(counts) == [0, 3]
    held = [0] * NUM_KINDS
    held[0] = 3
    assert waits(counts, held=held) == [3]
    held[3] = 3
    assert waits(counts, held=held) == []


@given(
    st.one_of(concealed_counts(total=14), near_counts(total=14)),
    SHAPE_SETS,
    st.booleans(),
)
@settings(max_examples=200)
def test_discard_table_rows(counts: list[int], shapes: ShapeSet, seen: bool) -> None:
    visible = [min(4, c + (k % 3 if seen else 0)) for k, c in enumerate(counts)]
    rows = discard_table(counts, shapes=shapes, visible=visible if seen else None)
    assert sorted(r.discard for r in rows if r.discard is not None) == [
        k for k in range(NUM_KINDS) if counts[k]
    ]
    vis = visible if seen else counts
    for row in rows:
        assert row.discard is not None
        counts[row.discard] -= 1
        value, kinds = improving(counts, shapes=shapes)
        counts[row.discard] += 1
        assert (row.shanten, row.effective) == (value, tuple(kinds))
        assert row.remaining == sum(4 - vis[k] for k in kinds)
    keys = [(r.shanten, -r.remaining, -len(r.effective), r.discard) for r in rows]
    assert keys == sorted(keys)
    assert rows[0].shanten == max(shanten(counts, shapes=shapes), 0)


def test_discard_table_with_a_wild() -> None:
    rows = discard_table(parse("123m456p789s11z2z"), wilds=2)
    # Throw 2z and keep the wilds: 11z + two wilds + any tile is complete.
    assert rows[0] == DiscardOption(28, 0, tuple(range(NUM_KINDS)), 4 * 34 - 12)
    wild_row = next(r for r in rows if r.discard is None)
    assert wild_row.shanten == 0


@pytest.mark.parametrize("fn", [waits, improving])
def test_waits_need_3n_plus_1(fn: object) -> None:
    with pytest.raises(AnalysisError, match="3n\\+1"):
        fn(parse("123m456m789m11122z"))  # type: ignore[operator]


def test_discard_table_needs_3n_plus_2() -> None:
    with pytest.raises(AnalysisError, match="3n\\+2"):
        discard_table(parse("123m456m789m1112z"))
