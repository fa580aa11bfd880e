"""The worked examples of the three rules specs that concern shapes and decompositions.

Only the readings are checked here (they exist, or are the only ones); the scores belong to the
scoring tests.  Reading text: groups in reading order, melds in brackets, the group the winning
tile completed in ``<>``, the kinds that wilds stand for in ``{}``.
"""

from __future__ import annotations

import pytest

from erren.analysis.readings import Wilds, is_winning, readings
from erren.analysis.shapes import ARCADE, GB, GUOBIAO_2P, XIAMEN, Shape, ShapeSet
from erren.hand import Hand

XIAMEN_KINDS = frozenset([*range(9), *range(27, 34)])
WHITE = 31


def gold(kind: int) -> Wilds:
    """Xiamen's gold of kind ``kind``: no copy limit, the White stands in unless it is the gold."""
    return Wilds(
        kind=kind,
        max_copies=None,
        stand_in=None if kind == WHITE else WHITE,
        stands_for=XIAMEN_KINDS,
    )


def wild(kind: int) -> Wilds:
    """Arcade's 财神 ``W``: at most four of a kind in the resolved hand (R5.2)."""
    return Wilds(kind=kind)


def shown(text: str, shapes: ShapeSet, wilds: Wilds | None = None) -> list[str]:
    plays_as = {WHITE: wilds.kind} if wilds is not None and wilds.stand_in == WHITE else None
    hand = Hand.parse(text, plays_as=plays_as)
    return [str(r) for r in readings(hand, shapes=shapes, wilds=wilds)]


# --------------------------------------------------------------------------------------------
# guobiao-2p §4.2.3: every example hand of table 2p is a legal 2p shape.

GUOBIAO_TABLE_HANDS = [
    "444z2m [111z'] [222z'] [333z'] +2m",
    "123m1z555z666z [777z'] +1z",
    "2m [1111z'] [2222z+] [5555m#] [9999m'] +2m",
    "1122334455667m +7m",
    "123m111z222z333z4z +4z",
    "123m456m555z666z7z +7z",
    "111z222z555z66z77z +7z",
    "111m333m555m999m2m +2m",
    "234m234m5z [2'34m] [2'34m] +5z",
    "1112345678999m +5m",
    "123m123m789m789m5m +5m",
    "123m456m789m111z22z",
    "333m444m5z [111m'] [222m'] +5z",
    "123m234m345m456m7z +7z",
    "666m777m888m9m [7'89m] +9m",
    "123m456m789m111z2z +2z",
    "1112222333344m +4m",
    "123m5z [1111z'] [2222z#] [9999m+] +5z",
    "113355m6m112277z +6m",
    "123m123m555z7z [1'23m] +7z",
    "222m333m444m567m1z +1z",
    "123m456m789m111z2z +2z",
    "123m234m345m999m1z +1z",
    "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
    "111m555m777z234m9m +9m",
    "111m999m2z [333z'] [555m'] +2z",
    "123m111z222z333z5m +5m",
    "123m456m8m [2'34m] [555z'] +8m",
    "123m234m678m999m5m +5m",
    "123m456m78m11z [2222z#] +9m",
    "123m456m78m11z [555z'] +9m",
    "123m456m555z666z1z +1z",
    "123m456m999m555z1z +1z",
    "123m789m555m111z2z +2z",
    "123m456m1z [2222z#] [9999m#] +1z",
    "123m234m678m999m5z +5z",
    "123m456m1z [2222z'] [9999m+] +1z",
    "123m234m678m111z5z +5z",
    "123m234m67m111z55z +8m",
    "123m234m678m555z1z +1z",
    "123m234m678m999m1z +1z",
    "123m234m567m678m9m +9m",
    "123m345m678m3m111z +3m",
    "111m555m234m678m9m +9m",
    "123m234m1z [6'78m] [555m'] +1z",
    "123m234m678m1z [5555m#] +1z",
    "234m345m567m678m8m +8m",
    "123m123m555z666z1z +1z",
    "555m678m1z [1'23m] [2'34m] +1z",
    "123m234m1z [2222z'] [6'78m] +1z",
]


@pytest.mark.parametrize("text", GUOBIAO_TABLE_HANDS)
def test_guobiao_table_hands_are_complete(text: str) -> None:
    assert is_winning(Hand.parse(text), shapes=GUOBIAO_2P)


