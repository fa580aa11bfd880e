"""``erren analyze``: shanten, waits and the discard table of a hand; ``--jsonl`` for batches."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from erren.analysis.report import SHAPE_SETS, HandReport, KindCount, analyze
from erren.analysis.shapes import RIICHI, Shape
from erren.cli import _jsonl as jsonl
from erren.cli._jsonl import answering, is_whole, read_request
from erren.errors import ErrenError
from erren.hand import Hand
from erren.notation import parse_tiles
from erren.tiles import Tile, counts_of

NAME = "analyze"
HELP = "How far a hand is from winning, what it waits for, and what to discard."

SHAPE_NAMES = {
    Shape.REGULAR: "regular (4 sets + pair)",
    Shape.SEVEN_PAIRS: "seven pairs 七对",
    Shape.THIRTEEN_ORPHANS: "thirteen orphans 十三幺",
    Shape.HONORS_AND_KNITTED: "honors and knitted 全不靠",
    Shape.KNITTED_STRAIGHT: "knitted straight 组合龙",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hand", nargs="?", help="a hand in the shared notation, e.g. 123456789m1122z"
    )
    parser.add_argument("--wilds", type=int, default=0, help="extra wild tiles the hand holds")
    parser.add_argument(
        "--shapes",
        choices=sorted(SHAPE_SETS),
        default="gb",
        help="which winning shapes exist (default gb: all Chinese Official shapes)",
    )
    parser.add_argument("--seen", default="", help="tiles seen outside the hand, e.g. 1m1m5z")
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help='read {"hand": ..., "wilds": k} per line on stdin, write one JSON result per line',
    )


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        return run_jsonl(sys.stdin, sys.stdout)
    if not args.hand:
        print("erren analyze: give a hand, e.g. erren analyze 123456789m1122z", file=sys.stderr)
        return 2
    try:
        hand = Hand.parse(args.hand, extra=args.wilds)
        seen = counts_of(parse_tiles(args.seen)) if args.seen else None
        report = analyze(hand, wilds=args.wilds, shapes=SHAPE_SETS[args.shapes], seen=seen)
    except ErrenError as error:
        print(f"erren analyze: {error}", file=sys.stderr)
        return 2
    print(render(report))
    return 0


def _kinds(items: tuple[KindCount, ...]) -> str:
    return " ".join(f"{Tile(i.kind)}×{i.remaining}" for i in items) or "—"


def render(report: HandReport) -> str:
    """The readable report: shanten per shape, waits or improving draws, the discard table."""
    hand = report.hand
    wild_text = f" + {report.wilds} wild" if report.wilds else ""
    lines = [f"Hand      {hand}{wild_text}  ({hand.size + report.wilds} tiles)"]
    if report.complete:
        status = "complete — a winning hand"
    elif report.shanten == 0:
        status = "ready (听牌)"
    else:
        status = f"{report.shanten} from ready"
    lines.append(f"Shanten   {report.shanten}: {status}")
    for shape, value in report.by_shape.items():
        lines.append(f"          {value:>2}  {SHAPE_NAMES[shape]}")
    if report.waits is not None:
        total = sum(i.remaining for i in report.waits)
        lines.append(f"Waits     {_kinds(report.waits)}  ({total} tiles left)")
    if report.improving is not None:
        total = sum(i.remaining for i in report.improving)
        lines.append(f"Improving {_kinds(report.improving)}  ({total} tiles left)")
    if report.discards is not None:
        lines.append("")
        lines.append("Discard  Shanten  Tiles  Kinds  Effective draws")
        for row in report.discards:
            name = "wild" if row.discard is None else str(Tile(row.discard))
            effective = " ".join(str(Tile(k)) for k in row.effective) or "—"
            lines.append(
                f"{name:<8} {row.shanten:>7}  {row.remaining:>5}  {len(row.effective):>5}  "
                f"{effective}"
            )
    return "\n".join(lines)


@answering
def analyze_json(line: str) -> dict[str, Any]:
    """One ``--jsonl`` request to its answer (``{"error": ...}`` for anything malformed)."""
    request = read_request(line, example='{"hand": "123m...", "wilds": 0}')
    text, wilds = request.get("hand"), request.get("wilds", 0)
    if not isinstance(text, str):
        return {"error": '"hand" must be a string in the shared notation'}
    if not is_whole(wilds) or wilds < 0:
        return {"error": '"wilds" must be a whole number ≥ 0'}
    try:
        hand = Hand.parse(text, extra=wilds)
        if hand.winning is not None:
            return {"error": "the hand must not have a winning tile (+X)"}
        report = analyze(hand, wilds=wilds, shapes=RIICHI)
    except ErrenError as error:
        return {"error": str(error)}
    by_shape = report.by_shape
    return {
        "shanten": {
            "regular": by_shape[Shape.REGULAR],
            "seven_pairs": by_shape.get(Shape.SEVEN_PAIRS),
            "thirteen_orphans": by_shape.get(Shape.THIRTEEN_ORPHANS),
        },
        "waits": None if report.waits is None else [str(Tile(w.kind)) for w in report.waits],
    }


def run_jsonl(source: TextIO, sink: TextIO) -> int:
    return jsonl.run_jsonl(source, sink, analyze_json)
