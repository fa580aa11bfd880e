"""``erren simulate``: many hands between two bots, then a table of the results."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Protocol, TextIO

from erren.bots import bot_names
from erren.engine import Family, family_names, find_family
from erren.mjai.bot import DEFAULT_TIMEOUT_S, mjai_command, split_bot_specs
from erren.mjai.process import split_command
from erren.sim import Stats, simulate
from erren.sim.simulator import Progress

NAME = "simulate"
HELP = "Play many hands between two bots and print wins, draws, points and speed."


def add_ruleset_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules`` and ``--option``: the ruleset and its options (see :func:`parse_option`)."""
    parser.add_argument("--rules", default="guobiao-2p", help="ruleset (default %(default)s)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a ruleset option, e.g. --option flowers=true (repeatable)",
    )


def add_mjai_timeout(parser: argparse.ArgumentParser) -> None:
    """``--mjai-timeout``: the seconds an external ``mjai:`` bot has for a decision."""
    parser.add_argument(
        "--mjai-timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help="seconds an mjai: bot has for each decision before the default move is played "
        "(default %(default)g)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset_arguments(parser)
    parser.add_argument("--games", type=int, default=1000, help="hands to play (default 1000)")
    parser.add_argument(
        "--bots",
        default="efficiency,random",
        help="the bots of seat 0 and seat 1, comma-separated (default %(default)s); "
        "mjai:COMMAND runs an external mjai bot, e.g. 'mjai:node examples/mjai-bot/bot.js,expert'",
    )
    add_mjai_timeout(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument(
        "--match-length",
        type=int,
        default=None,
        metavar="K",
        help="group the hands into matches of K hands (dealer rotation, 连庄)",
    )
    parser.add_argument("--jsonl", metavar="FILE", help="write every hand's record, one per line")


def parse_option(text: str) -> tuple[str, object]:
    """``name=value`` with JSON-ish values: true/false, null, integers, decimals (a
    probability such as ``pung_offer_prob=0.5``), else a string."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"an option is NAME=VALUE, not {text!r}")
    value: object = raw
    lowered = raw.lower()
    if lowered in ("true", "false"):
        value = lowered == "true"
    elif lowered in ("null", "none"):
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                value = raw
    return name.strip().replace("-", "_"), value


class ProgressBar:
    """A one-line bar on a terminal stream, redrawn at most every 0.1 s."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.last = 0.0
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        fill = self.width * done // total if total else self.width
        rate = done / (now - self.start) if now > self.start else 0.0
        bar = "█" * fill + "·" * (self.width - fill)
        self.stream.write(f"\r{bar} {done}/{total} hands  {rate:,.0f}/s ")
        if done >= total:
            self.stream.write("\r" + " " * (self.width + 40) + "\r")
        self.stream.flush()


def ruleset_of(args: argparse.Namespace) -> Family:
    """The ruleset of ``--rules`` with its ``--option`` values; :class:`ValueError` or
    :class:`TypeError` naming what is wrong."""
    options = dict(parse_option(o) for o in args.option)
    if args.rules not in family_names():
        raise ValueError(f"unknown ruleset {args.rules!r} (known: {', '.join(family_names())})")
    return find_family(args.rules, options)


class Summary(Protocol):
    """A batch's result: its readable table."""

    def table(self) -> str: ...


def run_batch(
    command: str,
    jsonl: str | None,
    play: Callable[[TextIO | None, Progress | None], Summary],
    *,
    records_column: int,
) -> int:
    """Play a batch (``play(sink, progress)``) with the records written to ``jsonl`` and a
    progress bar on a terminal, then print its table; the exit status of ``erren command``
    (1: the file could not be written, 130: interrupted).  ``records_column`` lines the
    records line up with the table's values."""
    err = sys.stderr
    progress = ProgressBar(err) if err.isatty() else None
    sink: TextIO | None = None
    try:
        if jsonl:
            sink = open(jsonl, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        result = play(sink, progress)
    except OSError as error:
        print(f"erren {command}: {error}", file=err)
        return 1
    except KeyboardInterrupt:
        print(f"\nerren {command}: interrupted", file=err)
        return 130
    finally:
        if sink is not None:
            sink.close()
    try:
        print(result.table())
        if jsonl:
            print(f"{'records':<{records_column}}{jsonl}")
    except BrokenPipeError:  # `erren command | head`
        sys.stderr.close()
    return 0


def run(args: argparse.Namespace) -> int:
    err = sys.stderr
    names = split_bot_specs(args.bots)
    if len(names) != 2 or not all(names):
        print("erren simulate: --bots needs two names, e.g. --bots efficiency,random", file=err)
        return 2
    known = bot_names()
    for name in names:
        command = mjai_command(name)
        if command is not None:
            try:
                split_command(command)
            except ValueError as error:
                print(f"erren simulate: {error}", file=err)
                return 2
        elif name not in known:
            print(f"erren simulate: unknown bot {name!r} (known: {', '.join(known)})", file=err)
            return 2
    if args.mjai_timeout <= 0:
        print("erren simulate: --mjai-timeout must be > 0 seconds", file=err)
        return 2
    if args.games < 0:
        print("erren simulate: --games must be ≥ 0", file=err)
        return 2
    if args.match_length is not None and args.match_length < 1:
        print("erren simulate: --match-length must be ≥ 1", file=err)
        return 2
    try:
        ruleset = ruleset_of(args)
    except (ValueError, TypeError) as error:
        print(f"erren simulate: {error}", file=err)
        return 2

    def play(sink: TextIO | None, progress: Progress | None) -> Stats:
        return simulate(
            ruleset,
            names,
            hands=args.games,
            seed=args.seed,
            match_length=args.match_length,
            jsonl=sink,
            progress=progress,
            mjai_timeout=args.mjai_timeout,
        )

    return run_batch("simulate", args.jsonl, play, records_column=19)
