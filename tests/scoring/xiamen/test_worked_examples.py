"""Every scoring example of xiamen §5.1 (X-01..X-22) and its summary row, plus the variants the
examples price in passing, and the 游金-ready table of L-06."""

from __future__ import annotations

import doctest
from dataclasses import dataclass

import pytest

from erren.families.xiamen.scoring import (
    NotAWinError,
    Outcome,
    WinType,
    XiamenContext,
    XiamenSettings,
    hand_counts,
    score_xiamen,
    settle_xiamen,
    settle_xiamen_draw,
    settle_xiamen_escape,
    you_ready,
)
from erren.hand import Hand
from erren.notation import parse_tile, parse_tiles
from erren.tiles import Tile

T = WinType


@dataclass(frozen=True)
class Example:
    """One line of the §5.1 summary plus what the example states about items and seats."""

    id: str
    gold: str
    hand: str
    win_type: WinType
    water: int
    base: int
    multiplier: int
    raw: int
    paid: int
    bonus: int
    total: int
    total_no_cap: int
    items: dict[str, int]
    dealer: bool = False
    streak: int = 0
    flowers: str = ""
    next_streak: int = 0


EXAMPLES = [
    Example("X-01", "4m", "123m678m222z9m [111z'] +9m", T.PINGHU, 5, 8, 1, 13, 13, 0, 13, 13,
            {"S-6": 1, "S-8": 2, "S-2": 2}, flowers="2f6f"),
    Example("X-02", "9m", "123m456m567m11m33z +3z", T.PINGHU, 1, 8, 1, 9, 9, 0, 9, 9,
            {"S-6": 1}, dealer=True, next_streak=1),
    Example("X-03", "1z", "777m555z234m6z [5555m#] +6z", T.ZIMO, 14, 8, 2, 44, 44, 0, 44, 44,
            {"S-10": 3, "S-7": 1, "S-8": 2, "S-3": 8}, dealer=True, flowers="1f2f3f4f",
            next_streak=1),
    Example("X-04", "5m", "46m5m888m123m99m33z +3z", T.ZIMO, 5, 8, 2, 26, 26, 0, 26, 26,
            {"S-1": 1, "S-7": 1, "S-8": 2, "S-2": 1}, flowers="5f"),
    Example("X-05", "7z", "111222333m456m9m +9m", T.ZIMO, 3, 16, 2, 38, 38, 0, 38, 38,
            {"S-7": 3}, dealer=True, streak=1, next_streak=2),
    Example("X-06", "2m", "1m2m3m5z5z5z456m789m1z +1z", T.ZIMO, 2, 8, 2, 20, 20, 0, 20, 20,
            {"S-1": 1, "S-7": 1}),
    Example("X-07", "5z", "1m5z5z456m789m11z33z +3z", T.ZIMO, 4, 8, 2, 24, 24, 0, 24, 24,
            {"S-1": 2, "S-8": 2}),
    Example("X-08", "9m", "8m [2222m+] [3333z'] [6666m#] [7777z#] +8m", T.ZIMO, 12, 8, 2, 40,
            40, 0, 40, 40, {"S-9": 2, "S-11": 3, "S-10": 3, "S-12": 4}),
    Example("X-09", "3m", "456m456m789m11z22z +2z", T.PINGHU, 17, 8, 1, 25, 25, 0, 25, 25,
            {"S-6": 1, "S-5": 16}, dealer=True, flowers="12345678f", next_streak=1),
    Example("X-10", "2m", "67m345m111z444z99m +8m", T.QIANGGANG, 5, 8, 2, 26, 26, 0, 26, 26,
            {"S-8": 4, "S-2": 1}, flowers="7f"),
    Example("X-11", "3z", "123m456m789m111z3z +9m", T.YOUJIN, 5, 8, 4, 52, 52, 50, 102, 102,
            {"S-1": 1, "S-8": 2, "S-2": 2}, flowers="3f8f"),
    Example("X-12", "9m", "111m345m678m222z9m +4z", T.YOUJIN, 4, 8, 4, 48, 48, 50, 98, 98,
            {"S-1": 1, "S-7": 1, "S-8": 2}),
    Example("X-13", "8m", "234m345m666m8m [777z'] +1z", T.YOUJIN, 6, 32, 4, 152, 100, 50, 150,
            202, {"S-1": 1, "S-7": 1, "S-6": 1, "S-2": 3}, dealer=True, streak=2,
            flowers="1f2f3f", next_streak=3),
    Example("X-14", "6m", "123m789m222z444z6m +1z", T.SHUANGYOU, 13, 8, 8, 168, 100, 100, 200,
            268, {"S-1": 1, "S-8": 4, "S-3": 8}, flowers="1f2f3f4f"),
    Example("X-15", "6m", "345m345m88m111z33z +3z", T.ZIMO, 5, 8, 2, 26, 26, 0, 26, 26,
            {"S-8": 4, "S-2": 1}, dealer=True, flowers="5f", next_streak=1),
    Example("X-16", "9m", "234m567m111z9m [777z']", T.SANYOU, 4, 8, 16, 192, 100, 150, 250,
            342, {"S-1": 1, "S-8": 2, "S-6": 1}, dealer=True, next_streak=1),
    Example("X-17", "4z", "123m567m999m22z77z +4z", T.QIANGJIN, 10, 8, 4, 72, 72, 0, 72, 72,
            {"S-1": 1, "S-7": 1, "S-4": 8}, flowers="5f6f7f8f"),
    Example("X-18", "2z", "234m456m888m11z55z +2z", T.QIANGJIN, 2, 8, 4, 40, 40, 0, 40, 40,
            {"S-1": 1, "S-7": 1}, dealer=True, next_streak=1),
    Example("X-19", "7m", "777m111z2m5m9m3z4z6z5z", T.SANJINDAO, 6, 8, 4, 56, 56, 0, 56, 56,
            {"S-1": 3, "S-8": 2, "S-2": 1}, flowers="1f"),
    Example("X-20", "5m", "123m789m444z66z77z +7z", T.PINGHU, 3, 32, 1, 35, 35, 0, 35, 35,
            {"S-8": 2, "S-6": 1}, streak=2),
]  # fmt: skip
"""§5.1; the summary table's columns: type, 底, 水, M, raw, paid (cap 100), bonus, total, total
with no cap.  X-21 and X-22 (no score) are tested below."""


