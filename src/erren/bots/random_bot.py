"""``random``: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from erren.bots.base import Bot, register_bot
from erren.engine import Action, Observation

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Uniform over the legal actions; the same seed gives the same choices."""

    name: ClassVar[str] = "random"
    blind: ClassVar[bool] = True

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return self.pick(legal_actions)

    def pick(self, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]


register_bot("random", RandomBot)
