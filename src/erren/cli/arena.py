"""``erren arena``: duplicate matches between two bots, then A's advantage over B."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from erren.cli.simulate import ProgressBar, add_ruleset_arguments, parse_option
from erren.engine import find_ruleset, ruleset_names
from erren.sim.arena import arena, make_bot

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
        help="the two bots, comma-separated, e.g. efficiency,random",
    )
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
    names = [n.strip() for n in args.bots.split(",")]
    if len(names) != 2 or not all(names):
        print("erren arena: --bots needs two names, e.g. --bots efficiency,random", file=err)
        return 2
    if args.deals < 1:
        print("erren arena: --deals must be ≥ 1", file=err)
        return 2
    if args.workers < 1:
        print("erren arena: --workers must be ≥ 1", file=err)
        return 2
    try:
        options = dict(parse_option(o) for o in args.option)
        if args.rules not in ruleset_names():
            raise ValueError(
                f"unknown ruleset {args.rules!r} (known: {', '.join(ruleset_names())})"
            )
        ruleset = find_ruleset(args.rules, options)
        for name in names:
            make_bot(name, 0, ruleset)
    except (ValueError, TypeError) as error:
        print(f"erren arena: {error}", file=err)
        return 2
    progress = ProgressBar(err) if err.isatty() else None
    sink: TextIO | None = None
    try:
        if args.jsonl:
            sink = open(args.jsonl, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        result = arena(
            ruleset,
            (names[0], names[1]),
            deals=args.deals,
            seed=args.seed,
            workers=args.workers,
            jsonl=sink,
            progress=progress,
        )
    except OSError as error:
        print(f"erren arena: {error}", file=err)
        return 1
    except KeyboardInterrupt:
        print("\nerren arena: interrupted", file=err)
        return 130
    finally:
        if sink is not None:
            sink.close()
    try:
        print(result.table())
        if args.jsonl:
            print(f"records             {args.jsonl}")
    except BrokenPipeError:  # `erren arena | head`
        sys.stderr.close()
    return 0
