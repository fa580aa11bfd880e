"""The generated inputs of the corpus: winning hands with their context per family, shapes,
and action sequences — each a pure function of ``(seed, n)``.

Winning hands come from :mod:`erren.testing.wins` (sets and a pair, melds of every kind, seven
pairs, the orphan and knitted shapes, the rare patterns), shapes from
:mod:`erren.testing.hands` (uniform and near-complete deals), sequences from the engine played
by a seeded player that takes a win whenever it may and mostly discards towards ready.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from erren.analysis.shanten import shanten
from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.family import find_family
from erren.engine.state import State
from erren.errors import ErrenError
from erren.families.arcade.scoring import flower_kind
from erren.families.xiamen.scoring import XIAMEN_KINDS, WinType
from erren.hand import Hand
from erren.testing.hands import Hand as DealtHand
from erren.testing.hands import WallName, counts_to_str, deal_batch
from erren.testing.wins import (
    SUITS,
    Case,
    kind_text,
    random_cases,
    seven_pairs_case,
    standard_case,
    thirteen_orphans_case,
)
from erren.tiles import Tile

__all__ = [
    "SequenceInput",
    "ShapeInput",
    "WinInput",
    "arcade_wins",
    "gb_wins",
    "sequences",
    "shapes",
    "two_player_wins",
    "xiamen_wins",
]

Context = dict[str, Any]


@dataclass(frozen=True, slots=True)
class WinInput:
    """A winning hand, its context (the family's score request without ``hand``), and the
    :class:`~erren.testing.wins.Case` it came from when PyMahjongGB can score it."""

    hand: str
    context: Context
    case: Case | None = None


@dataclass(frozen=True, slots=True)
class ShapeInput:
    tiles: str
    shapes: str
    dealt: DealtHand
    gold: str | None = None
    wild: str | None = None


@dataclass(frozen=True, slots=True)
class SequenceInput:
    ruleset: str
    options: dict[str, Any]
    dealer: int
    round_wind: str
    setup: tuple[str, ...]
    steps: tuple[str, ...]
    game: int


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
        wild_kind = Tile.from_str(context["wild"]) if "wild" in context else None
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


# --------------------------------------------------------------------------------------------
# Shapes


def _meld_text(meld: tuple[int, int, int]) -> str:
    if meld[0] == meld[1]:
        return f"[{kind_text(meld)}']"
    text = kind_text(meld)
    return f"[{text[0]}'{text[1:]}]"


def _shape_text(hand: DealtHand) -> str:
    return " ".join([counts_to_str(hand.concealed), *(_meld_text(m) for m in hand.melds)])


_SIZES = (13, 14, 13, 14, 10, 11, 7, 8)


def _deals(wall: WallName, n: int, seed: int, tag: str) -> list[DealtHand]:
    per_size = -(-n // len(_SIZES))
    batches = {
        size: deal_batch(wall, size, per_size * _SIZES.count(size), seed=f"{tag}:{seed}")
        for size in set(_SIZES)
    }
    out: list[DealtHand] = []
    used = dict.fromkeys(batches, 0)
    for i in range(n):
        size = _SIZES[i % len(_SIZES)]
        out.append(batches[size][used[size]])
        used[size] += 1
    return out


def shapes(family: str, n: int, seed: int) -> list[ShapeInput]:
    """``n`` shapes of ``family``: guobiao-2p half on the two-player wall (shape set
    ``guobiao-2p``), half on the 136 tiles (``gb``); xiamen on the 万 + honors wall with a gold;
    arcade on the 136 tiles with a wild kind half the time, never holding the flower kind."""
    rng = random.Random(f"erren-conformance:shapes:{family}:{seed}")
    out: list[ShapeInput] = []
    if family == "guobiao-2p":
        half = n // 2
        for hand in _deals("64", half, seed, "conformance-2p"):
            out.append(ShapeInput(_shape_text(hand), "guobiao-2p", hand))
        for hand in _deals("136", n - half, seed, "conformance-gb"):
            out.append(ShapeInput(_shape_text(hand), "gb", hand))
    elif family == "xiamen":
        kinds = sorted(XIAMEN_KINDS)
        for hand in _deals("64", n, seed, "conformance-xiamen"):
            held = [k for k in kinds if hand.concealed[k]]
            gold = rng.choice(held) if held and rng.random() < 0.6 else rng.choice(kinds)
            out.append(ShapeInput(_shape_text(hand), "xiamen", hand, gold=str(Tile(gold))))
    else:
        for hand in _deals("136", 3 * n, seed, "conformance-arcade"):
            if len(out) == n:
                break
            held = [k for k in range(34) if hand.concealed[k]]
            wild: int | None = None
            if rng.random() < 0.5:
                wild = rng.choice(held) if rng.random() < 0.7 else rng.randrange(34)
            if hand.held[flower_kind(wild)]:
                continue  # the flower kind is never held (R1.10-R1.11)
            shown = None if wild is None else str(Tile(wild))
            out.append(ShapeInput(_shape_text(hand), "arcade", hand, wild=shown))
    return out


# --------------------------------------------------------------------------------------------
# Sequences

_WINS = (
    ActionKind.HU,
    ActionKind.ZIMO,
    ActionKind.WIN,
    ActionKind.SANJINDAO,
    ActionKind.QIANGJIN,
)
_CLAIMS = (ActionKind.CHI, ActionKind.PENG, ActionKind.MING_GANG)
_DISCARDS = (ActionKind.DISCARD, ActionKind.TING)


def _after_discard(state: State, action: Action) -> int:
    """The shanten of the actor's concealed tiles after discarding ``action``'s tile."""
    counts = list(state.hands[action.player])
    counts[int(action.tile)] -= 1  # type: ignore[arg-type]
    return shanten(counts)


def _choose(state: State, legal: list[Action], rng: random.Random) -> Action:
    """A seeded player that always wins when it may, claims half the time, and mostly discards
    a tile that keeps its hand closest to ready (so that hands end in wins as well as draws)."""
    wins = [a for a in legal if a.kind in _WINS]
    if wins:
        return wins[0]
    claims = [a for a in legal if a.kind in _CLAIMS]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    discards = [a for a in legal if a.kind in _DISCARDS]
    if discards and rng.random() < 0.85:
        scored = [(_after_discard(state, a), a) for a in discards]
        least = min(value for value, _ in scored)
        return rng.choice([a for value, a in scored if value == least])
    rest = [a for a in legal if a.kind not in _CLAIMS] or legal
    return rng.choice(rest)


def sequences(
    ruleset: str, options: dict[str, Any], n: int, seed: int, *, max_steps: int = 150
) -> list[SequenceInput]:
    """``n`` hands of ``ruleset`` played from a seeded deal to their end (or ``max_steps``)."""
    out: list[SequenceInput] = []
    for game in range(n):
        rng = random.Random(f"erren-conformance:seq:{ruleset}:{seed}:{game}")
        state = State.new(find_family(ruleset, options), seed=rng.randrange(2**31), dealer=game % 2)
        setup = tuple(str(a) for a in state.history)
        steps: list[str] = []
        while state.result is None and len(steps) < max_steps:
            if state.actor == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = _choose(state, state.legal_actions(), rng)
            state.apply(action)
            steps.append(str(action))
        out.append(
            SequenceInput(
                ruleset=ruleset,
                options=state.ruleset.options_dict(),
                dealer=state.dealer,
                round_wind=str(Tile(state.round_wind)),
                setup=setup,
                steps=tuple(steps),
                game=game,
            )
        )
    return out
