"""Special-shape fans: 九莲宝灯, seven (shifted) pairs, 十三幺, the knitted hands.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.analysis.readings import GroupKind
from erren.analysis.shapes import Shape
from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources
from erren.families.guobiao.scoring.fans.base import NONE, WHOLE_HAND, YAOJIU

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


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
    return NONE


def _seven_shifted_pairs(f: Facts) -> Sources:
    if f.shape is not Shape.SEVEN_PAIRS:
        return NONE
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
    return NONE


def _shape(shape: Shape) -> Detector:
    def detect(f: Facts) -> Sources:
        return (f.all_groups,) if f.shape is shape else NONE

    return detect


def _seven_pairs(f: Facts) -> Sources:
    return (f.all_groups,) if f.shape is Shape.SEVEN_PAIRS else NONE


def _greater_honors(f: Facts) -> Sources:
    if f.shape is Shape.HONORS_AND_KNITTED and all(f.h.counts[k] for k in range(27, 34)):
        return (f.all_groups,)
    return NONE


def _knitted_straight(f: Facts) -> Sources:
    if f.shape is Shape.KNITTED_STRAIGHT:
        groups = f.reading.groups
        return (tuple(i for i, g in enumerate(groups) if g.kind is GroupKind.KNITTED),)
    if f.shape is Shape.HONORS_AND_KNITTED and sum(1 for k in f.h.kinds if k < 27) == 9:
        return (tuple(i for i, g in enumerate(f.reading.groups) if g.tiles[0] < 27),)
    return NONE


DETECTORS: dict[str, Detector] = {
    "nine_gates": _nine_gates,
    "seven_shifted_pairs": _seven_shifted_pairs,
    "thirteen_orphans": _shape(Shape.THIRTEEN_ORPHANS),
    "seven_pairs": _seven_pairs,
    "greater_honors_and_knitted_tiles": _greater_honors,
    "lesser_honors_and_knitted_tiles": _shape(Shape.HONORS_AND_KNITTED),
    "knitted_straight": _knitted_straight,
}
GUARDS: dict[str, int] = {
    "nine_gates": ft.F_ONE_SUIT_CONCEALED | ft.F_REGULAR,
    "seven_shifted_pairs": ft.F_SEVEN_PAIRS,
    "thirteen_orphans": ft.F_ORPHANS,
    "seven_pairs": ft.F_SEVEN_PAIRS,
    "greater_honors_and_knitted_tiles": ft.F_HONORS_KNITTED,
    "lesser_honors_and_knitted_tiles": ft.F_HONORS_KNITTED,
    "knitted_straight": ft.F_KNITTED,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "nine_gates": ("full_flush", "no_honors", *WHOLE_HAND),
    "seven_shifted_pairs": ("seven_pairs", "full_flush", "single_wait", "no_honors", *WHOLE_HAND),
    "thirteen_orphans": ("all_types", "single_wait", "all_terminals_and_honors", *WHOLE_HAND),
    "seven_pairs": ("single_wait", *WHOLE_HAND),
    "greater_honors_and_knitted_tiles": (
        "lesser_honors_and_knitted_tiles",
        "all_types",
        "single_wait",
        *WHOLE_HAND,
    ),
    "lesser_honors_and_knitted_tiles": ("all_types", "single_wait", *WHOLE_HAND),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {
    "nine_gates": ((YAOJIU,), 1),
}
PER: frozenset[str] = frozenset({})
