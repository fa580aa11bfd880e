"""``erren score --rules arcade``: the patterns of a winning arcade hand, its yakuman count or
fan, the versus points and the stage payout (arcade §4–§5, R2.25, R3.4); ``--jsonl`` scores a
batch.  The JSON-lines format is documented in ``docs/arcade-scoring.md``.

The shared ``erren score`` flags are reused as they are: ``--self-drawn``, ``--flowers``,
``--robbing-kong``, ``--kong-replacement``, ``--last-tile`` (河底捞月 when self-drawn, 河底捞鱼 on
the last discard), ``--jsonl``, and as synonyms ``--ting`` (报听: ``menqing`` or ``open`` by the
hand), ``--tianting`` and ``--dihu``.  This module adds only the arcade flags.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from erren.cli import _jsonl as jsonl
from erren.cli._jsonl import answering, is_whole, read_request
from erren.cli.scorer import TerminalScorer
from erren.display import pad, width
from erren.errors import ErrenError
from erren.families.arcade.scoring import (
    ArcadeContext,
    ArcadeResult,
    Baoting,
    FirstTurn,
    score_arcade,
)
from erren.hand import Hand
from erren.notation import parse_tile
from erren.tiles import Tile

__all__ = [
    "SCORER",
    "ArcadeRequestError",
    "add_arguments",
    "context_from",
    "result_json",
    "run",
    "run_jsonl",
    "score_json",
]

MAX_STAKE = 10
"""``stage_max_multiplier`` (§8)."""

BAOTING = tuple(b.value for b in Baoting if b is not Baoting.NONE)
FIRST_TURN = tuple(t.value for t in FirstTurn if t is not FirstTurn.NONE)
_FLAGS = ("self_drawn", "robbing_kong", "kong_replacement", "last_tile", "haidi", "dealer")
_NOT_ARCADE = {
    "last_copy": "--last-copy (和绝张 is not an arcade pattern)",
    "seat_wind": "--seat-wind (arcade has no seat or round winds, R4.9)",
    "room": "--room (a guobiao-2p option; arcade points are shown without a room)",
    "cap": "--cap (the arcade cap is always 13, R5.3)",
    "min_fan": "--min-fan (arcade has no minimum, R4.11)",
}


class ArcadeRequestError(ErrenError, ValueError):
    """A request that names an impossible or contradictory arcade situation."""


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The arcade-only flags of ``erren score --rules arcade``."""
    group.add_argument(
        "--wild",
        metavar="KIND",
        help="财神: the hand's wild kind W, e.g. 5s; every concealed tile of that kind (the "
        "winning tile included) is wild. Default: no wild tile in the hand. The flower kind "
        "is 5z, or 7z when W = 5z (R1.10)",
    )
    group.add_argument(
        "--baoting",
        choices=BAOTING,
        help="报听 was declared: menqing (concealed, 门清报听 1), open (open hand, no fan) or "
        "tianting (天听 2, on the first turn); --ting picks menqing or open from the hand",
    )
    group.add_argument(
        "--first-turn",
        choices=FIRST_TURN,
        help="a first-turn limit hand (R2.15): tianhu 天和 (the dealer's dealt hand; may be "
        "written without +X), dihu 地和 (on the dealer's first discard), renhu 人和 (the "
        "non-dealer's first draw)",
    )
    group.add_argument(
        "--haidi",
        action="store_true",
        help="海底捞月: won on a post-draw draw from the reserve (R2.19); self-drawn",
    )
    group.add_argument(
        "--base-points",
        type=int,
        default=1,
        metavar="N",
        help="versus_base_points: points per fan in versus mode (default 1)",
    )


# --------------------------------------------------------------------------------------------
# Building the request


def _tile(text: str, what: str) -> Tile:
    try:
        tile = parse_tile(text)
    except ErrenError as error:
        raise ArcadeRequestError(f"{what}: {error}") from error
    if tile.is_flower:
        raise ArcadeRequestError(f"{what} must be one of the 34 kinds, not a flower")
    return tile


