"""The two fan tables, `gb` (the 81 Chinese Official fans) and `2p` (seed 001's 54 fans), as
rows: a detector per fan over :class:`~erren.scoring.guobiao.facts.Facts`, and what each fan
excludes (guobiao-2p §4.2.2, §4.3, §5.2 A18).  The calculator evaluates the rows in one generic
loop."""

from __future__ import annotations

from erren.analysis.readings import GroupKind
from erren.analysis.shapes import Shape
from erren.scoring.guobiao import facts as ft
from erren.scoring.guobiao.facts import COMBO_BITS, Facts
from erren.scoring.guobiao.fan import Detector, Fan, Sources

__all__ = ["DETECTORS", "FANS_2P", "FANS_GB", "GUARDS", "TABLES", "fan_table"]

_ONCE: Sources = ((),)
_NONE: Sources = ()
_REGULAR = (Shape.REGULAR, Shape.KNITTED_STRAIGHT)


def _once(f: Facts) -> Sources:
    """A fan its guard decides (of the whole hand or of the way it was won): one occurrence,
    no groups."""
    return _ONCE


def _combo(fan_id: str) -> Detector:
    """A set-combination fan, read from the reading's solved combinations (A6, A7, A9)."""

    def detect(f: Facts) -> Sources:
        found = f.chow_fans.get(fan_id) or f.pung_fans.get(fan_id)
        return tuple(found) if found else _NONE

    return detect


def _kongs(total: int, exposed: int) -> Detector:
    """Kong fans depend only on the number of kongs and how many are exposed (§4.1)."""

    def detect(f: Facts) -> Sources:
        ok = len(f.kongs) == total and (exposed < 0 or f.n_exposed_kongs == exposed)
        return (tuple(f.kongs),) if ok else _NONE

    return detect


def _exposed_or_concealed_kong(concealed: bool) -> Detector:
    """明杠/暗杠: one kong of that kind, alone or beside one kong of the other kind."""

    def detect(f: Facts) -> Sources:
        n = len(f.kongs)
        mine = f.n_concealed_kongs if concealed else f.n_exposed_kongs
        if mine == 1 and n in (1, 2):
            for gi in f.kongs:
                meld = f.reading.groups[gi].meld
                is_an = meld is not None and meld.is_concealed
                if is_an == concealed:
                    return ((gi,),)
        return _NONE

    return detect


def _concealed_pungs(n: int) -> Detector:
    def detect(f: Facts) -> Sources:
        if f.n_concealed_pungs != n:
            return _NONE
        groups = f.reading.groups
        return (tuple(gi for _, gi in f.pungs if groups[gi].is_concealed),)

    return detect


def _nine_gates(f: Facts) -> Sources:
    """九莲宝灯: no meld; the 13 tiles held are 1112345678999 of one suit and the winning tile
    is of that suit (for 天胡: some tile of the 14 can be removed to leave that pattern)."""
    h = f.h  # the guard: a regular reading, no meld, one suit, no honor
    counts = h.counts
    base = h.kinds[0] // 9 * 9
    shape = counts[base : base + 9]
    removable = [h.win - base] if h.win >= 0 else range(9)
    for r in removable:
        held = list(shape)
        held[r] -= 1
        if held == [3, 1, 1, 1, 1, 1, 1, 1, 3]:
            return (f.all_groups,)
    return _NONE


def _seven_shifted_pairs(f: Facts) -> Sources:
    if f.shape is not Shape.SEVEN_PAIRS:
        return _NONE
    kinds = f.h.kinds
    counts = f.h.counts
    if (
        len(kinds) == 7
        and kinds[-1] < 27
        and kinds[0] // 9 == kinds[-1] // 9
        and kinds[-1] - kinds[0] == 6
        and all(counts[k] == 2 for k in kinds)
    ):
        return (f.all_groups,)
    return _NONE


def _shape(shape: Shape) -> Detector:
    def detect(f: Facts) -> Sources:
        return (f.all_groups,) if f.shape is shape else _NONE

    return detect


def _seven_pairs(f: Facts) -> Sources:
    return (f.all_groups,) if f.shape is Shape.SEVEN_PAIRS else _NONE


