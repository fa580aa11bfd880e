"""Chow (sequence) fans: straights, identical, shifted and terminal chows, 平和.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.fan import Detector
from erren.families.guobiao.scoring.fans.base import combo, whole

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


DETECTORS: dict[str, Detector] = {
    "pure_terminal_chows": combo("pure_terminal_chows"),
    "quadruple_chow": combo("quadruple_chow"),
    "four_pure_shifted_chows": combo("four_pure_shifted_chows"),
    "pure_triple_chow": combo("pure_triple_chow"),
    "pure_straight": combo("pure_straight"),
    "three_suited_terminal_chows": combo("three_suited_terminal_chows"),
    "pure_shifted_chows": combo("pure_shifted_chows"),
    "mixed_straight": combo("mixed_straight"),
    "mixed_triple_chow": combo("mixed_triple_chow"),
    "mixed_shifted_chows": combo("mixed_shifted_chows"),
    "all_chows": whole,
    "pure_double_chow": combo("pure_double_chow"),
    "mixed_double_chow": combo("mixed_double_chow"),
    "short_straight": combo("short_straight"),
    "two_terminal_chows": combo("two_terminal_chows"),
}
GUARDS: dict[str, int] = {
    "all_chows": ft.F_ALL_CHOWS,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "pure_terminal_chows": (
        "seven_pairs",
        "full_flush",
        "all_chows",
        "pure_double_chow",
        "two_terminal_chows",
        "no_honors",
    ),
    "quadruple_chow": ("pure_triple_chow", "pure_shifted_pungs", "pure_double_chow", "tile_hog"),
    "four_pure_shifted_chows": (
        "pure_shifted_chows",
        "short_straight",
        "two_terminal_chows",
        "pure_double_chow",
    ),
    "pure_triple_chow": ("pure_shifted_pungs",),
    "three_suited_terminal_chows": (
        "all_chows",
        "no_honors",
        "mixed_double_chow",
        "two_terminal_chows",
    ),
    "all_chows": ("no_honors",),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {}
PER: frozenset[str] = frozenset(
    {"pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows"}
)