GUOBIAO_READINGS = [
    # (id, hand, the exact list of readings under the 2p shapes)
    ("W1", "123456789m5z [111z'] +5z", ["regular: 123m 456m 789m [111z] <55z>"]),
    ("W2", "1111m33m55m7m22z55z +7m", ["seven_pairs: 11m 11m 33m 55m <77m> 22z 55z"]),
    ("W3", "111m999m2z [555m'] [666z'] +2z", ["regular: 111m 999m [555m] [666z] <22z>"]),
    ("W4", "234m567m8m [6'78m] [777z'] +8m", ["regular: 234m 567m [678m] [777z] <88m>"]),
    ("W5", "123m234m678m999m5m +5m", ["regular: 123m 234m 678m 999m <55m>"]),
    (
        "W6",
        "222233334444m5z +5z",
        [
            "regular: 222m 234m 333m 444m <55z>",
            "regular: 234m 234m 234m 234m <55z>",
            "seven_pairs: 22m 22m 33m 33m 44m 44m <55z>",
        ],
    ),
    ("W7", "123m456m78m11z [555z'] +9m", ["regular: 123m 456m <789m> [555z] 11z"]),
    ("W8", "234m456m9m [111z'] [7'89m] +9m", ["regular: 234m 456m [111z] [789m] <99m>"]),
    (
        "W9",
        "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
        ["regular: [123m] [456m] [777z] [999m] <55z>"],
    ),
    ("W10", "12m456m11z [5555z#] [9999m+] +3m", ["regular: <123m> 456m [5555z] [9999m] 11z"]),
    ("W11", "123m234m678m111z5z +5z", ["regular: 123m 234m 678m 111z <55z>"]),
    ("W12", "123m456m789m111z22z", ["regular: 123m 456m 789m 111z 22z"]),
    ("W13", "123m345m567m999m8m +8m", ["regular: 123m 345m 567m 999m <88m>"]),
    ("W14", "555m678m1z [1'23m] [2'34m] +1z", ["regular: 555m 678m [123m] [234m] <11z>"]),
    ("W15", "123m456m456m111z2z +2z", ["regular: 123m 456m 456m 111z <22z>"]),
    ("W16", "123m456m456m5z [1'23m] +5z", ["regular: 123m 456m 456m [123m] <55z>"]),
    ("W17", "123m1z555z666z [777z'] +1z", ["regular: 123m 555z 666z [777z] <11z>"]),
    (
        "W18",
        "112233445566m5z +5z",
        [
            "regular: 123m 123m 456m 456m <55z>",
            "seven_pairs: 11m 22m 33m 44m 55m 66m <55z>",
        ],
    ),
    # Table 2p examples whose fans depend on the decomposition.
    ("#8", "111m333m555m999m2m +2m", ["regular: 111m 333m 555m 999m <22m>"]),
    ("#10", "1112345678999m +5m", ["regular: 111m 234m 678m 999m <55m>"]),
    (
        "#15",
        "666m777m888m9m [7'89m] +9m",
        [
            "regular: 666m 777m 888m [789m] <99m>",
            "regular: 678m 678m 678m [789m] <99m>",
            "regular: 678m <789m> 789m [789m] 66m",
        ],
    ),
    (
        "#17",
        "1112222333344m +4m",
        [
            "regular: 111m 222m <234m> 333m 44m",
            "regular: 111m 222m 234m 333m <44m>",  # the reading of the worked result
            "regular: 123m 123m 123m <234m> 44m",
            "regular: 123m 123m 123m 234m <44m>",
            "regular: 123m 222m 333m <444m> 11m",
            "regular: 123m <234m> 234m 234m 11m",
        ],
    ),
    (
        "#44",
        "123m345m678m3m111z +3m",
        [
            "regular: <123m> 345m 678m 111z 33m",
            "regular: 123m <345m> 678m 111z 33m",
            "regular: 123m 345m 678m 111z <33m>",
        ],
    ),
]


@pytest.mark.parametrize(("label", "text", "expected"), GUOBIAO_READINGS)
def test_guobiao_readings(label: str, text: str, expected: list[str]) -> None:
    assert shown(text, GUOBIAO_2P) == expected, label


def test_guobiao_2p_never_reads_the_three_suit_shapes() -> None:
    """§3.3: the 2p recogniser accepts only §3.1 and §3.2; table gb knows the others."""
    for text in ("19m19p19s1234567z +1m", "147m258p369s1234z +6z", "147m258p369s123m5z +5z"):
        assert shown(text, GUOBIAO_2P) == []
        assert len(shown(text, GB)) == 1


# --------------------------------------------------------------------------------------------
# xiamen §5: golds and Whites, and the decomposition choices of.