def _greater_honors(f: Facts) -> Sources:
    if f.shape is Shape.HONORS_AND_KNITTED and all(f.h.counts[k] for k in range(27, 34)):
        return (f.all_groups,)
    return _NONE


def _knitted_straight(f: Facts) -> Sources:
    if f.shape is Shape.KNITTED_STRAIGHT:
        groups = f.reading.groups
        return (tuple(i for i, g in enumerate(groups) if g.kind is GroupKind.KNITTED),)
    if f.shape is Shape.HONORS_AND_KNITTED and sum(1 for k in f.h.kinds if k < 27) == 9:
        return (tuple(i for i, g in enumerate(f.reading.groups) if g.tiles[0] < 27),)
    return _NONE


def _whole(f: Facts) -> Sources:
    """A fan of every group of the reading, decided by its guard (全带幺, 平和, ...)."""
    return (f.all_groups,)


def _all_pungs(f: Facts) -> Sources:
    return (tuple(gi for _, gi in f.pungs),)


def _dragon_pung(f: Facts) -> Sources:
    return tuple((gi,) for t, gi in f.pungs if t >= 31)


def _terminal_or_wind_pung(f: Facts) -> Sources:
    return tuple((gi,) for t, gi in f.pungs if 27 <= t <= 30 or (t < 27 and t % 9 in (0, 8)))


def _wind_pung(which: str) -> Detector:
    def detect(f: Facts) -> Sources:
        wind = f.h.round_wind if which == "round" else f.h.seat_wind
        return tuple((gi,) for t, gi in f.pungs if t == wind)

    return detect


def _tile_hog(f: Facts) -> Sources:
    """四归一: each kind whose four tiles are all in the hand without being a kong."""
    counts = f.h.counts
    groups = f.reading.groups
    kong_kinds = {groups[gi].tiles[0] for gi in f.kongs}
    out = []
    for k in f.h.kinds:
        if counts[k] == 4 and k not in kong_kinds:
            out.append(tuple(i for i, g in enumerate(groups) if k in g.tiles))
    return tuple(out)


def _wait(kind: str) -> Detector:
    def detect(f: Facts) -> Sources:
        if f.wait != kind:
            return _NONE
        groups = f.reading.groups
        win = f.h.win
        for i, g in enumerate(groups):
            if g.meld is None and win in g.tiles and g.kind is not GroupKind.KNITTED:
                if kind == "single" and g.kind is GroupKind.PAIR:
                    return ((i,),)
                if kind != "single" and g.kind is GroupKind.CHOW:
                    mid = g.tiles[1] == win
                    if mid == (kind == "closed"):
                        return ((i,),)
        return _ONCE

    return detect


def _flowers(f: Facts) -> Sources:
    return _ONCE * f.h.flowers


def _never(f: Facts) -> Sources:
    return _NONE


