"""One or more hands per fan: the fan fires, and the fans it excludes do not (tables gb, 2p)."""

from __future__ import annotations

import pytest

from erren.families.guobiao.scoring import (
    FANS_2P,
    FANS_GB,
    NotAWinError,
    WinContext,
    fan_table,
    score,
)
from erren.hand import Hand
from erren.tiles import Tile

D = WinContext()
S = WinContext(self_drawn=True)

# (table, hand, context, fans that fire, fans that must not)
CASES: list[tuple[str, str, WinContext, set[str], set[str]]] = [
    (
        "gb",
        "444z2m [111z'] [222z'] [333z'] +2m",
        D,
        {"大四喜"},
        {"三风刻", "小四喜", "碰碰和", "圈风刻", "门风刻", "幺九刻"},
    ),
    ("gb", "123m1z555z666z [777z'] +1z", D, {"大三元"}, {"箭刻", "双箭刻"}),
    ("gb", "22334466888s66z +6z", D, {"绿一色"}, {"混一色", "缺一门"}),
    ("gb", "234s234s66s88s [6'66z] +8s", D, {"绿一色"}, {"混一色"}),
    ("gb", "1112345678999p +9p", D, {"九莲宝灯"}, {"清一色", "门前清", "无字", "不求人"}),
    ("gb", "1112345678999p +9p", S, {"九莲宝灯", "自摸"}, {"不求人"}),
    (
        "gb",
        "2m [1111z'] [2222z+] [5555m#] [9999m'] +2m",
        D,
        {"四杠"},
        {"三杠", "碰碰和", "单钓将", "明杠", "暗杠"},
    ),
    ("gb", "2233445566778p +8p", D, {"连七对", "断幺"}, {"七对", "清一色", "门前清", "单钓将"}),
    ("gb", "19m19p19s1234567z +1m", D, {"十三幺"}, {"五门齐", "门前清", "混幺九", "单钓将"}),
    ("gb", "19m19p19s1234567z +1m", S, {"十三幺", "自摸"}, {"不求人"}),
    (
        "gb",
        "111m999m11p99s [999p'] +1p",
        D,
        {"清幺九"},
        {"碰碰和", "幺九刻", "全带幺", "无字", "双同刻", "混幺九"},
    ),
    ("gb", "123m111z222z333z4z +4z", D, {"小四喜"}, {"三风刻", "幺九刻"}),
    ("gb", "123m456m555z666z7z +7z", D, {"小三元"}, {"箭刻", "双箭刻"}),
    ("gb", "111z222z555z66z77z +7z", D, {"字一色"}, {"碰碰和", "全带幺", "幺九刻", "混幺九"}),
    (
        "gb",
        "111m333p555s999m2z +2z",
        S,
        {"四暗刻", "自摸"},
        {"碰碰和", "门前清", "三暗刻", "双暗刻", "不求人"},
    ),
    ("gb", "123m123m789m789m5m +5m", D, {"一色双龙会"}, {"清一色", "平和", "一般高", "老少副"}),
    ("gb", "234m234m5z [2'34m] [2'34m] +5z", D, {"一色四同顺"}, {"一色三同顺", "一般高", "四归一"}),
    ("gb", "333m444m5z [111m'] [222m'] +5z", D, {"一色四节高"}, {"一色三节高", "碰碰和"}),
    ("gb", "123m234m345m456m7z +7z", D, {"一色四步高"}, {"一色三步高", "连六", "一般高"}),
    ("gb", "123m5z [1111z'] [2222z#] [9999m+] +5z", D, {"三杠"}, {"双明杠", "明杠", "暗杠"}),
    ("gb", "111m99p11z [999m'] [111s'] +9p", D, {"混幺九"}, {"碰碰和", "全带幺", "幺九刻"}),
    ("gb", "1133m5577p99s226z +6z", D, {"七对"}, {"门前清", "单钓将"}),
    ("gb", "147m25p3s1234567z +8p", D, {"七星不靠"}, {"全不靠", "五门齐", "门前清", "单钓将"}),
    ("gb", "147m258p369s1234z +6z", D, {"全不靠", "组合龙"}, {"五门齐", "门前清"}),
    ("gb", "14m258p369s12345z +6z", D, {"全不靠"}, {"组合龙"}),
    ("gb", "222m444p66s88m [888s'] +6s", D, {"全双刻"}, {"碰碰和", "断幺", "无字"}),
    ("gb", "123m234m678m999m5m +5m", D, {"清一色"}, {"无字", "缺一门"}),
    ("gb", "123m123m555z7z [1'23m] +7z", D, {"一色三同顺"}, {"一色三节高", "一般高"}),
    ("gb", "222m333m444m567m1z +1z", D, {"一色三节高"}, {"一色三同顺"}),
    ("gb", "789m789p9s [7'89s] [888m'] +9s", D, {"全大"}, {"大于五", "无字"}),
    ("gb", "456m456p5s [4'56s] [444m'] +5s", D, {"全中"}, {"断幺", "无字"}),
    ("gb", "123m123p1s [1'23s] [222m'] +1s", D, {"全小"}, {"小于五", "无字"}),
    ("gb", "123m456m789m111z2z +2z", D, {"清龙"}, {"连六", "老少副"}),
    ("gb", "123m789m123p789p5s +5s", D, {"三色双龙会"}, {"平和", "喜相逢", "老少副", "无字"}),
    ("gb", "123m234m345m999m1z +1z", D, {"一色三步高"}, {"连六"}),
    ("gb", "456m345p5s [5'67s] [555m'] +5s", D, {"全带五"}, {"断幺", "无字"}),
    ("gb", "222m222p9m [222s'] [456p'] +9m", D, {"三同刻"}, {"双同刻"}),
    ("gb", "111m555m777z234m9m +9m", D, {"三暗刻"}, {"双暗刻"}),
    ("gb", "147m258p369s6z [5'67m] +6z", D, {"组合龙", "单钓将"}, set()),
    ("gb", "666m777m888m9m [7'89m] +9m", D, {"大于五", "清一色"}, {"无字"}),
    ("gb", "1112222333344m +4m", D, {"小于五", "清一色"}, {"无字"}),
    ("gb", "123m111z222z333z5m +5m", D, {"三风刻"}, {"幺九刻"}),
    ("gb", "123m456p789s111z2z +2z", D, {"花龙"}, set()),
    ("gb", "123p345p888s5z [999s'] +5z", D, {"推不倒"}, {"缺一门"}),
    ("gb", "234m234p234s111z2z +2z", D, {"三色三同顺"}, {"喜相逢"}),
    ("gb", "222m333p444s5z [789m'] +5z", D, {"三色三节高"}, set()),
    ("gb", "123m567p55s33z [6'78m] +5s", D, {"无番和"}, set()),
    (
        "gb",
        "234m456m9m [111z'] [7'89m] +9m",
        WinContext(self_drawn=True, last_tile=True),
        {"妙手回春"},
        {"自摸"},
    ),
    ("gb", "234m456m9m [111z'] [7'89m] +9m", WinContext(last_tile=True), {"海底捞月"}, set()),
    (
        "gb",
        "12m456m11z [5555z#] [9999m+] +3m",
        WinContext(self_drawn=True, kong_replacement=True),
        {"杠上开花", "边张"},
        {"自摸"},
    ),
    (
        "gb",
        "123m456m78m11z [555z'] +9m",
        WinContext(robbing_kong=True, last_copy=True),
        {"抢杠和"},
        {"和绝张"},
    ),
    ("gb", "111m999m2z [555m'] [666z'] +2z", D, {"碰碰和"}, set()),
    ("gb", "234m567m8m [6'78m] [777z'] +8m", D, {"混一色"}, set()),
    ("gb", "123m234p345s999m1z +1z", D, {"三色三步高"}, set()),
    ("gb", "123m456p789s11z55z +5z", D, {"五门齐", "花龙"}, set()),
    ("gb", "5z [1'23m] [4'56m] [777z'] [999m'] +5z", D, {"全求人"}, {"单钓将"}),
    ("gb", "123m456m1z [2222z#] [9999m#] +1z", D, {"双暗杠"}, {"暗杠", "双暗刻"}),
    ("gb", "123m456m555z666z1z +1z", D, {"双箭刻"}, {"箭刻"}),
    ("gb", "123m789p111z9s [7'89m] +9s", D, {"全带幺"}, set()),
    ("gb", "123m234m678m999m5z +5z", S, {"不求人"}, {"门前清", "自摸"}),
    ("gb", "123m456m1z [2222z'] [9999m+] +1z", D, {"双明杠"}, {"明杠"}),
    ("gb", "123m234m67m111z55z +8m", WinContext(last_copy=True), {"和绝张"}, set()),
    ("gb", "123m234m678m555z1z +1z", D, {"箭刻"}, set()),
    (
        "gb",
        "123m234m678m111z5z +5z",
        WinContext(seat_wind=Tile.EAST),
        {"圈风刻", "门风刻"},
        {"幺九刻"},
    ),
    ("gb", "123m234m678m222z5z +5z", D, {"门风刻"}, {"幺九刻", "圈风刻"}),
    ("gb", "123m234m678m999m1z +1z", D, {"门前清", "幺九刻"}, set()),
    ("gb", "123m234m567m678m9m +9m", D, {"平和"}, {"无字"}),
    ("gb", "123m345m678m3m111z +3m", D, {"四归一"}, set()),
    ("gb", "222m222p9m [456s'] [789m'] +9m", D, {"双同刻"}, set()),
    ("gb", "111m555m234m678m9m +9m", D, {"双暗刻"}, set()),
    ("gb", "123m234m678m1z [5555m#] +1z", D, {"暗杠"}, set()),
    ("gb", "234m345m567m678m8m +8m", D, {"断幺"}, {"无字"}),
    ("gb", "123m123m555z666z1z +1z", D, {"一般高"}, set()),
    ("gb", "123m123p5s [456s'] [789s'] +5s", D, {"喜相逢"}, set()),
    ("gb", "123m456m999m555z1z +1z", D, {"连六"}, set()),
    ("gb", "123m789m555m111z2z +2z", D, {"老少副"}, set()),
    ("gb", "123m234m1z [2222z'] [6'78m] +1z", D, {"明杠"}, set()),
    ("gb", "123m456m789p1p [1'23p] +1p", D, {"缺一门", "单钓将"}, set()),
    ("gb", "123m456m789p2s [555s'] +2s", D, {"无字"}, set()),
    ("gb", "12m456m789m11z [555z'] +3m", D, {"边张"}, {"坎张", "单钓将"}),
    ("gb", "13m456m789m11z [555z'] +2m", D, {"坎张"}, {"边张", "单钓将"}),
    ("gb", "555m678m1z [1'23m] [2'34m] +1z", S, {"自摸", "单钓将"}, set()),
    ("gb", "555m678m1z [1'23m] [2'34m] +1z", WinContext(flowers=2), {"花牌"}, set()),
    # 2p-only fans and 2p exclusions
    ("2p", "123m456m789m111z22z", WinContext(tianhu=True), {"天胡"}, {"自摸", "不求人", "门前清"}),
    ("2p", "123m456m789m111z2z +2z", WinContext(dihu=True), {"地胡"}, {"门前清"}),
    ("2p", "123m234m678m111z5z +5z", WinContext(ting=True, tianting=True), {"天听"}, {"报听"}),
    ("2p", "123m234m678m111z5z +5z", WinContext(ting=True), {"报听"}, set()),
    ("2p", "555m678m1z [1'23m] [2'34m] +1z", D, {"屁胡"}, set()),
    ("2p", "555m678m1z [1'23m] [2'34m] +1z", WinContext(flowers=1), {"屁胡", "补花"}, set()),
    ("2p", "123m111z222z333z5m +5m", D, {"三风刻"}, {"幺九刻"}),
]


