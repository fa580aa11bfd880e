"""Seconds per hand of ``erren review`` (issue 31): per family and reviewed player, ``--hands``
simulated hands (seeded; the reviewed seat 0 played by ``--players``' bots against 普通), each
reviewed at the default level (大师) with the default rollouts: decisions per hand, decisions
rolled out (where the player's move and 大师's differ) per hand, and the seconds per hand
(mean, p90, max) on one core — CPU time of this process (``--clock cpu``, the default: the
machine is shared) or the wall clock.  ``--hindsight`` also finds the seat's hindsight
(:func:`erren.review.hindsight.hindsight` at its default budget), as the server's review job
does, and adds its seconds per hand and the total (review + hindsight: mean, p90, max).

    python -m benchmarks.bench_review [--hands 20] [--seed 1] [--rules guobiao-2p xiamen arcade]
        [--players novice normal] [--rollouts 16] [--clock cpu|wall] [--hindsight]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from erren.bots.base import play_hand
from erren.bots.levels import Level, level_bot, parse_level
from erren.engine import Record, State, find_family
from erren.review import DEFAULT_ROLLOUTS, review_game
from erren.review.hindsight import hindsight

FAMILIES = ("guobiao-2p", "xiamen", "arcade")


def _records(rules: str, player: Level, hands: int, seed: int) -> list[Record]:
    ruleset = find_family(rules)
    out = []
    for i in range(hands):
        state = State.new(ruleset, seed=seed * 100_003 + i, dealer=i % 2)
        bots = [
            level_bot(player, seed=i, ruleset=ruleset),
            level_bot(Level.NORMAL, seed=i, ruleset=ruleset),
        ]
        play_hand(state, bots)
        out.append(Record.of(state))
    return out


def _spread(seconds: list[float]) -> tuple[str, str, str]:
    """Mean, p90 and max, in seconds."""
    p90 = sorted(seconds)[max(0, round(0.9 * len(seconds)) - 1)]
    return f"{statistics.fmean(seconds):.2f}", f"{p90:.2f}", f"{max(seconds):.2f}"


def _row(rules: str, player: Level, args: argparse.Namespace) -> tuple[str, ...]:
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    seconds: list[float] = []
    known: list[float] = []
    decisions = rolled = 0
    for record in _records(rules, player, args.hands, args.seed):
        start = clock()
        review = review_game([record], 0, rollouts=args.rollouts, seed=args.seed)
        seconds.append(clock() - start)
        decisions += len(review.decisions)
        rolled += sum(1 for d in review.decisions if not d.matches)
        if args.hindsight:
            start = clock()
            hindsight(record, 0)
            known.append(clock() - start)
    n = len(seconds)
    row: tuple[str, ...] = (
        rules,
        player.value,
        str(n),
        f"{decisions / n:.1f}",
        f"{rolled / n:.1f}",
    )
    row += _spread(seconds)
    if args.hindsight:
        total = [a + b for a, b in zip(seconds, known, strict=True)]
        row += (f"{statistics.fmean(known):.2f}", f"{max(known):.2f}", *_spread(total))
    return row


HEAD = ("family", "player", "hands", "decisions/hand", "rolled out/hand", "s/hand", "p90", "max")
HINDSIGHT_HEAD = ("hindsight s", "hindsight max", "total s/hand", "total p90", "total max")


def table(rows: Sequence[tuple[str, ...]]) -> str:
    head = HEAD + HINDSIGHT_HEAD if rows and len(rows[0]) > len(HEAD) else HEAD
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *rows]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=list(FAMILIES))
    parser.add_argument("--players", nargs="+", default=["novice", "normal"])
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--hindsight", action="store_true", help="add the seat's hindsight")
    args = parser.parse_args(argv)
    rows = [
        _row(rules, parse_level(player), args) for rules in args.rules for player in args.players
    ]
    extra = " + hindsight" if args.hindsight else ""
    print(f"erren review at 大师{extra}, {args.rollouts} rollouts, {args.clock} seconds per hand")
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
