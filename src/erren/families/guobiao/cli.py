"""``erren score`` (``--rules guobiao-2p``, the default): the fans of a winning hand, the total,
the points after the cap and the beans of a room (guobiao-2p §4–§6); ``--jsonl`` scores a
batch, one JSON object per line.  Its options are the first ``erren score`` lists; the other
families read those that mean something to them (``--self-drawn``, ``--flowers``…)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from erren.cli import _jsonl as jsonl
from erren.cli._jsonl import answering, is_whole, read_flags, read_request
from erren.cli.scorer import TerminalScorer
from erren.display import pad, width
from erren.errors import ErrenError
from erren.families.guobiao.scoring import ScoreResult, WinContext, score
from erren.families.guobiao.scoring.settlement import (
    BelowMinimumError,
    SettlementOptions,
    settle_score,
)
from erren.hand import Hand
from erren.notation import parse_tile
from erren.server.rooms import TIERS
from erren.server.settlement import to_beans
from erren.tiles import Tile

__all__ = [
    "SCORER",
    "RequestError",
    "add_arguments",
    "make_context",
    "render",
    "run",
    "run_jsonl",
    "score_json",
]

TABLES = ("gb", "2p")
FLAGS = ("self_drawn", "last_copy", "last_tile", "kong_replacement", "robbing_kong")
EXTRA_FLAGS = ("ting", "tianting", "dihu")
"""``2p`` fans (报听, 天听, 地胡); accepted in both modes besides the flags the issue lists."""

JSONL_HELP = """\
read one JSON object per line on stdin and write one per line on stdout. Input:
{"hand": "123m456m789m1z [555z'] +1z", "table": "gb"|"2p", "self_drawn": false,
"last_copy": false, "last_tile": false, "kong_replacement": false, "robbing_kong": false,
"seat_wind": "1z".."4z", "round_wind": "1z".."4z", "flowers": 0..8} — only "hand" is required
(defaults: table gb, flags false, seat wind South for a non-dealer (East for a dealt 天胡 hand
without +X), round wind East, flowers: those written in the hand, else 0; "ting", "tianting" and
"dihu" are accepted too). Output: {"total": T, "fans": [{"name": "清龙", "points": 16,
"count": 1}, ...]} where "points" is the fan's value for ONE occurrence, "count" the number of
occurrences, and T = the sum of points × count, flowers (花牌/补花) included as a fan; no cap and no
起和 check in this mode. A line that is not JSON, has an unknown field, a field of the wrong type
or value, or a hand that does not parse or does not win gives {"error": "..."}; the run goes on."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """guobiao-2p's options: the fan table, how the hand was won, the settlement."""
    parser.add_argument("--table", choices=TABLES, default="gb", help="fan table (default gb)")
    win = parser.add_argument_group("how the hand was won (guobiao-2p §2.11)")
    win.add_argument("--self-drawn", action="store_true", help="自摸: a self-drawn win")
    win.add_argument(
        "--last-copy", action="store_true", help="和绝张: the other three copies were visible"
    )
    win.add_argument(
        "--last-tile",
        action="store_true",
        help="last tile of the wall: 妙手回春 when self-drawn, 海底捞月 on a discard",
    )
    win.add_argument(
        "--kong-replacement",
        action="store_true",
        help="杠上开花: self-drawn on a kong's replacement tile (needs --self-drawn)",
    )
    win.add_argument(
        "--robbing-kong", action="store_true", help="抢杠和: won on the opponent's added kong"
    )
    win.add_argument(
        "--seat-wind",
        metavar="WIND",
        help="门风 1z..4z (default: South, the non-dealer; East for a dealt hand)",
    )
    win.add_argument("--round-wind", metavar="WIND", default="1z", help="圈风 1z..4z (default 1z)")
    win.add_argument(
        "--flowers",
        type=int,
        metavar="N",
        help="flowers the winner exposed (default: the flowers written in the hand, e.g. 12f)",
    )
    win.add_argument("--ting", action="store_true", help="报听 was declared (table 2p)")
    win.add_argument("--tianting", action="store_true", help="天听 (table 2p)")
    win.add_argument("--dihu", action="store_true", help="地胡 (table 2p)")
    pay = parser.add_argument_group("settlement (guobiao-2p §6)")
    pay.add_argument(
        "--room",
        choices=tuple(TIERS),
        help="bean room: " + ", ".join(f"{r.id} {r.name} {r.stake}/point" for r in TIERS.values()),
    )
    pay.add_argument(
        "--cap",
        metavar="N",
        help="cap on the points (default 13 for gb, none for 2p; 'none' for no cap)",
    )
    pay.add_argument(
        "--min-fan",
        type=int,
        metavar="N",
        help="起和, fans needed without flowers (default 8 for gb, 0 for 2p)",
    )


