"""Strength of the computer's levels: duplicate matches of each level against 普通 (``normal``,
the ``efficiency`` bot) in every family, with 95 % intervals and decision times.

Run ``python -m benchmarks.bench_arena [--deals N] [--seed S] [--workers K] [--rules R ...]
[--levels L ...]``.  Each row is :func:`erren.sim.arena` of ``--deals`` deals (each played twice,
seats swapped) between the level (A) and ``normal`` (B), from the same seed: the same command
prints the same figures but for the times.  ``mean`` is A's points per hand over B, ``95 % CI``
the normal interval ``mean ± 1.96·s/√n`` over the deals; win and deal-in rates are A's; the
times are A's decisions (``choose`` alone), in milliseconds.

Targets (issue 13, over ≥ 8,000 deals): guobiao-2p ``master`` ≥ +1.0 points per hand with the
lower bound > +0.5; xiamen and arcade lower bound > 0; decision time p99 ≤ 200 ms, mean ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from erren.engine import find_family
from erren.sim import ArenaResult, arena

FAMILIES = ("guobiao-2p", "guobiao-2p:gb", "xiamen", "arcade")
"""The tables: a family, or ``family:fan_table`` (guobiao-2p's ``gb`` table: 8–13 fan)."""
LEVELS = ("master", "strong", "novice")
OPPONENT = "normal"


def row(rules: str, result: ArenaResult, seconds: float) -> str:
    """One line of the table."""
    a = result.sides[0]
    hw = result.half_width or 0.0
    low, high = result.mean - hw, result.mean + hw
    return (
        f"| {rules} | {result.bots[0]} | {result.deals:,} | {result.mean:+.2f} "
        f"| [{low:+.2f}, {high:+.2f}] | {100 * a.win_rate:.1f} % | {100 * a.deal_in_rate:.1f} % "
        f"| {a.mean_time_ms:.1f} | {a.time_ms(0.5):.1f} | {a.time_ms(0.99):.1f} "
        f"| {seconds:,.0f} s |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_arena", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8000, help="deals per row (default 8000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every row (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--rules", nargs="+", default=FAMILIES, help="tables, e.g. guobiao-2p:gb (default all)"
    )
    parser.add_argument("--levels", nargs="+", default=LEVELS, help="levels against normal")
    args = parser.parse_args(argv)
    if args.deals < 2 or args.workers < 1:
        parser.error("--deals must be ≥ 2 and --workers ≥ 1")
    print(
        f"Levels against {OPPONENT} (efficiency), {args.deals:,} deals × 2 games, "
        f"seed {args.seed}, {args.workers} worker(s)\n"
    )
    print(
        "| family | level (A) | deals | mean | 95 % CI | A wins | A deal-in "
        "| mean ms | p50 ms | p99 ms | run |"
    )
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rules in args.rules:
        family, _, table = rules.partition(":")
        ruleset = find_family(family, fan_table=table) if table else find_family(family)
        for level in args.levels:
            start = time.perf_counter()
            result = arena(
                ruleset, (level, OPPONENT), deals=args.deals, seed=args.seed, workers=args.workers
            )
            print(row(rules, result, time.perf_counter() - start), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
