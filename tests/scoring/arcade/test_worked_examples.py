"""Every worked example of arcade §6 (E1–E35) and the pattern-table examples §6.2 (T1–T15):
the patterns in table order, the total, the versus points and the stage payout at m = 1."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from erren.families.arcade.scoring import ArcadeContext, Baoting, FirstTurn, score_arcade
from erren.hand import Hand
from erren.tiles import Tile

RON = ArcadeContext()
TSUMO = ArcadeContext(self_drawn=True)
W5S = Tile.S5


@dataclass(frozen=True)
class Example:
    id: str
    hand: str
    ctx: ArcadeContext
    patterns: str  # "门清 1, 平和 1": as the spec lists them, in table order
    total: int  # F_total, or N for a limit hand
    versus: int
    stage: int


_ex = Example


EXAMPLES = [
    _ex("E1", "234m567m234p45s77p +3s", RON, "门清 1, 平和 1, 断幺九 1", 3, 3, 600),
    _ex(
        "E2",
        "123m789m456p78s99p +9s",
        ArcadeContext(self_drawn=True, baoting=Baoting.MENQING),
        "门清 1, 门清报听 1, 平和 1, 门清自摸 1",
        4,
        4,
        1000,
    ),
    _ex("E3", "22334m556677p99s +4m", RON, "门清 1, 平和 1, 两杯口 4", 6, 6, 2100),
    _ex("E4", "111222333m456p7s +7s", RON, "门清 1, 三暗刻 2, 三连刻 3", 6, 6, 2100),
    _ex("E5", "12345678p22z [666z'] +9p", RON, "混一色 3, 一气通贯 2", 5, 5, 1500),
    _ex(
        "E6",
        "1234556777789m +5m",
        TSUMO,
        "门清 1, 门清自摸 1, 清一色 5, 一气通贯 2",
        9,
        9,
        4500,
    ),
    _ex(
        "E7",
        "234m67p345s55p [9999s#] +8p",
        ArcadeContext(self_drawn=True, kong_replacement=True),
        "门清 1, 门清自摸 1, 杠上开花 2",
        4,
        4,
        1000,
    ),
    _ex(
        "E8",
        "345m67m345p345s88p +8m",
        ArcadeContext(self_drawn=True, kong_replacement=True, flowers=1),
        "门清 1, 平和 1, 断幺九 1, 门清自摸 1, 花牌 1, 三色同顺 2, 杠上开花 2",
        9,
        9,
        4500,
    ),
    _ex(
        "E9",
        "345m78p66s [4'56s] [222p'] +6p",
        ArcadeContext(last_tile=True),
        "断幺九 1, 河底捞鱼 1",
        2,
        2,
        300,
    ),
    _ex(
        "E10",
        "456p23s55m [7'89m] [333z'] +1s",
        ArcadeContext(flowers=2),
        "推倒胡 1, 花牌 2",
        3,
        3,
        600,
    ),
    _ex(
        "E11",
        "12345678m1112z5s +2z",
        ArcadeContext(wild=W5S, self_drawn=True),
        "门清 1, 门清自摸 1, 混一色 3, 一气通贯 2",
        7,
        7,
        2800,
    ),
    _ex("E12", "19m19p19s123467z5s +1m", ArcadeContext(wild=W5S), "国士无双 ×1", 1, 13, 10000),
    _ex("E13", "1113334466z [222z'] +4z", RON, "大四喜 ×2, 字一色 ×1", 3, 13, 30000),
    _ex("E14", "111m333p555s777s9p +9p", RON, "四暗刻 ×1", 1, 13, 10000),
    _ex("E15", "111m333p555s77s99p +9p", RON, "门清 1, 碰碰胡 2, 三暗刻 2", 5, 5, 1500),
    _ex("E16", "1112345678999p +5p", TSUMO, "九莲宝灯 ×1", 1, 13, 10000),
    _ex("E17", "1112345678899p +9p", TSUMO, "门清 1, 门清自摸 1, 清一色 5", 7, 7, 2800),
    _ex("E18", "666777888999m5m +5m", TSUMO, "四暗刻 ×1, 四连刻 ×1, 百万石 ×1", 3, 13, 30000),
    _ex("E19", "55599m1122p3344s +5m", RON, "门清 1, 龙七对 6", 7, 7, 2800),
    _ex("E20", "55559m1122p3344s +9m", RON, "门清 1, 七对子 3", 4, 4, 1000),
    _ex("E21", "234m56p666z777z5s5s +7p", ArcadeContext(wild=W5S), "门清 1, 小三元 4", 5, 5, 1500),
    _ex("E22", "2233446688s666z +4s", TSUMO, "绿一色 ×1", 1, 13, 10000),
    _ex("E23", "123456789s1114z +4z", RON, "东北新干线 ×1", 1, 13, 10000),
    _ex(
        "E24",
        "2233445566788p +7p",
        ArcadeContext(self_drawn=True, baoting=Baoting.MENQING, flowers=1),
        "大车轮 ×1",
        1,
        13,
        10000,
    ),
    _ex(
        "E25",
        "2233334455667p +7p",
        ArcadeContext(self_drawn=True, baoting=Baoting.MENQING, flowers=1),
        "门清 1, 门清报听 1, 平和 1, 断幺九 1, 门清自摸 1, 花牌 1, 两杯口 4, 清一色 5",
        15,
        13,
        9100,
    ),
    _ex(
        "E26",
        "234m456p789s13s66z +5s",
        ArcadeContext(wild=W5S, haidi=True, baoting=Baoting.MENQING),
        "门清 1, 门清报听 1, 门清自摸 1, 海底捞月 1",
        4,
        4,
        1000,
    ),
    _ex(
        "E27",
        "678m345p234s56s77p +7s",
        ArcadeContext(robbing_kong=True),
        "门清 1, 平和 1, 断幺九 1, 门清自摸 1",
        4,
        4,
        1000,
    ),
    _ex(
        "E28",
        "123m456m789p1112z +2z",
        ArcadeContext(first_turn=FirstTurn.TIANHU, dealer=True, flowers=3),
        "天和 ×1",
        1,
        13,
        10000,
    ),
    _ex(
        "E29",
        "234m456p678s5599s +9s",
        ArcadeContext(first_turn=FirstTurn.DIHU),
        "地和 ×1",
        1,
        13,
        10000,
    ),
    _ex(
        "E30",
        "12345m33456p789s +6m",
        ArcadeContext(baoting=Baoting.TIANTING),
        "门清 1, 天听 2, 平和 1",
        4,
        4,
        1000,
    ),
    _ex("E31", "111m999p99s11122z +2z", RON, "门清 1, 碰碰胡 2, 三暗刻 2, 混老头 2", 7, 7, 2800),
    _ex(
        "E32",
        "345m11345p3789s5z +4s",
        ArcadeContext(wild=Tile.WHITE, flowers=1),
        "门清 1, 花牌 1, 三色同顺 2",
        4,
        4,
        1000,
    ),
    _ex(
        "E33",
        "1112223334z555s +4z",
        ArcadeContext(wild=W5S, self_drawn=True),
        "大四喜 ×2, 四暗刻 ×1, 字一色 ×1",
        4,
        13,
        40000,
    ),
    _ex("E34", "567m567p56s99s [111z'] +7s", RON, "三色同顺 2", 2, 2, 300),
    _ex(
        "E35",
        "345m456p12s789s66m +3s",
        ArcadeContext(self_drawn=True, last_tile=True),
        "门清 1, 门清自摸 1, 河底捞月 1",
        3,
        3,
        600,
    ),
]

TABLE_EXAMPLES = [
    _ex("T1", "112233m456p789s5s +5s", RON, "门清 1, 一杯口 2", 3, 3, 600),
    _ex("T2", "555m123555p55s99s +5s", RON, "门清 1, 三色同刻 3", 4, 4, 1000),
    _ex("T3", "123m789p99s78s111z +9s", RON, "门清 1, 混全带幺 3", 4, 4, 1000),
    _ex("T4", "123m789m123p78s99s +9s", RON, "门清 1, 平和 1, 纯全带幺 4", 6, 6, 2100),
    _ex(
        "T5",
        "234m78m345p456s11z +9m",
        ArcadeContext(first_turn=FirstTurn.RENHU, self_drawn=True),
        "人和 ×1",
        1,
        13,
        10000,
    ),
    _ex("T6", "56m11122233344z +7m", RON, "小四喜 ×1", 1, 13, 10000),
    _ex("T7", "123m9p555s666777z +9p", ArcadeContext(wild=W5S), "大三元 ×1", 1, 13, 10000),
    _ex("T8", "444555666p1z [333p'] +1z", RON, "四连刻 ×1", 1, 13, 10000),
    _ex("T9", "9m [1111m#] [2222p'] [3333s+] [4444z#] +9m", RON, "四杠子 ×1", 1, 13, 10000),
    _ex("T10", "6777888999m789m +6m", RON, "百万石 ×1", 1, 13, 10000),
    _ex("T11", "1112223377z666z +3z", RON, "字一色 ×1", 1, 13, 10000),
    _ex("T12", "999m111p999p9s [111m'] +9s", RON, "清老头 ×1", 1, 13, 10000),
    _ex("T13", "111s555s99s77z [777s'] +7z", RON, "红孔雀 ×1", 1, 13, 10000),
    _ex(
        "T14",
        "345m78p66s [4'56s] [222p'] +6p",
        ArcadeContext(self_drawn=True, baoting=Baoting.OPEN),
        "断幺九 1",
        1,
        1,
        100,
    ),
    _ex("T15", "111222333m456p7s +7s", TSUMO, "门清 1, 门清自摸 1, 三暗刻 2, 三连刻 3", 7, 7, 2800),
]


@pytest.mark.parametrize("ex", EXAMPLES + TABLE_EXAMPLES, ids=lambda ex: ex.id)
def test_worked_example(ex: Example) -> None:
    result = score_arcade(Hand.parse(ex.hand), ex.ctx)
    assert ", ".join(str(hit) for hit in result.patterns) == ex.patterns, result.explain()
    total = result.yakuman if result.yakuman else result.fan
    assert total == ex.total
    assert result.points == ex.versus
    assert result.stage_payout() == ex.stage