@pytest.mark.parametrize(
    ("table", "hand", "ctx", "fires", "absent"),
    [pytest.param(*case, id=f"{case[0]}-{sorted(case[3])[0]}-{i}") for i, case in enumerate(CASES)],
)
def test_fan(table: str, hand: str, ctx: WinContext, fires: set[str], absent: set[str]) -> None:
    result = score(Hand.parse(hand), ctx, table=table)
    names = {hit.fan.name for hit in result.fans}
    assert fires <= names, result.explain()
    assert not absent & names, result.explain()


def test_every_gb_fan_has_a_case() -> None:
    covered = {name for table, _, _, fires, _ in CASES if table == "gb" for name in fires}
    assert {fan.name for fan in FANS_GB} - covered == set()


def test_tables_shape() -> None:
    assert len(FANS_GB) == 81
    assert len(FANS_2P) == 54
    assert [f.number for f in FANS_GB] == list(range(1, 82))
    assert [f.number for f in FANS_2P] == list(range(1, 55))
    assert fan_table("2p") is FANS_2P
    assert sum(f.value for f in FANS_2P if f.name == "大于5") == 28
    with pytest.raises(ValueError, match="unknown fan table"):
        fan_table("riichi")


def test_not_a_win() -> None:
    with pytest.raises(NotAWinError):
        score(Hand.parse("123m456m789m1z234z +5z"))
    with pytest.raises(NotAWinError):  # 十三幺 is not a 2p shape (§3.3)
        score(Hand.parse("19m19p19s1234567z +1m"), table="2p")