def context_from(
    *,
    hand: Hand,
    wild: str | None,
    flowers: int | None,
    flags: dict[str, bool],
    baoting: str | None,
    first_turn: str | None,
) -> ArcadeContext:
    """The :class:`ArcadeContext` of a request (names as in the CLI and the JSON lines)."""
    kind = Baoting(baoting) if baoting else Baoting.NONE
    turn = FirstTurn(first_turn) if first_turn else FirstTurn.NONE
    dealer = flags.get("dealer", False) or turn is FirstTurn.TIANHU
    try:
        return ArcadeContext(
            wild=None if wild is None else _tile(wild, "the wild kind"),
            flowers=0 if flowers is None else flowers,
            baoting=kind,
            first_turn=turn,
            **{**flags, "dealer": dealer},
        )
    except ValueError as error:
        raise ArcadeRequestError(str(error)) from error


def _args_context(args: argparse.Namespace, hand: Hand) -> ArcadeContext:
    for name, flag in _NOT_ARCADE.items():
        if getattr(args, name, None) not in (None, False):
            raise ArcadeRequestError(f"{flag} does not apply to the arcade rules")
    if getattr(args, "round_wind", "1z") not in (None, "1z"):
        raise ArcadeRequestError("--round-wind does not apply to the arcade rules (R4.9)")
    baoting: str | None = getattr(args, "baoting", None)
    if getattr(args, "tianting", False):
        baoting = _same(baoting, "tianting", "--tianting")
    if getattr(args, "ting", False):
        ting = "open" if any(not m.is_concealed for m in hand.melds) else "menqing"
        baoting = baoting if baoting == "tianting" else _same(baoting, ting, "--ting")
    first_turn: str | None = getattr(args, "first_turn", None)
    if getattr(args, "dihu", False):
        first_turn = _same(first_turn, "dihu", "--dihu")
    return context_from(
        hand=hand,
        wild=getattr(args, "wild", None),
        flowers=getattr(args, "flowers", None),
        flags={name: bool(getattr(args, name, False)) for name in _FLAGS},
        baoting=baoting,
        first_turn=first_turn,
    )


def _same(current: str | None, value: str, flag: str) -> str:
    if current not in (None, value):
        raise ArcadeRequestError(f"{flag} contradicts {current!r}")
    return value


def _check_money(stake: int, base_points: int) -> None:
    if not 1 <= stake <= MAX_STAKE:
        raise ArcadeRequestError(f"the stake multiplier must be 1..{MAX_STAKE}, not {stake}")
    if base_points < 1:
        raise ArcadeRequestError(f"versus base points must be at least 1, not {base_points}")


# --------------------------------------------------------------------------------------------
# The readable report


