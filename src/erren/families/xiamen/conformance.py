"""xiamen's part of the conformance corpus (:mod:`erren.conformance`).

* wins are scored through ``erren score --rules xiamen --jsonl``
  (:mod:`erren.families.xiamen.cli`): hands of 万 and honors with a gold, a win type, flowers,
  the dealer and a streak;
* shapes: ``gold`` names the gold kind; every tile of that kind is a gold (a wild), a White
  plays as the gold kind unless the gold is the White (R-1.7, R-1.8); sets and a pair only, a
  gold may be a fifth copy (R-3.1–R-3.3).  A wait is a kind of the 16 (R-1.1) whose draw
  completes the hand, as drawn (a drawn gold kind is a gold, a drawn White plays as the gold
  kind), leaving out kinds the player holds four of.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from erren.analysis.golds import complete as gold_complete
from erren.analysis.golds import functional_counts
from erren.analysis.shanten import shanten_by_shape
from erren.analysis.shapes import XIAMEN
from erren.conformance.adapter import (
    Checked,
    ConformanceAdapter,
    Expected,
    ShapeAnswer,
    ShapeQuery,
    WinSource,
)
from erren.conformance.inputs import Context, ShapeInput, WinInput, deals, shape_text
from erren.families.xiamen.cli import score_json
from erren.families.xiamen.scoring import XIAMEN_KINDS, WinType
from erren.families.xiamen.spec_examples import EXAMPLES
from erren.notation import parse_tile
from erren.testing.wins import standard_case
from erren.tiles import Tile

__all__ = ["ADAPTER", "shapes", "xiamen_wins"]


def answer(line: str) -> Expected:
    """The 水 items ``[name, 水, count]``, the 水 total, the multiplier, the bonus and the
    points of a win's request."""
    scored = score_json(line)
    if "error" in scored:
        return {"error": scored["error"]}
    return {
        "rows": [[i["name"], i["water"], i["count"]] for i in scored["items"]],
        "total": scored["water"],
        "multiplier": scored["multiplier"],
        "bonus": scored["bonus"],
        "points": scored["total"],
    }


def plays_as(fields: Mapping[str, Any]) -> dict[int, int] | None:
    """A White plays as the gold kind (R-1.8), unless the gold is the White."""
    gold = fields.get("gold")
    if not isinstance(gold, str):
        return None
    g = int(parse_tile(gold))
    return {int(Tile.WHITE): g} if g != Tile.WHITE else None


_WIN_TYPES = (
    (WinType.PINGHU, 40),
    (WinType.ZIMO, 40),
    (WinType.QIANGGANG, 8),
    (WinType.YOUJIN, 8),
    (WinType.SHUANGYOU, 2),
    (WinType.SANYOU, 2),
)


def xiamen_wins(seed: int) -> Iterator[WinInput]:
    """Xiamen: hands of 万 and honors with a gold (often one the hand holds, so some tiles are
    golds), a win type, flowers, the dealer and a streak.  Candidates the scorer refuses (a
    White playing as the gold breaks the shape, a win type the hand cannot have) are drawn
    again by the caller's filter."""
    rng = random.Random(f"erren-conformance:xiamen:{seed}")
    types = [t for t, _ in _WIN_TYPES]
    weights = [w for _, w in _WIN_TYPES]
    kinds = sorted(XIAMEN_KINDS)
    while True:
        case = standard_case(rng, "m")
        if case is None:
            continue
        held = sorted(set(case.concealed))
        gold = rng.choice(held) if rng.random() < 0.5 else rng.choice(kinds)
        context: Context = {
            "gold": str(Tile(gold)),
            "win_type": rng.choices(types, weights)[0].value,
        }
        if rng.random() < 0.5:
            flowers = sorted(rng.sample(range(1, 9), rng.randint(1, 8)))
            context["flowers"] = "".join(str(f) for f in flowers) + "f"
        if rng.random() < 0.5:
            context["dealer"] = True
        streak = rng.choice((0, 0, 0, 1, 2))
        if streak:
            context["streak"] = streak
        yield WinInput(case.text, context)


def shape(query: ShapeQuery) -> ShapeAnswer:
    """Shanten by shape with the golds as wilds, and the waits of a 3n+1 hand."""
    counts, physical = query.counts, query.physical
    gold = int(parse_tile(query.fields["gold"]))
    natural, golds = functional_counts(counts, gold)
    by_shape = shanten_by_shape(natural, wilds=golds, shapes=XIAMEN)
    if not query.ready:
        return by_shape, None
    found = []
    for kind in sorted(XIAMEN_KINDS):
        if physical[kind] >= 4:
            continue
        counts[kind] += 1
        if gold_complete(*functional_counts(counts, gold)):
            found.append(kind)
        counts[kind] -= 1
    return by_shape, found


def shapes(n: int, seed: int) -> list[ShapeInput]:
    """``n`` shapes on the 万 + honors wall, each with a gold (often one the hand holds)."""
    rng = random.Random(f"erren-conformance:shapes:xiamen:{seed}")
    kinds = sorted(XIAMEN_KINDS)
    out: list[ShapeInput] = []
    for hand in deals("64", n, seed, "conformance-xiamen"):
        held = [k for k in kinds if hand.concealed[k]]
        gold = rng.choice(held) if held and rng.random() < 0.6 else rng.choice(kinds)
        out.append(ShapeInput(shape_text(hand), "xiamen", hand, gold=str(Tile(gold))))
    return out


def shape_checked(item: ShapeInput, expected: Expected) -> Checked:
    """A shape without a gold in the hand against ``mahjong``."""
    from erren.families.xiamen.oracle import xiamen_shape  # noqa: PLC0415

    assert item.gold is not None
    return "xiamen shapes without gold vs mahjong", xiamen_shape(
        item.dealt.concealed, item.gold, expected["by_shape"]
    )


ADAPTER = ConformanceAdapter(
    answer=answer,
    shape_sets=("xiamen",),
    shape=shape,
    shape_inputs=shapes,
    shape_check=shape_checked,
    wins=(WinSource("gen", "xiamen_wins", 1500, lambda n, seed: xiamen_wins(seed)),),
    examples=EXAMPLES,
    plays_as=plays_as,
    shape_needs=("gold",),
)
"""xiamen's corpus."""