def test_result_explains_itself() -> None:
    result = score(Hand.parse("123456789m5z [111z'] +5z"), table="2p")
    assert str(result) == "清龙 16 + 幺九刻 2 = 18"
    pure_straight = result.fans[0]
    assert len(result.groups_of(pure_straight)[0]) == 3
    assert "清龙 16 (123m 456m 789m)" in result.explain()


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # 组合龙: the winning kind sits in a knitted trio and in the pair or a chow; the
        # higher reading (§5.1 就高不就低, A15) places it in the pair/chow and scores the wait
        # (PyMahjongGB agrees).
        ("1477m369p258s [789's] +7m", "组合龙 12 + 平和 2 + 单钓将 1 = 15"),
        ("147m3669p258s [111p'] +6p", "组合龙 12 + 幺九刻 1 + 无字 1 + 单钓将 1 = 15"),
        ("147m258p23469s11z +3s", "组合龙 12 + 门前清 2 + 坎张 1 = 15"),
        ("147m25899p23469s +3s", "组合龙 12 + 门前清 2 + 平和 2 + 坎张 1 = 17"),
        # 组合龙 + a declared meld + the pair.
        ("147m258p369s1z [1'23m] +1z", "组合龙 12 + 单钓将 1 = 13"),
    ],
)
def test_knitted_straight_wait_and_meld(hand: str, expected: str) -> None:
    assert str(score(Hand.parse(hand), table="gb")) == expected
