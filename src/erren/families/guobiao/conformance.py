"""guobiao-2p's part of the conformance corpus (:mod:`erren.conformance`).

* wins are scored through ``erren score --jsonl`` (:mod:`erren.families.guobiao.cli`); the
  generated ones are of table ``gb`` (every shape and meld in three suits, cross-checked
  against PyMahjongGB) and of table ``2p`` (the two-player wall, 报听 now and then);
* shapes use natural tiles only; the shape set ``gb`` (all five shapes, the ``gb`` table) or
  ``guobiao-2p`` (sets and a pair, seven pairs: §3.1–§3.3).  A wait is a kind that completes
  the hand and of which the player does not hold all four, melds included (§3.4).  Half are
  dealt from the two-player wall (set ``guobiao-2p``), half from the 136 tiles (``gb``);
* sequences are played with the ``2p`` table, then the ``gb`` table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from erren.analysis.report import SHAPE_SETS
from erren.analysis.shanten import shanten_by_shape
from erren.analysis.waits import waits as kernel_waits
from erren.conformance.adapter import (
    Checked,
    ConformanceAdapter,
    Expected,
    ShapeAnswer,
    ShapeQuery,
    WinSource,
)
from erren.conformance.inputs import Context, ShapeInput, WinInput, deals, shape_text
from erren.families.guobiao.cli import score_json
from erren.families.guobiao.spec_examples import EXAMPLES
from erren.testing.wins import Case, random_cases, seven_pairs_case, standard_case
from erren.tiles import Tile

__all__ = ["ADAPTER", "gb_wins", "shapes", "two_player_wins"]


def answer(line: str) -> Expected:
    """The fans ``[name, value, count]`` and the total of a win's request."""
    scored = score_json(line)
    if "error" in scored:
        return {"error": scored["error"]}
    return {
        "rows": [[f["name"], f["points"], f["count"]] for f in scored["fans"]],
        "total": scored["total"],
    }


_GB_FLAGS = ("self_drawn", "last_copy", "last_tile", "kong_replacement", "robbing_kong")


def _gb_context(case: Case, table: str) -> Context:
    context: Context = {"table": table}
    for name in _GB_FLAGS:
        if getattr(case, name):
            context[name] = True
    context["seat_wind"] = str(Tile(27 + case.seat_wind))
    context["round_wind"] = str(Tile(27 + case.round_wind))
    if case.flowers:
        context["flowers"] = case.flowers
    return context


def gb_wins(n: int, seed: int) -> list[WinInput]:
    """Table ``gb``: every shape and meld in three suits (PyMahjongGB scores these too)."""
    return [WinInput(c.text, _gb_context(c, "gb"), c) for c in random_cases(n, seed)]


def _one_suit_case(rng: random.Random, suits: str) -> Case | None:
    roll = rng.random()
    if roll < 0.8:
        return standard_case(rng, suits)
    return seven_pairs_case(rng, suits)


def two_player_wins(seed: int) -> Iterator[WinInput]:
    """Table ``2p``: hands of the two-player wall (万 and honors), with 报听 now and then; an
    endless stream (the caller takes what it needs)."""
    rng = random.Random(f"erren-conformance:2p:{seed}")
    while True:
        case = _one_suit_case(rng, "m")
        if case is None:
            continue
        context = _gb_context(case, "2p")
        if rng.random() < 0.2 and not case.melds:
            context["ting"] = True
        yield WinInput(case.text, context)


def _gb_checked(item: WinInput, expected: Expected) -> Checked:
    from erren.families.guobiao.oracle import gb_win  # noqa: PLC0415

    assert item.case is not None
    return "pymahjonggb wins (table gb)", gb_win(item.case, expected["total"])


def shape(query: ShapeQuery) -> ShapeAnswer:
    """Shanten by shape of the set, and the waits of a 3n+1 hand."""
    shape_set = SHAPE_SETS[query.shapes]
    by_shape = shanten_by_shape(query.counts, shapes=shape_set)
    found = kernel_waits(query.counts, shapes=shape_set, held=query.held) if query.ready else None
    return by_shape, found


def shapes(n: int, seed: int) -> list[ShapeInput]:
    """``n`` shapes: half on the two-player wall (set ``guobiao-2p``), half on the 136 tiles
    (``gb``)."""
    half = n // 2
    out = [
        ShapeInput(shape_text(hand), "guobiao-2p", hand)
        for hand in deals("64", half, seed, "conformance-2p")
    ]
    out += [
        ShapeInput(shape_text(hand), "gb", hand)
        for hand in deals("136", n - half, seed, "conformance-gb")
    ]
    return out


def shape_checked(item: ShapeInput, expected: Expected) -> Checked:
    """The shape against ``mahjong`` (and PyMahjongGB for set ``gb``)."""
    from erren.families.guobiao.oracle import gb_shape  # noqa: PLC0415

    name = f"guobiao-2p shapes (set {item.shapes}) vs " + (
        "mahjong, pymahjonggb" if item.shapes == "gb" else "mahjong"
    )
    return name, gb_shape(item.dealt.concealed, item.dealt.meld_counts, expected, item.shapes)


ADAPTER = ConformanceAdapter(
    answer=answer,
    shape_sets=("guobiao-2p", "gb"),
    shape=shape,
    shape_inputs=shapes,
    shape_check=shape_checked,
    wins=(
        WinSource("gb", "gb_wins", 1200, gb_wins, _gb_checked),
        WinSource("2p", "two_player_wins", 600, lambda n, seed: two_player_wins(seed)),
    ),
    examples=EXAMPLES,
    sequence_options=({}, {"fan_table": "gb"}),
)
"""guobiao-2p's corpus."""
