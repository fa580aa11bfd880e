"""Every worked example of guobiao-2p §4.2.3 (table `2p`) and §5.3 (both tables)."""

from __future__ import annotations

from typing import Any

import pytest

from erren.hand import Hand
from erren.scoring.guobiao import WinContext, score
from erren.tiles import Tile

DISCARD = WinContext()
SELF = WinContext(self_drawn=True)

# (label, hand, context, expected fans as {中文: count×value}, total) for table 2p, §4.2.3.
EXAMPLES_2P: list[tuple[str, str, WinContext, dict[str, int], int]] = [
    ("1 大四喜", "444z2m [111z'] [222z'] [333z'] +2m", DISCARD, {"大四喜": 88}, 88),
    ("2 大三元", "123m1z555z666z [777z'] +1z", DISCARD, {"大三元": 66, "双暗刻": 4}, 70),
    (
        "3 四杠",
        "2m [1111z'] [2222z+] [5555m#] [9999m'] +2m",
        DISCARD,
        {"四杠": 66, "幺九刻": 6},
        72,
    ),
    ("4 连七对", "1122334455667m +7m", DISCARD, {"连七对": 66}, 66),
    ("5 小四喜", "123m111z222z333z4z +4z", DISCARD, {"小四喜": 44, "三暗刻": 16, "门前清": 4}, 64),
    (
        "6 小三元",
        "123m456m555z666z7z +7z",
        DISCARD,
        {"小三元": 44, "连六": 8, "门前清": 4, "双暗刻": 4},
        60,
    ),
    (
        "7 字一色",
        "111z222z555z66z77z +7z",
        DISCARD,
        {"小三元": 44, "字一色": 44, "三暗刻": 16, "门前清": 4},
        108,
    ),
    ("8 四暗刻", "111m333m555m999m2m +2m", DISCARD, {"四暗刻": 44, "清一色": 10, "幺九刻": 4}, 58),
    ("9 一色四同顺", "234m234m5z [2'34m] [2'34m] +5z", DISCARD, {"一色四同顺": 32}, 32),
    ("10 九莲宝灯", "1112345678999m +5m", DISCARD, {"九莲宝灯": 32, "双暗刻": 4, "幺九刻": 2}, 38),
    ("11 一色双龙会", "123m123m789m789m5m +5m", DISCARD, {"一色双龙会": 32, "门前清": 4}, 36),
    (
        "12 天胡",
        "123m456m789m111z22z",
        WinContext(tianhu=True, self_drawn=True),
        {"天胡": 32, "清龙": 16, "幺九刻": 2},
        50,
    ),
    (
        "13 一色四节高",
        "333m444m5z [111m'] [222m'] +5z",
        DISCARD,
        {"一色四节高": 32, "双暗刻": 4, "幺九刻": 2},
        38,
    ),
    ("14 一色四步高", "123m234m345m456m7z +7z", DISCARD, {"一色四步高": 28, "门前清": 4}, 32),
    (
        "15 大于5",
        "666m777m888m9m [7'89m] +9m",
        DISCARD,
        {"大于5": 28, "一色三节高": 24, "三暗刻": 16, "清一色": 10, "四归一": 8},
        86,
    ),
    (
        "16 地胡",
        "123m456m789m111z2z +2z",
        WinContext(dihu=True),
        {"地胡": 28, "清龙": 16, "幺九刻": 2},
        46,
    ),
    (
        "17 小于5",
        "1112222333344m +4m",
        DISCARD,
        {
            "小于5": 28,
            "一色三节高": 24,
            "三暗刻": 16,
            "清一色": 10,
            "门前清": 4,
            "四归一": 8,
            "幺九刻": 2,
        },
        92,
    ),
    ("18 三杠", "123m5z [1111z'] [2222z#] [9999m+] +5z", DISCARD, {"三杠": 28, "幺九刻": 6}, 34),
    ("19 七对", "113355m6m112277z +6m", DISCARD, {"七对": 24}, 24),
    ("20 一色三同顺", "123m123m555z7z [1'23m] +7z", DISCARD, {"一色三同顺": 24, "箭刻": 4}, 28),
    (
        "21 一色三节高",
        "222m333m444m567m1z +1z",
        DISCARD,
        {"一色三节高": 24, "三暗刻": 16, "门前清": 4},
        44,
    ),
    ("22 清龙", "123m456m789m111z2z +2z", DISCARD, {"清龙": 16, "门前清": 4, "幺九刻": 2}, 22),
    (
        "23 一色三步高",
        "123m234m345m999m1z +1z",
        DISCARD,
        {"一色三步高": 16, "门前清": 4, "幺九刻": 2},
        22,
    ),
    (
        "24 全求人",
        "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
        DISCARD,
        {"全求人": 16, "连六": 8, "箭刻": 4, "幺九刻": 2},
        30,
    ),
    (
        "25 三暗刻",
        "111m555m777z234m9m +9m",
        DISCARD,
        {"三暗刻": 16, "箭刻": 4, "门前清": 4, "幺九刻": 2},
        26,
    ),
    (
        "26 碰碰和",
        "111m999m2z [333z'] [555m'] +2z",
        DISCARD,
        {"碰碰和": 12, "双暗刻": 4, "幺九刻": 6},
        22,
    ),
    ("27 三风刻", "123m111z222z333z5m +5m", DISCARD, {"三暗刻": 16, "三风刻": 12, "门前清": 4}, 32),
    (
        "28 妙手回春",
        "123m456m8m [2'34m] [555z'] +8m",
        WinContext(self_drawn=True, last_tile=True),
        {"妙手回春": 10, "连六": 8, "箭刻": 4},
        22,
    ),
    (
        "29 海底捞月",
        "123m456m8m [2'34m] [555z'] +8m",
        WinContext(last_tile=True),
        {"海底捞月": 10, "连六": 8, "箭刻": 4},
        22,
    ),
    ("30 清一色", "123m234m678m999m5m +5m", DISCARD, {"清一色": 10, "门前清": 4, "幺九刻": 2}, 16),
    (
        "31 杠上开花",
        "123m456m78m11z [2222z#] +9m",
        WinContext(self_drawn=True, kong_replacement=True),
        {"清龙": 16, "杠上开花": 10, "不求人": 6, "暗杠": 4, "幺九刻": 2},
        38,
    ),
    (
        "32 抢杠和",
        "123m456m78m11z [555z'] +9m",
        WinContext(robbing_kong=True, last_copy=True),
        {"清龙": 16, "抢杠和": 10, "箭刻": 4},
        30,
    ),
    (
        "33 双箭刻",
        "123m456m555z666z1z +1z",
        DISCARD,
        {"双箭刻": 8, "连六": 8, "门前清": 4, "双暗刻": 4},
        24,
    ),
    (
        "34 连六",
        "123m456m999m555z1z +1z",
        DISCARD,
        {"连六": 8, "箭刻": 4, "门前清": 4, "双暗刻": 4, "幺九刻": 2},
        22,
    ),
    (
        "35 老少副",
        "123m789m555m111z2z +2z",
        DISCARD,
        {"老少副": 8, "门前清": 4, "双暗刻": 4, "幺九刻": 2},
        18,
    ),
    (
        "36 双暗杠",
        "123m456m1z [2222z#] [9999m#] +1z",
        DISCARD,
        {"连六": 8, "双暗杠": 8, "门前清": 4, "幺九刻": 4},
        24,
    ),
    ("37 不求人", "123m234m678m999m5z +5z", SELF, {"不求人": 6, "幺九刻": 2}, 8),
    (
        "38 双明杠",
        "123m456m1z [2222z'] [9999m+] +1z",
        DISCARD,
        {"连六": 8, "双明杠": 6, "幺九刻": 4},
        18,
    ),
    (
        "39 天听",
        "123m234m678m111z5z +5z",
        WinContext(ting=True, tianting=True),
        {"天听": 6, "门前清": 4, "幺九刻": 2},
        12,
    ),
    (
        "40 和绝张",
        "123m234m67m111z55z +8m",
        WinContext(last_copy=True),
        {"和绝张": 6, "门前清": 4, "幺九刻": 2},
        12,
    ),
    ("41 箭刻", "123m234m678m555z1z +1z", DISCARD, {"箭刻": 4, "门前清": 4}, 8),
    ("42 门前清", "123m234m678m999m1z +1z", DISCARD, {"门前清": 4, "幺九刻": 2}, 6),
    (
        "43 平和",
        "123m234m567m678m9m +9m",
        DISCARD,
        {"清一色": 10, "连六": 8, "门前清": 4, "平和": 4},
        26,
    ),
    (
        "44 四归一",
        "123m345m678m3m111z +3m",
        DISCARD,
        {"连六": 8, "门前清": 4, "四归一": 4, "幺九刻": 2},
        18,
    ),
    (
        "45 双暗刻",
        "111m555m234m678m9m +9m",
        DISCARD,
        {"清一色": 10, "门前清": 4, "双暗刻": 4, "幺九刻": 2},
        20,
    ),
    ("46 自摸", "123m234m1z [6'78m] [555m'] +1z", SELF, {"自摸": 4}, 4),
    ("47 暗杠", "123m234m678m1z [5555m#] +1z", DISCARD, {"门前清": 4, "暗杠": 4}, 8),
    (
        "48 断幺",
        "234m345m567m678m8m +8m",
        DISCARD,
        {"清一色": 10, "连六": 16, "门前清": 4, "平和": 4, "断幺": 4},
        38,
    ),
    (
        "49 一般高",
        "123m123m555z666z1z +1z",
        DISCARD,
        {"双箭刻": 8, "门前清": 4, "双暗刻": 4, "一般高": 2},
        18,
    ),
    ("50 幺九刻", "123m234m678m999m1z +1z", DISCARD, {"门前清": 4, "幺九刻": 2}, 6),
    ("51 报听", "555m678m1z [1'23m] [2'34m] +1z", WinContext(ting=True), {"报听": 2}, 2),
    ("52 屁胡", "555m678m1z [1'23m] [2'34m] +1z", DISCARD, {"屁胡": 2}, 2),
    ("53 明杠", "123m234m1z [2222z'] [6'78m] +1z", DISCARD, {"幺九刻": 2, "明杠": 2}, 4),
    ("54 补花", "555m678m1z [1'23m] [2'34m] +1z", WinContext(flowers=2), {"屁胡": 2, "补花": 4}, 6),
]

