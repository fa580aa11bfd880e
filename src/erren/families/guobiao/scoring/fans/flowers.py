"""Flower fans: 花牌 (table gb) and 补花 (table 2p), one per flower, never part of 起和.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources
from erren.families.guobiao.scoring.fans.base import ONCE

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


def _flowers(f: Facts) -> Sources:
    return ONCE * f.h.flowers


DETECTORS: dict[str, Detector] = {
    "flower_tiles": _flowers,
}
GUARDS: dict[str, int] = {}
EXCLUDES: dict[str, tuple[str, ...]] = {}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {}
PER: frozenset[str] = frozenset({"flower_tiles"})
