"""The opponent readiness model: how far from ready his concealed hand is likely to be, from
what is public (his discards, his melds, his 报听 flag).

The counts come from self-play (:mod:`erren.bots.expert.train_opponent`, shipped in
:mod:`erren.bots.expert.opponent_data`).  :func:`readiness_test` turns one draw of the model
into the ``opponent`` predicate of :func:`erren.engine.resample.resample`: a resampled hand is
accepted only at the drawn shanten — a hand after 报听 only when ready — instead of the uniform
draw, which sits far from ready (~2.5 against ~1.4 for real hands).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from erren.analysis.shanten import shanten
from erren.analysis.shapes import GUOBIAO_2P, ShapeSet
from erren.bots.expert.opponent_data import COUNTS
from erren.bots.expert.train_opponent import MAX_SHANTEN, context_key
from erren.engine import Observation

__all__ = ["draw_shanten", "public_key", "readiness_test", "shanten_weights"]


def public_key(observation: Observation) -> str:
    """The table key of the opponent's public facts in ``observation``."""
    opp = observation.opponent
    melds = len(observation.melds[opp]) + observation.hidden_kongs[opp]
    return context_key(len(observation.discards[opp]), melds, observation.ting[opp])


def shanten_weights(key: str) -> tuple[int, ...]:
    """Counts by shanten 0..MAX_SHANTEN for ``key``; an unseen key borrows the nearest row with
    fewer discards (a 报听 key without data: ready)."""
    found = COUNTS.get(key)
    if found is not None and any(found):
        return found
    d, m, t = (int(x) for x in key.split("/"))
    if t:
        return (1,) + (0,) * MAX_SHANTEN
    for fewer in range(d - 1, -1, -1):
        found = COUNTS.get(context_key(fewer, m, False))
        if found is not None and any(found):
            return found
    return (0, 1, 1, 1, 0)


def draw_shanten(observation: Observation, rng: random.Random) -> int:
    """One draw of the opponent's shanten from the model."""
    weights = shanten_weights(public_key(observation))
    return rng.choices(range(len(weights)), weights=weights)[0]


def readiness_test(
    observation: Observation, rng: random.Random, *, shapes: ShapeSet = GUOBIAO_2P
) -> Callable[[list[int]], bool]:
    """The predicate accepting an opponent hand at a shanten drawn from the model (the top
    class: that shanten or more)."""
    target = draw_shanten(observation, rng)

    def accept(counts: list[int]) -> bool:
        k = shanten(counts, shapes=shapes)
        return k >= target if target == MAX_SHANTEN else k == target

    return accept