EAST_DEALER_TIANHU = WinContext(tianhu=True, self_drawn=True, seat_wind=Tile.EAST)

# §5.3: (label, hand, context, 2p fans, 2p total, gb fans, gb total).
WORKED: list[tuple[str, str, WinContext, dict[str, int], int, dict[str, int], int]] = [
    (
        "W1",
        "123456789m5z [111z'] +5z",
        DISCARD,
        {"清龙": 16, "幺九刻": 2},
        18,
        {"清龙": 16, "混一色": 6, "圈风刻": 2, "单钓将": 1},
        25,
    ),
    (
        "W2",
        "1111m33m55m7m22z55z +7m",
        DISCARD,
        {"七对": 24, "四归一": 4},
        28,
        {"七对": 24, "混一色": 6, "四归一": 2},
        32,
    ),
    (
        "W3",
        "111m999m2z [555m'] [666z'] +2z",
        DISCARD,
        {"碰碰和": 12, "箭刻": 4, "双暗刻": 4, "幺九刻": 4},
        24,
        {"碰碰和": 6, "混一色": 6, "箭刻": 2, "双暗刻": 2, "幺九刻": 2, "单钓将": 1},
        19,
    ),
    (
        "W4",
        "234m567m8m [6'78m] [777z'] +8m",
        DISCARD,
        {"连六": 8, "箭刻": 4},
        12,
        {"混一色": 6, "箭刻": 2, "连六": 1},
        9,
    ),
    (
        "W5",
        "123m234m678m999m5m +5m",
        DISCARD,
        {"清一色": 10, "门前清": 4, "幺九刻": 2},
        16,
        {"清一色": 24, "门前清": 2, "幺九刻": 1},
        27,
    ),
    (
        "W6",
        "222233334444m5z +5z",
        DISCARD,
        {"一色三节高": 24, "三暗刻": 16, "门前清": 4, "四归一": 12},
        56,
        {"一色四同顺": 48, "混一色": 6, "门前清": 2, "单钓将": 1},
        57,
    ),
    (
        "W7",
        "123m456m78m11z [555z'] +9m",
        WinContext(robbing_kong=True, last_copy=True),
        {"清龙": 16, "抢杠和": 10, "箭刻": 4},
        30,
        {"清龙": 16, "抢杠和": 8, "混一色": 6, "箭刻": 2},
        32,
    ),
    (
        "W8",
        "234m456m9m [111z'] [7'89m] +9m",
        WinContext(self_drawn=True, last_tile=True),
        {"妙手回春": 10, "连六": 8, "幺九刻": 2},
        20,
        {"妙手回春": 8, "混一色": 6, "圈风刻": 2, "连六": 1, "单钓将": 1},
        18,
    ),
    (
        "W9",
        "5z [1'23m] [4'56m] [777z'] [999m'] +5z",
        WinContext(last_tile=True),
        {"全求人": 16, "海底捞月": 10, "连六": 8, "箭刻": 4, "幺九刻": 2},
        40,
        {"海底捞月": 8, "混一色": 6, "全求人": 6, "箭刻": 2, "连六": 1, "幺九刻": 1},
        24,
    ),
    (
        "W10",
        "12m456m11z [5555z#] [9999m+] +3m",
        WinContext(self_drawn=True, kong_replacement=True),
        {"杠上开花": 10, "连六": 8, "箭刻": 4, "暗杠": 4, "幺九刻": 2, "明杠": 2},
        30,
        {
            "杠上开花": 8,
            "混一色": 6,
            "箭刻": 2,
            "暗杠": 2,
            "连六": 1,
            "幺九刻": 1,
            "明杠": 1,
            "边张": 1,
        },
        22,
    ),
    (
        "W11",
        "123m234m678m111z5z +5z",
        WinContext(ting=True),
        {"门前清": 4, "幺九刻": 2, "报听": 2},
        8,
        {"混一色": 6, "圈风刻": 2, "门前清": 2, "单钓将": 1},
        11,
    ),
    (
        "W12",
        "123m456m789m111z22z",
        EAST_DEALER_TIANHU,
        {"天胡": 32, "清龙": 16, "幺九刻": 2},
        50,
        {"清龙": 16, "混一色": 6, "不求人": 4, "圈风刻": 2, "门风刻": 2},
        30,
    ),
    (
        "W13",
        "123m345m567m999m8m +8m",
        WinContext(dihu=True),
        {"地胡": 28, "一色三步高": 16, "清一色": 10, "幺九刻": 2},
        56,
        {"清一色": 24, "一色三步高": 16, "门前清": 2, "幺九刻": 1},
        43,
    ),
    (
        "W14",
        "555m678m1z [1'23m] [2'34m] +1z",
        DISCARD,
        {"屁胡": 2},
        2,
        {"混一色": 6, "单钓将": 1},
        7,
    ),
    (
        "W14 self-drawn",
        "555m678m1z [1'23m] [2'34m] +1z",
        SELF,
        {"自摸": 4},
        4,
        {"混一色": 6, "单钓将": 1, "自摸": 1},
        8,
    ),
    (
        "W15",
        "123m456m456m111z2z +2z",
        DISCARD,
        {"连六": 8, "门前清": 4, "一般高": 2, "幺九刻": 2},
        16,
        {"混一色": 6, "圈风刻": 2, "门前清": 2, "一般高": 1, "连六": 1, "单钓将": 1},
        13,
    ),
    (
        "W16",
        "123m456m456m5z [1'23m] +5z",
        DISCARD,
        {"连六": 16, "一般高": 2},
        18,
        {"混一色": 6, "一般高": 2, "连六": 1, "单钓将": 1},
        10,
    ),
    (
        "W17",
        "123m1z555z666z [777z'] +1z",
        DISCARD,
        {"大三元": 66, "双暗刻": 4},
        70,
        {"大三元": 88, "混一色": 6, "全带幺": 4, "双暗刻": 2, "单钓将": 1},
        101,
    ),
    ("W18", "112233445566m5z +5z", DISCARD, {"七对": 24}, 24, {"七对": 24, "混一色": 6}, 30),
]


