"""The two fan tables, `gb` (the 81 Chinese Official fans) and `2p` (seed 001's 54 fans), as
rows in table order: number, id, names, value, and from the category modules of
:mod:`erren.families.guobiao.scoring.fans` each fan's detector, guard, exclusions (不计, guideline
§4.2.2, §4.3, §5.2 A18) and absorptions (A19).  The calculator evaluates the rows in one
generic loop."""

from __future__ import annotations

from erren.families.guobiao.scoring.fan import Detector, Fan
from erren.families.guobiao.scoring.fans import (
    chows,
    flowers,
    honors,
    pungs,
    shapes,
    suits,
    terminals,
    wins,
)
from erren.families.guobiao.scoring.features import COMBO_BITS

__all__ = [
    "ABSORBS",
    "CATEGORIES",
    "DETECTORS",
    "EXCLUDES",
    "FANS_2P",
    "FANS_GB",
    "GUARDS",
    "PER",
    "TABLES",
    "fan_table",
]

CATEGORIES = (honors, pungs, chows, suits, terminals, shapes, wins, flowers)
"""The modules that hold the fans, one category each."""

# (number, id, 中文, English, value[, one suit]) in table order.
_GB_ROWS: tuple[tuple[int, str, str, str, int, str], ...] = (
    (1, "big_four_winds", "大四喜", "Big Four Winds", 88, "yes"),
    (2, "big_three_dragons", "大三元", "Big Three Dragons", 88, "yes"),
    (3, "all_green", "绿一色", "All Green", 88, "s only"),
    (4, "nine_gates", "九莲宝灯", "Nine Gates", 88, "yes"),
    (5, "four_kongs", "四杠", "Four Kongs", 88, "yes"),
    (6, "seven_shifted_pairs", "连七对", "Seven Shifted Pairs", 88, "yes"),
    (7, "thirteen_orphans", "十三幺", "Thirteen Orphans", 88, "no"),
    (8, "all_terminals", "清幺九", "All Terminals", 64, "no"),
    (9, "little_four_winds", "小四喜", "Little Four Winds", 64, "yes"),
    (10, "little_three_dragons", "小三元", "Little Three Dragons", 64, "yes"),
    (11, "all_honors", "字一色", "All Honors", 64, "yes"),
    (12, "four_concealed_pungs", "四暗刻", "Four Concealed Pungs", 64, "yes"),
    (13, "pure_terminal_chows", "一色双龙会", "Pure Terminal Chows", 64, "yes"),
    (14, "quadruple_chow", "一色四同顺", "Quadruple Chow", 48, "yes"),
    (15, "four_pure_shifted_pungs", "一色四节高", "Four Pure Shifted Pungs", 48, "yes"),
    (16, "four_pure_shifted_chows", "一色四步高", "Four Pure Shifted Chows", 32, "yes"),
    (17, "three_kongs", "三杠", "Three Kongs", 32, "yes"),
    (18, "all_terminals_and_honors", "混幺九", "All Terminals and Honors", 32, "yes"),
    (19, "seven_pairs", "七对", "Seven Pairs", 24, "yes"),
    (
        20,
        "greater_honors_and_knitted_tiles",
        "七星不靠",
        "Greater Honors and Knitted Tiles",
        24,
        "no",
    ),
    (21, "all_even_pungs", "全双刻", "All Even Pungs", 24, "no"),
    (22, "full_flush", "清一色", "Full Flush", 24, "yes"),
    (23, "pure_triple_chow", "一色三同顺", "Pure Triple Chow", 24, "yes"),
    (24, "pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24, "yes"),
    (25, "upper_tiles", "全大", "Upper Tiles", 24, "no"),
    (26, "middle_tiles", "全中", "Middle Tiles", 24, "no"),
    (27, "lower_tiles", "全小", "Lower Tiles", 24, "no"),
    (28, "pure_straight", "清龙", "Pure Straight", 16, "yes"),
    (29, "three_suited_terminal_chows", "三色双龙会", "Three-Suited Terminal Chows", 16, "no"),
    (30, "pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16, "yes"),
    (31, "all_fives", "全带五", "All Fives", 16, "no"),
    (32, "triple_pung", "三同刻", "Triple Pung", 16, "no"),
    (33, "three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16, "yes"),
    (34, "lesser_honors_and_knitted_tiles", "全不靠", "Lesser Honors and Knitted Tiles", 12, "no"),
    (35, "knitted_straight", "组合龙", "Knitted Straight", 12, "no"),
    (36, "upper_four", "大于五", "Upper Four", 12, "yes"),
    (37, "lower_four", "小于五", "Lower Four", 12, "yes"),
    (38, "big_three_winds", "三风刻", "Big Three Winds", 12, "yes"),
    (39, "mixed_straight", "花龙", "Mixed Straight", 8, "no"),
    (40, "reversible_tiles", "推不倒", "Reversible Tiles", 8, "p, s only"),
    (41, "mixed_triple_chow", "三色三同顺", "Mixed Triple Chow", 8, "no"),
    (42, "mixed_shifted_pungs", "三色三节高", "Mixed Shifted Pungs", 8, "no"),
    (43, "chicken_hand", "无番和", "Chicken Hand", 8, "never"),
    (44, "last_tile_draw", "妙手回春", "Last Tile Draw", 8, "yes"),
    (45, "last_tile_claim", "海底捞月", "Last Tile Claim", 8, "yes"),
    (46, "out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8, "yes"),
    (47, "robbing_the_kong", "抢杠和", "Robbing the Kong", 8, "yes"),
    (48, "all_pungs", "碰碰和", "All Pungs", 6, "yes"),
    (49, "half_flush", "混一色", "Half Flush", 6, "yes"),
    (50, "mixed_shifted_chows", "三色三步高", "Mixed Shifted Chows", 6, "no"),
    (51, "all_types", "五门齐", "All Types", 6, "no"),
    (52, "melded_hand", "全求人", "Melded Hand", 6, "yes"),
    (53, "two_concealed_kongs", "双暗杠", "Two Concealed Kongs", 6, "yes"),
    (54, "two_dragon_pungs", "双箭刻", "Two Dragon Pungs", 6, "yes"),
    (55, "outside_hand", "全带幺", "Outside Hand", 4, "yes"),
    (56, "fully_concealed_hand", "不求人", "Fully Concealed Hand", 4, "yes"),
    (57, "two_melded_kongs", "双明杠", "Two Melded Kongs", 4, "yes"),
    (58, "last_tile", "和绝张", "Last Tile", 4, "yes"),
    (59, "dragon_pung", "箭刻", "Dragon Pung", 2, "yes"),
    (60, "prevalent_wind", "圈风刻", "Prevalent Wind", 2, "yes"),
    (61, "seat_wind", "门风刻", "Seat Wind", 2, "yes"),
    (62, "concealed_hand", "门前清", "Concealed Hand", 2, "yes"),
    (63, "all_chows", "平和", "All Chows", 2, "yes"),
    (64, "tile_hog", "四归一", "Tile Hog", 2, "yes"),
    (65, "double_pung", "双同刻", "Double Pung", 2, "no"),
    (66, "two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2, "yes"),
    (67, "concealed_kong", "暗杠", "Concealed Kong", 2, "yes"),
    (68, "all_simples", "断幺", "All Simples", 2, "yes"),
    (69, "pure_double_chow", "一般高", "Pure Double Chow", 1, "yes"),
    (70, "mixed_double_chow", "喜相逢", "Mixed Double Chow", 1, "no"),
    (71, "short_straight", "连六", "Short Straight", 1, "yes"),
    (72, "two_terminal_chows", "老少副", "Two Terminal Chows", 1, "yes"),
    (73, "pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1, "yes"),
    (74, "melded_kong", "明杠", "Melded Kong", 1, "yes"),
    (75, "one_voided_suit", "缺一门", "One Voided Suit", 1, "never"),
    (76, "no_honors", "无字", "No Honors", 1, "never"),
    (77, "edge_wait", "边张", "Edge Wait", 1, "yes"),
    (78, "closed_wait", "坎张", "Closed Wait", 1, "yes"),
    (79, "single_wait", "单钓将", "Single Wait", 1, "yes"),
    (80, "self_drawn", "自摸", "Self-Drawn", 1, "yes"),
    (81, "flower_tiles", "花牌", "Flower Tiles", 1, "yes"),
)

_2P_ROWS: tuple[tuple[int, str, str, str, int, str], ...] = (
    (1, "big_four_winds", "大四喜", "Big Four Winds", 88, "yes"),
    (2, "big_three_dragons", "大三元", "Big Three Dragons", 66, "yes"),
    (3, "four_kongs", "四杠", "Four Kongs", 66, "yes"),
    (4, "seven_shifted_pairs", "连七对", "Seven Shifted Pairs", 66, "yes"),
    (5, "little_four_winds", "小四喜", "Little Four Winds", 44, "yes"),
    (6, "little_three_dragons", "小三元", "Little Three Dragons", 44, "yes"),
    (7, "all_honors", "字一色", "All Honors", 44, "yes"),
    (8, "four_concealed_pungs", "四暗刻", "Four Concealed Pungs", 44, "yes"),
    (9, "quadruple_chow", "一色四同顺", "Quadruple Chow", 32, "yes"),
    (10, "nine_gates", "九莲宝灯", "Nine Gates", 32, "yes"),
    (11, "pure_terminal_chows", "一色双龙会", "Pure Terminal Chows", 32, "yes"),
    (12, "heavenly_hand", "天胡", "Heavenly Hand", 32, "yes"),
    (13, "four_pure_shifted_pungs", "一色四节高", "Four Pure Shifted Pungs", 32, "yes"),
    (14, "four_pure_shifted_chows", "一色四步高", "Four Pure Shifted Chows", 28, "yes"),
    (15, "upper_four", "大于5", "Upper Four", 28, "yes"),
    (16, "earthly_hand", "地胡", "Earthly Hand", 28, "yes"),
    (17, "lower_four", "小于5", "Lower Four", 28, "yes"),
    (18, "three_kongs", "三杠", "Three Kongs", 28, "yes"),
    (19, "seven_pairs", "七对", "Seven Pairs", 24, "yes"),
    (20, "pure_triple_chow", "一色三同顺", "Pure Triple Chow", 24, "yes"),
    (21, "pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24, "yes"),
    (22, "pure_straight", "清龙", "Pure Straight", 16, "yes"),
    (23, "pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16, "yes"),
    (24, "melded_hand", "全求人", "Melded Hand", 16, "yes"),
    (25, "three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16, "yes"),
    (26, "all_pungs", "碰碰和", "All Pungs", 12, "yes"),
    (27, "big_three_winds", "三风刻", "Big Three Winds", 12, "yes"),
    (28, "last_tile_draw", "妙手回春", "Last Tile Draw", 10, "yes"),
    (29, "last_tile_claim", "海底捞月", "Last Tile Claim", 10, "yes"),
    (30, "full_flush", "清一色", "Full Flush", 10, "yes"),
    (31, "out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 10, "yes"),
    (32, "robbing_the_kong", "抢杠和", "Robbing the Kong", 10, "yes"),
    (33, "two_dragon_pungs", "双箭刻", "Two Dragon Pungs", 8, "yes"),
    (34, "short_straight", "连六", "Short Straight", 8, "yes"),
    (35, "two_terminal_chows", "老少副", "Two Terminal Chows", 8, "yes"),
    (36, "two_concealed_kongs", "双暗杠", "Two Concealed Kongs", 8, "yes"),
    (37, "fully_concealed_hand", "不求人", "Fully Concealed Hand", 6, "yes"),
    (38, "two_melded_kongs", "双明杠", "Two Melded Kongs", 6, "yes"),
    (39, "heavenly_ready", "天听", "Heavenly Ready", 6, "yes"),
    (40, "last_tile", "和绝张", "Last Tile", 6, "yes"),
    (41, "dragon_pung", "箭刻", "Dragon Pung", 4, "yes"),
    (42, "concealed_hand", "门前清", "Concealed Hand", 4, "yes"),
    (43, "all_chows", "平和", "All Chows", 4, "yes"),
    (44, "tile_hog", "四归一", "Tile Hog", 4, "yes"),
    (45, "two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 4, "yes"),
    (46, "self_drawn", "自摸", "Self-Drawn", 4, "yes"),
    (47, "concealed_kong", "暗杠", "Concealed Kong", 4, "yes"),
    (48, "all_simples", "断幺", "All Simples", 4, "yes"),
    (49, "pure_double_chow", "一般高", "Pure Double Chow", 2, "yes"),
    (50, "pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Winds", 2, "yes"),
    (51, "ready_declared", "报听", "Ready Declared", 2, "yes"),
    (52, "chicken_hand", "屁胡", "Chicken Hand", 2, "yes"),
    (53, "melded_kong", "明杠", "Melded Kong", 2, "yes"),
    (54, "flower_tiles", "补花", "Flower", 2, "yes"),
)


_BY_ID: dict[str, Detector] = {k: v for m in CATEGORIES for k, v in m.DETECTORS.items()}
_IDS = tuple(dict.fromkeys([r[1] for r in _GB_ROWS] + [r[1] for r in _2P_ROWS]))
DETECTORS: dict[str, Detector] = {fan_id: _BY_ID[fan_id] for fan_id in _IDS}
"""Every detector by fan id, table `gb`'s fans in its order, then those only `2p` has."""
GUARDS: dict[str, int] = {
    **{k: v for m in CATEGORIES for k, v in m.GUARDS.items()},
    **COMBO_BITS,
}
"""Each fan's guard; the set-combination fans have their own bit (set when A6/A7 count them)."""
EXCLUDES: dict[str, tuple[str, ...]] = {k: v for m in CATEGORIES for k, v in m.EXCLUDES.items()}
"""不计: fans not counted beside each fan (an id the table lacks has no effect).  Exclusions
between the parts of a set combination are not here: the combinations are solved whole in
A6/A7 (不拆移, 不得相同, 套算一次)."""
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {
    k: v for m in CATEGORIES for k, v in m.ABSORBS.items()
}
"""Fans that absorb the 幺九刻 of their own pungs (A19), with a limit for 九莲宝灯."""
PER: frozenset[str] = frozenset().union(*(m.PER for m in CATEGORIES))
"""Fans counted once per occurrence."""


def _build(rows: tuple[tuple[int, str, str, str, int, str], ...]) -> tuple[Fan, ...]:
    out = []
    for number, fan_id, name, english, value, one_suit in rows:
        absorbs, limit = ABSORBS.get(fan_id, ((), None))
        out.append(
            Fan(
                id=fan_id,
                name=name,
                english=english,
                value=value,
                number=number,
                detector=DETECTORS[fan_id],
                excludes=EXCLUDES.get(fan_id, ()),
                absorbs=absorbs,
                absorb_limit=limit,
                per=fan_id in PER,
                bonus=fan_id == "flower_tiles",
                fallback=fan_id == "chicken_hand",
                one_suit=one_suit,
                guard=GUARDS.get(fan_id, 0),
            )
        )
    return tuple(out)


FANS_GB: tuple[Fan, ...] = _build(_GB_ROWS)
"""Table `gb`: the 81 Chinese Official fans with the standard values (guobiao-2p §4.3)."""
FANS_2P: tuple[Fan, ...] = _build(_2P_ROWS)
"""Table `2p`: the 54 fans of seed 001 (guobiao-2p §4.2.2)."""
TABLES: dict[str, tuple[Fan, ...]] = {"gb": FANS_GB, "2p": FANS_2P}


def fan_table(name: str) -> tuple[Fan, ...]:
    """The rows of table ``name`` (``"gb"`` or ``"2p"``), in table order."""
    try:
        return TABLES[name]
    except KeyError:
        raise ValueError(f"unknown fan table {name!r} (expected one of {sorted(TABLES)})") from None