XIAMEN_CASES = [
    # (id, gold kind, hand, readings that must be present, exact number of readings or None)
    ("X-01", 3, "123m678m222z9m [111z'] +9m", ["regular: 123m 678m 222z [111z] <99m>"], 1),
    ("X-02", 8, "123m456m567m11m33z +3z", ["regular: 123m 456m 567m <333z> 11m"], 1),
    ("X-03", 27, "777m555z234m6z [5555m#] +6z", ["regular: 234m 777m 111z [5555m] <66z>"], 1),
    ("X-04", 4, "46m5m888m123m99m33z +3z", ["regular: 123m 456m{5m} 888m <333z> 99m"], None),
    (
        "X-05",
        33,
        "111222333m456m9m +9m",
        ["regular: 111m 222m 333m 456m <99m>", "regular: 123m 123m 123m 456m <99m>"],
        2,
    ),
    (
        "X-06",
        1,
        "1m2m3m5z5z5z456m789m1z +1z",
        [
            "regular: 123m{2m} 222m 456m 789m <11z>",  # the best: three Whites are a pung
            "regular: 123m 222m{2m} 456m 789m <11z>",  # a White in the chow
        ],
        None,
    ),
    (
        "X-07",
        31,
        "1m5z5z456m789m11z33z +3z",
        [
            "regular: 111m{1m1m} 456m 789m <333z> 11z",
            "regular: 123m{2m3m} 456m 789m <333z> 11z",
        ],
        None,
    ),
    (
        "X-08",
        8,
        "8m [2222m+] [3333z'] [6666m#] [7777z#] +8m",
        ["regular: [2222m] [3333z] [6666m] [7777z] <88m>"],
        1,
    ),
    ("X-09", 2, "456m456m789m11z22z +2z", ["regular: 456m 456m 789m <222z> 11z"], 1),
    ("X-10", 1, "67m345m111z444z99m +8m", ["regular: 345m <678m> 111z 444z 99m"], 1),
    ("X-11", 29, "123m456m789m111z3z +9m", ["regular: 123m 456m 789m 111z <99m{9m}>"], None),
    ("X-12", 8, "111m345m678m222z9m +4z", ["regular: 111m 345m 678m 222z <44z{4z}>"], None),
    ("X-13", 7, "234m345m666m8m [777z'] +1z", ["regular: 234m 345m 666m [777z] <11z{1z}>"], None),
    ("X-14", 5, "123m789m222z444z6m +1z", ["regular: 123m 789m 222z 444z <11z{1z}>"], None),
    ("X-15", 5, "345m345m88m111z33z +3z", ["regular: 345m 345m 111z <333z> 88m"], 1),
    (
        "X-17",
        30,
        "123m567m999m22z77z +4z",
        ["regular: 123m 567m 999m <222z{2z}> 77z", "regular: 123m 567m 999m <777z{7z}> 22z"],
        2,
    ),
    (
        "X-18",
        28,
        "234m456m888m11z55z +2z",
        ["regular: 234m 456m 888m <111z{1z}> 22z", "regular: 234m 456m 888m <222z{2z}> 11z"],
        2,
    ),
    ("X-20", 4, "123m789m444z66z77z +7z", ["regular: 123m 789m 444z <777z> 66z"], 1),
]


@pytest.mark.parametrize(("label", "kind", "text", "present", "count"), XIAMEN_CASES)
def test_xiamen_readings(
    label: str, kind: int, text: str, present: list[str], count: int | None
) -> None:
    found = shown(text, XIAMEN, gold(kind))
    for reading in present:
        assert reading in found, (label, found)
    if count is not None:
        assert len(found) == count, (label, found)


def test_xiamen_x14_variant_wins_on_the_third_gold() -> None:
    found = readings(Hand.parse("123m789m222z444z6m +6m"), shapes=XIAMEN, wilds=gold(5))
    assert found
    assert all(r.winning_wild and len(r.wild_kinds) == 2 for r in found)


def test_xiamen_x16_three_you_reads_without_a_pair() -> None:
    """R-4.4: a 三游 hand minus one gold forms n groups.  With one more gold as the winning tile
    that is a reading whose pair is two golds."""
    found = readings(Hand.parse("234m567m111z9m [777z'] +9m"), shapes=XIAMEN, wilds=gold(8))
    two_gold_pairs = [r for r in found if r.pair is not None and len(r.pair.wild_tiles) == 2]
    assert len(two_gold_pairs) == 16  # a pair of any of the 16 kinds
    assert all(str(r).startswith("regular: 234m 567m 111z [777z]") for r in two_gold_pairs)


# --------------------------------------------------------------------------------------------
# arcade §6: interpretations (R5.1) — wild assignment, form, decomposition, winning group.

