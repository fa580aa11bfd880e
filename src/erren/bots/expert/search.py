"""Time-boxed Monte-Carlo over the hidden tiles: which of a few candidate moves pays most.

Each sample rebuilds a full state from the observation (:func:`erren.engine.resample.resample`,
the opponent's hand drawn at a shanten from the readiness model,
:func:`~erren.bots.expert.opponent.readiness_test`), then plays every candidate on a copy of
that same state to the end with fast rollout bots (common random numbers: the candidates differ
only by the move).  The value of a sample is the player's real payment (``result.deltas``).

The loop stops after ``samples`` samples or when ``clock()`` passes the deadline, whichever is
first; a search that could not give every candidate ``min_samples`` samples returns ``None``
and the caller plays its fast policy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from erren.bots.base import Bot, play_hand
from erren.bots.expert.opponent import readiness_test
from erren.engine import Action, Family, Observation
from erren.engine.resample import resample

__all__ = ["Search", "SearchReport"]

Clock = Callable[[], float]
"""Seconds from an arbitrary origin (``time.perf_counter`` or a test's fake)."""


@dataclass(slots=True)
class SearchReport:
    """What the last search did: samples per candidate and their mean payments."""

    samples: int = 0
    means: dict[Action, float] = field(default_factory=dict)
    stopped_by_clock: bool = False


@dataclass(slots=True)
class Search:
    """Flat Monte-Carlo over ``candidates`` with rollouts by ``rollout`` (one bot per seat)."""

    ruleset: Family
    rollout: Sequence[Bot]
    clock: Clock
    samples: int = 24
    min_samples: int = 6
    resample_tries: int = 400
    last: SearchReport = field(default_factory=SearchReport)

    def best(
        self,
        observation: Observation,
        candidates: Sequence[Action],
        rng: random.Random,
        deadline: float,
    ) -> Action | None:
        """The candidate of highest mean payment, or ``None`` when out of time first."""
        report = SearchReport()
        self.last = report
        if len(candidates) < 2:
            return candidates[0] if candidates else None
        me = observation.player
        totals = dict.fromkeys(candidates, 0.0)
        done = 0
        while done < self.samples:
            if self.clock() >= deadline:
                report.stopped_by_clock = True
                break
            test = readiness_test(observation, rng)
            try:
                root = resample(
                    self.ruleset, observation, rng, opponent=test, tries=self.resample_tries
                )
            except ValueError:
                return None
            for action in candidates:
                state = root.clone()
                state.apply(action)
                play_hand(state, self.rollout)
                result = state.result
                totals[action] += 0.0 if result is None else result.deltas[me]
            done += 1
        report.samples = done
        report.means = {a: v / done for a, v in totals.items()} if done else {}
        if done < self.min_samples:
            return None
        return max(candidates, key=lambda a: (totals[a], -candidates.index(a)))
