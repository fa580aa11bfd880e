"""Determinization speed: µs per :func:`erren.engine.resample.resample` (a bot's Monte-Carlo
search calls it hundreds of times per decision).

Run ``python -m benchmarks.bench_resample [--games N]``: random hands of the three families
(efficiency bots), the observation of the seat to act at every decision, then µs per resample
of each family, best of five runs (the machine is shared: take the best reading).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from erren.bots import find_bot
from erren.engine import Observation, State, find_family
from erren.engine.resample import resample

FAMILIES = ("guobiao-2p", "xiamen", "arcade")


def _samples(family: str, games: int) -> list[Observation]:
    rules = find_family(family)
    observations: list[Observation] = []
    for seed in range(games):
        state = State.new(rules, seed=seed)
        bot = find_bot("efficiency", seed=seed, ruleset=rules)
        while not state.is_terminal:
            obs = state.observe(state.actor)
            observations.append(obs)
            state.apply(bot.choose(obs, state.legal_actions()))
    return observations


def _best_us(run: Callable[[], object], count: int) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / count * 1e6


def _time_family(family: str, games: int) -> tuple[float, int]:
    """µs per resample over every observation of ``games`` hands, and their number."""
    rules = find_family(family)
    observations = _samples(family, games)
    rng = random.Random(0)
    us = _best_us(lambda: [resample(rules, o, rng) for o in observations], len(observations))
    return us, len(observations)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="hands per family")
    args = parser.parse_args(argv)
    for family in FAMILIES:
        us, count = _time_family(family, args.games)
        print(f"resample {family:<11} {us:8.1f} µs  ({count} observations)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
