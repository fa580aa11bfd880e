"""Readings with wild tiles: brute-force substitution, the xiamen completeness oracle, limits."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erren.analysis.readings import (
    GroupKind,
    Reading,
    Wilds,
    count_readings,
    is_winning,
    readings,
)
from erren.analysis.shapes import ARCADE, GB, XIAMEN, Shape, ShapeSet
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.testing.wild_hands import MANY_WILDS, clear_reading_caches
from erren.tiles import NUM_KINDS, Tile

XIAMEN_KINDS = frozenset([*range(9), *range(27, 34)])
"""The 16 kinds of the xiamen tile set (R-1.1), which a gold may stand for (R-3.2)."""

_SETTINGS = settings(
    max_examples=200,
    suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow],
)

Projected = tuple[Shape, tuple[tuple[str, tuple[int, ...], bool], ...], object, object, object]


def project(reading: Reading) -> Projected:
    """A reading without the places of its wilds: what brute-force substitution can see."""
    groups = tuple(sorted((g.kind.value, g.tiles, g.meld is None) for g in reading.groups))
    winning = reading.winning
    win = None if winning is None else (winning.kind.value, winning.tiles, winning.meld is None)
    return reading.shape, groups, win, reading.winning_kind, reading.wild_kinds


@dataclass(frozen=True)
class CountHand:
    """A hand at count level, as :func:`count_readings` takes it."""

    counts: tuple[int, ...]
    wilds: int
    melds: tuple[Meld, ...] = ()
    winning: int | None = None
    winning_wild: bool = False
    max_copies: int | None = 4
    kinds: frozenset[int] | None = None

    def readings(self, shapes: ShapeSet) -> list[Reading]:
        return count_readings(
            self.counts,
            wilds=self.wilds,
            melds=self.melds,
            winning=self.winning,
            winning_wild=self.winning_wild,
            shapes=shapes,
            max_copies=self.max_copies,
            stands_for=self.kinds,
        )


def brute_force(hand: CountHand, shapes: ShapeSet) -> set[Projected]:
    """Every assignment of kinds to the wilds (the winning wild's kind chosen separately), then
    the wild-free readings of the resolved hand (arcade R5.1/R5.6, xiamen R-3.3's oracle)."""
    allowed = sorted(hand.kinds) if hand.kinds is not None else list(range(NUM_KINDS))
    out: set[Projected] = set()
    win_choices: list[int | None] = list(allowed) if hand.winning_wild else [hand.winning]
    for assignment in combinations_with_replacement(allowed, hand.wilds):
        resolved = list(hand.counts)
        for k in assignment:
            resolved[k] += 1
        for win in win_choices:
            found = count_readings(
                resolved,
                melds=hand.melds,
                winning=win,
                shapes=shapes,
                max_copies=hand.max_copies,
            )
            extra = [win] if hand.winning_wild and win is not None else []
            wild_kinds = tuple(sorted((*assignment, *extra)))
            for reading in found:
                shape, groups, win_group, win_kind, _ = project(reading)
                out.add((shape, groups, win_group, win_kind, wild_kinds))
    return out


def _meld(tiles: list[int]) -> Meld:
    physical = tuple(Tile(t) for t in tiles)
    if tiles[0] == tiles[1]:
        return Meld(MeldKind.PENG, physical, physical[0])
    return Meld(MeldKind.CHI, physical, physical[0])


@st.composite
def small_hands(draw: st.DrawFn) -> CountHand:
    """A hand with 2 or 3 melds (5 or 8 concealed tiles with the winning one), some of them wild,
    drawn from a few kinds so that complete hands are common."""
    n_melds = draw(st.integers(2, 3))
    melds = []
    for _ in range(n_melds):
        if draw(st.booleans()):
            start = draw(st.integers(0, 24).filter(lambda k: k % 9 <= 6))
            melds.append(_meld([start, start + 1, start + 2]))
        else:
            melds.append(_meld([draw(st.integers(0, NUM_KINDS - 1))] * 3))
    pool = draw(st.sampled_from([[0, 1, 2, 3, 4], [5, 6, 7, 8, 27], [27, 28, 31], [7, 8, 9, 10]]))
    size = 14 - 3 * n_melds
    wilds = draw(st.integers(0, 3 if n_melds == 3 else 2))
    naturals = [draw(st.sampled_from(pool)) for _ in range(size - wilds)]
    counts = [0] * NUM_KINDS
    for k in naturals:
        counts[k] += 1
    winning: int | None = None
    winning_wild = False
    mode = draw(st.sampled_from(["natural", "wild", "none"]))
    if mode == "wild" and wilds:
        wilds -= 1
        winning_wild = True
    elif mode == "natural" and naturals:
        winning = naturals[0]
        counts[winning] -= 1
    return CountHand(
        tuple(counts),
        wilds,
        tuple(melds),
        winning,
        winning_wild,
        draw(st.sampled_from([4, None])),
        draw(st.sampled_from([None, XIAMEN_KINDS])),
    )


@pytest.mark.slow
@given(small_hands())
@_SETTINGS
def test_wild_readings_equal_brute_force(hand: CountHand) -> None:
    """Slow (about 6 s): every reading with wilds checked against a brute-force substitution."""
    found = hand.readings(GB)
    assert len(set(found)) == len(found)
    assert {project(r) for r in found} == brute_force(hand, GB)


@st.composite
def full_hands(draw: st.DrawFn) -> CountHand:
    """14 concealed tiles (no melds) with one or two wilds, for the special shapes."""
    pool = draw(
        st.sampled_from(
            [
                [0, 8, 9, 17, 18, 26, *range(27, 34)],
                [0, 3, 6, 10, 13, 16, 20, 23, 26, *range(27, 34)],
                [0, 1, 2, 3, 27, 28],
            ]
        )
    )
    wilds = draw(st.integers(1, 2))
    counts = [0] * NUM_KINDS
    for _ in range(14 - wilds):
        k = draw(st.sampled_from(pool))
        counts[k] += 1
    winning = draw(st.sampled_from([k for k in range(NUM_KINDS) if counts[k]]))
    counts[winning] -= 1
    return CountHand(tuple(counts), wilds, winning=winning)


@given(full_hands())
@settings(max_examples=60, suppress_health_check=[HealthCheck.large_base_example])
def test_special_shapes_with_wilds_equal_brute_force(hand: CountHand) -> None:
    found = hand.readings(GB)
    assert {project(r) for r in found} == brute_force(hand, GB)


@pytest.mark.slow
@given(small_hands())
@_SETTINGS
def test_groups_re_multiply_to_the_hand(hand: CountHand) -> None:
    naturals = Counter({k: n for k, n in enumerate(hand.counts) if n})
    if hand.winning is not None:
        naturals[hand.winning] += 1
    for reading in hand.readings(GB):
        assert len(reading.wild_kinds) == hand.wilds + hand.winning_wild
        natural_seen: Counter[int] = Counter()
        wild_seen: Counter[int] = Counter()
        for group in reading.groups:
            if group.meld is not None:
                assert group.wild_tiles == ()
                assert list(group.tiles) == sorted(group.meld.tiles)
                continue
            rest = Counter(group.tiles)
            rest.subtract(group.wild_tiles)
            assert min(rest.values()) >= 0
            natural_seen.update(rest)
            wild_seen.update(group.wild_tiles)
        assert +natural_seen == naturals
        assert wild_seen == Counter(reading.wild_kinds)
        if hand.kinds is not None:
            assert set(reading.wild_kinds) <= hand.kinds
        if hand.max_copies is not None:
            assert max(reading.counts()) <= hand.max_copies
        win = reading.winning
        if hand.winning_wild:
            assert win is not None
            assert reading.winning_wild
            assert reading.winning_kind in win.wild_tiles
        elif hand.winning is not None:
            assert win is not None
            assert win.naturals(hand.winning) >= 1


# --------------------------------------------------------------------------------------------
# The xiamen completeness algorithm, written out as the spec gives it, is an oracle for
# is_winning on the regular shape; its "as many naturals as possible" shortcut is only safe for
# deciding completeness, which is all that is compared here.


def _groups(c: list[int], k: int, n: int) -> bool:
    if sum(c) == 0:
        return True
    i = next(j for j, x in enumerate(c) if x)
    u = min(c[i], 3)
    if k >= 3 - u:
        c2 = list(c)
        c2[i] -= u
        if _groups(c2, k - (3 - u), n - 1):
            return True
    if i < 27:
        base = i - i % 9
        for s in (i - 2, i - 1, i):
            if not base <= s <= base + 6:
                continue
            c2 = list(c)
            need = 0
            for j in (s, s + 1, s + 2):
                if j < i or (j > i and c2[j] == 0):
                    need += 1  # below the lowest natural, or no natural left: a gold
                else:
                    c2[j] -= 1
            if need <= k and _groups(c2, k - need, n - 1):
                return True
    return False


def _complete(c: list[int], k: int, n: int) -> bool:
    if sum(c) + k != 3 * n + 2:
        return False
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c2 = list(c)
            c2[p] -= 2
            if _groups(c2, k, n):
                return True
        if c[p] >= 1 and k >= 1:
            c2 = list(c)
            c2[p] -= 1
            if _groups(c2, k - 1, n):
                return True
    return k >= 2 and _groups(c, k - 2, n)


@st.composite
def xiamen_parts(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A concealed part of 3n + 2 tiles of the xiamen kinds, up to four golds."""
    n = draw(st.integers(1, 4))
    golds = draw(st.integers(0, 4))
    size = 3 * n + 2
    golds = min(golds, size)
    pool = draw(st.sampled_from([[0, 1, 2, 3, 4, 5], [3, 4, 5, 6, 7, 8, 27], list(XIAMEN_KINDS)]))
    counts = [0] * NUM_KINDS
    while sum(counts) < size - golds:
        k = draw(st.sampled_from(pool))
        if counts[k] < 4:
            counts[k] += 1
    return counts, golds, n


@pytest.mark.slow
@given(xiamen_parts())
@settings(max_examples=400, suppress_health_check=[HealthCheck.large_base_example])
def test_is_winning_agrees_with_xiamen_completeness(part: tuple[list[int], int, int]) -> None:
    """Slow (about 6 s): thousands of xiamen hands checked both ways."""
    counts, golds, n = part
    melds = tuple(_meld([27 + j] * 3) for j in range(4 - n))  # filler pungs, any kinds
    found = count_readings(
        counts,
        wilds=golds,
        melds=melds,
        shapes=XIAMEN,
        max_copies=None,
        stands_for=XIAMEN_KINDS,
    )
    assert bool(found) == _complete(counts, golds, n)


# --------------------------------------------------------------------------------------------
# Hand-level behaviour: stand-in, limits, wild winning tile.

ARCADE_5S = Wilds(kind=22)  # W = 5s, F = 5z


def _shown(hand: str, wilds: Wilds, shapes: ShapeSet) -> list[str]:
    found = readings(Hand.parse(hand, check_size=False), shapes=shapes, wilds=wilds)
    return [str(r) for r in found]


def test_white_stands_in_for_the_gold_in_melds_and_hand() -> None:
    # Gold 3m: the White plays as 3m; [24m5z] is a chow 2-3-4m.
    gold = Wilds(kind=2, max_copies=None, stand_in=31, stands_for=XIAMEN_KINDS)
    hand = Hand.parse("5z789m111z222z [2'4m5z] +5z", plays_as={31: 2})
    found = readings(hand, shapes=XIAMEN, wilds=gold)
    assert [str(r) for r in found] == ["regular: 789m 111z 222z [234m] <33m>"]
    (reading,) = found
    assert reading.winning_kind == 2
    assert not reading.winning_wild
    assert reading.wild_kinds == ()


def test_white_is_the_gold() -> None:
    # g = 5z: Whites are golds, no stand-in; here the gold completes 1m's pair.
    gold = Wilds(kind=31, max_copies=None, stand_in=31, stands_for=XIAMEN_KINDS)
    found = readings(Hand.parse("123m456m789m111z1m +5z"), shapes=XIAMEN, wilds=gold)
    assert "regular: 123m 456m 789m 111z <11m{1m}>" in [str(r) for r in found]
    assert all(r.winning_wild and r.wild_kinds == (r.winning_kind,) for r in found)


def test_max_copies_forbids_a_fifth_copy() -> None:
    # Four natural 1m and a wild: with the arcade limit the wild may not be a fifth 1m.
    limited = _shown("1111m234m567m89m5s +7m", ARCADE_5S, ARCADE)
    assert limited
    assert not any("11m{1m}" in r or "111m{1m}" in r for r in limited)
    free = _shown(
        "1111m234m567m89m5s +7m", Wilds(kind=22, max_copies=None), frozenset({Shape.REGULAR})
    )
    assert any("111m{1m}" in r for r in free)
    assert set(limited) < set(free)


def test_wild_winning_tile_is_chosen_separately() -> None:
    # The winning tile is the wild; each kind it can stand for is its own reading.
    found = readings(Hand.parse("123m456m789m11z22z +5s"), shapes=ARCADE, wilds=ARCADE_5S)
    assert [str(r) for r in found] == [
        "regular: 123m 456m 789m <111z{1z}> 22z",
        "regular: 123m 456m 789m <222z{2z}> 11z",
    ]
    assert [r.winning_kind for r in found] == [27, 28]
    assert all(r.winning_wild for r in found)


def test_wild_only_groups_cover_every_allowed_kind() -> None:
    # Three wilds and no other free tile: the wilds are a pung of any kind or any chow.
    hand = Hand.parse("5s5s5s1z [123m'] [456m'] [789m'] +1z")
    found = readings(hand, shapes=ARCADE, wilds=ARCADE_5S)
    wild_sets = {r.groups[0].tiles for r in found if r.groups[0].has_wild}
    # 34 pungs + 21 chows; the pung of 1z is one natural and two wilds (three wild 1z and the
    # natural pair would be five)
    assert len(wild_sets) == 34 + 21
    xiamen = readings(
        hand, shapes=XIAMEN, wilds=Wilds(22, max_copies=None, stands_for=XIAMEN_KINDS)
    )
    assert {r.groups[0].tiles for r in xiamen if r.groups[0].has_wild} <= {
        t for t in wild_sets if set(t) <= XIAMEN_KINDS
    }


def test_is_winning_with_wilds() -> None:
    assert is_winning(Hand.parse("1m5s5s456m789m11z33z +3z"), shapes=ARCADE, wilds=ARCADE_5S)
    assert not is_winning(Hand.parse("1m9m5s456m789m11z33z +3z"), shapes=ARCADE, wilds=ARCADE_5S)


def test_seven_pairs_with_wilds() -> None:
    found = readings(Hand.parse("1122m3344p55p66z5s +7z"), shapes=ARCADE, wilds=ARCADE_5S)
    shapes = {r.shape for r in found}
    assert Shape.SEVEN_PAIRS in shapes
    pairs = [r for r in found if r.shape is Shape.SEVEN_PAIRS]
    assert [str(r) for r in pairs] == [
        "seven_pairs: 11m 22m 33p 44p 55p 66z <77z{7z}>",
    ]
    assert all(g.kind is GroupKind.PAIR for g in pairs[0].groups)


# --------------------------------------------------------------------------------------------
# The worst cases: hands with three or four wilds still have their readings (computed uncached;
# ``benchmarks/bench_analysis.py`` times them).


@pytest.mark.parametrize(("text", "wilds", "shapes"), MANY_WILDS)
def test_many_wilds_have_readings(text: str, wilds: Wilds, shapes: ShapeSet) -> None:
    hand = Hand.parse(text, check_size=False)
    clear_reading_caches()
    found = readings(hand, shapes=shapes, wilds=wilds)
    assert found