# --------------------------------------------------------------------------------------------
# Building the request


class RequestError(ErrenError, ValueError):
    """A request that names an impossible situation (a bad wind, contradicting flags, …)."""


def _wind(text: str, what: str) -> Tile:
    try:
        tile = parse_tile(text)
    except ErrenError as error:
        raise RequestError(f"{what} must be a wind 1z..4z: {error}") from error
    if not Tile.EAST <= tile <= Tile.NORTH:
        raise RequestError(f"{what} must be a wind 1z..4z, not {text!r}")
    return tile


def make_context(
    *,
    seat_wind: str | None,
    round_wind: str | None,
    flowers: int | None,
    flags: dict[str, bool],
) -> WinContext:
    """The :class:`WinContext` of a request; contradictory flags are refused, not guessed."""
    if flags.get("robbing_kong") and flags.get("self_drawn"):
        raise RequestError(
            "robbing the kong (抢杠和) is a win on the opponent's tile, not self-drawn"
        )
    if flags.get("kong_replacement") and not flags.get("self_drawn"):
        raise RequestError("a kong replacement win (杠上开花) is self-drawn: set self-drawn too")
    if flowers is not None and not 0 <= flowers <= 8:
        raise RequestError(f"flowers must be 0..8, not {flowers}")
    return WinContext(
        seat_wind=None if seat_wind is None else _wind(seat_wind, "seat wind"),
        round_wind=Tile.EAST if round_wind is None else _wind(round_wind, "round wind"),
        flowers=flowers,
        **flags,
    )


# --------------------------------------------------------------------------------------------
# The readable report


