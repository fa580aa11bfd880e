"""The 起和 check: the explaining ``score()`` against the C ``score_fast()`` where the engine asks
for a win's value (``GuobiaoFamily.win_value``), per call and end to end in the simulator.

Run ``python -m benchmarks.bench_win_value [--hands N] [--seed S] [--repeat R]``.

guobiao-2p with table ``gb`` and ``min_fan`` 8: every offered hu and every 报听 discard asks
``win_value`` for the fan total without flowers (``State._can_win``, ``State._ting_fan_ok``);
the bots value their waits through those legal actions, and ``erren simulate`` plays them.

=========================  ====================================================================
win_value, score()         µs per call of ``score(hand, ctx, table="gb").total_without_flowers``
                           on the claims ``--hands`` hands of efficiency vs random asked
                           about, every erren cache emptied before each timed run
win_value, score() memo    the same calls again, on hands ``score`` has memoised
win_value, score_fast()    ``score_fast`` total minus the flower fans, no cache
simulate <bots>, <how>     CPU µs per hand (and hands/s) of ``erren.sim.simulate`` with
                           ``GuobiaoFamily.win_value`` computed by ``score()`` or
                           ``score_fast()``; the same seed, so the same hands; the two
                           alternate run by run and the median of ``--repeat`` runs is shown
=========================  ====================================================================
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks.harness import Config, Row, format_table, run_main, suite, time_per_op
from erren.engine import State, WinClaim, find_family
from erren.families.guobiao.game import GuobiaoFamily
from erren.families.guobiao.game import _context as win_context
from erren.families.guobiao.scoring import WinContext, score, score_fast
from erren.families.guobiao.scoring.calculator import _candidates, _score
from erren.hand import Hand
from erren.sim import simulate

RULESET = "guobiao-2p"
OPTIONS: dict[str, Any] = {"fan_table": "gb", "min_fan": 8}
BOTS = (("random", "random"), ("efficiency", "random"), ("efficiency", "efficiency"))

WinValue = Callable[[GuobiaoFamily, State, WinClaim], "int | None"]


def _by_score(ruleset: GuobiaoFamily, state: State, claim: WinClaim) -> int | None:
    return score(
        claim.hand, win_context(claim), table=ruleset.options.fan_table
    ).total_without_flowers


def _by_score_fast(ruleset: GuobiaoFamily, state: State, claim: WinClaim) -> int | None:
    total, fans = score_fast(claim.hand, win_context(claim), table=ruleset.options.fan_table)
    return total - sum(fan.value * count for fan, count in fans if fan.bonus)


HOWS: tuple[tuple[str, WinValue], ...] = (("score()", _by_score), ("score_fast()", _by_score_fast))


def _clear() -> None:
    _score.cache_clear()
    _candidates.cache_clear()


def _claims(config: Config) -> list[tuple[Hand, WinContext]]:
    """Every (hand, context) ``win_value`` is asked about in ``--hands`` hands of efficiency
    against random."""
    seen: list[tuple[Hand, WinContext]] = []
    original = GuobiaoFamily.win_value

    def record(ruleset: GuobiaoFamily, state: State, claim: WinClaim) -> int | None:
        seen.append((claim.hand, win_context(claim)))
        return original(ruleset, state, claim)

    GuobiaoFamily.win_value = record  # type: ignore[assignment, method-assign]
    try:
        simulate(find_family(RULESET, **OPTIONS), BOTS[1], hands=config.hands, seed=config.seed)
    finally:
        GuobiaoFamily.win_value = original  # type: ignore[method-assign]
    return seen


def _simulate_cpu(bots: tuple[str, str], config: Config) -> dict[str, float]:
    """Median CPU µs per hand of ``simulate`` with each way of valuing a win, the two ways
    alternating run by run (after a warm-up of each), so that a machine busy with other work
    slows both alike."""
    samples: dict[str, list[float]] = {how: [] for how, _ in HOWS}
    original = GuobiaoFamily.win_value
    try:
        for run in range(max(1, config.repeat) + 1):
            for how, fn in HOWS:
                GuobiaoFamily.win_value = fn  # type: ignore[assignment, method-assign]
                ruleset = find_family(RULESET, **OPTIONS)
                _clear()
                gc.collect()
                start = time.process_time_ns()
                simulate(ruleset, bots, hands=config.hands, seed=config.seed)
                if run:  # run 0 warms up
                    samples[how].append((time.process_time_ns() - start) / config.hands / 1000)
    finally:
        GuobiaoFamily.win_value = original  # type: ignore[method-assign]
    return {how: statistics.median(times) for how, times in samples.items()}


@suite("win_value")
def bench(config: Config) -> str:
    rows: list[Row] = []
    claims = _claims(config)
    n = len(claims)

    def cold() -> object:
        _clear()
        return [score(h, c, table="gb").total_without_flowers for h, c in claims]

    def warm() -> object:
        return [score(h, c, table="gb").total_without_flowers for h, c in claims]

    def fast() -> object:
        return [score_fast(h, c, table="gb")[0] for h, c in claims]

    for label, loop in (("score()", cold), ("score() memo", warm), ("score_fast()", fast)):
        rows.append(Row(f"win_value, {label}", "gb", None, time_per_op(loop, n, config.repeat)))
        rows[-1].hands = n
    rates: list[str] = []
    for bots in BOTS:
        per_hand = _simulate_cpu(bots, config)
        for how, _ in HOWS:
            label = f"simulate {bots[0]}/{bots[1]}, {how}"
            rows.append(Row(label, "gb min 8", None, per_hand[how], hands=config.hands))
            rates.append(f"  {label:<44} {1e6 / per_hand[how]:>8,.0f} hands/s (CPU)")
    return "\n".join([format_table(rows, ()), "hands per second:", *rates])


main = run_main("win_value", __doc__.splitlines()[0] if __doc__ else "")

if __name__ == "__main__":
    sys.exit(main(None))