def context(example: Example, **changes: object) -> XiamenContext:
    fields: dict[str, object] = {
        "gold": parse_tile(example.gold),
        "win_type": example.win_type,
        "flowers": tuple(parse_tiles(example.flowers)),
        "dealer": example.dealer,
        "streak": example.streak,
    }
    fields.update(changes)
    return XiamenContext(**fields)  # type: ignore[arg-type]


def parse(text: str, gold: str) -> Hand:
    return Hand.parse(text, plays_as={Tile.WHITE: parse_tile(gold)})


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_water_items(example: Example) -> None:
    result = score_xiamen(parse(example.hand, example.gold), context(example))
    assert result.water == example.water
    by_row: dict[str, int] = {}
    for item in result.items:
        by_row[item.id] = by_row.get(item.id, 0) + item.value
    assert by_row == example.items
    assert sum(item.value for item in result.items) == result.water
    assert result.explain().endswith(f"= 水 {example.water}")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_summary_row(example: Example) -> None:
    result = score_xiamen(parse(example.hand, example.gold), context(example))
    winner = 1
    s = settle_xiamen(result, winner=winner)
    assert s.outcome is Outcome.WIN and s.win_type is example.win_type
    row = (s.base, s.water, s.multiplier, s.raw, s.paid, s.bonus, s.total, s.total_without_cap)
    assert row == (
        example.base,
        example.water,
        example.multiplier,
        example.raw,
        example.paid,
        example.bonus,
        example.total,
        example.total_no_cap,
    )
    assert s.deltas == (-example.total, example.total)
    assert (s.winner, s.loser) == (1, 0)
    assert s.dealer == (1 if example.dealer else 0)
    assert (s.next_dealer, s.next_streak) == (winner, example.next_streak)
    uncapped = XiamenSettings(cap=0)
    free = settle_xiamen(score_xiamen(result.hand, context(example, settings=uncapped)))
    assert free.total == example.total_no_cap
    text = s.explain()
    assert f"= {example.total} points" in text and f"M {example.multiplier}" in text