def _points(result: Any) -> dict[str, int]:
    return {hit.fan.name: hit.points for hit in result.fans}


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, f, t, id=label) for label, h, c, f, t in EXAMPLES_2P],
)
def test_2p_examples(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    result = score(Hand.parse(hand), ctx, table="2p")
    assert _points(result) == fans, result.explain()
    assert result.total == total


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, f2, t2, id=label) for label, h, c, f2, t2, _, _ in WORKED],
)
def test_worked_2p(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    result = score(Hand.parse(hand), ctx, table="2p")
    assert _points(result) == fans, result.explain()
    assert result.total == total


@pytest.mark.parametrize(
    ("hand", "ctx", "fans", "total"),
    [pytest.param(h, c, fg, tg, id=label) for label, h, c, _, _, fg, tg in WORKED],
)
def test_worked_gb(hand: str, ctx: WinContext, fans: dict[str, int], total: int) -> None:
    result = score(Hand.parse(hand), ctx, table="gb")
    assert _points(result) == fans, result.explain()
    assert result.total == total


def test_w6_tables_choose_different_readings() -> None:
    hand = Hand.parse("222233334444m5z +5z")
    chows_2p = [g for g in score(hand, table="2p").reading.groups if g.kind.value == "chow"]
    chows_gb = [g for g in score(hand, table="gb").reading.groups if g.kind.value == "chow"]
    assert len(chows_2p) == 1
    assert len(chows_gb) == 4


def test_w14_min_fan_excludes_flowers() -> None:
    result = score(Hand.parse("555m678m1z [1'23m] [2'34m] +1z"), WinContext(flowers=3))
    assert result.total == 10
    assert result.total_without_flowers == 7
