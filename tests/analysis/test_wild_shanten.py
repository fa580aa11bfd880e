"""Wilds: every answer equals brute-force substitution of the wilds by real kinds.

``max_copies=4`` (arcade R5.2): substitutions may not make a fifth copy, counting the tiles in
the player's melds (``held``); ``max_copies=None`` (Xiamen R-3.2): they may.  Hands have at most
two or three wilds so the brute force stays small (34 + 595 + 7140 substitutions).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erren.analysis import _kernel
from erren.analysis.shanten import is_complete, shanten
from erren.analysis.shapes import ALL_SHAPES, ARCADE, XIAMEN, ShapeSet
from erren.analysis.waits import improving, waits
from erren.errors import AnalysisError
from erren.testing.oracles import parse, ref_decomposes
from erren.testing.strategies import WALL_64, WALL_136, Melded, melded_wild_hands, wild_hands

NUM_KINDS = 34
SHAPE_SETS = st.sampled_from([ALL_SHAPES, ARCADE, XIAMEN])
Hand = tuple[list[int], int]


def substitutions(
    counts: list[int], wilds: int, cap: int | None, held: list[int] | None = None
) -> list[list[int]]:
    """Every way to turn the wilds into real kinds.

    With ``cap``, at most ``cap`` of a kind in the resolved hand plus ``held`` (the melds).
    """
    out = []
    melds = held or [0] * NUM_KINDS
    for kinds in itertools.combinations_with_replacement(range(NUM_KINDS), wilds):
        resolved = list(counts)
        for k in kinds:
            resolved[k] += 1
        if cap is None or all(r + m <= cap for r, m in zip(resolved, melds, strict=True)):
            out.append(resolved)
    return out


def brute_complete(
    counts: list[int],
    wilds: int,
    shapes: ShapeSet,
    cap: int | None,
    held: list[int] | None = None,
) -> bool:
    """Completeness by substitution; uncapped hands are checked by plain decomposition."""
    n = (sum(counts) + wilds - 2) // 3
    for resolved in substitutions(counts, wilds, cap, held):
        if max(resolved) > 4:
            if ref_decomposes(resolved, n):
                return True
        elif is_complete(resolved, shapes=shapes):
            return True
    return False


@given(wild_hands(total=range(1, 15)), SHAPE_SETS)
@settings(max_examples=200)
def test_shanten_equals_best_substitution(hand: Hand, shapes: ShapeSet) -> None:
    counts, wilds = hand
    if (sum(counts) + wilds) % 3 == 0:
        wilds += 1
    best = min(shanten(r, shapes=shapes) for r in substitutions(counts, wilds, 4))
    assert shanten(counts, wilds=wilds, shapes=shapes) == best


@given(wild_hands(total=(2, 5, 8, 11, 14)), SHAPE_SETS, st.sampled_from([4, None]))
@settings(max_examples=300)
def test_is_complete_equals_substitution(hand: Hand, shapes: ShapeSet, cap: int | None) -> None:
    counts, wilds = hand
    expected = brute_complete(counts, wilds, shapes, cap)
    assert is_complete(counts, wilds=wilds, shapes=shapes, max_copies=cap) == expected


@pytest.mark.slow
@given(wild_hands(total=(1, 4, 7, 10, 13), near=True), SHAPE_SETS, st.sampled_from([4, None]))
@settings(max_examples=200)
def test_waits_equal_substitution(hand: Hand, shapes: ShapeSet, cap: int | None) -> None:
    """Slow (about 6 s): waits with wilds checked against a brute-force substitution of every
    wild."""
    counts, wilds = hand
    expected = []
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            counts[k] += 1
            if brute_complete(counts, wilds, shapes, cap):
                expected.append(k)
            counts[k] -= 1
    assert waits(counts, wilds=wilds, shapes=shapes, max_copies=cap) == expected
    if cap == 4:
        value, kinds = improving(counts, wilds=wilds, shapes=shapes)
        assert expected == (kinds if value == 0 else [])


@given(wild_hands(total=(1, 4, 7, 10, 13), kinds=WALL_136), SHAPE_SETS)
@settings(max_examples=200)
def test_improving_with_wilds_matches_brute_force(hand: Hand, shapes: ShapeSet) -> None:
    counts, wilds = hand
    base = shanten(counts, wilds=wilds, shapes=shapes)
    expected = []
    for k in range(NUM_KINDS):
        if counts[k] < 4:
            counts[k] += 1
            if shanten(counts, wilds=wilds, shapes=shapes) < base:
                expected.append(k)
            counts[k] -= 1
    assert improving(counts, wilds=wilds, shapes=shapes) == (base, expected)


@given(wild_hands(total=(2, 5, 8, 11, 14), kinds=WALL_64, max_wilds=3, near=True))
@settings(max_examples=200)
def test_xiamen_search_matches_the_oracle(hand: Hand) -> None:
    """R-3.3: the search (complete_uncapped) against the substitution oracle."""
    counts, wilds = hand
    assert _kernel.complete_uncapped(counts, wilds) == brute_complete(counts, wilds, XIAMEN, None)


@given(wild_hands(total=(1, 4, 7, 10, 13), kinds=WALL_64, max_wilds=3, near=True))
@settings(max_examples=150)
def test_xiamen_you_jin_ready(hand: Hand) -> None:
    """R-3.5: complete with every added kind ⇔ a wild is the lone pair tile of n groups."""
    counts, wilds = hand
    if wilds == 0:
        return
    rest = list(counts)
    # groups(c, k - 1, n): c plus k - 1 wilds form n groups ⇔ c + (k - 1) wilds + a pair of a
    # fresh kind is complete.
    fresh = 9  # 1p: not in the 64-tile wall
    rest[fresh] = 2
    you = _kernel.complete_uncapped(rest, wilds - 1)
    every = all(
        is_complete(
            [c + (k == t) for k, c in enumerate(counts)],
            wilds=wilds,
            max_copies=None,
            shapes=XIAMEN,
        )
        for t in WALL_64
        if counts[t] < 4
    ) and is_complete(counts, wilds=wilds + 1, shapes=XIAMEN, max_copies=None)
    assert every == you


@given(melded_wild_hands(total=(2, 5, 8, 11), max_wilds=3), SHAPE_SETS, st.sampled_from([4, None]))
@settings(max_examples=250, deadline=None)
def test_is_complete_with_melds_equals_substitution(
    hand: Melded, shapes: ShapeSet, cap: int | None
) -> None:
    """R5.2: the resolved hand plus the melds has at most four of a kind (held ignored uncapped)."""
    counts, wilds, held = hand
    expected = brute_complete(counts, wilds, shapes, cap, held)
    assert is_complete(counts, wilds=wilds, shapes=shapes, max_copies=cap, held=held) == expected
    if not any(held):
        assert is_complete(counts, wilds=wilds, shapes=shapes, max_copies=cap) == expected


@given(melded_wild_hands(total=(1, 4, 7, 10), max_wilds=2), SHAPE_SETS, st.sampled_from([4, None]))
@settings(max_examples=200, deadline=None)
def test_waits_with_melds_equal_substitution(
    hand: Melded, shapes: ShapeSet, cap: int | None
) -> None:
    counts, wilds, held = hand
    expected = []
    for k in range(NUM_KINDS):
        if counts[k] + held[k] < 4:
            counts[k] += 1
            if brute_complete(counts, wilds, shapes, cap, held):
                expected.append(k)
            counts[k] -= 1
    assert waits(counts, wilds=wilds, shapes=shapes, held=held, max_copies=cap) == expected


WHITE = 31  # 5z


def test_a_wild_is_no_fifth_copy_of_a_meld() -> None:
    """arcade R1.9d / R5.2: ``[555z']`` + a wild can be neither a fourth-and-fifth 5z nor a pung."""
    held = [0] * NUM_KINDS
    held[WHITE] = 3
    sets = parse("123m456m789m")
    four_and_five = parse("123m456m789m5z")  # 5z + a wild as the 5z pair: five 5z
    assert is_complete(four_and_five, wilds=1, shapes=ARCADE)  # without the melds
    assert not is_complete(four_and_five, wilds=1, shapes=ARCADE, held=held)
    assert is_complete(four_and_five, wilds=1, shapes=XIAMEN, held=held, max_copies=None)
    # ready on every kind with a wild for its pair, except the 5z that would be the fifth
    assert waits(sets, wilds=1, shapes=ARCADE) == list(range(NUM_KINDS))
    assert waits(sets, wilds=1, shapes=ARCADE, held=held) == [
        k for k in range(NUM_KINDS) if k != WHITE
    ]
    assert WHITE in waits(sets, wilds=1, shapes=XIAMEN, held=held, max_copies=None)
    # two wilds: a wild pair of any other kind still completes
    assert is_complete(parse("123m456m789m"), wilds=2, shapes=ARCADE, held=held)
    # with [5555m#] a wild cannot be the 5m of a 4_6m chow
    kong = [0] * NUM_KINDS
    kong[4] = 4
    closed = parse("46m123p456p77p")
    assert is_complete(closed, wilds=1, shapes=ARCADE)
    assert not is_complete(closed, wilds=1, shapes=ARCADE, held=kong)
    ready = parse("46m123p456p7p")  # the wild is the 5m of 4_6m: 5m, 1p, 4p, 7p
    assert waits(ready, wilds=1, shapes=ARCADE) == [4, 9, 12, 15]
    assert waits(ready, wilds=1, shapes=ARCADE, held=kong) == []


def test_held_must_fit_the_wall() -> None:
    held = [0] * NUM_KINDS
    held[0] = 3
    with pytest.raises(AnalysisError, match="at most 4 copies"):
        is_complete(parse("11m"), held=held)
    with pytest.raises(AnalysisError, match="at most 4 copies"):
        waits(parse("11m22p"), wilds=0, held=held)


def test_known_wild_hands() -> None:
    assert is_complete(parse("1111m"), wilds=1, max_copies=None, shapes=XIAMEN)
    assert not is_complete(parse("1111m"), wilds=1, shapes=XIAMEN)
    assert waits(parse("111m"), wilds=1, shapes=XIAMEN) == [1, 2, *range(3, NUM_KINDS)]
    assert waits(parse("1111m"), wilds=0, shapes=XIAMEN, max_copies=None) == []
    assert 0 in waits(parse("111m"), wilds=1, shapes=XIAMEN, max_copies=None)
    # a wild pairs a single in seven pairs
    assert shanten(parse("1122m3344p5566s7z"), wilds=1) == -1
