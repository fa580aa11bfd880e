"""Defence against a 报听 opponent: how likely each tile is to be one of his waits.

After 报听 the opponent is ready and wins automatically on any discard he waits on.  Where he
waits is estimated by resampling his hand (:func:`erren.engine.resample.resample`, the opponent
predicate of :func:`~erren.bots.expert.opponent.readiness_test` makes a 报听 hand ready) and
counting, for each kind, the share of samples that wait on it.

The policy (:func:`safer_discard`) only trades between discards that keep the same shanten:
folding out of a good hand was measured to lose (0.5–1.1 points per hand).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots.expert.opponent import readiness_test
from erren.engine import Family, Observation
from erren.engine.resample import resample
from erren.tiles import NUM_KINDS

__all__ = ["DANGER_SAMPLES", "danger", "safer_discard"]

DANGER_SAMPLES = 32
"""Resampled opponent hands per estimate."""


def danger(
    ruleset: Family,
    observation: Observation,
    rng: random.Random,
    *,
    samples: int = DANGER_SAMPLES,
    clock: Callable[[], float] | None = None,
    deadline: float = float("inf"),
) -> list[float]:
    """For each kind, the share of resampled ready opponent hands that wait on it (fewer
    samples when ``clock()`` passes ``deadline``; all zero without any)."""
    opp = observation.opponent
    hits = [0] * NUM_KINDS
    done = 0
    for _ in range(samples):
        if clock is not None and clock() >= deadline:
            break
        test = readiness_test(observation, rng)
        try:
            state = resample(ruleset, observation, rng, opponent=test, tries=400)
        except ValueError:
            continue
        hand = state.hands[opp]
        held = state.meld_counts[opp] if state.melds[opp] else None
        for t in waits(hand, shapes=GUOBIAO_2P, held=held):
            hits[t] += 1
        done += 1
    return [h / done if done else 0.0 for h in hits]


def safer_discard(
    choice: int,
    options: Mapping[int, float],
    risk: Sequence[float],
    *,
    threshold: float,
    keep: float,
) -> int:
    """``choice``, unless its risk is at least ``threshold``: then the option of highest value
    among those worth at least ``keep`` × the choice's value and of risk below half the
    choice's, if any.  ``options``: each tile of the same shanten as ``choice`` with its
    value."""
    if risk[choice] < threshold:
        return choice
    floor = keep * options.get(choice, 0.0)
    safer = [
        (value, -t)
        for t, value in options.items()
        if t != choice and value >= floor and risk[t] < risk[choice] / 2
    ]
    return -max(safer)[1] if safer else choice
