"""Suit and tile-range fans: flushes, 绿一色, voided suits, upper/middle/lower tiles, 推不倒.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.fan import Detector
from erren.families.guobiao.scoring.fans.base import once

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


DETECTORS: dict[str, Detector] = {
    "all_green": once,
    "full_flush": once,
    "upper_tiles": once,
    "middle_tiles": once,
    "lower_tiles": once,
    "upper_four": once,
    "lower_four": once,
    "reversible_tiles": once,
    "half_flush": once,
    "all_types": once,
    "one_voided_suit": once,
    "no_honors": once,
}
GUARDS: dict[str, int] = {
    "all_green": ft.F_GREEN,
    "full_flush": ft.F_FULL_FLUSH,
    "upper_tiles": ft.F_UPPER,
    "middle_tiles": ft.F_MIDDLE,
    "lower_tiles": ft.F_LOWER,
    "upper_four": ft.F_UPPER_FOUR,
    "lower_four": ft.F_LOWER_FOUR,
    "reversible_tiles": ft.F_REVERSIBLE,
    "half_flush": ft.F_HALF_FLUSH,
    "all_types": ft.F_ALL_TYPES,
    "one_voided_suit": ft.F_VOIDED,
    "no_honors": ft.F_NO_HONORS,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "all_green": ("half_flush", "one_voided_suit"),
    "full_flush": ("no_honors", "one_voided_suit"),
    "upper_tiles": ("upper_four", "no_honors"),
    "middle_tiles": ("all_simples", "no_honors"),
    "lower_tiles": ("lower_four", "no_honors"),
    "upper_four": ("no_honors",),
    "lower_four": ("no_honors",),
    "reversible_tiles": ("one_voided_suit",),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {}
PER: frozenset[str] = frozenset({})