# Every detector by fan id.  Hand-level tests read ``f.h`` (HandFacts).
DETECTORS: dict[str, Detector] = {
    "big_four_winds": _combo("big_four_winds"),
    "big_three_dragons": _combo("big_three_dragons"),
    "all_green": _once,
    "nine_gates": _nine_gates,
    "four_kongs": _kongs(4, -1),
    "seven_shifted_pairs": _seven_shifted_pairs,
    "thirteen_orphans": _shape(Shape.THIRTEEN_ORPHANS),
    "all_terminals": _once,
    "little_four_winds": _combo("little_four_winds"),
    "little_three_dragons": _combo("little_three_dragons"),
    "all_honors": _once,
    "four_concealed_pungs": _concealed_pungs(4),
    "pure_terminal_chows": _combo("pure_terminal_chows"),
    "quadruple_chow": _combo("quadruple_chow"),
    "four_pure_shifted_pungs": _combo("four_pure_shifted_pungs"),
    "four_pure_shifted_chows": _combo("four_pure_shifted_chows"),
    "three_kongs": _kongs(3, -1),
    "all_terminals_and_honors": _once,
    "seven_pairs": _seven_pairs,
    "greater_honors_and_knitted_tiles": _greater_honors,
    "all_even_pungs": _whole,
    "full_flush": _once,
    "pure_triple_chow": _combo("pure_triple_chow"),
    "pure_shifted_pungs": _combo("pure_shifted_pungs"),
    "upper_tiles": _once,
    "middle_tiles": _once,
    "lower_tiles": _once,
    "pure_straight": _combo("pure_straight"),
    "three_suited_terminal_chows": _combo("three_suited_terminal_chows"),
    "pure_shifted_chows": _combo("pure_shifted_chows"),
    "all_fives": _whole,
    "triple_pung": _combo("triple_pung"),
    "three_concealed_pungs": _concealed_pungs(3),
    "lesser_honors_and_knitted_tiles": _shape(Shape.HONORS_AND_KNITTED),
    "knitted_straight": _knitted_straight,
    "upper_four": _once,
    "lower_four": _once,
    "big_three_winds": _combo("big_three_winds"),
    "mixed_straight": _combo("mixed_straight"),
    "reversible_tiles": _once,
    "mixed_triple_chow": _combo("mixed_triple_chow"),
    "mixed_shifted_pungs": _combo("mixed_shifted_pungs"),
    "chicken_hand": _never,
    "last_tile_draw": _once,
    "last_tile_claim": _once,
    "out_with_replacement_tile": _once,
    "robbing_the_kong": _once,
    "all_pungs": _all_pungs,
    "half_flush": _once,
    "mixed_shifted_chows": _combo("mixed_shifted_chows"),
    "all_types": _once,
    "melded_hand": _once,
    "two_concealed_kongs": _kongs(2, 0),
    "two_dragon_pungs": _combo("two_dragon_pungs"),
    "outside_hand": _whole,
    "fully_concealed_hand": _once,
    "two_melded_kongs": _kongs(2, 2),
    "last_tile": _once,
    "dragon_pung": _dragon_pung,
    "prevalent_wind": _wind_pung("round"),
    "seat_wind": _wind_pung("seat"),
    "concealed_hand": _once,
    "all_chows": _whole,
    "tile_hog": _tile_hog,
    "double_pung": _combo("double_pung"),
    "two_concealed_pungs": _concealed_pungs(2),
    "concealed_kong": _exposed_or_concealed_kong(concealed=True),
    "all_simples": _once,
    "pure_double_chow": _combo("pure_double_chow"),
    "mixed_double_chow": _combo("mixed_double_chow"),
    "short_straight": _combo("short_straight"),
    "two_terminal_chows": _combo("two_terminal_chows"),
    "pung_of_terminals_or_honors": _terminal_or_wind_pung,
    "melded_kong": _exposed_or_concealed_kong(concealed=False),
    "one_voided_suit": _once,
    "no_honors": _once,
    "edge_wait": _wait("edge"),
    "closed_wait": _wait("closed"),
    "single_wait": _wait("single"),
    "self_drawn": _once,
    "flower_tiles": _flowers,
    # table 2p only
    "heavenly_hand": _once,
    "earthly_hand": _once,
    "heavenly_ready": _once,
    "ready_declared": _once,
}


