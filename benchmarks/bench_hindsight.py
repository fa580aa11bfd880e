"""Hindsight speed (issue #31 point 4): seconds per hand of :func:`erren.review.hindsight`.

Run ``python -m benchmarks.bench_hindsight [--hands 20] [--budget N] [--departures 2]``: hands
of the three families played by two 入门 (``novice``) bots, seeded, the dealer alternating;
each hand searched for both seats at the given budget of engine steps.  Per family: seconds
per search (mean, p90, max, timed by the process's CPU clock: the machine is shared), the
share of searches that were complete, engine steps per second, and the mean gain (best line −
actual, in the family's points).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from erren.bots import find_bot
from erren.bots.base import play_hand
from erren.engine import Record, State, find_family
from erren.review.hindsight import DEFAULT_BUDGET, DEFAULT_DEPARTURES, hindsight

FAMILIES = ("guobiao-2p", "xiamen", "arcade")


def _records(family: str, hands: int, seed: int) -> list[Record]:
    rules = find_family(family)
    rng = random.Random(seed)
    out: list[Record] = []
    for i in range(hands):
        bots = [find_bot("novice", seed=rng.randrange(10**6), ruleset=rules) for _ in (0, 1)]
        hand_seed = rng.randrange(10**9)
        out.append(play_hand(State.new(rules, seed=hand_seed, dealer=i % 2), bots).record())
    return out


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def _row(family: str, hands: int, seed: int, budget: int, departures: int) -> str:
    seconds: list[float] = []
    complete = steps = 0
    gains: list[int] = []
    for record in _records(family, hands, seed):
        for seat in (0, 1):
            start = time.process_time()
            found = hindsight(record, seat, budget=budget, max_departures=departures)
            seconds.append(time.process_time() - start)
            complete += found.complete
            steps += found.steps
            gains.append(found.gain)
    n = len(seconds)
    return (
        f"| {family} | {n} | {statistics.fmean(seconds):.3f} | {_p90(seconds):.3f} | "
        f"{max(seconds):.3f} | {complete / n:.0%} | {steps / sum(seconds):,.0f} | "
        f"{statistics.fmean(gains):.1f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20, help="hands per family")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="engine steps")
    parser.add_argument("--departures", type=int, default=DEFAULT_DEPARTURES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=list(FAMILIES))
    args = parser.parse_args(argv)
    print(f"hindsight: budget {args.budget:,} steps, up to {args.departures} departures")
    print("| family | searches | mean s | p90 s | max s | complete | steps/s | mean gain |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for family in args.rules:
        print(_row(family, args.hands, args.seed, args.budget, args.departures), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
