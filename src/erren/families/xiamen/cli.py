"""``erren score --rules xiamen``: the 水 items of a xiamen winning hand, the chosen
decomposition, 底, the multiplier, the cap, the bonus, the payment and the next dealer
(xiamen.md Section 4); ``--jsonl`` scores a batch, one JSON object per line.

This module adds only the xiamen flags (:func:`add_arguments`); the flags ``erren score``
already has are read from ``args`` when present: ``hand``, ``--self-drawn`` (自摸 when no
``--win-type``), ``--robbing-kong`` (抢杠胡), ``--flowers N``, ``--cap`` and ``--jsonl``.  The
JSON-lines format is documented in ``docs/xiamen-scoring.md``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from erren.cli import _jsonl as jsonl
from erren.cli._jsonl import answering, is_whole, read_flags, read_request
from erren.cli.scorer import TerminalScorer
from erren.display import pad, width
from erren.errors import ErrenError
from erren.families.xiamen.scoring import (
    WaterItem,
    WinType,
    XiamenContext,
    XiamenResult,
    XiamenSettings,
    XiamenSettlement,
    score_xiamen,
    settle_xiamen,
)
from erren.hand import Hand
from erren.notation import parse_tile, parse_tiles
from erren.server.settlement import to_beans
from erren.tiles import FLOWERS, Tile

__all__ = ["SCORER", "RequestError", "add_arguments", "run", "run_jsonl", "score_json"]

WIN_TYPES = ", ".join(f"{t.value} ({t.chinese})" for t in WinType)

GUOBIAO_ONLY = (
    "last_copy",
    "last_tile",
    "kong_replacement",
    "ting",
    "tianting",
    "dihu",
    "seat_wind",
    "min_fan",
    "room",
)
"""Flags of ``erren score`` that mean nothing in xiamen: refused rather than ignored."""


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The xiamen-only flags of ``erren score --rules xiamen``."""
    group.add_argument(
        "--gold",
        metavar="TILE",
        help="the gold kind g, 1m..9m or 1z..7z (required); every tile of that kind in the hand "
        "is a gold, and the White (5z) plays as g unless g is 5z",
    )
    group.add_argument(
        "--win-type",
        metavar="TYPE",
        help=f"how the hand was won: {WIN_TYPES} (default: zimo with --self-drawn, qianggang "
        "with --robbing-kong, else pinghu)",
    )
    group.add_argument(
        "--streak",
        type=int,
        default=0,
        metavar="W",
        help="dealer streak w before this hand: the dealer's consecutive wins as dealer "
        "(连庄数 = w + 1); 底 = base × 2^w (default 0)",
    )
    group.add_argument(
        "--base", type=int, default=8, metavar="N", help="room setting 底 before 连庄 (default 8)"
    )


class RequestError(ErrenError, ValueError):
    """A request that names an impossible or contradictory situation."""


# --------------------------------------------------------------------------------------------
# Building the request


def _win_type(text: str | None, *, self_drawn: bool, robbing_kong: bool) -> WinType:
    if self_drawn and robbing_kong:
        raise RequestError(
            "robbing the kong (抢杠胡) is a win on the opponent's tile, not self-drawn"
        )
    if text is None:
        if self_drawn:
            return WinType.ZIMO
        return WinType.QIANGGANG if robbing_kong else WinType.PINGHU
    try:
        win_type = WinType.parse(text)
    except ValueError as error:
        raise RequestError(str(error)) from None
    if robbing_kong and win_type is not WinType.QIANGGANG:
        raise RequestError(f"robbing the kong is the win type qianggang, not {win_type.value}")
    if self_drawn and win_type.on_opponents_tile:
        raise RequestError(f"{win_type.value} ({win_type.chinese}) is not self-drawn")
    return win_type


def _flowers(hand: Hand, flowers: int | str | None) -> tuple[Tile, ...]:
    """The winner's flowers: written in the hand, as tiles, or as a count whose groups are
    known (0..3 flowers cannot hold a complete group; 8 is all of them)."""
    if flowers is None:
        return hand.flowers
    if hand.flowers:
        raise RequestError("give the flowers either in the hand or on their own, not both")
    if isinstance(flowers, str):
        tiles = tuple(parse_tiles(flowers))
        if any(t not in FLOWERS for t in tiles) or len(set(tiles)) != len(tiles):
            raise RequestError(f"flowers must be distinct tiles 1f..8f, not {flowers!r}")
        return tiles
    if flowers == 8:
        return FLOWERS
    if 0 <= flowers <= 3:
        return FLOWERS[:flowers]
    raise RequestError(
        f"{flowers} flowers: 4..7 flowers may or may not hold a complete group (8 水 instead "
        "of 4); write which, in the hand (… 1f2f3f4f) or as tiles"
    )