ARCADE_CASES = [
    # (id, wild kind or None, hand, interpretations that must be present, exact count or None)
    ("E1", None, "234m567m234p45s77p +3s", ["regular: 234m 567m 234p <345s> 77p"], 1),
    (
        "E3",
        None,
        "22334m556677p99s +4m",
        ["regular: <234m> 234m 567p 567p 99s", "seven_pairs: 22m 33m <44m> 55p 66p 77p 99s"],
        2,
    ),
    (
        "E4",
        None,
        "111222333m456p7s +7s",
        ["regular: 111m 222m 333m 456p <77s>", "regular: 123m 123m 123m 456p <77s>"],
        2,
    ),
    ("E6", None, "1234556777789m +5m", ["regular: 123m 456m 777m 789m <55m>"], None),
    ("E11", 22, "12345678m1112z5s +2z", ["regular: 123m 456m 789m{9m} 111z <22z>"], None),
    (
        "E12",
        22,
        "19m19p19s123467z5s +1m",
        ["thirteen_orphans: 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z{5z} 6z 7z <11m>"],
        1,
    ),
    ("E13", None, "1113334466z [222z'] +4z", ["regular: 111z 333z <444z> [222z] 66z"], 1),
    ("E14", None, "111m333p555s777s9p +9p", ["regular: 111m 333p 555s 777s <99p>"], 1),
    ("E15", None, "111m333p555s77s99p +9p", ["regular: 111m 333p <999p> 555s 77s"], 1),
    ("E16", None, "1112345678999p +5p", ["regular: 111p 234p 678p 999p <55p>"], 1),
    ("E17", None, "1112345678899p +9p", ["regular: 111p 234p 567p <999p> 88p"], 1),
    (
        "E18",
        None,
        "666777888999m5m +5m",
        ["regular: 666m 777m 888m 999m <55m>", "regular: 678m 678m 678m 999m <55m>"],
        None,
    ),
    ("E19", None, "55599m1122p3344s +5m", ["seven_pairs: <55m> 55m 99m 11p 22p 33s 44s"], 1),
    ("E20", None, "55559m1122p3344s +9m", ["seven_pairs: 55m 55m <99m> 11p 22p 33s 44s"], 1),
    ("E21", 22, "234m56p666z777z5s5s +7p", ["regular: 234m <567p> 666z 777z 55z{5z5z}"], None),
    (
        "E24",
        None,
        "2233445566788p +7p",
        [
            "regular: 234p 234p <567p> 567p 88p",
            "regular: 234p 234p <678p> 678p 55p",
            "regular: 345p 345p <678p> 678p 22p",
            "seven_pairs: 22p 33p 44p 55p 66p <77p> 88p",  # 大车轮
        ],
        4,
    ),
    (
        "E25",
        None,
        "2233334455667p +7p",
        ["regular: 234p 234p <567p> 567p 33p", "seven_pairs: 22p 33p 33p 44p 55p 66p <77p>"],
        None,
    ),
    ("E26", 22, "234m456p789s13s66z +5s", ["regular: 234m 456p <123s{2s}> 789s 66z"], 1),
    (
        "E32",
        31,
        "345m11345p3789s5z +4s",
        ["regular: 345m 345p <345s{5s}> 789s 11p", "regular: 345m 345p <234s{2s}> 789s 11p"],
        None,
    ),
    (
        "E33",
        22,
        "1112223334z555s +4z",
        [
            "regular: 111z 222z 333z <444z{4z}> 55z{5z5z}",  # the best: 大四喜
            "regular: 111z 222z 333z 555z{5z5z5z} <44z>",
        ],
        None,
    ),
    ("E35", None, "345m456p12s789s66m +3s", ["regular: 345m 456p <123s> 789s 66m"], 1),
    ("T2", None, "555m123555p55s99s +5s", ["regular: 555m 123p 555p <555s> 99s"], 1),
    ("T7", 22, "123m9p555s666777z +9p", ["regular: 123m 555z{5z5z5z} 666z 777z <99p>"], None),
]


@pytest.mark.parametrize(("label", "kind", "text", "present", "count"), ARCADE_CASES)
def test_arcade_interpretations(
    label: str, kind: int | None, text: str, present: list[str], count: int | None
) -> None:
    found = shown(text, ARCADE, None if kind is None else wild(kind))
    for reading in present:
        assert reading in found, (label, found)
    if count is not None:
        assert len(found) == count, (label, found)


def test_arcade_e21_no_fifth_dragon() -> None:
    """R5.2: the wild pair cannot be 66z or 77z, which would make five of that kind."""
    found = shown("234m56p666z777z5s5s +7p", ARCADE, wild(22))
    assert not any("66z{" in r or "77z{" in r for r in found)


def test_arcade_e22_free_green_is_not_a_shape() -> None:
    """E22 wins only as free-form 绿一色 (R5.1), which is none of the five shapes: no reading."""
    hand = Hand.parse("2233446688s666z +4s")
    assert readings(hand, shapes=ARCADE) == []
    assert Shape.REGULAR in ARCADE
