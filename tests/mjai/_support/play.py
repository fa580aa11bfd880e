"""Random hands of every family for the mjai tests, checked at every decision."""

from __future__ import annotations

import json
import random

from erren.engine import Action, State, find_family
from erren.engine.family import Family
from erren.mjai.stream import action_to_mjai, mjai_to_action

FAMILIES: dict[str, dict[str, object]] = {
    "guobiao-2p": {"claim_privacy": True},
    "xiamen": {},
    "arcade": {"pung_offer_prob": 0.3, "pick_any_prob": 0.3},
}


def ruleset_of(name: str, *, privacy: bool = False) -> Family:
    options = dict(FAMILIES[name])
    options["claim_privacy"] = privacy
    return find_family(name, options)


def play(ruleset: Family, seed: int, *, system: bool = True) -> State:
    """A hand between two random players; with ``system``, now and then a 托管 switch, a
    timeout or an escape as a server would apply.  At every decision, every legal action goes
    to mjai and back to itself."""
    rng = random.Random(seed)
    state = State.new(ruleset, seed=seed, dealer=seed % 2, streak=seed % 3)
    while not state.is_terminal:
        seat = state.actor
        legal = state.legal_actions()
        obs = state.observe(seat)
        for action in legal:
            message = action_to_mjai(action, obs)
            json.dumps(message)
            assert mjai_to_action(message, legal, obs) == action, (action, message)
        roll = rng.random()
        if system and roll < 0.01:
            state.apply_system(Action.trustee(rng.randrange(2), rng.random() < 0.7))
        elif system and roll < 0.02:
            state.apply_system(Action.parse(f"{seat}:timeout"))
        elif system and roll < 0.022:
            state.apply_system(Action.parse(f"{rng.randrange(2)}:escape"))
        else:
            state.apply(rng.choice(legal))
    return state