def test_x06_the_gold_fills_the_chow() -> None:
    """The trap: the completeness search would leave White-White-gold and find 水 1."""
    result = score_xiamen(parse("1m2m3m5z5z5z456m789m1z +1z", "2m"), context(EXAMPLES[5]))
    assert result.reading is not None
    assert "123m{2m}" in str(result.reading) and "222m " in str(result.reading)
    pung = next(item for item in result.items if item.id == "S-7")
    assert pung.text == "555z" and "Whites as 2m" in result.explain()
    assert result.reading.groups[pung.groups[0]].wild_tiles == ()


def test_x01_next_dealer_is_the_winning_non_dealer() -> None:
    example = EXAMPLES[0]
    s = settle_xiamen(score_xiamen(parse(example.hand, "4m"), context(example)), winner=1)
    assert (s.dealer, s.next_dealer, s.next_streak, s.lianzhuang) == (0, 1, 0, 1)
    assert "next hand: seat 1 deals, 连庄数 1" in s.explain()


def test_x02_self_drawn_contrast() -> None:
    """Had the dealer drawn the 3z: a concealed honor pung, 水 2, 自摸 pays 20."""
    ctx = context(EXAMPLES[1], win_type=T.ZIMO)
    result = score_xiamen(parse("123m456m567m11m33z +3z", "9m"), ctx)
    assert result.water == 2 and settle_xiamen(result).total == 20


VARIANTS = [
    # 自摸 instead of the 游金 discard.
    ("3z", "123m456m789m111z3z +6z", T.ZIMO, "3f8f", (5, 26, 26)),
    # 自摸 with the two golds as the pair.
    ("9m", "111m345m678m222z9m +9m", T.ZIMO, "", (5, 26, 26)),
    # WIN on the second gold at level 1, then at level 2 (the variant).
    ("6m", "123m789m222z444z6m +6m", T.YOUJIN, "1f2f3f4f", (14, 138, 138)),
    ("6m", "123m789m222z444z6m +6m", T.SHUANGYOU, "1f2f3f4f", (14, 200, 276)),
    # WIN on the third gold at level 2.
    ("9m", "234m567m111z9m [777z'] +9m", T.SHUANGYOU, "", (5, 200, 204)),
]
"""(gold, hand, type, flowers, (水, total, total with no cap)) the examples price in passing."""


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v[1]} {v[2].value}")
def test_variants_priced_in_the_examples(
    variant: tuple[str, str, WinType, str, tuple[int, int, int]],
) -> None:
    gold, hand, win_type, flowers, expected = variant
    ctx = XiamenContext(
        gold=parse_tile(gold), win_type=win_type, flowers=tuple(parse_tiles(flowers))
    )
    result = score_xiamen(parse(hand, gold), ctx)
    s = settle_xiamen(result)
    assert (result.water, s.total, s.total_without_cap) == expected


def test_x13_next_hand() -> None:
    s = settle_xiamen(score_xiamen(parse(EXAMPLES[12].hand, "8m"), context(EXAMPLES[12])))
    assert (s.next_dealer, s.next_streak) == (0, 3)
    assert "连庄数 4 (w = 3), 底 64" in s.explain()


