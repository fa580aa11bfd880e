"""How the hand was won: last tile, kongs, concealment, waits, 自摸, the 2p first-turn and 报听
fans, and the fallback 无番和/屁胡.

Each fan's detector over :class:`~erren.families.guobiao.scoring.facts.Facts`, its guard (the
``F_*`` bits of :mod:`~erren.families.guobiao.scoring.features` that must hold), what it excludes
(不计) and absorbs; :mod:`erren.families.guobiao.scoring.fans.tables` puts the rows in table
order."""

from __future__ import annotations

from erren.analysis.readings import GroupKind
from erren.families.guobiao.scoring import features as ft
from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources
from erren.families.guobiao.scoring.fans.base import NONE, ONCE, WHOLE_HAND, once

__all__ = ["ABSORBS", "DETECTORS", "EXCLUDES", "GUARDS", "PER"]


def _wait(kind: str) -> Detector:
    def detect(f: Facts) -> Sources:
        if f.wait != kind:
            return NONE
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
        return ONCE

    return detect


def _never(f: Facts) -> Sources:
    return NONE


DETECTORS: dict[str, Detector] = {
    "chicken_hand": _never,
    "last_tile_draw": once,
    "last_tile_claim": once,
    "out_with_replacement_tile": once,
    "robbing_the_kong": once,
    "melded_hand": once,
    "fully_concealed_hand": once,
    "last_tile": once,
    "concealed_hand": once,
    "edge_wait": _wait("edge"),
    "closed_wait": _wait("closed"),
    "single_wait": _wait("single"),
    "self_drawn": once,
    "heavenly_hand": once,
    "earthly_hand": once,
    "heavenly_ready": once,
    "ready_declared": once,
}
GUARDS: dict[str, int] = {
    "last_tile_draw": ft.F_LAST_DRAW,
    "last_tile_claim": ft.F_LAST_CLAIM,
    "out_with_replacement_tile": ft.F_REPLACEMENT,
    "robbing_the_kong": ft.F_ROBBING,
    "melded_hand": ft.F_MELDED,
    "fully_concealed_hand": ft.F_FULLY_CONCEALED,
    "last_tile": ft.F_LAST_COPY,
    "concealed_hand": ft.F_CONCEALED,
    "edge_wait": ft.F_EDGE,
    "closed_wait": ft.F_CLOSED,
    "single_wait": ft.F_SINGLE,
    "self_drawn": ft.F_SELF_DRAWN,
    "heavenly_hand": ft.F_TIANHU,
    "earthly_hand": ft.F_DIHU,
    "heavenly_ready": ft.F_TIANTING,
    "ready_declared": ft.F_READY,
}
EXCLUDES: dict[str, tuple[str, ...]] = {
    "last_tile_draw": ("self_drawn",),
    "out_with_replacement_tile": ("self_drawn",),
    "robbing_the_kong": ("last_tile",),
    "melded_hand": ("single_wait",),
    "fully_concealed_hand": ("concealed_hand", "self_drawn"),
    "heavenly_hand": ("self_drawn", *WHOLE_HAND),
    "earthly_hand": ("concealed_hand",),
    "heavenly_ready": ("ready_declared",),
}
ABSORBS: dict[str, tuple[tuple[str, ...], int | None]] = {}
PER: frozenset[str] = frozenset({})
