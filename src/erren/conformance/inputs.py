"""The generated inputs of the corpus — each a pure function of ``(seed, n)``: the input types,
the deals that shape rows are made of, and action sequences.

Each family generates its winning hands with their context (from :mod:`erren.testing.wins`:
sets and a pair, melds of every kind, seven pairs, the orphan and knitted shapes, the rare
patterns) and its shapes (from :func:`deals`: uniform and near-complete deals of
:mod:`erren.testing.hands`) in its package, through its
:class:`~erren.conformance.adapter.ConformanceAdapter`; sequences come from the engine played
by a seeded player that takes a win whenever it may and mostly discards towards ready.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from erren.analysis.shanten import shanten
from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.registry import find_family
from erren.engine.state import State
from erren.testing.hands import Hand as DealtHand
from erren.testing.hands import WallName, counts_to_str, deal_batch
from erren.testing.wins import Case, kind_text
from erren.tiles import Tile

__all__ = [
    "Context",
    "SequenceInput",
    "ShapeInput",
    "WinInput",
    "deals",
    "sequences",
    "shape_text",
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


# --------------------------------------------------------------------------------------------
# Shapes


def _meld_text(meld: tuple[int, int, int]) -> str:
    if meld[0] == meld[1]:
        return f"[{kind_text(meld)}']"
    text = kind_text(meld)
    return f"[{text[0]}'{text[1:]}]"


def shape_text(hand: DealtHand) -> str:
    """A dealt hand in the shared notation: its concealed tiles, then its melds."""
    return " ".join([counts_to_str(hand.concealed), *(_meld_text(m) for m in hand.melds)])


_SIZES = (13, 14, 13, 14, 10, 11, 7, 8)


def deals(wall: WallName, n: int, seed: int, tag: str) -> list[DealtHand]:
    """``n`` deals of ``wall`` for ``(seed, tag)``, cycling through the sizes 13, 14, 10, 11,
    7 and 8."""
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


# --------------------------------------------------------------------------------------------
# Sequences

_CLAIMS = (ActionKind.CHI, ActionKind.PENG, ActionKind.MING_GANG)
_DISCARDS = (ActionKind.DISCARD, ActionKind.TING)


def _after_discard(state: State, action: Action) -> int:
    """The shanten of the actor's concealed tiles after discarding ``action``'s tile."""
    counts = list(state.hands[action.player])
    counts[action.tile_kind()] -= 1
    return shanten(counts)


def _choose(state: State, legal: list[Action], rng: random.Random) -> Action:
    """A seeded player that always wins when it may, claims half the time, and mostly discards
    a tile that keeps its hand closest to ready (so that hands end in wins as well as draws)."""
    wins = [a for a in legal if a.kind.is_win]
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
