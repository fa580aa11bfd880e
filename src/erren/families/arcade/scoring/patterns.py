"""The arcade pattern table (arcade §4): the 28 non-limit patterns N1–N28 and the 18 limit
hands L1–L18 as rows — id, names, value, rank, whether the 门清 state is needed, a detector and
what it excludes.  The calculator evaluates the rows in one generic loop (§5.2).

A detector takes the :class:`~erren.families.arcade.scoring.facts.Facts` of one interpretation and
returns its *sources*: one entry per occurrence, each the indices of the groups it is made of
(``()``: the whole hand or the way it was won); empty means the pattern is absent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from erren.families.arcade.scoring.context import Baoting, FirstTurn
from erren.families.arcade.scoring.facts import GREEN, RED_PEACOCK, Facts, Form, Wait

__all__ = [
    "LIMIT_HANDS",
    "NON_LIMIT",
    "PATTERNS",
    "Detector",
    "Pattern",
    "Sources",
    "pattern",
]

Sources = tuple[tuple[int, ...], ...]
Detector = Callable[[Facts], Sources]

_ONCE: Sources = ((),)
_NONE: Sources = ()


@dataclass(frozen=True, slots=True, eq=False)
class Pattern:
    """One row of the arcade table.

    ``value`` is the fan of a non-limit pattern or the multiplicity of a limit hand (R4.13);
    ``rank`` orders patterns for display and ties (R5.5: L1–L18 are 1–18, N1–N28 are 19–46).
    ``closed``: needs the 门清 state (the table's "Closed" column, R4.10).  ``excludes``: ids
    not counted when this one is (R5.3 b: the larger pattern names the smaller, so N10 removes
    N9, not the reverse; patterns that exclude each other by definition name each other only
    where one can hide the other).  ``fallback`` (N1) fires only when no other non-limit pattern
    but N8 does; ``bonus`` (N8) counts once per flower and is added after the fallback.
    """

    id: str
    name: str
    english: str
    value: int
    rank: int
    limit: bool
    detector: Detector = field(repr=False)
    closed: bool = False
    excludes: tuple[str, ...] = ()
    fallback: bool = False
    bonus: bool = False

    def __str__(self) -> str:
        return f"{self.name} ×{self.value}" if self.limit else f"{self.name} {self.value}"


# ---------------------------------------------------------------------------------------------
# Detectors: the way the hand was won


def _flag(test: Callable[[Facts], bool]) -> Detector:
    def detect(f: Facts) -> Sources:
        return _ONCE if test(f) else _NONE

    return detect


_menqing = _flag(lambda f: True)  # the row's ``closed`` does the work
_baoting = _flag(lambda f: f.h.ctx.baoting is Baoting.MENQING)
_tianting = _flag(lambda f: f.h.ctx.baoting is Baoting.TIANTING)
_self_drawn = _flag(lambda f: f.h.self_drawn)
_replacement = _flag(lambda f: f.h.ctx.kong_replacement)
_last_draw = _flag(lambda f: f.h.ctx.last_tile and f.h.self_drawn)
_last_discard = _flag(lambda f: f.h.ctx.last_tile and not f.h.self_drawn)
_haidi = _flag(lambda f: f.h.ctx.haidi)
_tianhu = _flag(lambda f: f.h.ctx.first_turn is FirstTurn.TIANHU)
_dihu = _flag(lambda f: f.h.ctx.first_turn is FirstTurn.DIHU)
_renhu = _flag(lambda f: f.h.ctx.first_turn is FirstTurn.RENHU)


def _flowers(f: Facts) -> Sources:
    return ((),) * f.h.ctx.flowers


def _nothing(f: Facts) -> Sources:
    return _ONCE  # N1: the calculator calls it only when nothing else fired


# ---------------------------------------------------------------------------------------------
# Detectors: the tiles (every tile, melds included, at its resolved kind)


def _whole(test: Callable[[Facts], bool]) -> Detector:
    def detect(f: Facts) -> Sources:
        return (f.all_groups,) if test(f) else _NONE

    return detect


def _standard(test: Callable[[Facts], bool]) -> Detector:
    return _whole(lambda f: f.form is Form.STANDARD and test(f))


_simples = _whole(lambda f: f.simples_only)
_half_flush = _whole(lambda f: f.honors and f.one_suit)
_full_flush = _whole(lambda f: not f.honors and f.one_suit)
_all_green = _whole(lambda f: all(k in GREEN for k in f.kinds))
_all_honors = _standard(lambda f: not f.suits)
_all_terminals = _standard(lambda f: f.yaojiu_only and not f.honors)
_red_peacock = _standard(lambda f: all(k in RED_PEACOCK for k in f.kinds))
_all_pungs = _standard(lambda f: len(f.pungs) == 4)
_seven_pairs = _whole(lambda f: f.form is Form.SEVEN_PAIRS)
_orphans = _whole(lambda f: f.form is Form.THIRTEEN_ORPHANS)


def _million_stones(f: Facts) -> Sources:
    """L11: every tile 万 and the numbers add up to at least 100 (a kong's four tiles count)."""
    if f.suits != 1 or f.honors:
        return _NONE
    total = sum((k + 1) * n for k, n in enumerate(f.counts[:9]))
    return (f.all_groups,) if total >= 100 else _NONE


def _big_wheel(f: Facts) -> Sources:
    """L7: seven pairs of exactly 22334455667788 in one suit."""
    if f.form is not Form.SEVEN_PAIRS or f.honors or not f.one_suit:
        return _NONE
    base = f.kinds[0] // 9 * 9
    if f.counts[base : base + 9] == [0, 2, 2, 2, 2, 2, 2, 2, 0]:
        return (f.all_groups,)
    return _NONE


_NINE_GATES = [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _nine_gates(f: Facts) -> Sources:
    """L16: no melds, no wilds; the 13 tiles before the win are 1112345678999 of one suit and
    the winning tile is of that suit (natural tiles only, R1.9c)."""
    h = f.h
    win = h.hand.winning
    if not h.no_melds or h.wilds or win is None or win >= 27:
        return _NONE
    base = win // 9 * 9
    held = h.natural_counts
    if held[base : base + 9] == _NINE_GATES and sum(held) == 13:
        return (f.all_groups,)
    return _NONE


# ---------------------------------------------------------------------------------------------
# Detectors: sets


def _pinfu(f: Facts) -> Sources:
    """N5: four sequences, a non-honor pair, a two-sided wait (R4.4, §7 item 30)."""
    if (
        f.form is Form.STANDARD
        and len(f.chows) == 4
        and f.pair_kind < 27
        and f.wait is Wait.TWO_SIDED
    ):
        return (f.all_groups,)
    return _NONE


def _identical_chows(f: Facts) -> list[tuple[int, int]]:
    """Disjoint pairs of identical sequences (N9, N10: four copies make two pairs)."""
    by_first: dict[int, list[int]] = {}
    for gi, first in f.chows:
        by_first.setdefault(first, []).append(gi)
    out: list[tuple[int, int]] = []
    for gis in by_first.values():
        out.extend((gis[i], gis[i + 1]) for i in range(0, len(gis) - 1, 2))
    return out


def _peikou(need: int) -> Detector:
    def detect(f: Facts) -> Sources:
        if f.form is not Form.STANDARD:
            return _NONE
        pairs = _identical_chows(f)
        if len(pairs) < need:
            return _NONE
        return (tuple(sorted(gi for p in pairs[:need] for gi in p)),)

    return detect


def _dragon_seven_pairs(f: Facts) -> Sources:
    """N12: seven pairs where the winning tile is the fourth tile of its kind."""
    kind = f.interp.winning_kind
    if f.form is Form.SEVEN_PAIRS and kind is not None and f.counts[kind] == 4:
        return (f.all_groups,)
    return _NONE


def _concealed_pungs(n: int) -> Detector:
    def detect(f: Facts) -> Sources:
        if f.n_concealed_pungs != n:
            return _NONE
        return (tuple(gi for gi, _, concealed in f.pungs if concealed),)

    return detect


def _mixed_sequence(f: Facts) -> Sources:
    """N14: sequences with the same numbers in 万, 饼 and 条."""
    by_number: dict[int, dict[int, int]] = {}
    for gi, first in f.chows:
        by_number.setdefault(first % 9, {})[first // 9] = gi
    for number in sorted(by_number):
        suits = by_number[number]
        if len(suits) == 3:
            return (tuple(sorted(suits.values())),)
    return _NONE


def _triple_pung(f: Facts) -> Sources:
    """N17: pungs of one number in all three suits."""
    by_number: dict[int, dict[int, int]] = {}
    for gi, kind, _ in f.pungs:
        if kind < 27:
            by_number.setdefault(kind % 9, {})[kind // 9] = gi
    for number in sorted(by_number):
        suits = by_number[number]
        if len(suits) == 3:
            return (tuple(sorted(suits.values())),)
    return _NONE


def _consecutive_pungs(length: int) -> Detector:
    """N16 (3) and L9 (4): pungs of one suit with consecutive numbers."""

    def detect(f: Facts) -> Sources:
        where = {kind: gi for gi, kind, _ in f.pungs if kind < 27}
        for start in sorted(where):
            run = [start + i for i in range(length)]
            if run[-1] // 9 == start // 9 and all(k in where for k in run):
                return (tuple(sorted(where[k] for k in run)),)
        return _NONE

    return detect


def _straight(f: Facts) -> Sources:
    """N24: 123, 456 and 789 of one suit (the chows found, if any)."""
    found = _straight_groups(f)
    return (found,) if found else _NONE


def _straight_groups(f: Facts) -> tuple[int, ...]:
    where = {first: gi for gi, first in f.chows}
    for suit in range(3):
        base = suit * 9
        if all(base + n in where for n in (0, 3, 6)):
            return tuple(sorted(where[base + n] for n in (0, 3, 6)))
    return ()


def _outside(test_group: Callable[[tuple[int, ...]], bool], honors: bool) -> Detector:
    """N18/N19: every set and the pair hold a 幺九 (N18) or a terminal (N19); at least one
    sequence; honors present (N18) or absent (N19)."""

    def detect(f: Facts) -> Sources:
        if f.form is not Form.STANDARD or not f.chows or f.honors is not honors:
            return _NONE
        groups = f.interp.groups
        if all(test_group(g.tiles) for g in groups):
            return (f.all_groups,)
        return _NONE

    return detect


def _has_yaojiu(tiles: tuple[int, ...]) -> bool:
    return any(t >= 27 or t % 9 in (0, 8) for t in tiles)


def _has_terminal(tiles: tuple[int, ...]) -> bool:
    return any(t < 27 and t % 9 in (0, 8) for t in tiles)


def _honroutou(f: Facts) -> Sources:
    """N20: standard form, four pungs and a pair, all 幺九, terminals and honors both present."""
    if f.form is Form.STANDARD and len(f.pungs) == 4 and f.yaojiu_only and f.honors and f.suits:
        return (f.all_groups,)
    return _NONE


def _dragons(pungs: int, pair: bool) -> Detector:
    """N23 (two dragon pungs + a dragon pair) and L6 (three dragon pungs)."""

    def detect(f: Facts) -> Sources:
        found = [gi for gi, kind, _ in f.pungs if kind >= 31]
        if len(found) < pungs:
            return _NONE
        if pair:
            if len(found) != pungs or f.pair_kind < 31:
                return _NONE
            found.append(f.pair)
        return (tuple(sorted(found)),)

    return detect


def _winds(pungs: int, pair: bool) -> Detector:
    """L4 (three wind pungs + a wind pair) and L5 (four wind pungs)."""

    def detect(f: Facts) -> Sources:
        found = [gi for gi, kind, _ in f.pungs if 27 <= kind <= 30]
        if len(found) < pungs:
            return _NONE
        if pair:
            if len(found) != pungs or not 27 <= f.pair_kind <= 30:
                return _NONE
            found.append(f.pair)
        return (tuple(sorted(found)),)

    return detect


def _four_kongs(f: Facts) -> Sources:
    return (tuple(f.kongs),) if len(f.kongs) == 4 else _NONE


_EAST, _NORTH = 27, 30


def _shinkansen(f: Facts) -> Sources:
    """L18: 123, 456, 789 of one suit + an East pung with a North pair, or the reverse."""
    if f.form is not Form.STANDARD:
        return _NONE
    straight = _straight_groups(f)
    if not straight:
        return _NONE
    for pung, pair in ((_EAST, _NORTH), (_NORTH, _EAST)):
        if f.pair_kind == pair:
            for gi, kind, _ in f.pungs:
                if kind == pung:
                    return (tuple(sorted((*straight, gi, f.pair))),)
    return _NONE


# ---------------------------------------------------------------------------------------------
# The table


def _pattern(
    number: int,
    name: str,
    english: str,
    value: int,
    detector: Detector,
    *,
    prefix: str,
    offset: int,
    **options: object,
) -> Pattern:
    """Row ``{prefix}{number}`` of the table, ranked ``offset + number`` (limit hands first)."""
    return Pattern(
        id=f"{prefix}{number}",
        name=name,
        english=english,
        value=value,
        rank=offset + number,
        limit=prefix == "L",
        detector=detector,
        **options,  # type: ignore[arg-type]
    )


_n = partial(_pattern, prefix="N", offset=18)
"""A normal pattern (R5.x ``N``), ranked after the 18 limit hands."""
_l = partial(_pattern, prefix="L", offset=0)
"""A limit hand (R5.x ``L``)."""


_ALL_NON_LIMIT = tuple(f"N{i}" for i in range(2, 29) if i != 8)

LIMIT_HANDS: tuple[Pattern, ...] = (
    _l(1, "天和", "Heavenly hand", 1, _tianhu, closed=True, excludes=("L2", "L3")),
    _l(2, "地和", "Earthly hand", 1, _dihu, closed=True, excludes=("L1", "L3")),
    _l(3, "人和", "Human hand", 1, _renhu, closed=True, excludes=("L1", "L2")),
    _l(4, "小四喜", "Little four winds", 1, _winds(3, pair=True)),
    _l(5, "大四喜", "Big four winds", 2, _winds(4, pair=False), excludes=("L4",)),
    _l(6, "大三元", "Big three dragons", 1, _dragons(3, pair=False)),
    _l(7, "大车轮", "Big wheel", 1, _big_wheel, closed=True),
    _l(8, "四暗刻", "Four concealed pungs", 1, _concealed_pungs(4), closed=True),
    _l(9, "四连刻", "Four consecutive pungs", 1, _consecutive_pungs(4)),
    _l(10, "四杠子", "Four kongs", 1, _four_kongs),
    _l(11, "百万石", "Million stones", 1, _million_stones),
    _l(12, "字一色", "All honors", 1, _all_honors),
    _l(13, "清老头", "All terminals", 1, _all_terminals),
    _l(14, "绿一色", "All green", 1, _all_green),
    _l(15, "红孔雀", "Red peacock", 1, _red_peacock),
    _l(16, "九莲宝灯", "Nine gates", 1, _nine_gates, closed=True),
    _l(17, "国士无双", "Thirteen orphans", 1, _orphans, closed=True),
    _l(18, "东北新干线", "Tohoku Shinkansen", 1, _shinkansen),
)
"""L1–L18 (§4.3)."""

NON_LIMIT: tuple[Pattern, ...] = (
    _n(1, "推倒胡", "Plain win", 1, _nothing, fallback=True, excludes=_ALL_NON_LIMIT),
    _n(2, "门清", "Concealed hand", 1, _menqing, closed=True),
    _n(3, "门清报听", "Concealed declared ready", 1, _baoting, closed=True),
    _n(4, "天听", "Heavenly ready", 2, _tianting, closed=True, excludes=("N3",)),
    _n(5, "平和", "Pinfu", 1, _pinfu, closed=True),
    _n(6, "断幺九", "All simples", 1, _simples),
    _n(7, "门清自摸", "Concealed self-draw", 1, _self_drawn, closed=True),
    _n(8, "花牌", "Flowers", 1, _flowers, bonus=True),
    _n(9, "一杯口", "Pure double sequence", 2, _peikou(1), closed=True),
    _n(10, "两杯口", "Twice pure double sequence", 4, _peikou(2), closed=True, excludes=("N9",)),
    _n(11, "七对子", "Seven pairs", 3, _seven_pairs, closed=True),
    _n(12, "龙七对", "Dragon seven pairs", 6, _dragon_seven_pairs, closed=True, excludes=("N11",)),
    _n(13, "碰碰胡", "All pungs", 2, _all_pungs),
    _n(14, "三色同顺", "Mixed triple sequence", 2, _mixed_sequence),
    _n(15, "三暗刻", "Three concealed pungs", 2, _concealed_pungs(3)),
    _n(16, "三连刻", "Three consecutive pungs", 3, _consecutive_pungs(3)),
    _n(17, "三色同刻", "Triple pung", 3, _triple_pung),
    _n(18, "混全带幺", "Outside hand", 3, _outside(_has_yaojiu, honors=True)),
    _n(
        19,
        "纯全带幺",
        "Terminals in all sets",
        4,
        _outside(_has_terminal, honors=False),
        excludes=("N18",),
    ),
    _n(20, "混老头", "All terminals and honors", 2, _honroutou, excludes=("N18",)),
    _n(21, "混一色", "Half flush", 3, _half_flush),
    _n(22, "清一色", "Full flush", 5, _full_flush, excludes=("N21",)),
    _n(23, "小三元", "Little three dragons", 4, _dragons(2, pair=True)),
    _n(24, "一气通贯", "Pure straight", 2, _straight),
    _n(25, "杠上开花", "Win on a replacement", 2, _replacement),
    _n(26, "河底捞月", "Last-tile self-draw", 1, _last_draw),
    _n(27, "河底捞鱼", "Last-discard win", 1, _last_discard),
    _n(28, "海底捞月", "Post-draw sea-bottom win", 1, _haidi),
)
"""N1–N28 (§4.2)."""

PATTERNS: tuple[Pattern, ...] = LIMIT_HANDS + NON_LIMIT
"""Every row, in rank order (R5.5)."""

_BY_KEY: dict[str, Pattern] = {}
for _row in PATTERNS:
    _BY_KEY[_row.id] = _BY_KEY[_row.name] = _row


def pattern(key: str) -> Pattern:
    """A row by id (``"N5"``, ``"L14"``) or Chinese name (``"平和"``)."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no arcade pattern {key!r} (ids N1..N28, L1..L18)") from None


def _check_table() -> None:
    counts = Counter(row.id for row in PATTERNS)
    assert all(n == 1 for n in counts.values())
    assert [row.rank for row in PATTERNS] == list(range(1, len(PATTERNS) + 1))


_check_table()
