"""Shared by the tests of :mod:`erren.rl`: the families (with options) every test runs on, and
random hands played through the engine."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from erren.engine import State, find_family

FAMILIES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("guobiao-2p", {}),
    ("guobiao-2p", {"fan_table": "gb", "flowers": True, "min_fan": 0}),
    ("xiamen", {}),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}),
)
"""Every registered family, guobiao-2p also with the GB table and flowers (no minimum 番);
arcade with its in-play events made frequent so that ``give`` and ``pick`` occur."""

FAMILY_IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in FAMILIES]


def random_hands(rules: str, options: dict[str, Any], hands: int) -> Iterator[State]:
    """States of ``hands`` random hands (seeds 0, 1, ...), one per decision, before the move;
    the generator applies a random legal move after each yield."""
    ruleset = find_family(rules, options)
    for seed in range(hands):
        rng = random.Random(seed)
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            yield state
            state.apply(rng.choice(state.legal_actions()))
