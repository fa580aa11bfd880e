"""The guided first hand: a fixed guobiao-2p deal played through the engine, step by step.

The wall is arranged so that the player (seat 0, the dealer) learns one thing a step:
discard an odd tile, draw and discard, claim a pung, discard and declare 报听, and win on the
opponent's discard.  The opponent's moves are scripted.  Every state comes from the real
engine (:class:`~erren.engine.State`): :func:`tutorial_json` replays the script and returns,
for each step, seat 0's observation before the move (exactly what a table sends that seat:
the opponent's tiles stay hidden), the one move the step allows and its prompt in both
languages; then the final observation with the scored result.  ``GET /tutorial`` serves it;
the client lets the player make only the taught move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from erren.engine import Action, State, find_family
from erren.engine.actions import CHANCE
from erren.notation import parse_tiles
from erren.server.protocol import observation_json

__all__ = ["PLAYER", "RULESET", "SCRIPT", "STEPS", "Step", "tutorial_json", "wall"]

RULESET = "guobiao-2p"
"""The family the guided hand is dealt in (its wall, its 报听, its fan table ``2p``)."""
PLAYER = 0
"""The learner's seat (the dealer)."""

_DEALER_HAND = "123456m8899m77z1z2z"
"""The dealer's 14: two chows, two pairs of the suit, a pair of 中 and two odd winds."""
_OTHER_HAND = "3z7z9m1m4m7m2m5m8m4z4z6z1z"
"""The opponent's 13: one 西, one 中, one 9m to give away, nothing to claim with."""
_DRAWS = ("3m", "6z", "6m", "2m")
"""W[27..30]: the opponent's first draw, the learner's draw (a 发, discarded), then the
opponent's two draws."""


@dataclass(frozen=True, slots=True)
class Step:
    """One taught step: its id, the learner's move, the prompt in both languages."""

    id: str
    move: str
    zh: str
    en: str


STEPS: tuple[Step, ...] = (
    Step(
        "discard",
        "0:discard:1z",
        "你是庄家，手里 14 张，先打一张。东风和别的牌连不起来：点它打出。",
        "You are the dealer with 14 tiles, so you discard first. The East wind fits with "
        "nothing: click it to discard it.",
    ),
    Step(
        "draw",
        "0:discard:6z",
        "对手打出西风。轮到你：系统已为你从牌墙摸了一张（发，放在最右边）。它没用，点它打出。",
        "The opponent discarded West. Your turn: you drew a tile from the wall (the Green "
        "dragon, at the right end). It does not help: click it to discard it.",
    ),
    Step(
        "claim",
        "0:peng",
        "对手打出红中，你手里有一对中：可以碰！点「碰」把它拿过来组成一副刻子。",
        "The opponent discarded the Red dragon and you hold a pair of it: claim it! Click "
        "Pung to take it and lay out a pung.",
    ),
    Step(
        "ready",
        "0:ting:2z",
        "碰后要打一张。打出南风后，你等 8 万或 9 万就能和：点「听」打出南风并报听。",
        "After a pung you discard. Without the South wind you wait on the 8 or the 9 of "
        "Characters: click Ready to discard South and declare ready.",
    ),
    Step(
        "win",
        "0:hu",
        "对手打出 9 万，正是你等的牌！点「和」和牌。",
        "The opponent discarded the 9 of Characters, the tile you wait for! Click Win.",
    ),
)
"""The learner's moves, in order."""

SCRIPT: tuple[str, ...] = ("1:discard:3z", "1:discard:7z", "1:discard:9m")
"""The opponent's moves, in order (he passes any claim window)."""


def wall() -> str:
    """The arranged 64-tile wall: the two hands dealt as §1.5 deals, the draws, then the rest
    in a fixed shuffled order."""
    dealer = parse_tiles(_DEALER_HAND)
    other = parse_tiles(_OTHER_HAND)
    draws = [t for d in _DRAWS for t in parse_tiles(d)]
    rest = list(parse_tiles("123456789m" * 4 + "1234567z" * 4))
    for tile in [*dealer, *other, *draws]:
        rest.remove(tile)
    random.Random(14).shuffle(rest)
    order: list[tuple[str, int]] = []
    for size in (4, 4, 4):
        order += [("d", size), ("o", size)]
    order += [("d", 1), ("o", 1), ("d", 1)]
    dealt: list[Any] = []
    di = oi = 0
    for who, size in order:
        if who == "d":
            dealt += dealer[di : di + size]
            di += size
        else:
            dealt += other[oi : oi + size]
            oi += size
    w = [*dealt, *draws, *rest]
    return "".join(str(t) for t in w)  # in wall order (format_tiles would sort)


_OPTIONS: dict[str, Any] = {"fan_table": "2p", "suit": "m", "ting_auto_hu": False}


def _state() -> State:
    state = State(find_family(RULESET, **_OPTIONS), dealer=PLAYER)
    state.apply(Action.parse(f"c:shuffle:{wall()}"))
    while state.actor == CHANCE:
        state.apply(state.sample_chance(random.Random(14)))
    return state


@cache
def tutorial_json() -> dict[str, Any]:
    """The steps and the end of the guided hand (see the module)."""
    state = _state()
    script = list(SCRIPT)
    steps = []
    for step in STEPS:
        while state.actor != PLAYER or not any(str(a) == step.move for a in state.legal_actions()):
            mine = state.actor == PLAYER
            legal = [str(a) for a in state.legal_actions()]
            if mine:
                raise RuntimeError(f"tutorial: {step.move} is not legal ({legal})")
            move = script.pop(0) if script and script[0] in legal else f"{state.actor}:pass"
            state.apply(Action.parse(move))
        obs = observation_json(state.observe(PLAYER))
        steps.append(
            {
                "id": step.id,
                "move": step.move.split(":", 1)[1],
                "zh": step.zh,
                "en": step.en,
                "obs": obs,
            }
        )
        state.apply(Action.parse(step.move))
    if not state.is_terminal:
        raise RuntimeError("tutorial: the hand did not end with the win")
    return {
        "ruleset": RULESET,
        "options": _OPTIONS,
        "steps": steps,
        "end": observation_json(state.observe(PLAYER)),
    }
