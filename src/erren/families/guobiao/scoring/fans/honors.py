"""Honor fans: wind and dragon pungs and their combinations, all honors.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources
from erren.families.guobiao.scoring.fans.base import YAOJIU, combo, once

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


def _dragon_pung(f: Facts) -> Sources:
    return tuple((gi,) for t, gi in f.pungs if t >= 31)


def _wind_pung(which: str) -> Detector:
    def detect(f: Facts) -> Sources:
        wind = f.h.round_wind if which == "round" else f.h.seat_wind
        return tuple((gi,) for t, gi in f.pungs if t == wind)

    return detect


DETECTORS: dict[str, Detector] = {
    "big_four_winds": combo("big_four_winds"),
    "big_three_dragons": combo("big_three_dragons"),
    "little_four_winds": combo("little_four_winds"),
    "little_three_dragons": combo("little_three_dragons"),
    "all_honors": once,
    "big_three_winds": combo("big_three_winds"),
    "two_dragon_pungs": combo("two_dragon_pungs"),
    "dragon_pung": _dragon_pung,
    "prevalent_wind": _wind_pung("round"),
    "seat_wind": _wind_pung("seat"),
}
GUARDS: dict[str, int] = {
    "all_honors": ft.F_ALL_HONORS,
    "dragon_pung": ft.F_DRAGON_PUNG,
    "prevalent_wind": ft.F_ROUND_PUNG,
    "seat_wind": ft.F_SEAT_PUNG,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "big_four_winds": (
        "prevalent_wind",
        "seat_wind",
        "big_three_winds",
        "little_four_winds",
        "all_pungs",
    ),
    "big_three_dragons": ("dragon_pung", "two_dragon_pungs"),
    "little_four_winds": ("big_three_winds",),
    "little_three_dragons": ("dragon_pung", "two_dragon_pungs"),
    "all_honors": (
        "all_pungs",
        "outside_hand",
        YAOJIU,
        "all_terminals_and_honors",
        "one_voided_suit",
    ),
    "two_dragon_pungs": ("dragon_pung",),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {
    "big_four_winds": ((YAOJIU,), None),
    "little_four_winds": ((YAOJIU,), None),
    "big_three_winds": ((YAOJIU,), None),
    "prevalent_wind": ((YAOJIU,), None),
    "seat_wind": ((YAOJIU,), None),
}
PER: frozenset[str] = frozenset({"dragon_pung"})
