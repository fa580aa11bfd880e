"""What erren answers for the input of a corpus row: the one definition the generator writes
into ``expected`` and the checker recomputes and compares.

* a **win** is scored through the ``erren score --jsonl`` request of its family (the row's
  ``context`` is that request without ``hand``), so the corpus and the batch scorer agree;
* a **shape** is analysed by the family's definition of shanten and waits (its
  :class:`~erren.conformance.adapter.ConformanceAdapter`, which documents it);
* a **sequence** is replayed from its chance actions, listing the legal actions before each
  play.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from erren.conformance.adapter import Expected, ShapeQuery, adapter_of
from erren.engine.actions import Action
from erren.engine.record import Record, replay
from erren.engine.result import HandResult
from erren.errors import ErrenError
from erren.hand import Hand
from erren.mjai.tiles import mjai_tiles
from erren.notation import parse_tile
from erren.tiles import Tile

__all__ = [
    "parse_shape_hand",
    "sequence_expected",
    "shape_expected",
    "win_expected",
]

# --------------------------------------------------------------------------------------------
# Wins


def win_expected(family: str, hand: str, context: dict[str, Any]) -> Expected:
    """The scored hand: ``rows`` ``[name, value, count]``, ``total`` and the family's points;
    ``{"error": ...}`` when erren refuses the request (not a win, a bad field)."""
    adapter = adapter_of(family)
    if adapter is None:
        raise ErrenError(f"no family {family!r}")
    return adapter.answer(json.dumps({"hand": hand, **context}, ensure_ascii=False))


# --------------------------------------------------------------------------------------------
# Shapes


def parse_shape_hand(tiles: str, family: str, fields: Mapping[str, Any]) -> Hand:
    """The hand of a row (``fields``: a win's context or a shape row; xiamen: a White plays as
    the gold kind)."""
    adapter = adapter_of(family)
    plays_as = None if adapter is None else adapter.plays_as(fields)
    return Hand.parse(tiles, plays_as=plays_as)


def _names(kinds: Sequence[int]) -> list[str]:
    return [str(Tile(k)) for k in kinds]


def shape_expected(
    family: str, tiles: str, shapes: str, *, gold: str | None = None, wild: str | None = None
) -> Expected:
    """Shanten (the least over the shapes, and each shape's), and for a 3n+1 hand its waits
    (the family's definition); ``{"error": ...}`` for a hand erren refuses."""
    adapter = adapter_of(family)
    if adapter is None or shapes not in adapter.shape_sets:
        return {"error": f"{family} has no shape set {shapes!r}"}
    fields = {"gold": gold, "wild": wild}
    for name in adapter.shape_needs:
        if fields.get(name) is None:
            return {"error": f'a {family} shape row needs "{name}"'}
    try:
        hand = parse_shape_hand(tiles, family, fields)
        if hand.winning is not None:
            return {"error": "a shape row's tiles have no winning tile (+X)"}
        counts = list(hand.concealed_counts())
        held = list(hand.meld_counts())
        physical = [a + b for a, b in zip(counts, held, strict=True)]
        ready = len(hand.concealed) % 3 == 1
        by_shape, found = adapter.shape(ShapeQuery(counts, held, physical, ready, shapes, fields))
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