# What must hold for each fan to be possible (``F_*`` feature bits, all of them): the
# calculator calls a detector only when its guard holds, so a guard that says everything
# (the hand-level and win-method fans, 全带幺, ...) goes with a constant detector.
_HAND_GUARDS: dict[str, int] = {
    "all_green": ft.F_GREEN,
    "nine_gates": ft.F_ONE_SUIT_CONCEALED | ft.F_REGULAR,
    "four_kongs": ft.F_KONG,
    "seven_shifted_pairs": ft.F_SEVEN_PAIRS,
    "thirteen_orphans": ft.F_ORPHANS,
    "all_terminals": ft.F_ALL_TERMINALS,
    "all_honors": ft.F_ALL_HONORS,
    "four_concealed_pungs": ft.F_FOUR_CONCEALED_PUNGS,
    "three_kongs": ft.F_KONG,
    "all_terminals_and_honors": ft.F_TERMINALS_AND_HONORS,
    "seven_pairs": ft.F_SEVEN_PAIRS,
    "greater_honors_and_knitted_tiles": ft.F_HONORS_KNITTED,
    "all_even_pungs": ft.F_EVEN_PUNGS | ft.F_FOUR_PUNGS,
    "full_flush": ft.F_FULL_FLUSH,
    "upper_tiles": ft.F_UPPER,
    "middle_tiles": ft.F_MIDDLE,
    "lower_tiles": ft.F_LOWER,
    "all_fives": ft.F_FIVES,
    "three_concealed_pungs": ft.F_THREE_CONCEALED_PUNGS,
    "lesser_honors_and_knitted_tiles": ft.F_HONORS_KNITTED,
    "knitted_straight": ft.F_KNITTED,
    "upper_four": ft.F_UPPER_FOUR,
    "lower_four": ft.F_LOWER_FOUR,
    "reversible_tiles": ft.F_REVERSIBLE,
    "last_tile_draw": ft.F_LAST_DRAW,
    "last_tile_claim": ft.F_LAST_CLAIM,
    "out_with_replacement_tile": ft.F_REPLACEMENT,
    "robbing_the_kong": ft.F_ROBBING,
    "all_pungs": ft.F_FOUR_PUNGS,
    "half_flush": ft.F_HALF_FLUSH,
    "all_types": ft.F_ALL_TYPES,
    "melded_hand": ft.F_MELDED,
    "two_concealed_kongs": ft.F_KONG,
    "outside_hand": ft.F_OUTSIDE,
    "fully_concealed_hand": ft.F_FULLY_CONCEALED,
    "two_melded_kongs": ft.F_KONG,
    "last_tile": ft.F_LAST_COPY,
    "dragon_pung": ft.F_DRAGON_PUNG,
    "prevalent_wind": ft.F_ROUND_PUNG,
    "seat_wind": ft.F_SEAT_PUNG,
    "concealed_hand": ft.F_CONCEALED,
    "all_chows": ft.F_ALL_CHOWS,
    "tile_hog": ft.F_FOUR,
    "two_concealed_pungs": ft.F_TWO_CONCEALED_PUNGS,
    "concealed_kong": ft.F_KONG,
    "all_simples": ft.F_SIMPLES,
    "pung_of_terminals_or_honors": ft.F_YAOJIU_PUNG,
    "melded_kong": ft.F_KONG,
    "one_voided_suit": ft.F_VOIDED,
    "no_honors": ft.F_NO_HONORS,
    "edge_wait": ft.F_EDGE,
    "closed_wait": ft.F_CLOSED,
    "single_wait": ft.F_SINGLE,
    "self_drawn": ft.F_SELF_DRAWN,
    "heavenly_hand": ft.F_TIANHU,
    "earthly_hand": ft.F_DIHU,
    "heavenly_ready": ft.F_TIANTING,
    "ready_declared": ft.F_READY,
}
GUARDS: dict[str, int] = {**_HAND_GUARDS, **COMBO_BITS}
"""Each fan's guard; the set-combination fans have their own bit (set when A6/A7 count them)."""

_YAOJIU = "pung_of_terminals_or_honors"
_WHOLE_HAND = ("concealed_hand", "fully_concealed_hand")

