"""CPU seconds of the job that makes a player's own 何切る puzzles after his hand's review
(:func:`erren.server.owndrills.own_puzzles`, issue #31 point 5), per family: ``--hands`` seeded
hands of 入门 (seat 0, the player) against 普通, each reviewed by 大师 as the server does (not
timed), then the job timed on the hands it would run for (:func:`erren.server.owndrills.costly`:
a decision losing half the bad-move threshold); puzzles made per job, CPU s per job mean/p90/max.

    python -m benchmarks.bench_own_drills [--hands 30] [--seed 1] [--rules guobiao-2p ...]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

from erren.bots.base import play_hand
from erren.bots.levels import Level, level_bot
from erren.engine import Record, State, find_family
from erren.review import review_hand, reviewer
from erren.server.owndrills import costly, own_puzzles


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] if ordered else 0.0


def family_row(rules: str, hands: int, seed: int) -> str:
    """The table row of ``rules``."""
    ruleset = find_family(rules)
    times: list[float] = []
    made = 0
    for i in range(hands):
        state = State.new(ruleset, seed=seed * 100_003 + i, dealer=i % 2)
        bots = [
            level_bot(Level.NOVICE, seed=i, ruleset=ruleset),
            level_bot(Level.NORMAL, seed=i, ruleset=ruleset),
        ]
        play_hand(state, bots)
        record = Record.of(state)
        review = review_hand(record, 0, reviewer()).to_dict()
        if not costly(review):
            continue
        start = time.process_time()
        answer = json.loads(own_puzzles(record.to_json(), json.dumps(review)))
        times.append(time.process_time() - start)
        made += len(answer.get("puzzles", []))
    mean = sum(times) / len(times) if times else 0.0
    top = max(times, default=0.0)
    cells = [rules, hands, len(times), made, f"{mean:.2f}", f"{_p90(times):.2f}", f"{top:.2f}"]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["guobiao-2p", "xiamen", "arcade"])
    args = parser.parse_args(argv)
    print("| family | hands | jobs | puzzles | CPU s/job mean | p90 | max |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for rules in args.rules:
        print(family_row(rules, args.hands, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
