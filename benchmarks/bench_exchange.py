"""Arcade's opening exchange: the time of 大师's exchange decision, by value (the
``exchange_value`` knob, :mod:`erren.families.arcade.bot.exchange_value`) and by mean shanten
(the default).

Run ``python -m benchmarks.bench_exchange [--deals 200] [--seed 1] [--clock cpu|wall]``: for
each seeded deal, both players' opening-exchange observations (the first ``give`` decision,
which works out the whole plan; the later steps reuse it), each decided by a fresh 大师
(``ExpertBot``, budget 150 ms) of each ranking.  Prints mean / p50 / p99 / max ms per ranking and
how often the two plans differ.  ``--clock cpu`` times by the process's CPU time (a shared
machine), ``wall`` by ``perf_counter``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

from erren.bots.expert import ExpertBot
from erren.bots.expert.knobs import Knobs
from erren.engine import Action, Observation, State, find_family
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.vocabulary import ArcadeVerb

RANKINGS = (("value", Knobs(exchange_value=True)), ("shanten", Knobs()))
"""The rankings compared: 大师 with the ``exchange_value`` knob, and by default."""


def _openings(deals: int, seed: int) -> list[tuple[Observation, list[Action]]]:
    """Each deal's exchange observations (dealer, then non-dealer), each player exchanging
    nothing."""
    rules = find_family("arcade")
    out: list[tuple[Observation, list[Action]]] = []
    for i in range(deals):
        state = State.new(rules, seed=seed * 1_000_003 + i)
        found = 0
        while not state.is_terminal and found < 2:
            obs = state.observe(state.actor)
            legal = state.legal_actions()
            if obs.phase is ArcadePhase.EXCHANGE:
                out.append((obs, list(legal)))
                found += 1
                state.apply(next(a for a in legal if a.kind is ArcadeVerb.EXCHANGE))
            else:
                state.apply(legal[0])
    return out


def _quantile(xs: Sequence[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args(argv)
    clock: Callable[[], float] = time.process_time if args.clock == "cpu" else time.perf_counter
    rules = find_family("arcade")
    openings = _openings(args.deals, args.seed)
    plans: dict[str, list[Action]] = {}
    print(f"arcade opening exchange · {len(openings)} decisions · {args.clock} clock")
    print(f"{'ranking':<9} {'mean ms':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, knobs in RANKINGS:
        times: list[float] = []
        chosen: list[Action] = []
        for obs, legal in openings:
            bot = ExpertBot(seed=1, knobs=knobs)
            bot.bind(rules)
            start = clock()
            chosen.append(bot.choose(obs, legal))
            times.append((clock() - start) * 1000)
        plans[name] = chosen
        print(
            f"{name:<9} {statistics.fmean(times):8.1f} {_quantile(times, 0.5):8.1f}"
            f" {_quantile(times, 0.99):8.1f} {max(times):8.1f}"
        )
    differ = sum(a != b for a, b in zip(plans["value"], plans["shanten"], strict=True))
    print(f"first give differs in {differ} of {len(openings)} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
