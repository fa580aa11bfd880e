"""Simulator throughput: hands per second on one core, guobiao-2p, random and efficiency bots.

Run ``python -m benchmarks.bench_simulate [--hands N] [--seed S] [--repeat R]``.

One timed run is :func:`erren.sim.simulate` of ``--hands`` hands (default 2000) with the bots of
the row, seat 0 and seat 1, from the same seed every run; the figure is the median over
``--repeat`` runs (after one warm-up run) of µs per hand, and hands/s is its inverse.  The whole
hand is timed: shuffle, deal, every legal-action list, every observation a bot reads, the bots'
decisions, and the scoring of each win.  ``random`` bots are *blind* (they never read their
observation, so none is built); the efficiency bot reads one per decision.

Targets (issue 3): ≥ 1,000 hands/s with random bots, ≥ 300 with efficiency bots.
"""

from __future__ import annotations

import sys

from benchmarks.harness import Config, Row, format_table, run_main, suite, time_per_op
from erren.engine import find_family
from erren.sim import simulate

RULESET = "guobiao-2p"
ROWS: tuple[tuple[str, tuple[str, str], float], ...] = (
    ("random vs random", ("random", "random"), 1000.0),
    ("efficiency vs random", ("efficiency", "random"), 300.0),
    ("efficiency vs efficiency", ("efficiency", "efficiency"), 300.0),
)
"""(label, bots, target hands/s)."""


@suite("simulate")
def bench(config: Config) -> str:
    ruleset = find_family(RULESET)
    rows: list[Row] = []
    rates: list[str] = []
    for label, bots, target in ROWS:
        n = config.hands

        def loop(bots: tuple[str, str] = bots, n: int = n) -> object:
            return simulate(ruleset, bots, hands=n, seed=config.seed)

        per_hand = time_per_op(loop, n, config.repeat)
        rows.append(Row(label, RULESET, 1e6 / target, per_hand, hands=n))
        ok = "yes" if 1e6 / per_hand >= target else "NO"
        rates.append(
            f"  {label:<26} {1e6 / per_hand:>8,.0f} hands/s  (target ≥ {target:,.0f}: {ok})"
        )
    return "\n".join([format_table(rows, ()), "hands per second:", *rates])


main = run_main("simulate", __doc__.splitlines()[0] if __doc__ else "")

if __name__ == "__main__":
    sys.exit(main(None))
