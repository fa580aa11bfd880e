"""arcade's part of the conformance corpus (:mod:`erren.conformance`).

* wins are scored through ``erren score --rules arcade --jsonl``
  (:mod:`erren.families.arcade.cli`): hands of the 136 tiles without the flower kind, with a
  wild kind (held, added, or none), 报听, flowers, the dealer and the win's flags;
* shapes: ``wild`` (or ``null``) is the wild kind W; every concealed tile of it is wild
  (R1.10); sets and a pair, seven pairs (a kind of four is two pairs) and thirteen orphans
  (R5.1), at most four of a kind counting the melds (R5.2).  A wait is any of the 34 kinds
  whose draw completes the hand (drawing W adds a wild), leaving out kinds held four times.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from erren.analysis.complete import is_complete
from erren.analysis.shanten import shanten_by_shape
from erren.analysis.shapes import ARCADE
from erren.conformance.adapter import (
    Checked,
    ConformanceAdapter,
    Expected,
    ShapeAnswer,
    ShapeQuery,
    WinSource,
)
from erren.conformance.inputs import Context, ShapeInput, WinInput, deals, shape_text
from erren.errors import ErrenError
from erren.families.arcade.cli import score_json
from erren.families.arcade.scoring import flower_kind
from erren.families.arcade.spec_examples import EXAMPLES
from erren.hand import Hand
from erren.notation import parse_tile
from erren.testing.wins import (
    SUITS,
    Case,
    kind_text,
    seven_pairs_case,
    standard_case,
    thirteen_orphans_case,
)
from erren.tiles import NUM_KINDS, Tile

__all__ = ["ADAPTER", "arcade_wins", "shapes"]


def answer(line: str) -> Expected:
    """The patterns ``[name, value, count]``, the yakuman count, the fan and the points of a
    win's request."""
    scored = score_json(line)
    if "error" in scored:
        return {"error": scored["error"]}
    return {
        "rows": [[p["name"], p["value"], p["count"]] for p in scored["patterns"]],
        "yakuman": scored["yakuman"],
        "total": scored["fan"],
        "points": scored["points"],
    }


def _with_wilds(rng: random.Random, case: Case, wild: int) -> str:
    """The case's hand with one or two of its concealed tiles (the winning tile too, now and
    then) replaced by the wild kind."""
    concealed = list(case.concealed)
    winning = case.winning
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.2:
            winning = wild
        else:
            concealed[rng.randrange(len(concealed))] = wild
    melds = "".join(f" {m.notation()}" for m in case.melds)
    return f"{kind_text(concealed)}{melds} +{kind_text([winning])}"


def _usable(text: str, flower: int) -> bool:
    """Whether ``text`` is a hand (no fifth copy) without the flower kind."""
    try:
        return Hand.parse(text).all_counts()[flower] == 0
    except ErrenError:
        return False


def arcade_wins(seed: int) -> Iterator[WinInput]:
    """Arcade: hands of the 136 tiles without the flower kind (White, or Red when the wild is
    White: R1.10), with a wild kind (held, added, or none), 报听, flowers, the dealer and the
    win's flags."""
    rng = random.Random(f"erren-conformance:arcade:{seed}")
    while True:
        roll = rng.random()
        case: Case | None
        if roll < 0.75:
            case = standard_case(rng, rng.choice((rng.choice(SUITS), SUITS)))
        elif roll < 0.95:
            case = seven_pairs_case(rng, rng.choice((rng.choice(SUITS), SUITS)))
        else:
            case = thirteen_orphans_case(rng)
        if case is None:
            continue
        text = case.text
        context: Context = {}
        wild_roll = rng.random()
        if wild_roll < 0.25:
            wild = rng.choice(sorted(set(case.concealed)))
            context["wild"] = str(Tile(wild))
        elif wild_roll < 0.5:
            wild = rng.randrange(34)
            context["wild"] = str(Tile(wild))
            text = _with_wilds(rng, case, wild)
        wild_kind = parse_tile(context["wild"]) if "wild" in context else None
        if not _usable(text, flower_kind(wild_kind)):
            continue  # the flower kind is set aside, never held (R1.10-R1.11)
        for name in ("self_drawn", "robbing_kong", "kong_replacement", "last_tile"):
            if getattr(case, name):
                context[name] = True
        if case.self_drawn and not case.last_tile and rng.random() < 0.05:
            context["haidi"] = True
        flowers = rng.choice((0, 0, 0, 1, 2, 3))
        if flowers:
            context["flowers"] = flowers
        if rng.random() < 0.25:
            context["baoting"] = "open" if case.melds else "menqing"
        if rng.random() < 0.5:
            context["dealer"] = True
        yield WinInput(text, context)


def shape(query: ShapeQuery) -> ShapeAnswer:
    """Shanten by shape with the wilds, and the waits of a 3n+1 hand."""
    counts, held, physical = query.counts, query.held, query.physical
    text = query.fields.get("wild")
    wild = None if text is None else int(parse_tile(text))
    wilds = 0
    if wild is not None:
        wilds, counts[wild] = counts[wild], 0
    by_shape = shanten_by_shape(counts, wilds=wilds, shapes=ARCADE)
    if not query.ready:
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


def shapes(n: int, seed: int) -> list[ShapeInput]:
    """``n`` shapes on the 136 tiles with a wild kind half the time, never holding the flower
    kind."""
    rng = random.Random(f"erren-conformance:shapes:arcade:{seed}")
    out: list[ShapeInput] = []
    for hand in deals("136", 3 * n, seed, "conformance-arcade"):
        if len(out) == n:
            break
        held = [k for k in range(34) if hand.concealed[k]]
        wild: int | None = None
        if rng.random() < 0.5:
            wild = rng.choice(held) if rng.random() < 0.7 else rng.randrange(34)
        if hand.held[flower_kind(wild)]:
            continue  # the flower kind is never held (R1.10-R1.11)
        shown = None if wild is None else str(Tile(wild))
        out.append(ShapeInput(shape_text(hand), "arcade", hand, wild=shown))
    return out


def shape_checked(item: ShapeInput, expected: Expected) -> Checked:
    """A shape without a wild against ``mahjong``."""
    if item.wild is not None:
        return "", None
    from erren.families.arcade.oracle import arcade_shape  # noqa: PLC0415

    return "arcade shapes without wild vs mahjong", arcade_shape(
        item.dealt.concealed, item.dealt.meld_counts, expected
    )


ADAPTER = ConformanceAdapter(
    answer=answer,
    shape_sets=("arcade",),
    shape=shape,
    shape_inputs=shapes,
    shape_check=shape_checked,
    wins=(WinSource("gen", "arcade_wins", 1500, lambda n, seed: arcade_wins(seed)),),
    examples=EXAMPLES,
)
"""arcade's corpus."""