def test_x16_sanyou_reading_has_the_lone_gold() -> None:
    result = score_xiamen(parse("234m567m111z9m [777z']", "9m"), context(EXAMPLES[15]))
    assert result.reading is not None
    assert [str(g) for g in result.reading.groups] == [
        "234m",
        "567m",
        "111z",
        "[777z]",
        "9m{9m}",
    ]


def test_x19_sanjindao_is_not_decomposed() -> None:
    result = score_xiamen(parse("777m111z2m5m9m3z4z6z5z", "7m"), context(EXAMPLES[18]))
    assert result.reading is None
    assert [str(g) for g in result.groups] == ["111z"]


def test_x21_huang_scores_nothing() -> None:
    s = settle_xiamen_draw(dealer=1, streak=2)
    assert s.outcome is Outcome.DRAW
    assert (s.total, s.deltas, s.next_dealer, s.next_streak) == (0, (0, 0), 1, 2)
    assert "nobody scores" in s.explain()


def test_x22_escape_costs_400() -> None:
    s = settle_xiamen_escape(1, dealer=0)
    assert s.outcome is Outcome.ESCAPE
    assert (s.total, s.loser, s.winner, s.deltas, s.next_dealer) == (400, 1, 0, (400, -400), None)
    assert "penalty = 400 points" in s.explain()


@pytest.mark.parametrize(
    ("concealed", "ready"),
    [
        ("123m456m789m111z3z", True),
        ("12m3z456m789m111z9m", False),
        ("123m456m789m11z3z3z", True),
        ("123m456m78m111z55z", False),
    ],
)
def test_l06_you_ready(concealed: str, ready: bool) -> None:
    hand = Hand.parse(concealed)
    assert you_ready(*hand_counts(hand, Tile.WEST)) is ready


def test_x07_was_not_you_ready_before_the_draw() -> None:
    hand = Hand.parse("1m5z5z456m789m11z33z")
    assert you_ready(*hand_counts(hand, Tile.WHITE)) is False


@pytest.mark.parametrize(
    ("gold", "hand", "win_type", "reason"),
    [
        ("5m", "46m5m888m123m99m33z +3z", T.PINGHU, "holding a gold"),  # L-05
        ("5m", "46m5m888m123m99m33z +3z", T.QIANGGANG, "holding a gold"),
        ("5m", "46m888m123m99m333z +5m", T.PINGHU, "discarded gold"),  # L-04
        ("3z", "123m456m789m111z6z +6z", T.YOUJIN, "游金-ready"),
        ("3z", "123m456m789m1z6z7z1m +3z", T.QIANGJIN, "not complete"),
        ("3z", "123m456m789m111z6z +6z", T.QIANGJIN, "indicator"),
        ("7m", "77m111z2m5m9m3z4z6z5z1m", T.SANJINDAO, "three golds"),
        ("9m", "234m567m111z9m [777z'] +9m", T.SANYOU, "no winning tile"),
        ("9m", "234m567m111z3m [777z']", T.SANYOU, "游金-ready"),
        ("9m", "234m567m111z9m1z [777z']", T.ZIMO, "winning tile"),
        ("9m", "123m456m789m11z22z +1p", T.ZIMO, "饼/条"),
        ("5z", "123m456m789m1z [555z'] +1z", T.ZIMO, "meld"),
    ],
)
def test_impossible_wins_are_refused(gold: str, hand: str, win_type: WinType, reason: str) -> None:
    with pytest.raises(NotAWinError, match=reason):
        score_xiamen(parse(hand, gold), XiamenContext(gold=parse_tile(gold), win_type=win_type))


def test_doctests() -> None:
    import erren.families.xiamen.scoring as package  # noqa: PLC0415
    from erren.families.xiamen.scoring import context as module_context  # noqa: PLC0415
    from erren.families.xiamen.scoring import settlement as module_settlement  # noqa: PLC0415

    for module in (package, module_context, module_settlement):
        failed, _ = doctest.testmod(module)
        assert failed == 0
