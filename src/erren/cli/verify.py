"""``erren verify RECORD``: check a finished hand's seed commitment and replay it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from erren.errors import ErrenError
from erren.jsontext import MAX_LINE_CHARS, JSONTextError, read_json

NAME = "verify"
HELP = "Check a hand record's fairness commitment (SHA-256 of seed and salt) and replay it."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a record file (JSON) as served by GET /games/{id}, or -")


def run(args: argparse.Namespace) -> int:
    from erren.server.fairness import commit, verify_record  # noqa: PLC0415

    text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text("utf-8")
    try:
        data = read_json(text, max_chars=MAX_LINE_CHARS)
    except JSONTextError as err:
        print(f"erren verify: {err}")
        return 1
    if isinstance(data, dict) and "record" in data and isinstance(data["record"], dict):
        data = data["record"]  # the GET /games/{id} envelope
    try:
        state = verify_record(data)
    except (ErrenError, ValueError) as err:
        print(f"FAILED: {err}")
        return 1
    fair = data["fairness"]
    print(f"commitment {fair['commitment']}")
    print(f'  = SHA-256("{data["seed"]}:{fair["salt"]}") = {commit(data["seed"], fair["salt"])}')
    print("chance actions: drawn from the seed ✓")
    print(f"replay: {len(data['actions'])} actions ✓")
    print(f"result: {state.result}")
    return 0