def render(hand: Hand, result: ScoreResult) -> list[str]:
    """The fan table: number, Chinese and English name, value, count, points, source groups."""
    rows = [("#", "Fan", "English", "Value", "Count", "Points", "From")]
    for hit in result.fans:
        groups = "; ".join(" ".join(g) for g in result.groups_of(hit) if g)
        rows.append(
            (
                str(hit.fan.number),
                hit.fan.name,
                hit.fan.english,
                str(hit.value),
                str(hit.count),
                str(hit.points),
                groups or "—",
            )
        )
    numeric = {0, 3, 4, 5}
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        f"Hand      {hand}  (table {result.table})",
        f"Reading   {result.reading}",
        "",
    ]
    for n, row in enumerate(rows):
        cells = [pad(cell, widths[i], right=i in numeric) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    flowers = result.flower_points
    note = f" ({result.total_without_flowers} without flowers)" if flowers else ""
    lines.append("")
    lines.append(f"Total     {result.total} fan{note}")
    return lines


def _options(args: argparse.Namespace) -> SettlementOptions:
    changes: dict[str, Any] = {"fan_table": args.table}
    if args.cap is not None:
        if args.cap.strip().lower() == "none":
            changes["cap_points"] = None
        else:
            try:
                changes["cap_points"] = int(args.cap)
            except ValueError:
                raise RequestError(
                    f"--cap must be a whole number or 'none', not {args.cap!r}"
                ) from None
    if args.min_fan is not None:
        changes["min_fan"] = args.min_fan
    try:
        return SettlementOptions(**changes)
    except ValueError as error:
        raise RequestError(str(error)) from error


def run(args: argparse.Namespace) -> int:
    """Score the hand of ``args.hand`` (or the JSON lines of stdin with ``args.jsonl``); the
    other families' options were refused by ``erren score`` (``refuse_others``)."""
    if args.jsonl:
        return run_jsonl(sys.stdin, sys.stdout)
    if not args.hand:
        print(
            'erren score: give a winning hand, e.g. erren score "123m456m789m1z [555z\'] +1z"',
            file=sys.stderr,
        )
        return 2
    try:
        options = _options(args)
        ctx = make_context(
            seat_wind=args.seat_wind,
            round_wind=args.round_wind,
            flowers=args.flowers,
            flags={name: bool(getattr(args, name)) for name in FLAGS + EXTRA_FLAGS},
        )
        hand = Hand.parse(args.hand)
        result = score(hand, ctx, table=args.table)
    except ErrenError as error:
        print(f"erren score: {error}", file=sys.stderr)
        return 2
    print("\n".join(render(hand, result)))
    self_drawn = ctx.self_drawn or hand.winning is None
    try:
        settlement = settle_score(result, winner=0, self_drawn=self_drawn, options=options)
    except BelowMinimumError as error:
        print(f"erren score: {error}", file=sys.stderr)
        return 2
    cap = options.cap
    base = f" + base {options.base_points}" if options.base_points else ""
    if cap is None:
        print(f"Points    {settlement.points}  (no cap{base})")
    else:
        clipped = "capped" if settlement.capped else "under the cap"
        print(f"Points    {settlement.points}  (cap {cap}{base}: {clipped})")
    if args.room is not None:
        tier = TIERS[args.room]
        who = "the opponent" if self_drawn else "the discarder"
        label = "自摸" if self_drawn else "点和"
        beans = to_beans(settlement.deltas, tier.stake).owed
        print(
            f"Beans     {beans:,}  ({settlement.points} × {tier.stake} {tier} "
            f"× {settlement.multiplier} {label}), paid by {who}"
        )
    return 0


# --------------------------------------------------------------------------------------------
# JSON lines

_FIELDS = frozenset({"hand", "table", "seat_wind", "round_wind", "flowers", *FLAGS, *EXTRA_FLAGS})


@answering
def score_json(line: str) -> dict[str, Any]:
    """One ``--jsonl`` request to its answer (``{"error": ...}`` for anything malformed)."""
    request = read_request(line, example='{"hand": "123m456m789m1z [555z\'] +1z"}', fields=_FIELDS)
    text = request.get("hand")
    if not isinstance(text, str):
        return {"error": '"hand" is required: a string in the shared notation'}
    table = request.get("table", "gb")
    if table not in TABLES:
        return {"error": f'"table" must be "gb" or "2p", not {table!r}'}
    flags = read_flags(request, FLAGS + EXTRA_FLAGS)
    winds: dict[str, str | None] = {}
    for name in ("seat_wind", "round_wind"):
        value = request.get(name)
        if value is not None and not isinstance(value, str):
            return {"error": f'"{name}" must be a string "1z".."4z", not {value!r}'}
        winds[name] = value
    flowers = request.get("flowers")
    if flowers is not None and not is_whole(flowers):
        return {"error": f'"flowers" must be a whole number 0..8, not {flowers!r}'}
    try:
        ctx = make_context(
            seat_wind=winds["seat_wind"],
            round_wind=winds["round_wind"],
            flowers=flowers,
            flags=flags,
        )
        result = score(Hand.parse(text), ctx, table=table)
    except ErrenError as error:
        return {"error": str(error)}
    return {
        "total": result.total,
        "fans": [
            {"name": hit.fan.name, "points": hit.value, "count": hit.count} for hit in result.fans
        ],
    }


def run_jsonl(source: TextIO, sink: TextIO) -> int:
    return jsonl.run_jsonl(source, sink, score_json)


SCORER = TerminalScorer(
    add_arguments=add_arguments, run=run, refuse_others=True, jsonl_help=JSONL_HELP
)
"""guobiao-2p's ``erren score``."""
