"""Pung and kong fans: concealed pungs, all pungs, kongs, shifted and triple pungs, 四归一.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources
from erren.families.guobiao.scoring.fans.base import NONE, WHOLE_HAND, combo, whole

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


def _kongs(total: int, exposed: int) -> Detector:
    """Kong fans depend only on the number of kongs and how many are exposed (§4.1)."""

    def detect(f: Facts) -> Sources:
        ok = len(f.kongs) == total and (exposed < 0 or f.n_exposed_kongs == exposed)
        return (tuple(f.kongs),) if ok else NONE

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
        return NONE

    return detect


def _concealed_pungs(n: int) -> Detector:
    def detect(f: Facts) -> Sources:
        if f.n_concealed_pungs != n:
            return NONE
        groups = f.reading.groups
        return (tuple(gi for _, gi in f.pungs if groups[gi].is_concealed),)

    return detect


def _all_pungs(f: Facts) -> Sources:
    return (tuple(gi for _, gi in f.pungs),)


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


DETECTORS: dict[str, Detector] = {
    "four_kongs": _kongs(4, -1),
    "four_concealed_pungs": _concealed_pungs(4),
    "four_pure_shifted_pungs": combo("four_pure_shifted_pungs"),
    "three_kongs": _kongs(3, -1),
    "all_even_pungs": whole,
    "pure_shifted_pungs": combo("pure_shifted_pungs"),
    "triple_pung": combo("triple_pung"),
    "three_concealed_pungs": _concealed_pungs(3),
    "mixed_shifted_pungs": combo("mixed_shifted_pungs"),
    "all_pungs": _all_pungs,
    "two_concealed_kongs": _kongs(2, 0),
    "two_melded_kongs": _kongs(2, 2),
    "tile_hog": _tile_hog,
    "double_pung": combo("double_pung"),
    "two_concealed_pungs": _concealed_pungs(2),
    "concealed_kong": _exposed_or_concealed_kong(concealed=True),
    "melded_kong": _exposed_or_concealed_kong(concealed=False),
}
GUARDS: dict[str, int] = {
    "four_kongs": ft.F_KONG,
    "four_concealed_pungs": ft.F_FOUR_CONCEALED_PUNGS,
    "three_kongs": ft.F_KONG,
    "all_even_pungs": ft.F_EVEN_PUNGS | ft.F_FOUR_PUNGS,
    "three_concealed_pungs": ft.F_THREE_CONCEALED_PUNGS,
    "all_pungs": ft.F_FOUR_PUNGS,
    "two_concealed_kongs": ft.F_KONG,
    "two_melded_kongs": ft.F_KONG,
    "tile_hog": ft.F_FOUR,
    "two_concealed_pungs": ft.F_TWO_CONCEALED_PUNGS,
    "concealed_kong": ft.F_KONG,
    "melded_kong": ft.F_KONG,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "four_kongs": (
        "three_kongs",
        "two_melded_kongs",
        "two_concealed_kongs",
        "melded_kong",
        "concealed_kong",
        "all_pungs",
        "single_wait",
    ),
    "four_concealed_pungs": (
        "all_pungs",
        "three_concealed_pungs",
        "two_concealed_pungs",
        *WHOLE_HAND,
    ),
    "four_pure_shifted_pungs": ("pure_shifted_pungs", "pure_triple_chow", "all_pungs"),
    "three_kongs": ("two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong"),
    "all_even_pungs": ("all_pungs", "all_simples", "no_honors"),
    "pure_shifted_pungs": ("pure_triple_chow",),
    "triple_pung": ("double_pung",),
    "three_concealed_pungs": ("two_concealed_pungs",),
    "two_concealed_kongs": ("concealed_kong", "two_concealed_pungs"),
    "two_melded_kongs": ("melded_kong",),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {}
PER: frozenset[str] = frozenset({"tile_hog", "double_pung"})
