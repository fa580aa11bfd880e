"""The slowest inputs of :func:`erren.analysis.readings.readings`: hands with three or four wilds.

Each entry is ``(hand text, wilds, shapes)``.  ``tests/analysis/test_readings_wilds.py`` checks
that each has readings; ``benchmarks/bench_analysis.py`` times them with the caches cleared.
"""

from __future__ import annotations

from erren.analysis import _decompose
from erren.analysis import readings as readings_module
from erren.analysis.readings import Wilds
from erren.analysis.shapes import ARCADE, XIAMEN, ShapeSet

XIAMEN_KINDS = frozenset([*range(9), *range(27, 34)])
"""The 16 kinds of the xiamen tile set (R-1.1), which a gold may stand for (R-3.2)."""

ARCADE_5S = Wilds(kind=22)  # W = 5s, F = 5z

MANY_WILDS: tuple[tuple[str, Wilds, ShapeSet], ...] = (
    ("1112223334z555s +4z", ARCADE_5S, ARCADE),  # E33: three wilds, one of them the winner
    ("123m9p555s666777z +9p", ARCADE_5S, ARCADE),  # T7
    ("123456789m5s5s11z +5s", ARCADE_5S, ARCADE),
    ("123456789m5s5s5s1z +1z", ARCADE_5S, ARCADE),
    ("9m9m9m9m1234567m11z +1z", Wilds(8, None, 31, XIAMEN_KINDS), XIAMEN),  # four golds
)


def clear_reading_caches() -> None:
    """Forget every cached reading, so the next call computes from scratch."""
    for cached in (
        _decompose._regular,
        _decompose._seven_pairs,
        _decompose._wild_only,
        _decompose._wild_sets,
        readings_module._readings,
    ):
        cached.cache_clear()
