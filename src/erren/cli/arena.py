"""``erren arena``: duplicate matches between two bots, then A's advantage over B."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from erren.cli.simulate import add_mjai_timeout, add_ruleset_arguments, ruleset_of, run_batch
from erren.mjai.bot import split_bot_specs
from erren.sim.arena import ArenaResult, arena, make_bot
from erren.sim.simulator import Progress

NAME = "arena"
HELP = (
    "Duplicate matches between two bots (every deal played twice, seats swapped): A's points "
    "per hand over B with a confidence interval, win, deal-in and draw rates, decision times."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset_arguments(parser)
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B",
        help="the two bots, comma-separated, e.g. efficiency,random; mjai:COMMAND runs an "
        "external mjai bot, e.g. 'mjai:node examples/mjai-bot/bot.js,expert'; "
        "expert[NAME=VALUE;...] is 大师 with some knobs changed, e.g. 'expert[one_away_flex=0]'",
    )
    add_mjai_timeout(parser)
    parser.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="K",
        help="processes to play in (default 1; the result does not depend on it)",
    )
    parser.add_argument(
        "--jsonl",
        metavar="FILE",
        help="write every game's record, one a line: per deal, game 1 (A at seat 0), then game 2",
    )


def run(args: argparse.Namespace) -> int:
    err = sys.stderr
    names = split_bot_specs(args.bots)
    if len(names) != 2 or not all(names):
        print("erren arena: --bots needs two names, e.g. --bots efficiency,random", file=err)
        return 2
    if args.deals < 1:
        print("erren arena: --deals must be ≥ 1", file=err)
        return 2
    if args.workers < 1:
        print("erren arena: --workers must be ≥ 1", file=err)
        return 2
    if args.mjai_timeout <= 0:
        print("erren arena: --mjai-timeout must be > 0 seconds", file=err)
        return 2
    try:
        ruleset = ruleset_of(args)
        for name in names:
            make_bot(name, 0, ruleset, mjai_timeout=args.mjai_timeout)
    except (ValueError, TypeError) as error:
        print(f"erren arena: {error}", file=err)
        return 2

    def play(sink: TextIO | None, progress: Progress | None) -> ArenaResult:
        return arena(
            ruleset,
            (names[0], names[1]),
            deals=args.deals,
            seed=args.seed,
            workers=args.workers,
            jsonl=sink,
            progress=progress,
            mjai_timeout=args.mjai_timeout,
        )

    return run_batch("arena", args.jsonl, play, records_column=20)
