"""Expected points of a move, from the seat's observation only.

:func:`estimate` values each of a few moves the seat could make at one decision by Monte-Carlo
over the hidden tiles: ``K`` worlds (default :data:`DEFAULT_ROLLOUTS`) are rebuilt from the
observation alone (:func:`erren.engine.resample.resample`, the opponent's hand drawn at a
shanten from the readiness model, :func:`erren.bots.expert.opponent.readiness_test`: a hand
after 报听 is ready); in each world every move is applied to a copy of the same state and the
hand is played to its end by the fast policy (:data:`POLICY`: the ``efficiency`` bot at both
seats, the policy 大师's own search rolls out with; deterministic).  A world's value of a
move is what the table pays the seat at the end (``HandResult.deltas``: the family's points,
its own settlement); the estimate is the mean.

Common random numbers: the moves of one decision are valued on the same ``K`` worlds, so their
difference carries no noise of the deal; the worlds come from ``random.Random`` seeded by the
review's seed and the decision's step, so an estimate is the same on every run for a seed.
The standard error reported is that of the paired difference (``ev_bot - ev_player``).

The observation is all it reads: the true state of the record never reaches it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from erren.bots.base import Bot, play_hand
from erren.bots.efficiency import EfficiencyBot
from erren.bots.expert.opponent import readiness_test
from erren.engine import Action, Family, Observation
from erren.engine.resample import resample

__all__ = ["DEFAULT_ROLLOUTS", "METHOD", "POLICY", "Estimate", "estimate", "method_text"]

DEFAULT_ROLLOUTS = 16
"""Worlds per decision where the moves differ: a full hand reviews within 2 s on one core
(``python -m benchmarks.bench_review``); more cuts the noise as ``1/sqrt(K)``."""

POLICY = "the efficiency bot (普通; the policy 大师's own search rolls out with)"
"""The policy that plays both seats from the move to the end of the hand.  Measured against
大师's fast policy (``ExpertBot(budget_ms=0)``, ``benchmarks/bench_review.py`` with 8 hands of
入门's play per family): the same seconds per hand on most hands (guobiao-2p 0.23 s both,
xiamen 0.12 against 0.14, arcade 0.62 against 0.58), but without a budget the expert's
one-from-ready look-ahead is unbounded: a simulated 3-hand guobiao-2p game took about 50 s
to review with it, against under 2 s with this one; so this one."""

RESAMPLE_TRIES = 400
"""Draws of the opponent's hand tried per world until the readiness model accepts one."""

METHOD = (
    "Expected points for the reviewed seat, in the family's unit as the table pays "
    "(HandResult.deltas), estimated from the seat's observation only: {k} worlds resampled "
    "from it (the opponent's hand at a shanten drawn from 大师's readiness model; ready after "
    "报听), each move applied in the same {k} worlds (common random numbers), both seats "
    "played to the end of the hand by {policy}; the mean over the worlds. Only "
    "decisions where the player's move and the bot's differ are rolled out."
)


def method_text(rollouts: int) -> str:
    """The ``method`` sentence of a review rolled out ``rollouts`` times per decision."""
    return METHOD.format(k=rollouts, policy=POLICY)


@dataclass(frozen=True, slots=True)
class Estimate:
    """Mean points of each move (in the order asked) over ``worlds`` worlds, and the paired
    standard error of the second minus the first (``0.0`` with fewer than two worlds)."""

    means: tuple[float, ...]
    stderr: float
    worlds: int


def _policy(ruleset: Family) -> list[Bot]:
    bots: list[Bot] = [EfficiencyBot(), EfficiencyBot()]
    for bot in bots:
        bot.bind(ruleset)
    return bots


def _paired_stderr(first: list[float], second: list[float]) -> float:
    n = len(first)
    if n < 2:
        return 0.0
    diffs = [b - a for a, b in zip(first, second, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)


def estimate(
    ruleset: Family,
    observation: Observation,
    moves: Sequence[Action],
    *,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
) -> Estimate:
    """The expected points for ``observation.player`` of each of ``moves`` (legal at
    ``observation``), over ``rollouts`` worlds drawn from ``random.Random(seed)``.  A world
    the observation cannot be rebuilt into (:class:`ValueError` from the resampler) is
    skipped; with none left every mean is 0."""
    if rollouts < 1:
        raise ValueError("rollouts must be ≥ 1")
    me = observation.player
    rng = random.Random(seed)
    bots = _policy(ruleset)
    values: list[list[float]] = [[] for _ in moves]
    for _ in range(rollouts):
        accept = readiness_test(observation, rng)
        try:
            root = resample(ruleset, observation, rng, opponent=accept, tries=RESAMPLE_TRIES)
        except ValueError:
            continue
        for i, move in enumerate(moves):
            state = root.clone()
            state.apply(move)
            play_hand(state, bots)
            result = state.result
            values[i].append(0.0 if result is None else float(result.deltas[me]))
    worlds = len(values[0]) if values else 0
    means = tuple(sum(v) / worlds if worlds else 0.0 for v in values)
    stderr = _paired_stderr(values[0], values[1]) if len(values) >= 2 else 0.0
    return Estimate(means, stderr, worlds)