def render(
    hand: Hand, ctx: ArcadeContext, result: ArcadeResult, *, stake: int = 1, base_points: int = 1
) -> list[str]:
    """The pattern table, the total and the points (R5.7's display rules)."""
    rows = [("#", "Pattern", "English", "Value", "Count", "From")]
    for hit in result.patterns:
        groups = "; ".join(" ".join(g) for g in result.groups_of(hit) if g)
        value = f"×{hit.value}" if hit.pattern.limit else str(hit.value)
        rows.append(
            (
                hit.pattern.id,
                hit.pattern.name,
                hit.pattern.english,
                value,
                str(hit.count),
                groups or "—",
            )
        )
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]))]
    wild = "none" if ctx.wild is None else str(Tile(ctx.wild))
    lines = [
        f"Hand      {hand}  (arcade; wild W = {wild}, flower F = {ctx.flower})",
        f"Reading   {result.interpretation}",
        "",
    ]
    for n, row in enumerate(rows):
        cells = [pad(cell, widths[i], right=i in (3, 4)) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    if result.yakuman:
        lines.append(f"Total     {result.summary} (N = {result.yakuman})")
    elif result.capped:
        lines.append(f"Total     {result.fan} fan → 封顶 13番")
    else:
        lines.append(f"Total     {result.fan} fan")
    lines.append(
        f"Points    versus {result.versus_points(base_points)} "
        f"({result.points} × {base_points} base point{'s' if base_points != 1 else ''}); "
        f"stage {result.stage_payout(stake):,} (m = {stake})"
    )
    return lines


def run(args: argparse.Namespace) -> int:
    """Score the one hand of ``args.hand`` (or the JSON lines on stdin with ``--jsonl``)."""
    if getattr(args, "jsonl", False):
        return run_jsonl(sys.stdin, sys.stdout)
    text = getattr(args, "hand", None)
    if not text:
        print(
            'erren score: give a winning hand, e.g. erren score --rules arcade "234m567m234p45s77p'
            ' +3s"',
            file=sys.stderr,
        )
        return 2
    stake = getattr(args, "stake", 1)
    base_points = getattr(args, "base_points", 1)
    try:
        _check_money(stake, base_points)
        hand = Hand.parse(text)
        ctx = _args_context(args, hand)
        result = score_arcade(hand, ctx)
    except ErrenError as error:
        print(f"erren score: {error}", file=sys.stderr)
        return 2
    print("\n".join(render(hand, ctx, result, stake=stake, base_points=base_points)))
    return 0


# --------------------------------------------------------------------------------------------
# JSON lines

_FIELDS = frozenset(
    {"hand", "wild", "flowers", "baoting", "first_turn", "stake", "base_points", *_FLAGS}
)


def result_json(
    hand: Hand, ctx: ArcadeContext, result: ArcadeResult, *, stake: int = 1, base_points: int = 1
) -> dict[str, Any]:
    """The JSON answer for one scored hand (``docs/arcade-scoring.md``)."""
    interp = result.interpretation
    return {
        "hand": str(hand),
        "wild": None if ctx.wild is None else str(Tile(ctx.wild)),
        "flower_kind": str(ctx.flower),
        "yakuman": result.yakuman,
        "fan": result.fan,
        "capped_fan": 13 if result.yakuman else result.capped_fan,
        "capped": result.capped,
        "points": result.versus_points(base_points),
        "stage_payout": result.stage_payout(stake),
        "patterns": [
            {
                "id": hit.pattern.id,
                "name": hit.pattern.name,
                "english": hit.pattern.english,
                "limit": hit.pattern.limit,
                "value": hit.value,
                "count": hit.count,
                "groups": [list(g) for g in result.groups_of(hit) if g],
            }
            for hit in result.patterns
        ],
        "interpretation": {
            "form": interp.form.value,
            "groups": [str(g) for g in interp.groups],
            "winning_group": interp.winning_group,
            "wild_kinds": [str(Tile(k)) for k in interp.wild_kinds],
        },
        "summary": str(result),
    }


def _field(request: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = request.get(name, default)
    if value is None and default is None:
        return None
    ok = is_whole(value) if kind is int else isinstance(value, kind)
    if not ok:
        raise ArcadeRequestError(f'"{name}" must be {kind.__name__}, not {value!r}')
    return value


@answering
def score_json(line: str) -> dict[str, Any]:
    """One ``--jsonl`` request to its answer (``{"error": ...}`` for anything malformed)."""
    request = read_request(line, example='{"hand": "234m567m234p45s77p +3s"}', fields=_FIELDS)
    try:
        text = _field(request, "hand", str, "")
        if not text:
            raise ArcadeRequestError('"hand" is required: a string in the shared notation')
        flags = {name: _field(request, name, bool, False) for name in _FLAGS}
        baoting = _field(request, "baoting", str, "none")
        first_turn = _field(request, "first_turn", str, "none")
        if baoting not in (*BAOTING, "none"):
            raise ArcadeRequestError(f'"baoting" must be one of none, {", ".join(BAOTING)}')
        if first_turn not in (*FIRST_TURN, "none"):
            raise ArcadeRequestError(f'"first_turn" must be one of none, {", ".join(FIRST_TURN)}')
        stake = _field(request, "stake", int, 1)
        base_points = _field(request, "base_points", int, 1)
        _check_money(stake, base_points)
        hand = Hand.parse(text)
        ctx = context_from(
            hand=hand,
            wild=_field(request, "wild", str, None),
            flowers=_field(request, "flowers", int, 0),
            flags=flags,
            baoting=None if baoting == "none" else baoting,
            first_turn=None if first_turn == "none" else first_turn,
        )
        result = score_arcade(hand, ctx)
    except ErrenError as error:
        return {"error": str(error)}
    return result_json(hand, ctx, result, stake=stake, base_points=base_points)


def run_jsonl(source: TextIO, sink: TextIO) -> int:
    """Score every non-blank line of ``source``; one JSON answer per line on ``sink``."""
    return jsonl.run_jsonl(source, sink, score_json)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The arcade group of ``erren score``."""
    add_arguments(parser.add_argument_group("arcade (--rules arcade; see docs/arcade-scoring.md)"))


SCORER = TerminalScorer(
    add_arguments=add_options,
    run=run,
    shared={"dealer": "", "stake": "the stage-mode stake multiplier 1..10 for the payout line"},
)
"""arcade's ``erren score --rules arcade``: it reads ``--dealer`` and ``--stake``."""