# 不计: fans not counted beside each fan (the union of §4.2.2, §4.3 and A18; an id the table
# lacks has no effect).  Exclusions between the parts of a set combination are not here: the
# combinations are solved whole in A6/A7 (不拆移, 不得相同, 套算一次).
EXCLUDES: dict[str, tuple[str, ...]] = {
    "big_four_winds": (
        "prevalent_wind",
        "seat_wind",
        "big_three_winds",
        "little_four_winds",
        "all_pungs",
    ),
    "big_three_dragons": ("dragon_pung", "two_dragon_pungs"),
    "all_green": ("half_flush", "one_voided_suit"),
    "nine_gates": ("full_flush", "no_honors", *_WHOLE_HAND),
    "four_kongs": (
        "three_kongs",
        "two_melded_kongs",
        "two_concealed_kongs",
        "melded_kong",
        "concealed_kong",
        "all_pungs",
        "single_wait",
    ),
    "seven_shifted_pairs": ("seven_pairs", "full_flush", "single_wait", "no_honors", *_WHOLE_HAND),
    "thirteen_orphans": ("all_types", "single_wait", "all_terminals_and_honors", *_WHOLE_HAND),
    "all_terminals": (
        "all_pungs",
        "outside_hand",
        _YAOJIU,
        "no_honors",
        "double_pung",
        "all_terminals_and_honors",
    ),
    "little_four_winds": ("big_three_winds",),
    "little_three_dragons": ("dragon_pung", "two_dragon_pungs"),
    "all_honors": (
        "all_pungs",
        "outside_hand",
        _YAOJIU,
        "all_terminals_and_honors",
        "one_voided_suit",
    ),
    "four_concealed_pungs": (
        "all_pungs",
        "three_concealed_pungs",
        "two_concealed_pungs",
        *_WHOLE_HAND,
    ),
    "pure_terminal_chows": (
        "seven_pairs",
        "full_flush",
        "all_chows",
        "pure_double_chow",
        "two_terminal_chows",
        "no_honors",
    ),
    "quadruple_chow": ("pure_triple_chow", "pure_shifted_pungs", "pure_double_chow", "tile_hog"),
    "four_pure_shifted_pungs": ("pure_shifted_pungs", "pure_triple_chow", "all_pungs"),
    "four_pure_shifted_chows": (
        "pure_shifted_chows",
        "short_straight",
        "two_terminal_chows",
        "pure_double_chow",
    ),
    "three_kongs": ("two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong"),
    "all_terminals_and_honors": ("all_pungs", "outside_hand", _YAOJIU),
    "seven_pairs": ("single_wait", *_WHOLE_HAND),
    "greater_honors_and_knitted_tiles": (
        "lesser_honors_and_knitted_tiles",
        "all_types",
        "single_wait",
        *_WHOLE_HAND,
    ),
    "all_even_pungs": ("all_pungs", "all_simples", "no_honors"),
    "full_flush": ("no_honors", "one_voided_suit"),
    "pure_triple_chow": ("pure_shifted_pungs",),
    "pure_shifted_pungs": ("pure_triple_chow",),
    "upper_tiles": ("upper_four", "no_honors"),
    "middle_tiles": ("all_simples", "no_honors"),
    "lower_tiles": ("lower_four", "no_honors"),
    "three_suited_terminal_chows": (
        "all_chows",
        "no_honors",
        "mixed_double_chow",
        "two_terminal_chows",
    ),
    "all_fives": ("all_simples", "no_honors"),
    "triple_pung": ("double_pung",),
    "three_concealed_pungs": ("two_concealed_pungs",),
    "lesser_honors_and_knitted_tiles": ("all_types", "single_wait", *_WHOLE_HAND),
    "upper_four": ("no_honors",),
    "lower_four": ("no_honors",),
    "reversible_tiles": ("one_voided_suit",),
    "last_tile_draw": ("self_drawn",),
    "out_with_replacement_tile": ("self_drawn",),
    "robbing_the_kong": ("last_tile",),
    "melded_hand": ("single_wait",),
    "two_concealed_kongs": ("concealed_kong", "two_concealed_pungs"),
    "two_dragon_pungs": ("dragon_pung",),
    "fully_concealed_hand": ("concealed_hand", "self_drawn"),
    "two_melded_kongs": ("melded_kong",),
    "all_chows": ("no_honors",),
    "all_simples": ("no_honors",),
    "heavenly_hand": ("self_drawn", *_WHOLE_HAND),
    "earthly_hand": ("concealed_hand",),
    "heavenly_ready": ("ready_declared",),
}

# Fans that absorb the 幺九刻 of their own pungs (A19), with a limit for 九莲宝灯.
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {
    "big_four_winds": ((_YAOJIU,), None),
    "little_four_winds": ((_YAOJIU,), None),
    "big_three_winds": ((_YAOJIU,), None),
    "prevalent_wind": ((_YAOJIU,), None),
    "seat_wind": ((_YAOJIU,), None),
    "nine_gates": ((_YAOJIU,), 1),
}

PER = frozenset(
    {
        "dragon_pung",
        _YAOJIU,
        "tile_hog",
        "pure_double_chow",
        "mixed_double_chow",
        "short_straight",
        "two_terminal_chows",
        "double_pung",
        "flower_tiles",
    }
)

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
