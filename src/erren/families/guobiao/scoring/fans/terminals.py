"""Terminal fans: all terminals (and honors), outside hand, all fives, all simples, 幺九刻.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources
from erren.families.guobiao.scoring.fans.base import YAOJIU, once, whole

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


def _terminal_or_wind_pung(f: Facts) -> Sources:
    return tuple((gi,) for t, gi in f.pungs if 27 <= t <= 30 or (t < 27 and t % 9 in (0, 8)))


DETECTORS: dict[str, Detector] = {
    "all_terminals": once,
    "all_terminals_and_honors": once,
    "all_fives": whole,
    "outside_hand": whole,
    "all_simples": once,
    "pung_of_terminals_or_honors": _terminal_or_wind_pung,
}
GUARDS: dict[str, int] = {
    "all_terminals": ft.F_ALL_TERMINALS,
    "all_terminals_and_honors": ft.F_TERMINALS_AND_HONORS,
    "all_fives": ft.F_FIVES,
    "outside_hand": ft.F_OUTSIDE,
    "all_simples": ft.F_SIMPLES,
    "pung_of_terminals_or_honors": ft.F_YAOJIU_PUNG,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "all_terminals": (
        "all_pungs",
        "outside_hand",
        YAOJIU,
        "no_honors",
        "double_pung",
        "all_terminals_and_honors",
    ),
    "all_terminals_and_honors": ("all_pungs", "outside_hand", YAOJIU),
    "all_fives": ("all_simples", "no_honors"),
    "all_simples": ("no_honors",),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {}
PER: frozenset[str] = frozenset({"pung_of_terminals_or_honors"})
