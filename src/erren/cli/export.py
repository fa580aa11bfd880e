"""``erren export FILE --format mjai|erren [--seat N] [-o OUT]``: hand records as mjai logs.

Reads erren records (``docs/records.md``): the JSON lines ``erren simulate --jsonl`` and the
server write (extra keys such as ``seats`` or ``game`` are ignored), or one record as a JSON
document (also the ``{"record": ...}`` envelope of ``GET /games/{id}``).  ``--format mjai``
writes the mjai log of the two-seat profile (``docs/mjai-2p.md``): the full log, or with
``--seat N`` what seat N saw; ``--format erren`` writes the records again, one a line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from erren.cli._jsonl import BadRequest, read_request
from erren.engine import Record, replay
from erren.errors import ErrenError
from erren.jsontext import MAX_LINE_CHARS, JSONTextError, read_json

NAME = "export"
HELP = "Write hand records as an mjai log (the full log or one seat's view) or as erren records."

EXAMPLE = '{"format": "erren-hand", "version": 1, "ruleset": "guobiao-2p", ...}'


class ExportError(Exception):
    """A problem with the input, named with its line number."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="erren records: JSON lines (erren simulate --jsonl), or -")
    parser.add_argument(
        "--format", choices=("mjai", "erren"), default="mjai", help="what to write (default mjai)"
    )
    parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=None,
        help="mjai: only what this seat saw (default: the full log, which can be imported)",
    )
    parser.add_argument("-o", "--output", default=None, help="write here (default stdout)")


def read_records(text: str) -> list[Record]:
    """The records of ``text``: one JSON document, or one record a line (blank lines skipped).
    Raises :class:`ExportError` naming the line."""
    stripped = text.strip()
    if stripped.startswith("{") and "\n" in stripped:
        try:
            whole = read_json(stripped, max_chars=MAX_LINE_CHARS)
        except JSONTextError:
            whole = None
        if isinstance(whole, dict):
            return [_record(1, whole)]
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = read_request(line, example=EXAMPLE)
        except BadRequest as err:
            raise ExportError(f"line {number}: {err}") from None
        records.append(_record(number, data))
    if not records:
        raise ExportError("no record in the file")
    return records


def _record(number: int, data: dict[str, object]) -> Record:
    inner = data.get("record")
    if "format" not in data and isinstance(inner, dict):
        data = inner  # the GET /games/{id} envelope
    try:
        record = Record.from_dict(data)
        replay(record)
    except (ErrenError, ValueError, TypeError) as err:
        raise ExportError(f"line {number}: the record does not replay: {err}") from None
    return record


def write(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")


def read_input(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    return Path(file).read_text(encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    from erren.mjai.export import export_mjai  # noqa: PLC0415

    try:
        if args.format == "erren" and args.seat is not None:
            raise ExportError("--seat is for --format mjai: an erren record holds the whole hand")
        records = read_records(read_input(args.file))
        if args.format == "erren":
            lines = [record.to_json() for record in records]
        else:
            lines = []
            for message in export_mjai(records, args.seat):
                lines.append(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        write("".join(line + "\n" for line in lines), args.output)
    except (ExportError, OSError, UnicodeDecodeError) as err:
        print(f"erren export: {err}", file=sys.stderr)
        return 2
    return 0
