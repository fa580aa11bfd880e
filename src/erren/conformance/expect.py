"""What erren answers for the input of a corpus row: the one definition the generator writes
into ``expected`` and the checker recomputes and compares.

* a **win** is scored through the ``erren score --jsonl`` request of its family (the row's
  ``context`` is that request without ``hand``), so the corpus and the batch scorer agree;
* a **shape** is analysed by the family's definition of shanten and waits (below);
* a **sequence** is replayed from its chance actions, listing the legal actions before each
  play.

Shapes, per family:

* ``guobiao-2p``: natural tiles only; the shape set ``gb`` (all five shapes, the ``gb`` table)
  or ``guobiao-2p`` (sets and a pair, seven pairs: §3.1–§3.3).  A wait is a kind that completes
  the hand and of which the player does not hold all four, melds included (§3.4).
* ``xiamen``: ``gold`` names the gold kind; every tile of that kind is a gold (a wild), a White
  plays as the gold kind unless the gold is the White (R-1.7, R-1.8); sets and a pair only, a gold
  may be a fifth copy (R-3.1–R-3.3).  A wait is a kind of the 16 (R-1.1) whose draw completes the
  hand, as drawn (a drawn gold kind is a gold, a drawn White plays as the gold kind), leaving out
  kinds the player holds four of.
* ``arcade``: ``wild`` (or ``null``) is the wild kind W; every concealed tile of it is wild
  (R1.10); sets and a pair, seven pairs (a kind of four is two pairs) and thirteen orphans
  (R5.1), at most four of a kind counting the melds (R5.2).  A wait is any of the 34 kinds
  whose draw completes the hand (drawing W adds a wild), leaving out kinds held four times.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from erren.analysis.complete import is_complete
from erren.analysis.golds import complete as gold_complete
from erren.analysis.golds import functional_counts
from erren.analysis.report import SHAPE_SETS
from erren.analysis.shanten import shanten_by_shape
from erren.analysis.shapes import ARCADE, XIAMEN, Shape
from erren.analysis.waits import waits as kernel_waits
from erren.cli import score
from erren.engine.actions import Action
from erren.engine.record import Record, replay
from erren.engine.result import HandResult
from erren.errors import ErrenError
from erren.families.arcade import cli as score_arcade
from erren.families.xiamen import cli as score_xiamen
from erren.families.xiamen.scoring import XIAMEN_KINDS
from erren.hand import Hand
from erren.mjai.tiles import mjai_tiles
from erren.notation import parse_tile
from erren.tiles import NUM_KINDS, Tile

__all__ = [
    "SHAPES_OF",
    "parse_shape_hand",
    "sequence_expected",
    "shape_expected",
    "win_expected",
]

Expected = dict[str, Any]

SHAPES_OF: dict[str, tuple[str, ...]] = {
    "guobiao-2p": ("guobiao-2p", "gb"),
    "xiamen": ("xiamen",),
    "arcade": ("arcade",),
}
"""The shape sets a family's shape rows may name."""


# --------------------------------------------------------------------------------------------
# Wins


def win_expected(family: str, hand: str, context: dict[str, Any]) -> Expected:
    """The scored hand: ``rows`` ``[name, value, count]``, ``total`` and the family's points;
    ``{"error": ...}`` when erren refuses the request (not a win, a bad field)."""
    line = json.dumps({"hand": hand, **context}, ensure_ascii=False)
    if family == "guobiao-2p":
        answer = score.score_json(line)
        if "error" in answer:
            return {"error": answer["error"]}
        return {
            "rows": [[f["name"], f["points"], f["count"]] for f in answer["fans"]],
            "total": answer["total"],
        }
    if family == "xiamen":
        answer = score_xiamen.score_json(line)
        if "error" in answer:
            return {"error": answer["error"]}
        return {
            "rows": [[i["name"], i["water"], i["count"]] for i in answer["items"]],
            "total": answer["water"],
            "multiplier": answer["multiplier"],
            "bonus": answer["bonus"],
            "points": answer["total"],
        }
    if family == "arcade":
        answer = score_arcade.score_json(line)
        if "error" in answer:
            return {"error": answer["error"]}
        return {
            "rows": [[p["name"], p["value"], p["count"]] for p in answer["patterns"]],
            "yakuman": answer["yakuman"],
            "total": answer["fan"],
            "points": answer["points"],
        }
    raise ErrenError(f"no family {family!r}")


# --------------------------------------------------------------------------------------------
# Shapes


def parse_shape_hand(tiles: str, family: str, gold: str | None) -> Hand:
    """The hand of a shape row (xiamen: a White in a meld plays as the gold kind)."""
    plays_as: dict[int, int] | None = None
    if family == "xiamen" and gold is not None:
        g = int(parse_tile(gold))
        plays_as = {int(Tile.WHITE): g} if g != Tile.WHITE else None
    return Hand.parse(tiles, plays_as=plays_as)


