"""``erren review FILE [--seat N] [--level master] [--json] [--html OUT] [--rollouts K]
[--seed S] [--format auto|erren|mjai] [--hindsight]``: every decision of a seat reviewed by a
level's bot.

``FILE`` holds erren records (one record as a JSON document, or a game: one record a line, as
``erren simulate --jsonl`` and the server write) or a full mjai log (``erren export --format
mjai``); the format is told from the first message unless ``--format`` says it.  The text
output is a table per hand (the player's move, the bot's, both expected points, the loss, the
category, ``BAD`` above the family's threshold), the hand's summary and three costliest
decisions, then the game's summary; ``--json`` writes the review's JSON (``docs/review.md``)
instead, ``--html OUT`` also writes one self-contained page.  ``--hindsight`` adds, per hand,
the line that would have done best with every tile known (:mod:`erren.review.hindsight`):
hindsight, not advice.  Bad input: a message naming the problem and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from erren.bots.levels import Level, level_names, parse_level
from erren.cli.export import ExportError, read_input, read_records
from erren.engine import Record
from erren.errors import ErrenError
from erren.jsontext import MAX_LINE_CHARS, JSONTextError, read_json
from erren.review.estimate import DEFAULT_ROLLOUTS

if TYPE_CHECKING:
    from erren.review.hindsight import Hindsight

NAME = "review"
HELP = "Review a seat's decisions in hand records or an mjai log against 大师 (or a level)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="erren records (JSON lines or one record), an mjai log, or -")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0, help="seat (default 0)")
    parser.add_argument(
        "--level", default="master", help=f"the bot asked (default master): {level_names()}"
    )
    parser.add_argument(
        "--format",
        choices=("auto", "erren", "mjai"),
        default="auto",
        help="the file's format (default: told from its first message)",
    )
    parser.add_argument("--json", action="store_true", help="write the review as JSON")
    parser.add_argument("--html", metavar="OUT", help="also write the review as an HTML page")
    parser.add_argument(
        "--rollouts",
        type=int,
        default=DEFAULT_ROLLOUTS,
        help="worlds per decision where the moves differ (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the worlds (default 0)")
    parser.add_argument(
        "--hindsight",
        action="store_true",
        help="add each hand's best line with every tile known (hindsight, not advice)",
    )


class ReviewInputError(Exception):
    """A problem with the input or the options, said to the user."""


def _first_message(text: str) -> object:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                return read_json(line, max_chars=MAX_LINE_CHARS)
            except JSONTextError:
                if line.strip().startswith("{"):
                    return None  # one record spread over lines
                raise ReviewInputError(f"line {number}: not JSON") from None
    raise ReviewInputError("the file is empty")


def detect_format(text: str) -> str:
    """``mjai`` when the first message is an mjai message (it has a ``type``), else ``erren``."""
    first = _first_message(text)
    if isinstance(first, dict) and "type" in first and "format" not in first:
        return "mjai"
    return "erren"


def _mjai_records(text: str) -> list[Record]:
    from erren.mjai.imports import import_mjai  # noqa: PLC0415

    lines: list[tuple[int, object]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                lines.append((number, read_json(line, max_chars=MAX_LINE_CHARS)))
            except JSONTextError as err:
                raise ReviewInputError(f"line {number}: {err}") from None
    records = list(import_mjai(lines))
    if not records:
        raise ReviewInputError("the mjai log holds no hand (no start_kyoku)")
    return records


def load_records(file: str, fmt: str = "auto") -> list[Record]:
    """The hands of ``file`` in order; :class:`ReviewInputError`, :class:`ExportError` or an
    :class:`~erren.errors.ErrenError` naming the problem otherwise."""
    text = read_input(file)
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "mjai":
        return _mjai_records(text)
    return read_records(text)


def _options(args: argparse.Namespace) -> Level:
    if args.rollouts < 1:
        raise ReviewInputError("--rollouts must be at least 1")
    try:
        return parse_level(args.level)
    except ValueError as err:
        raise ReviewInputError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    from erren.review import review_game  # noqa: PLC0415
    from erren.review.hindsight import hindsight  # noqa: PLC0415
    from erren.review.report import html_report, text_report  # noqa: PLC0415

    try:
        level = _options(args)
        records = load_records(args.file, args.format)
        review = review_game(
            records, args.seat, level=level, rollouts=args.rollouts, seed=args.seed
        )
        known = [hindsight(r, args.seat) for r in records] if args.hindsight else None
        if args.html:
            Path(args.html).write_text(html_report(review), encoding="utf-8")
    except (ReviewInputError, ExportError, ErrenError, OSError, UnicodeDecodeError) as err:
        print(f"erren review: {err}", file=sys.stderr)
        return 2
    if args.json:
        data = review.to_dict()
        if known is not None:
            data["hindsight"] = [h.to_dict() for h in known]
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    sys.stdout.write(text_report(review))
    if known is not None:
        sys.stdout.write(hindsight_text(known))
    return 0


def hindsight_text(known: list[Hindsight]) -> str:
    """Each hand's hindsight line in words: the points it would have made against the actual
    ones, and where it leaves the record."""
    lines = ["", "with the tiles known (hindsight: the wall and the opponent's play revealed)"]
    for number, h in enumerate(known, 1):
        where = (
            "the record was best"
            if h.departs_at is None
            else f"from step {h.departs_action}: {', '.join(_moves(h.moves[h.departs_at :]))}"
        )
        search = "searched fully" if h.complete else f"search cut at {h.steps:,} steps"
        lines.append(
            f"  hand {number}: actual {h.actual:+d}, best {h.best:+d} {h.unit} "
            f"({h.ending}); {where}; {search}"
        )
    return "\n".join(lines) + "\n"


def _moves(moves: tuple[str, ...], shown: int = 4) -> list[str]:
    """The first ``shown`` of a line's moves without their seat (``discard:1m``), then "…"."""
    words = [m.split(":", 1)[1] if m[:1].isdigit() else m for m in moves[:shown]]
    return words + (["…"] if len(moves) > shown else [])