def make_request(
    text: str,
    *,
    gold: str | None,
    win_type: str | None,
    self_drawn: bool = False,
    robbing_kong: bool = False,
    flowers: int | str | None = None,
    dealer: bool = False,
    streak: int = 0,
    base: int = 8,
    cap: int = 100,
) -> tuple[Hand, XiamenContext]:
    """The hand and context of one request; raises :class:`ErrenError` (a ``ValueError``)."""
    if gold is None:
        raise RequestError('the gold kind is required (--gold, JSON "gold"), e.g. 5m')
    try:
        g = parse_tile(gold)
        hand = Hand.parse(text, plays_as={Tile.WHITE: g} if g != Tile.WHITE else None)
        settings = XiamenSettings(base=base, cap=cap)
        ctx = XiamenContext(
            gold=g,
            win_type=_win_type(win_type, self_drawn=self_drawn, robbing_kong=robbing_kong),
            flowers=_flowers(hand, flowers),
            dealer=dealer,
            streak=streak,
            settings=settings,
        )
    except ErrenError:
        raise
    except ValueError as error:
        raise RequestError(str(error)) from None
    return hand, ctx


def _stake(value: object) -> int:
    """``--stake``: beans per point (房间基数), a whole number ≥ 1; default 1 (points only)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RequestError(f"stake must be a whole number ≥ 1, not {value!r}")
    return value


def _cap(value: object) -> int:
    """``--cap``: a whole number, 0 or ``none`` for no cap; default 100."""
    if value is None:
        return 100
    text = str(value).strip().lower()
    if text == "none":
        return 0
    try:
        return int(text)
    except ValueError:
        raise RequestError(f"--cap must be a whole number or 'none', not {value!r}") from None


# --------------------------------------------------------------------------------------------
# Output


def _role(dealer: bool) -> str:
    return "dealer" if dealer else "non-dealer"


def record(result: XiamenResult, settlement: XiamenSettlement, *, stake: int = 1) -> dict[str, Any]:
    """The JSON answer: the settlement record of R-4.9 (with ``beans`` at a ``stake`` ≠ 1)."""
    ctx = result.ctx
    answer: dict[str, Any] = {
        "win_type": ctx.win_type.value,
        "type": ctx.win_type.chinese,
        "winner": _role(ctx.dealer),
        "water": result.water,
        "items": [
            {
                "id": item.id,
                "name": item.name,
                "tiles": result.shown(item),
                "count": item.count,
                "water": item.value,
            }
            for item in result.items
        ],
        "reading": None if result.reading is None else str(result.reading),
        "streak": settlement.streak,
        "base": settlement.base,
        "multiplier": settlement.multiplier,
        "raw": settlement.raw,
        "cap": settlement.cap,
        "paid": settlement.paid,
        "bonus": settlement.bonus,
        "total": settlement.total,
        "payer": _role(not ctx.dealer),
        "next_dealer": _role(ctx.dealer),
        "next_streak": settlement.next_streak,
    }
    if stake != 1:
        answer["stake"] = stake
        answer["beans"] = to_beans(settlement.deltas, stake).owed
    return answer


def _name(item: WaterItem) -> str:
    return item.name + (f" ×{item.count}" if item.count > 1 else "")


def render(result: XiamenResult, settlement: XiamenSettlement, *, stake: int = 1) -> list[str]:
    """The readable report: the hand, the decomposition, the 水 items, every figure."""
    ctx = result.ctx
    fake = f", Whites play as {ctx.gold}" if ctx.fake_gold is not None else ", no fake gold"
    t = ctx.win_type
    s = settlement
    lines = [
        f"Hand      {result.hand}  (gold {ctx.gold}{fake})",
        f"Win       {t.chinese} ({t.value}) by the {_role(ctx.dealer)}; "
        f"连庄数 {ctx.lianzhuang} (w = {ctx.streak})",
        "Reading   "
        + ("not decomposed (三金倒, R-4.4)" if result.reading is None else str(result.reading)),
        "",
    ]
    rows = [("Id", "Item", "Tiles", "水")] + [
        (item.id, _name(item), result.shown(item), str(item.value)) for item in result.items
    ]
    widths = [max(width(row[i]) for row in rows) for i in range(4)]
    for n, row in enumerate(rows):
        cells = [pad(cell, widths[i], right=i == 3) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    if len(rows) == 1:
        lines.append("(no 水 items)")
    settings = ctx.settings
    cap = f"min(raw {s.raw}, cap {s.cap})" if s.cap else f"raw {s.raw} (no cap)"
    capped = "  (capped)" if s.capped else ""
    bonus = f"  ({t.chinese}, outside the cap)" if s.bonus else ""
    lines += [
        "",
        f"水        {result.water}",
        f"底        {s.base} = base {settings.base} × 2^{s.streak}",
        f"M         {s.multiplier} ({t.chinese})",
        f"raw       {s.raw} = (底 {s.base} + 水 {result.water}) × {s.multiplier}",
        f"paid      {s.paid} = {cap}{capped}",
        f"bonus     {s.bonus}{bonus}",
        f"total     {s.total} points, paid by the {_role(not ctx.dealer)}",
    ]
    if stake != 1:
        beans = to_beans(s.deltas, stake).owed
        lines.append(f"beans     {beans:,} = {s.total} × stake {stake:,}")
    if s.capped:
        lines.append(f"          ({s.total_without_cap} without the cap)")
    again = "deals again" if ctx.dealer else "deals"
    lines.append(
        f"next      the {_role(ctx.dealer)} {again}: 连庄数 {(s.next_streak or 0) + 1} "
        f"(w = {s.next_streak}), 底 {settings.base << (s.next_streak or 0)}"
    )
    return lines


# --------------------------------------------------------------------------------------------
# Single hand


def _refuse_guobiao_flags(args: argparse.Namespace) -> None:
    used = [name for name in GUOBIAO_ONLY if getattr(args, name, None) not in (None, False)]
    if used:
        shown = ", ".join("--" + name.replace("_", "-") for name in used)
        raise RequestError(f"{shown}: not a xiamen option (guobiao-2p only)")


def run(args: argparse.Namespace) -> int:
    """Score one hand (``args.hand``), or a batch with ``args.jsonl``."""
    if getattr(args, "jsonl", False):
        return run_jsonl(sys.stdin, sys.stdout)
    text = getattr(args, "hand", None)
    if not text:
        print(
            "erren score: give a winning hand, e.g. "
            'erren score --rules xiamen --gold 2m --self-drawn "1m2m3m5z5z5z456m789m1z +1z"',
            file=sys.stderr,
        )
        return 2
    try:
        _refuse_guobiao_flags(args)
        hand, ctx = make_request(
            text,
            gold=getattr(args, "gold", None),
            win_type=getattr(args, "win_type", None),
            self_drawn=bool(getattr(args, "self_drawn", False)),
            robbing_kong=bool(getattr(args, "robbing_kong", False)),
            flowers=getattr(args, "flowers", None),
            dealer=bool(getattr(args, "dealer", False)),
            streak=getattr(args, "streak", 0),
            base=getattr(args, "base", 8),
            cap=_cap(getattr(args, "cap", None)),
        )
        stake = _stake(getattr(args, "stake", 1))
        result = score_xiamen(hand, ctx)
    except ErrenError as error:
        print(f"erren score: {error}", file=sys.stderr)
        return 2
    print("\n".join(render(result, settle_xiamen(result), stake=stake)))
    return 0


# --------------------------------------------------------------------------------------------
# JSON lines

_BOOLS = ("self_drawn", "robbing_kong", "dealer")
_INTS = {"streak": (0, 0), "base": (8, 1), "cap": (100, 0), "stake": (1, 1)}
_FIELDS = frozenset({"hand", "gold", "win_type", "flowers", *_BOOLS, *_INTS})


@answering
def score_json(line: str) -> dict[str, Any]:
    """One ``--jsonl`` request to its answer (``{"error": ...}`` for anything malformed)."""
    request = read_request(line, example='{"hand": "...", "gold": "5m"}', fields=_FIELDS)
    for name in ("hand", "gold"):
        if not isinstance(request.get(name), str):
            return {"error": f'"{name}" is required: a string in the shared notation'}
    win_type = request.get("win_type")
    if win_type is not None and not isinstance(win_type, str):
        return {"error": f'"win_type" must be a string ({WIN_TYPES}), not {win_type!r}'}
    flags = read_flags(request, _BOOLS)
    numbers: dict[str, int] = {}
    for name, (default, least) in _INTS.items():
        value = request.get(name, default)
        if not is_whole(value) or value < least:
            return {"error": f'"{name}" must be a whole number ≥ {least}, not {value!r}'}
        numbers[name] = value
    flowers = request.get("flowers")
    if flowers is not None and (isinstance(flowers, bool) or not isinstance(flowers, int | str)):
        return {"error": f'"flowers" must be tiles like "1f2f" or a count, not {flowers!r}'}
    try:
        hand, ctx = make_request(
            request["hand"],
            gold=request["gold"],
            win_type=win_type,
            self_drawn=flags["self_drawn"],
            robbing_kong=flags["robbing_kong"],
            flowers=flowers,
            dealer=flags["dealer"],
            streak=numbers["streak"],
            base=numbers["base"],
            cap=numbers["cap"],
        )
        result = score_xiamen(hand, ctx)
    except ErrenError as error:
        return {"error": str(error)}
    return record(result, settle_xiamen(result), stake=numbers["stake"])


def run_jsonl(source: TextIO, sink: TextIO) -> int:
    """Answer every non-blank line of ``source`` on ``sink``; malformed lines give an error
    object and the run goes on.  Always returns 0."""
    return jsonl.run_jsonl(source, sink, score_json)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The xiamen group of ``erren score``."""
    add_arguments(parser.add_argument_group("xiamen (--rules xiamen; see docs/xiamen-scoring.md)"))


SCORER = TerminalScorer(
    add_arguments=add_options,
    run=run,
    shared={"dealer": "", "stake": "beans per point (房间基数)"},
)
"""xiamen's ``erren score --rules xiamen``: it reads ``--dealer`` and ``--stake``."""
