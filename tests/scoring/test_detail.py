"""Every family's score through the one :class:`~erren.scoring.detail.FamilyScore` interface:
the rows (names in both languages, value, count, the exact tiles and melds each row came from),
the total and its unit, on worked examples of the specs (guobiao-2p §5.3, xiamen §5.1, arcade
§6).  Expected values are the specs'; the tiles are the groups the spec names for each row."""

from __future__ import annotations

from dataclasses import replace

from erren.engine.result import HandResult, ResultKind, WinHow
from erren.families.arcade.scoring import ArcadeContext, Baoting, score_arcade
from erren.families.guobiao.scoring import WinContext, score
from erren.families.xiamen.scoring import (
    WinType,
    XiamenContext,
    XiamenScore,
    score_xiamen,
    settle_xiamen,
)
from erren.hand import Hand
from erren.notation import parse_tiles
from erren.scoring.detail import FamilyScore, ScoreRow, ScoreStep, ScoreUnit
from erren.server.protocol import result_json
from erren.tiles import Tile


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def row(names: tuple[str, str], value: int, count: int, text: str, *melds: int) -> ScoreRow:
    return ScoreRow(names[0], names[1], value, count, tiles(text), melds)


def check(detail: FamilyScore, rows: list[ScoreRow], total: int, unit: ScoreUnit) -> None:
    assert list(detail.rows) == rows
    assert (detail.total, detail.unit) == (total, unit)
    assert sum(r.points for r in detail.rows) == total
    assert detail.steps


# ------------------------------------------------------------------------------ guobiao-2p
def test_guobiao_w10_kong_on_kong_rows_and_tiles() -> None:
    """W10, table 2p: 杠上开花 10 + 连六 8 + 箭刻 4 + 暗杠 4 + 幺九刻 2 + 明杠 2 = 30.  杠上开花 is
    about the way the hand was won: the whole hand; 连六 the chows 123m and 456m; 箭刻 and 暗杠
    the [5555z#] kong (meld 0); 幺九刻 and 明杠 the [9999m+] kong (meld 1)."""
    hand = Hand.parse("12m456m11z [5555z#] [9999m+] +3m")
    ctx = WinContext(self_drawn=True, kong_replacement=True)
    whole = "1245m6m11z3m5555z9999m"
    check(
        score(hand, ctx, table="2p"),
        [
            row(("杠上开花", "Out with Replacement Tile"), 10, 1, whole, 0, 1),
            row(("连六", "Short Straight"), 8, 1, "123m456m"),
            row(("箭刻", "Dragon Pung"), 4, 1, "5555z", 0),
            row(("暗杠", "Concealed Kong"), 4, 1, "5555z", 0),
            row(("幺九刻", "Pung of Terminals or Winds"), 2, 1, "9999m", 1),
            row(("明杠", "Melded Kong"), 2, 1, "9999m", 1),
        ],
        30,
        ScoreUnit.FAN,
    )


def test_guobiao_w1_with_flowers_the_flower_row_holds_the_flowers() -> None:
    """W1, table 2p (清龙 16 + 幺九刻 2 = 18), with flowers 1f 3f exposed: 补花 2 per flower
    (§1.6, §4.2.2 #54) adds 2 × 2, made of the two flowers: 22."""
    hand = replace(Hand.parse("123456789m5z [111z'] +5z"), flowers=tiles("13f"))
    check(
        score(hand, table="2p"),
        [
            row(("清龙", "Pure Straight"), 16, 1, "123456789m"),
            row(("幺九刻", "Pung of Terminals or Winds"), 2, 1, "111z", 0),
            row(("补花", "Flower"), 2, 2, "1f3f"),
        ],
        22,
        ScoreUnit.FAN,
    )


def test_guobiao_w3_per_fan_counts_each_pung_once() -> None:
    """W3, table 2p: 碰碰和 12 (the four pungs, two of them melds) + 箭刻 4 (666z) + 双暗刻 4
    (111m, 999m) + 幺九刻 2×2 (111m, 999m) = 24."""
    hand = Hand.parse("111m999m2z [555m'] [666z'] +2z")
    check(
        score(hand, table="2p"),
        [
            row(("碰碰和", "All Pungs"), 12, 1, "111m999m555m666z", 0, 1),
            row(("箭刻", "Dragon Pung"), 4, 1, "666z", 1),
            row(("双暗刻", "Two Concealed Pungs"), 4, 1, "111m999m"),
            row(("幺九刻", "Pung of Terminals or Winds"), 2, 2, "111m999m"),
        ],
        24,
        ScoreUnit.FAN,
    )


