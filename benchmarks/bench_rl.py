"""Reinforcement-learning environments: env steps per second beside the engine's raw speed.

Run ``python -m benchmarks.bench_rl [--hands N] [--seed S] [--repeat R] [--rules R ...]
[--batch B] [--clock wall|cpu]``.

For each family, on hands seeded ``S .. S + N − 1``, every decision taken uniformly at random
among the legal moves:

* **engine**: ``State.new`` and ``state.apply(rng.choice(state.legal_actions()))`` to the end,
  no observation built — the raw hands/s and decisions (steps)/s;
* **AEC env**: ``erren.rl.env(rules)`` as a user drives it (``reset(seed=…)``, then
  ``agent_iter``: ``last()`` — the acting agent's planes and mask — a random index of the
  mask, drawn by ``random.Random`` from ``np.flatnonzero(mask)``, ``step``); its steps are
  the decisions (the two closing ``step(None)`` are not counted);
* **batch env**: ``erren.rl.BatchEnv(B, rules)`` (``--batch``, default 64 games) from
  ``reset(seed=S)``, every row's index drawn uniformly from its mask at once (``argmax`` of
  ``mask × uniform`` keys, as a policy samples), ``step`` until ``N`` hands have ended; its
  steps are every row's decisions;
* **gym env**: ``erren.rl.gym_env(rules, opponent="random")``, the learner's steps/s (the
  random bot's moves are inside them, as a learner experiences it).

The figure of each is the median over ``--repeat`` timed runs after one warm-up run, GC off,
timed by the wall clock or (``--clock cpu``) by the process's CPU time, which leaves out the
time other processes hold the core on a shared machine; the four are interleaved (each round
times engine, AEC, batch and gym one after the other), so that a change of a shared machine's
load falls on all four alike; ``env/engine`` and ``batch/engine`` are the AEC and batch env's
steps/s over the engine's.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from erren.engine import State, find_family
from erren.rl import BatchEnv, env, gym_env

RULES = ("guobiao-2p", "xiamen", "arcade")

Run = Callable[[], tuple[int, int]]
"""A timed run: plays the hands, returns (hands, steps)."""


def _engine(rules: str, seed: int, hands: int) -> Run:
    ruleset = find_family(rules)

    def run() -> tuple[int, int]:
        steps = 0
        for s in range(seed, seed + hands):
            rng = random.Random(s)
            state = State.new(ruleset, seed=s)
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
                steps += 1
        return hands, steps

    return run


def _aec(rules: str, seed: int, hands: int) -> Run:
    e = env(rules)

    def run() -> tuple[int, int]:
        steps = 0
        for s in range(seed, seed + hands):
            rng = random.Random(s)
            e.reset(seed=s)
            for _agent in e.agent_iter():
                obs, _reward, terminated, _truncated, _info = e.last()
                if terminated:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return hands, steps

    return run


def _batch(rules: str, seed: int, hands: int, games: int) -> Run:
    g = BatchEnv(games, rules)

    def run() -> tuple[int, int]:
        rng = np.random.default_rng(seed)
        batch = g.reset(seed=seed)
        steps = ended = 0
        while ended < hands:
            keys = rng.random(batch.action_mask.shape) * batch.action_mask
            batch = g.step(keys.argmax(axis=1))
            steps += games
            ended += int(batch.terminated.sum())
        return ended, steps

    return run


def _gym(rules: str, seed: int, hands: int) -> Run:
    g = gym_env(rules, opponent="random")

    def run() -> tuple[int, int]:
        steps = 0
        for s in range(seed, seed + hands):
            rng = random.Random(s)
            obs, _info = g.reset(seed=s)
            terminated = False
            while not terminated:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _reward, terminated, _truncated, _info = g.step(
                    int(legal[rng.randrange(len(legal))])
                )
                steps += 1
        return hands, steps

    return run


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def rates(
    runs: Sequence[Run], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> list[tuple[float, float]]:
    """Median hands/s and steps/s of each of ``runs`` over ``repeat`` timed runs (one warm-up
    of each first).  The runs are interleaved: each round times every one of them once, so a
    change of the machine's load falls on all of them alike and their ratios hold."""
    for run in runs:
        run()
    hands_s: list[list[float]] = [[] for _ in runs]
    steps_s: list[list[float]] = [[] for _ in runs]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(max(1, repeat)):
            for i, run in enumerate(runs):
                start = clock()
                hands, steps = run()
                elapsed = clock() - start
                hands_s[i].append(hands / elapsed)
                steps_s[i].append(steps / elapsed)
    finally:
        if was_enabled:
            gc.enable()
    return [
        (statistics.median(h), statistics.median(s)) for h, s in zip(hands_s, steps_s, strict=True)
    ]


def table(
    rules: Sequence[str],
    seed: int,
    hands: int,
    repeat: int,
    *,
    games: int = 64,
    clock: str = "wall",
) -> str:
    timer = CLOCKS[clock]
    head = (
        f"{'family':<12} {'engine hands/s':>14} {'engine steps/s':>14} "
        f"{'env hands/s':>11} {'env steps/s':>11} {'env/engine':>10} "
        f"{'batch steps/s':>13} {'batch/engine':>12} {'gym steps/s':>11}"
    )
    lines = [head, "-" * len(head)]
    for name in rules:
        runs = [
            _engine(name, seed, hands),
            _aec(name, seed, hands),
            _batch(name, seed, hands, games),
            _gym(name, seed, hands),
        ]
        engine, aec, batch, gym = rates(runs, repeat, timer)
        (engine_hands, engine_steps), (env_hands, env_steps) = engine, aec
        batch_steps, gym_steps = batch[1], gym[1]
        lines.append(
            f"{name:<12} {engine_hands:>14,.0f} {engine_steps:>14,.0f} {env_hands:>11,.0f} "
            f"{env_steps:>11,.0f} {env_steps / engine_steps:>10.2f} "
            f"{batch_steps:>13,.0f} {batch_steps / engine_steps:>12.2f} {gym_steps:>11,.0f}"
        )
    lines.append(
        f"({hands} random hands per family, seeds {seed}..{seed + hands - 1}, "
        f"median of {repeat} runs; steps are decisions; batch of {games} games; "
        f"{clock} clock)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--hands", type=int, default=200, help="hands per family (%(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (%(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (%(default)s)")
    parser.add_argument(
        "--rules", nargs="+", default=list(RULES), help="families (default: all three)"
    )
    parser.add_argument("--batch", type=int, default=64, help="games per batch (%(default)s)")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall time or the process's CPU time (%(default)s)",
    )
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    for name in args.rules:
        try:
            find_family(name)
        except ValueError as error:
            parser.error(str(error))
    print(table(args.rules, args.seed, args.hands, args.repeat, games=args.batch, clock=args.clock))
    return 0


if __name__ == "__main__":
    sys.exit(main())