def _names(kinds: Sequence[int]) -> list[str]:
    return [str(Tile(k)) for k in kinds]


ShapeAnswer = tuple[dict[Shape, int], list[int] | None]


def _xiamen_shape(counts: list[int], physical: list[int], gold: int, ready: bool) -> ShapeAnswer:
    natural, golds = functional_counts(counts, gold)
    by_shape = shanten_by_shape(natural, wilds=golds, shapes=XIAMEN)
    if not ready:
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


def _arcade_shape(
    counts: list[int], held: list[int], physical: list[int], wild: int | None, ready: bool
) -> ShapeAnswer:
    wilds = 0
    if wild is not None:
        wilds, counts[wild] = counts[wild], 0
    by_shape = shanten_by_shape(counts, wilds=wilds, shapes=ARCADE)
    if not ready:
        return by_shape, None
    found = []
    for kind in range(NUM_KINDS):
        if physical[kind] >= 4:
            continue
        if kind == wild:
            ok = is_complete(counts, wilds=wilds + 1, shapes=ARCADE, held=held)
        else:
            counts[kind] += 1
            ok = counts[kind] + held[kind] <= 4 and is_complete(
                counts, wilds=wilds, shapes=ARCADE, held=held
            )
            counts[kind] -= 1
        if ok:
            found.append(kind)
    return by_shape, found


def shape_expected(
    family: str, tiles: str, shapes: str, *, gold: str | None = None, wild: str | None = None
) -> Expected:
    """Shanten (the least over the shapes, and each shape's), and for a 3n+1 hand its waits
    (module docstring); ``{"error": ...}`` for a hand erren refuses."""
    if shapes not in SHAPES_OF.get(family, ()):
        return {"error": f"{family} has no shape set {shapes!r}"}
    if family == "xiamen" and gold is None:
        return {"error": 'a xiamen shape row needs "gold"'}
    try:
        hand = parse_shape_hand(tiles, family, gold)
        if hand.winning is not None:
            return {"error": "a shape row's tiles have no winning tile (+X)"}
        counts = list(hand.concealed_counts())
        held = list(hand.meld_counts())
        physical = [a + b for a, b in zip(counts, held, strict=True)]
        ready = len(hand.concealed) % 3 == 1
        if family == "xiamen" and gold is not None:
            by_shape, found = _xiamen_shape(counts, physical, int(parse_tile(gold)), ready)
        elif family == "arcade":
            w = None if wild is None else int(parse_tile(wild))
            by_shape, found = _arcade_shape(counts, held, physical, w, ready)
        else:
            shape_set = SHAPE_SETS[shapes]
            by_shape = shanten_by_shape(counts, shapes=shape_set)
            found = kernel_waits(counts, shapes=shape_set, held=held) if ready else None
    except ErrenError as error:
        return {"error": str(error)}
    out: Expected = {
        "shanten": min(by_shape.values()),
        "by_shape": {shape.value: value for shape, value in by_shape.items()},
    }
    if found is not None:
        out["waits"] = _names(found)
        out["waits_mjai"] = mjai_tiles(found)
    return out


# --------------------------------------------------------------------------------------------
# Sequences


def _end(result: HandResult | None) -> Expected | None:
    if result is None:
        return None
    return {
        "kind": result.kind,
        "winner": result.winner,
        "how": result.how,
        "rows": [[name, value, count] for name, value, count in result.fans],
        "total": result.fan_total,
        "points": result.points,
        "deltas": list(result.deltas),
    }


def sequence_expected(
    *,
    ruleset: str,
    options: dict[str, Any],
    dealer: int,
    round_wind: str,
    streak: int,
    setup: Sequence[str],
    steps: Sequence[str],
) -> Expected:
    """Replay the setup's chance actions, then each step: ``legal`` holds the sorted legal
    actions before each step (``[]`` before a chance action), ``end`` how the hand ended
    (``None`` while it goes on)."""
    try:
        record = Record(
            ruleset=ruleset,
            options=dict(options),
            seed=None,
            dealer=dealer,
            round_wind=parse_tile(round_wind),
            actions=tuple(setup),
            streak=streak,
        )
        state = replay(record)
        legal: list[list[str]] = []
        for number, text in enumerate(steps, start=1):
            legal.append(sorted(str(a) for a in state.legal_actions()))
            try:
                state.apply_recorded(Action.parse(text))
            except ErrenError as error:
                return {"legal": legal, "error": f"step {number} {text}: {error}"}
    except (ErrenError, ValueError) as error:
        return {"error": str(error)}
    return {"legal": legal, "end": _end(state.result)}
