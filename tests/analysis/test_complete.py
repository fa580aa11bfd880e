"""The one completeness test (``erren.analysis.complete``) and its hand-level wrappers."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from erren.analysis import is_complete, is_complete_ignoring_copies, is_winning
from erren.analysis.readings import readings
from erren.analysis.shapes import ALL_SHAPES, ARCADE, GUOBIAO_2P, Shape
from erren.engine import winning
from erren.errors import AnalysisError
from erren.hand import Hand
from erren.testing.oracles import parse, ref_decomposes
from erren.testing.strategies import complete_counts

REGULAR = frozenset({Shape.REGULAR})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11111m234m567m999m", True),  # 111m + 11m: the fifth copy in a pung
        ("34455555667m111z", True),  # 55m + 345m 456m 567m: only as the pair (no pung of 5m fits)
        ("11111m234m", True),
        ("11111m258m", False),
        ("11111z123m", True),  # an honor: pung and pair
        ("11111z124m", False),
        ("123m456m789m11223z", False),  # no fifth copy: the kernel's usual answer
        ("123m456m789m11122z", True),
    ],
)
def test_a_fifth_copy_shape_only(text: str, expected: bool) -> None:
    assert is_complete_ignoring_copies(parse(text)) is expected
    assert is_complete_ignoring_copies(parse(text), shapes=REGULAR) is expected


def test_a_fifth_copy_needs_the_regular_shape() -> None:
    counts = parse("11111m234m567m999m")
    assert not is_complete_ignoring_copies(counts, shapes=frozenset({Shape.SEVEN_PAIRS}))
    assert is_complete_ignoring_copies(parse("11223344556677m")) is True  # seven pairs, no fifth
    with pytest.raises(AnalysisError, match="five times"):
        is_complete_ignoring_copies(parse("11111m22222m9999m"))
    with pytest.raises(AnalysisError, match="five times"):
        is_complete_ignoring_copies(parse("111111m234m567m99m"))


SETS = [(k, k, k) for k in range(34)] + [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]


@st.composite
def with_a_fifth(draw: st.DrawFn) -> list[int]:
    """A 3n+2 hand (n = 1..4) with one kind at five copies: sets and a pair that favour that
    kind (often complete), or a complete hand with other tiles turned into that kind."""
    n = draw(st.integers(1, 4))
    kind = draw(st.integers(0, 33))
    if draw(st.booleans()):
        counts = [0] * 34
        holding = [g for g in SETS if kind in g]
        for _ in range(n):
            group = draw(st.sampled_from(holding if draw(st.booleans()) else SETS))
            for k in group:
                counts[k] += 1
        counts[kind if draw(st.booleans()) else draw(st.integers(0, 33))] += 2
    else:
        counts = list(draw(complete_counts(n)))
    others = [k for k in range(34) if k != kind for _ in range(counts[k])]
    for k in draw(st.permutations(others))[: max(0, 5 - counts[kind])]:
        counts[k] -= 1
        counts[kind] += 1
    assume(counts[kind] == 5 and all(c <= 4 for k, c in enumerate(counts) if k != kind))
    return counts


@given(with_a_fifth())
@settings(max_examples=300)
def test_a_fifth_copy_against_the_reference_search(counts: list[int]) -> None:
    n = (sum(counts) - 2) // 3
    assert is_complete_ignoring_copies(counts) == ref_decomposes(list(counts), n)


@given(st.integers(1, 4).flatmap(complete_counts))
@settings(max_examples=100)
def test_the_engine_asks_the_kernel(counts: list[int]) -> None:
    melds = 4 - (sum(counts) - 2) // 3
    regular = is_complete(counts, shapes=REGULAR)
    assert winning.is_complete(counts, melds) == (
        is_complete(counts, shapes=GUOBIAO_2P) if melds == 0 else regular
    )


@pytest.mark.parametrize(
    ("text", "shapes", "expected"),
    [
        ("123m456m789m11z22z +2z", GUOBIAO_2P, True),
        ("123m456m789m11z23z +2z", GUOBIAO_2P, False),
        ("1m1m2m2m3m3m4m4m5m5m6m6m7m +7m", GUOBIAO_2P, True),  # seven pairs
        ("1m9m1p9p1s9s1z2z3z4z5z6z7z +7z", ARCADE, True),  # thirteen orphans
        ("1m9m1p9p1s9s1z2z3z4z5z6z7z +7z", ALL_SHAPES, True),
        ("1m9m1p9p1s9s1z2z3z4z5z6z7z +7z", GUOBIAO_2P, False),
        ("123m456m789m111z [222z'] +3z", GUOBIAO_2P, False),  # wrong size: 15 tiles
    ],
)
def test_is_winning_without_wilds(text: str, shapes: frozenset[Shape], expected: bool) -> None:
    hand = Hand.parse(text, check_size=False)
    assert is_winning(hand, shapes=shapes) is expected
    assert bool(readings(hand, shapes=shapes)) is expected


def test_the_reference_search_sees_complete_fifths() -> None:
    """The property test above meets complete hands too (a guard on its generator)."""
    assert ref_decomposes(parse("34455555667m111z"), 4)
    assert not ref_decomposes(parse("11111m258m"), 2)