# ------------------------------------------------------------------------------ xiamen
def test_xiamen_x03_water_rows_and_tiles() -> None:
    """X-03: gold 1z (Whites play East), dealer 自摸 6z, flowers 1f2f3f4f: seasons 8 (S-3) +
    777m 1 (S-7) + the three Whites as East 2 (S-8) + [5555m#] 3 (S-10) = 水 14; pays 44."""
    hand = Hand.parse("777m555z234m6z [5555m#] +6z", plays_as={Tile.WHITE: Tile.EAST})
    ctx = XiamenContext(gold=Tile.EAST, win_type=WinType.ZIMO, flowers=tiles("1234f"), dealer=True)
    result = score_xiamen(hand, ctx)
    detail = XiamenScore(result, settle_xiamen(result, winner=0))
    check(
        detail,
        [
            row(("春夏秋冬", "seasons group"), 8, 1, "1234f"),
            row(("普通暗刻", "concealed suit pung"), 1, 1, "777m"),
            row(("风暗刻", "concealed honor pung"), 2, 1, "555z"),
            row(("普通暗杠", "concealed suit kong"), 3, 1, "5555m", 0),
        ],
        14,
        ScoreUnit.WATER,
    )
    assert detail.settlement.total == 44


def test_xiamen_x13_golds_flowers_and_the_steps() -> None:
    """X-13: 游金 by the dealer on 连庄数 3, gold 8m, flowers 1f2f3f: gold 1 + flowers 3 +
    [777z'] 1 + 666m 1 = 水 6; raw (32 + 6) × 4 = 152, capped to 100, + 50 = 150."""
    hand = Hand.parse("234m345m666m8m [777z'] +1z", plays_as={Tile.WHITE: Tile.M8})
    ctx = XiamenContext(
        gold=Tile.M8, win_type=WinType.YOUJIN, flowers=tiles("123f"), dealer=True, streak=2
    )
    result = score_xiamen(hand, ctx)
    detail = XiamenScore(result, settle_xiamen(result, winner=0))
    check(
        detail,
        [
            row(("金牌", "gold"), 1, 1, "8m"),
            row(("花牌", "flower"), 1, 3, "123f"),
            row(("风刻", "claimed honor pung"), 1, 1, "777z", 0),
            row(("普通暗刻", "concealed suit pung"), 1, 1, "666m"),
        ],
        6,
        ScoreUnit.WATER,
    )
    assert detail.steps[1:3] == (
        ScoreStep("底 = 底分 8 × 2^2 = 32", "底 = base 8 × 2^2 = 32"),
        ScoreStep(
            "水 = 6：金牌 1 + 花牌 3 + 风刻 1 + 普通暗刻 1",
            "水 = 6: 金牌 1 + 花牌 3 + 风刻 1 + 普通暗刻 1",
        ),
    )
    assert detail.steps[4:7] == (
        ScoreStep(
            "实付 = min(原分 152, 封顶 100) = 100（封顶）",
            "paid = min(raw 152, cap 100) = 100 (capped)",
        ),
        ScoreStep("奖励 = 50（游金），不计入封顶", "bonus = 50 (游金), outside the cap"),
        ScoreStep("合计 = 实付 100 + 奖励 50 = 150 分", "total = paid 100 + bonus 50 = 150 points"),
    )


# ------------------------------------------------------------------------------ arcade
def test_arcade_e13_limit_hands_count_in_yakuman() -> None:
    """E13: 大四喜 ×2 (the four wind pungs, [222z'] among them) + 字一色 ×1 (every group, the
    66z pair included): N = 3 役满."""
    hand = Hand.parse("1113334466z [222z'] +4z")
    check(
        score_arcade(hand),
        [
            row(("大四喜", "Big four winds"), 2, 1, "111z333z444z222z", 0),
            row(("字一色", "All honors"), 1, 1, "111z333z444z222z66z", 0),
        ],
        3,
        ScoreUnit.YAKUMAN,
    )


