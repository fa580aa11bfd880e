"""What the fan modules share: the constant answers of a detector and the detectors of fans that
their guard decides or that the solved set combinations name."""

from __future__ import annotations

from erren.families.guobiao.scoring.facts import Facts
from erren.families.guobiao.scoring.fan import Detector, Sources

__all__ = ["NONE", "ONCE", "WHOLE_HAND", "YAOJIU", "combo", "once", "whole"]

ONCE: Sources = ((),)
"""One occurrence made of no group: the whole hand or the way it was won."""
NONE: Sources = ()
"""The fan is absent."""

YAOJIU = "pung_of_terminals_or_honors"
"""幺九刻, which many fans exclude or absorb."""
WHOLE_HAND = ("concealed_hand", "fully_concealed_hand")
"""门前清 and 不求人, excluded by the hands that are concealed by definition."""


def once(f: Facts) -> Sources:
    """A fan its guard decides (of the whole hand or of the way it was won): one occurrence,
    no groups."""
    return ONCE


def combo(fan_id: str) -> Detector:
    """A set-combination fan, read from the reading's solved combinations (A6, A7, A9)."""

    def detect(f: Facts) -> Sources:
        found = f.chow_fans.get(fan_id) or f.pung_fans.get(fan_id)
        return tuple(found) if found else NONE

    return detect


def whole(f: Facts) -> Sources:
    """A fan of every group of the reading, decided by its guard (全带幺, 平和, ...)."""
    return (f.all_groups,)
