"""The engine's fast shape tables against brute force and the analysis package."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from erren.analysis import shanten as analysis_shanten
from erren.analysis import waits as analysis_waits
from erren.analysis.shapes import GUOBIAO_2P
from erren.engine.winning import is_complete, ready_discards, waits_mask
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS

KINDS = (*range(0, 9), *range(27, 34))  # one suit + honors, as guobiao-2p plays


def _counts(text: str) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in parse_tiles(text):
        counts[t] += 1
    return counts


@st.composite
def hands(draw: st.DrawFn, size: int, kinds: tuple[int, ...] = KINDS) -> list[int]:
    counts = [0] * NUM_KINDS
    pool = [k for k in kinds for _ in range(4)]
    picked = draw(
        st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True)
    )
    for i in picked:
        counts[pool[i]] += 1
    return counts


def _brute_waits(counts: list[int], melds: int, meld_counts: list[int]) -> int:
    mask = 0
    for t in range(NUM_KINDS):
        if counts[t] + meld_counts[t] >= 4:
            continue
        counts[t] += 1
        if is_complete(counts, melds):
            mask |= 1 << t
        counts[t] -= 1
    return mask


def test_examples() -> None:
    assert is_complete(_counts("123456789m11122z"), 0)
    assert is_complete(_counts("11223344556677m"), 0)  # seven pairs
    assert is_complete(_counts("11223344556677z"), 0)  # seven pairs of honors
    assert is_complete(_counts("1111223344z5566z"), 0)  # four of a kind = two pairs
    assert not is_complete(_counts("1111223344z5566z"), 1)  # ... only without melds
    assert not is_complete(_counts("1112345678999m1z"), 0)
    assert waits_mask(_counts("1112345678999m"), 0) == 0b111111111  # 九莲宝灯
    assert waits_mask(_counts("1112m"), 3) == 0b110
    assert waits_mask(_counts("1111m"), 3) == 0  # would need a fifth 1m
    assert waits_mask(_counts("1z"), 4) == 1 << 27
    assert waits_mask(_counts("1z"), 4, _counts("111z")) == 0  # 1z held four times


@given(hands(14), st.integers(0, 4))
def test_is_complete_matches_the_analysis(counts: list[int], melds: int) -> None:
    size = 14 - 3 * melds
    trimmed = list(counts)
    extra = sum(trimmed) - size
    for k in range(NUM_KINDS):
        while extra > 0 and trimmed[k]:
            trimmed[k] -= 1
            extra -= 1
    expected = analysis_shanten.is_complete(
        trimmed,
        shapes=GUOBIAO_2P
        if melds == 0
        else frozenset(s for s in GUOBIAO_2P if s.value == "regular"),
    )
    assert is_complete(trimmed, melds) == expected


@given(hands(13))
def test_waits_match_brute_force_and_the_analysis(counts: list[int]) -> None:
    none = [0] * NUM_KINDS
    mask = waits_mask(counts, 0)
    assert mask == _brute_waits(counts, 0, none)
    assert [k for k in range(NUM_KINDS) if mask >> k & 1] == analysis_waits.waits(
        counts, shapes=GUOBIAO_2P
    )


@given(hands(14))
def test_ready_discards_match_brute_force(counts: list[int]) -> None:
    none = [0] * NUM_KINDS
    expected = 0
    for x in range(NUM_KINDS):
        if counts[x]:
            counts[x] -= 1
            if _brute_waits(counts, 0, none):
                expected |= 1 << x
            counts[x] += 1
    assert ready_discards(counts, 0) == expected


@given(hands(11), st.sampled_from(KINDS))
def test_ready_discards_with_a_peng(counts: list[int], peng: int) -> None:
    meld_counts = [0] * NUM_KINDS
    if counts[peng] > 1:
        return
    meld_counts[peng] = 3
    expected = 0
    for x in range(NUM_KINDS):
        if counts[x]:
            counts[x] -= 1
            if _brute_waits(counts, 1, meld_counts):
                expected |= 1 << x
            counts[x] += 1
    assert ready_discards(counts, 1, meld_counts) == expected
