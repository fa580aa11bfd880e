"""Readings without wild tiles: hand-written tables, an independent enumerator, MahjongGB."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import MahjongGB
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erren.analysis.readings import (
    GroupKind,
    Reading,
    count_readings,
    is_winning,
    readings,
)
from erren.analysis.shapes import GB, GUOBIAO_2P, Shape, ShapeSet
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS, Tile, counts_of

REGULAR: ShapeSet = frozenset({Shape.REGULAR})


def parse(text: str) -> Hand:
    return Hand.parse(text, check_size=False)


def show(reading: Reading) -> str:
    """A reading as text: groups separated by spaces, the winning group in <>."""
    parts = [str(g) for g in reading.groups]
    if reading.winning_group is not None:
        parts[reading.winning_group] = f"<{parts[reading.winning_group]}>"
    return " ".join(parts)


def shown(text: str, shapes: ShapeSet = GUOBIAO_2P) -> list[str]:
    return [show(r) for r in readings(parse(text), shapes=shapes)]


# --------------------------------------------------------------------------------------------
# Hand-written tables.

COUNT_TABLE = [
    # (hand, shapes, number of readings)
    ("11122233344455m", REGULAR, 4),  # 111 222 333 444 / 123×3 444 / 111 234×3 / 111 234 345×2
    ("123m456m789m111z22z", GUOBIAO_2P, 1),  # dealt hand, no winning tile
    ("1112345678999m +5m", GUOBIAO_2P, 1),
    ("1112345678999m +1m", GUOBIAO_2P, 2),  # 1m in 111 or in 123
    ("1112345678999m +2m", GUOBIAO_2P, 1),  # 111 345 678 999 22
    ("222233334444m5z +5z", GUOBIAO_2P, 3),  # W6: 234×4, 222 333 444 234, seven pairs
    ("112233445566m5z +5z", GUOBIAO_2P, 2),  # W18: 123 123 456 456, seven pairs
    ("1111m33m55m7m22z55z +7m", GUOBIAO_2P, 1),  # W2: seven pairs only
    ("12m345m678m999m11z +3m", GUOBIAO_2P, 2),  # 3m in 123 (边张) or in 345
    ("111m333p555s77s99p +9p", REGULAR, 1),
    ("2m [1111z'] [2222z+] [5555m#] [9999m'] +2m", GUOBIAO_2P, 1),
    ("123m456m789m11z22z +3z", GUOBIAO_2P, 0),
    # 连七对, and the pair at 1m, 4m or 7m: 11 234 234 567 567 / 44 123 123 567 567 /
    # 77 123 123 456 456
    ("1122334455667m +7m", GUOBIAO_2P, 4),
]


@pytest.mark.parametrize(("text", "shapes", "expected"), COUNT_TABLE)
def test_reading_counts(text: str, shapes: ShapeSet, expected: int) -> None:
    found = readings(parse(text), shapes=shapes)
    assert len(found) == expected, [show(r) for r in found]
    assert is_winning(parse(text), shapes=shapes) == (expected > 0)


def test_nine_gates_waits_on_every_number() -> None:
    """九莲宝灯 waits on all nine numbers; each win has at least one reading."""
    for n in range(1, 10):
        hand = parse(f"1112345678999m +{n}m")
        assert readings(hand, shapes=GUOBIAO_2P), n


def test_nine_gates_plus_two() -> None:
    assert shown("1112345678999m +2m") == ["111m 345m 678m 999m <22m>"]


def test_edge_or_two_sided_is_two_readings() -> None:
    assert shown("12m345m678m999m11z +3m") == [
        "<123m> 345m 678m 999m 11z",
        "123m <345m> 678m 999m 11z",
    ]


def test_winning_tile_in_identical_groups_is_one_reading() -> None:
    # Two identical 234m chows hold the winning 4m: one reading, the first of them.
    assert shown("23m234m567m789m11z +4m") == ["<234m> 234m 567m 789m 11z"]


def test_pung_or_pair_of_the_winning_kind() -> None:
    # E15-like: the winning 9p completes the pung; 99p 77s are both pairs, so no other reading.
    assert shown("111m333p555s77s99p +9p", REGULAR) == ["111m 333p <999p> 555s 77s"]
    # E14: the same tiles waiting on the pair.
    assert shown("111m333p555s777s9p +9p", REGULAR) == ["111m 333p 555s 777s <99p>"]


def test_seven_pairs_with_a_quad() -> None:
    (reading,) = readings(parse("1111m33m55m7m22z55z +7m"), shapes=GUOBIAO_2P)
    assert reading.shape is Shape.SEVEN_PAIRS
    assert [str(g) for g in reading.groups] == ["11m", "11m", "33m", "55m", "77m", "22z", "55z"]
    assert reading.winning_group == 4
    assert reading.pair is None


def test_seven_pairs_needs_no_meld() -> None:
    # 暗杠 is a meld: a hand with one cannot be seven pairs (guobiao §3.2).
    assert not readings(parse("1133m5577m22z [9999m#] +2z"), shapes=frozenset({Shape.SEVEN_PAIRS}))


def test_melds_are_fixed_sets() -> None:
    hand = parse("123m1z555z666z [777z'] +1z")
    (reading,) = readings(hand, shapes=GUOBIAO_2P)
    assert show(reading) == "123m 555z 666z [777z] <11z>"
    meld_group = reading.groups[3]
    assert meld_group.meld == hand.melds[0]
    assert meld_group.kind is GroupKind.PUNG
    assert not meld_group.is_concealed
    assert reading.groups[1].is_concealed
    assert reading.pair == reading.groups[4]


def test_concealed_kong_is_concealed() -> None:
    (reading,) = readings(parse("123m456m1z [2222z#] [9999m#] +1z"), shapes=GUOBIAO_2P)
    kongs = [g for g in reading.groups if g.kind is GroupKind.KONG]
    assert len(kongs) == 2
    assert all(g.is_concealed for g in kongs)


def test_dealt_hand_has_no_winning_group() -> None:
    (reading,) = readings(parse("123m456m789m111z22z"), shapes=GUOBIAO_2P)
    assert reading.winning_group is None
    assert reading.winning is None
    assert reading.winning_kind is None


def test_wrong_size_has_no_reading() -> None:
    assert readings(parse("123m456m789m11z +1z"), shapes=GB) == []
    assert count_readings([0] * NUM_KINDS, shapes=GB) == []


def test_count_readings_matches_readings() -> None:
    hand = parse("123m1z555z666z [777z'] +1z")
    counts = hand.concealed_counts(with_winning=False)
    by_counts = count_readings(counts, melds=hand.melds, winning=hand.winning, shapes=GUOBIAO_2P)
    assert by_counts == readings(hand, shapes=GUOBIAO_2P)


def test_count_readings_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="34-long"):
        count_readings([1, 2, 3], shapes=GB)
    with pytest.raises(ValueError, match="wild winning tile"):
        count_readings([0] * NUM_KINDS, winning=3, winning_wild=True, shapes=GB)


def test_readings_are_deterministic_and_distinct() -> None:
    hand = parse("11122233344455m")
    first = readings(hand, shapes=GB)
    assert first == readings(hand, shapes=GB)
    assert len(set(first)) == len(first)


def test_group_and_reading_text() -> None:
    reading = readings(parse("123m1z555z666z [777z'] +1z"), shapes=GUOBIAO_2P)[0]
    assert str(reading) == "regular: 123m 555z 666z [777z] <11z>"
    assert reading.groups[0].first == 0
    assert reading.sets == reading.groups[:4]


# Special shapes of table gb (guobiao §3.3: impossible with one suit, recognised for three).

KNITTED_CASES = [
    # (hand, shape)
    ("147m258p369s1234z +6z", Shape.HONORS_AND_KNITTED),  # 全不靠
    ("147m258p1234567z +3s", Shape.HONORS_AND_KNITTED),  # 七星不靠
    ("147m258p369s123m5z +5z", Shape.KNITTED_STRAIGHT),  # 组合龙 + 123m + 5z5z
    ("19m19p19s1234567z +1m", Shape.THIRTEEN_ORPHANS),
]


@pytest.mark.parametrize(("text", "shape"), KNITTED_CASES)
def test_special_shapes(text: str, shape: Shape) -> None:
    hand = parse(text)
    found = readings(hand, shapes=GB)
    assert [r.shape for r in found] == [shape]
    assert not readings(hand, shapes=GUOBIAO_2P)
    (reading,) = found
    assert reading.winning is not None
    assert hand.winning in reading.winning.tiles


def test_honors_and_knitted_groups() -> None:
    (reading,) = readings(parse("147m258p369s1234z +6z"), shapes=GB)
    assert all(g.kind is GroupKind.SINGLE for g in reading.groups)
    assert len(reading.groups) == 14


def test_knitted_straight_groups() -> None:
    (reading,) = readings(parse("147m258p369s5z [1'23m] +5z"), shapes=GB)
    assert show(reading) == "147m 258p 369s [123m] <55z>"
    assert [g.kind for g in reading.groups[:3]] == [GroupKind.KNITTED] * 3


def test_thirteen_orphans_groups() -> None:
    (reading,) = readings(parse("19m19p19s1234567z +1m"), shapes=GB)
    assert [g.kind for g in reading.groups] == [GroupKind.SINGLE] * 12 + [GroupKind.PAIR]
    assert show(reading).endswith("<11m>")


# --------------------------------------------------------------------------------------------
# Properties on generated hands.

SUITED = [k for k in range(NUM_KINDS) if k < 27]


@st.composite
def complete_hands(draw: st.DrawFn) -> Hand:
    """A complete regular hand built from random groups (at most four copies of a kind)."""
    used: Counter[int] = Counter()

    def fits(tiles: list[int]) -> bool:
        extra = Counter(tiles)
        return all(used[k] + n <= 4 for k, n in extra.items())

    melds: list[Meld] = []
    concealed: list[int] = []
    n_melds = draw(st.integers(0, 4))
    for index in range(4):
        while True:
            if draw(st.booleans()):
                start = draw(st.sampled_from([k for k in SUITED if k % 9 <= 6]))
                tiles = [start, start + 1, start + 2]
            else:
                kind = draw(st.integers(0, NUM_KINDS - 1))
                size = 4 if index < n_melds and draw(st.integers(0, 3)) == 0 else 3
                tiles = [kind] * size
            if fits(tiles):
                break
        used.update(tiles)
        if index < n_melds:
            melds.append(_meld(tiles, draw(st.integers(0, 4))))
        else:
            concealed.extend(tiles)
    while True:
        kind = draw(st.integers(0, NUM_KINDS - 1))
        if fits([kind, kind]):
            break
    concealed.extend([kind, kind])
    if draw(st.integers(0, 5)) == 0:
        winning: int | None = None
    else:
        winning = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    return Hand(
        tuple(sorted(Tile(t) for t in concealed)),
        tuple(melds),
        None if winning is None else Tile(winning),
    )


def _meld(tiles: list[int], choice: int) -> Meld:
    physical = tuple(Tile(t) for t in tiles)
    if len(tiles) == 4:
        kind = (MeldKind.MING_GANG, MeldKind.JIA_GANG, MeldKind.AN_GANG)[choice % 3]
        return Meld(kind, physical, None if kind is MeldKind.AN_GANG else physical[0])
    if tiles[0] == tiles[1]:
        return Meld(MeldKind.PENG, physical, physical[0])
    return Meld(MeldKind.CHI, physical, physical[choice % 3])


def _hand_tiles(hand: Hand) -> Counter[int]:
    tiles = Counter(int(t) for t in hand.concealed)
    if hand.winning is not None:
        tiles[int(hand.winning)] += 1
    for meld in hand.melds:
        tiles.update(int(t) for t in meld.tiles)
    return tiles


def _oracle_sets(counts: list[int], n: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """All multisets of ``n`` sets: the lowest tile is in a pung or a chow starting there."""
    if n == 0:
        if not any(counts):
            yield ()
        return
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in _oracle_sets(counts, n - 1):
            yield ((i, i, i), *rest)
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        for rest in _oracle_sets(counts, n - 1):
            yield ((i, i + 1, i + 2), *rest)
        for k in (i, i + 1, i + 2):
            counts[k] += 1


def _oracle_regular(hand: Hand) -> set[tuple[tuple[tuple[int, ...], ...], tuple[int, ...] | None]]:
    """(sorted concealed groups incl. the pair, winning group) for every regular reading."""
    counts = hand.concealed_counts()
    out: set[tuple[tuple[tuple[int, ...], ...], tuple[int, ...] | None]] = set()
    for pair in range(NUM_KINDS):
        if counts[pair] < 2:
            continue
        counts[pair] -= 2
        for sets in _oracle_sets(counts, 4 - len(hand.melds)):
            groups = tuple(sorted((*sets, (pair, pair))))
            if hand.winning is None:
                out.add((groups, None))
            else:
                for g in groups:
                    if hand.winning in g:
                        out.add((groups, g))
        counts[pair] += 2
    return out


@pytest.mark.slow
@given(complete_hands())
@settings(max_examples=300, suppress_health_check=[HealthCheck.large_base_example])
def test_generated_hands_re_multiply(hand: Hand) -> None:
    found = readings(hand, shapes=GB)
    assert found
    assert len(set(found)) == len(found)
    for reading in found:
        tiles: Counter[int] = Counter()
        for group in reading.groups:
            tiles.update(group.tiles)
        assert tiles == _hand_tiles(hand)
        assert reading.wild_kinds == ()
        melds = [g.meld for g in reading.groups if g.meld is not None]
        assert melds == list(hand.melds)
        if hand.winning is None:
            assert reading.winning_group is None
        else:
            assert reading.winning is not None
            assert reading.winning.meld is None
            assert hand.winning in reading.winning.tiles
            assert reading.winning_kind == hand.winning


@pytest.mark.slow
@given(complete_hands())
@settings(max_examples=300, suppress_health_check=[HealthCheck.large_base_example])
def test_regular_readings_match_an_independent_enumerator(hand: Hand) -> None:
    found = readings(hand, shapes=frozenset({Shape.REGULAR}))
    mine = set()
    for reading in found:
        concealed = tuple(sorted(g.tiles for g in reading.groups if g.meld is None))
        win = None if reading.winning is None else reading.winning.tiles
        mine.add((concealed, win))
    assert len(mine) == len(found)
    assert mine == _oracle_regular(hand)


_GB_NAMES = [f"W{n}" for n in range(1, 10)] + [f"B{n}" for n in range(1, 10)]
_GB_NAMES += [f"T{n}" for n in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
_GB_SHANTEN = {
    Shape.REGULAR: MahjongGB.RegularShanten,
    Shape.SEVEN_PAIRS: MahjongGB.SevenPairsShanten,
    Shape.THIRTEEN_ORPHANS: MahjongGB.ThirteenOrphansShanten,
    Shape.HONORS_AND_KNITTED: MahjongGB.HonorsAndKnittedTilesShanten,
    Shape.KNITTED_STRAIGHT: MahjongGB.KnittedStraightShanten,
}


@st.composite
def thirteen_tiles(draw: st.DrawFn) -> list[int]:
    """13 concealed tiles, biased towards ready hands: few kinds, or a special-shape pool."""
    pools = [
        list(range(9)) + list(range(27, 34)),
        [0, 8, 9, 17, 18, 26, *range(27, 34)],
        [0, 3, 6, 10, 13, 16, 20, 23, 26, *range(27, 34)],
        list(range(NUM_KINDS)),
        list(range(4, 13)),
    ]
    pool = draw(st.sampled_from(pools))
    tiles: list[int] = []
    while len(tiles) < 13:
        kind = draw(st.sampled_from(pool))
        if tiles.count(kind) < 4:
            tiles.append(kind)
    return sorted(tiles)


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(_GB_SHANTEN))
@given(tiles=thirteen_tiles())
@settings(max_examples=150, suppress_health_check=[HealthCheck.large_base_example])
def test_is_winning_agrees_with_mahjonggb(shape: Shape, tiles: list[int]) -> None:
    """Our waits for one shape equal MahjongGB's useful tiles when it says shanten 0."""
    shanten, useful = _GB_SHANTEN[shape](tuple(_GB_NAMES[t] for t in tiles))
    counts = counts_of(tiles)
    theirs = {_GB_NAMES.index(u) for u in useful} if shanten == 0 else set()
    theirs = {t for t in theirs if counts[t] < 4}
    ours = set()
    for t in range(NUM_KINDS):
        hand = Hand(tuple(Tile(k) for k in tiles), (), Tile(t))
        if is_winning(hand, shapes=frozenset({shape})):
            ours.add(t)
    assert ours == theirs


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        # 组合龙 + one declared meld + the pair (MCR allows the set to be a meld).
        ("147m258p369s1z [1'23m] +1z", ["147m", "258p", "369s", "[123m]", "11z"]),
        ("147m369p258s7m [7'89s] +7m", ["147m", "369p", "258s", "[789s]", "77m"]),
    ],
)
def test_knitted_straight_with_a_meld(text: str, groups: list[str]) -> None:
    found = [r for r in readings(Hand.parse(text), shapes=GB) if r.shape is Shape.KNITTED_STRAIGHT]
    assert found
    assert {tuple(str(g) for g in r.groups) for r in found} == {tuple(groups)}
    assert all(r.groups[3].meld is not None for r in found)
