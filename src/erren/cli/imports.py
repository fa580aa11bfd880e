"""``erren import FILE --format mjai [-o OUT]``: a full mjai log back into erren records.

The log must be a full log written by ``erren export --format mjai`` (without ``--seat``): it
holds the wall and every pass, so each hand comes back as a record (one JSON line) that replays
to the same game.  A seat's stream is refused: it hides what a replay needs.
"""

from __future__ import annotations

import argparse
import sys

from erren.cli.export import read_input, write
from erren.errors import ErrenError
from erren.jsontext import MAX_LINE_CHARS, JSONTextError, read_json

NAME = "import"
HELP = "Turn a full mjai log (erren export --format mjai) back into erren hand records."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="an mjai log, one JSON message a line, or -")
    parser.add_argument("--format", choices=("mjai",), default="mjai", help="the log's format")
    parser.add_argument("-o", "--output", default=None, help="write here (default stdout)")


class _InputError(Exception):
    pass


def _messages(text: str) -> list[tuple[int, object]]:
    out: list[tuple[int, object]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append((number, read_json(line, max_chars=MAX_LINE_CHARS)))
        except JSONTextError as err:
            raise _InputError(f"line {number}: {err}") from None
    if not out:
        raise _InputError("no mjai message in the file")
    return out


def run(args: argparse.Namespace) -> int:
    from erren.mjai.imports import import_mjai  # noqa: PLC0415

    try:
        records = list(import_mjai(_messages(read_input(args.file))))
        if not records:
            raise _InputError("the log holds no hand (no start_kyoku)")
        write("".join(record.to_json() + "\n" for record in records), args.output)
    except (_InputError, ErrenError, OSError, UnicodeDecodeError) as err:
        print(f"erren import: {err}", file=sys.stderr)
        return 2
    return 0