def test_arcade_e32_a_wild_shows_as_its_face_and_flowers_as_the_flower_kind() -> None:
    """E32: W = 5z, F = 7z, one flower: 门清 1 + 花牌 1 (a 7z) + 三色同顺 2 (345m 345p and
    3s 4s with the White playing 5s) = 4 fan."""
    hand = Hand.parse("345m11345p3789s5z +4s")
    ctx = ArcadeContext(wild=Tile.WHITE, flowers=1)
    check(
        score_arcade(hand, ctx),
        [
            row(("门清", "Concealed hand"), 1, 1, "345m11345p3789s5z4s"),
            row(("花牌", "Flowers"), 1, 1, "7z"),
            row(("三色同顺", "Mixed triple sequence"), 2, 1, "345m345p34s5z"),
        ],
        4,
        ScoreUnit.FAN,
    )


# ------------------------------------------------------------------------------ the JSON
def test_the_server_sends_the_rows_and_each_row_s_groups() -> None:
    """W10 as the server sends it: ``rows`` from the interface, and ``fan_tiles`` with a
    row's loose tiles as one group and each declared meld it includes by index."""
    hand = Hand.parse("12m456m11z [5555z#] [9999m+] +3m")
    detail = score(hand, WinContext(self_drawn=True, kong_replacement=True), table="2p")
    fans = tuple((r.name_zh, r.value, r.count) for r in detail.rows)
    result = HandResult(
        ResultKind.WIN,
        winner=0,
        loser=1,
        how=WinHow.ZIMO,
        hand=hand,
        fans=fans,
        fan_total=30,
        detail=detail,
    )
    out = result_json(result)
    assert out is not None
    fan = {"zh": "番", "en": "fan", "caption": {"zh": "番种", "en": "Patterns"}}
    assert out["total"] == 30 and out["unit"] == fan
    assert out["rows"][1] == {
        "zh": "连六",
        "en": "Short Straight",
        "value": 8,
        "count": 1,
        "tiles": ["1m", "2m", "3m", "4m", "5m", "6m"],
        "melds": [],
        "id": "short_straight",  # the fan's id in the table: what the rules page files it under
    }
    assert out["fan_tiles"][0] == [
        {"tiles": ["1m", "2m", "4m", "5m", "6m", "1z", "1z", "3m"], "meld": None},
        {"tiles": ["5z", "5z", "5z", "5z"], "meld": 0},
        {"tiles": ["9m", "9m", "9m", "9m"], "meld": 1},
    ]
    assert out["fan_tiles"][2] == [{"tiles": ["5z", "5z", "5z", "5z"], "meld": 0}]
    assert out["steps"][1] == {"zh": "连六 8 (123m 456m)", "en": "Short Straight 8 (123m 456m)"}
    assert out["steps"][-1] == {"zh": "= 30", "en": "= 30"}


def test_fan_tiles_light_only_tiles_of_the_shown_hand() -> None:
    """E32 as the arcade engine shows it (flowers set aside, not in the hand): the 花牌 row
    keeps its 7z in ``rows`` but lights nothing of the shown hand; 三色同顺 lights 345m 345p
    and 3s 4s with the wild White."""
    hand = Hand.parse("345m11345p3789s5z +4s")
    detail = score_arcade(hand, ArcadeContext(wild=Tile.WHITE, flowers=1))
    fans = tuple((r.name_zh, r.value, r.count) for r in detail.rows)
    result = HandResult(
        ResultKind.WIN,
        winner=0,
        loser=1,
        how=WinHow.DISCARD,
        hand=hand,
        fans=fans,
        fan_total=4,
        detail=detail,
    )
    out = result_json(result)
    assert out is not None
    assert out["rows"][1]["tiles"] == ["7z"] and out["fan_tiles"][1] == []
    assert out["fan_tiles"][2] == [
        {"tiles": ["3m", "4m", "5m", "3p", "4p", "5p", "3s", "4s", "5z"], "meld": None}
    ]
    fan = {"zh": "番", "en": "fan", "caption": {"zh": "番种", "en": "Patterns"}}
    assert (out["total"], out["unit"]) == (4, fan)


def test_arcade_steps_in_both_languages() -> None:
    """E25's result line (R5.7): 15 fan over the cap, paid 13."""
    hand = Hand.parse("2233334455667p +7p")
    ctx = ArcadeContext(flowers=1, self_drawn=True, baoting=Baoting.MENQING)
    detail = score_arcade(hand, ctx)
    assert (detail.total, detail.unit) == (15, ScoreUnit.FAN)
    assert detail.steps[-1] == ScoreStep("= 15 → 封顶 13番", "= 15 → capped at 13 fan")
