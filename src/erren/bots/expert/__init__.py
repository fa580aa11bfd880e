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
from erren.bots.expert.arcade import arcade_expert_choice
from erren.bots.expert.guobiao import Knobs, claim_choice, turn_choice
from erren.bots.expert.values import Valuer, family_ruleset
from erren.engine import Action, ArcadeView, GuobiaoView, Observation, Ruleset

__all__ = ["DEFAULT_BUDGET_MS", "ExpertBot"]

DEFAULT_BUDGET_MS = 150.0
"""The time one decision may take, in milliseconds."""


class ExpertBot(EfficiencyBot):
    """Value-aware play within ``budget_ms`` per decision."""

    name: ClassVar[str] = "expert"

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget_ms: float = DEFAULT_BUDGET_MS,
        knobs: Knobs | None = None,
    ) -> None:
        super().__init__(seed=seed)
        if budget_ms < 0:
            raise ValueError("the time budget is ≥ 0 ms")
        self.budget_ms = budget_ms
        self.knobs = knobs if knobs is not None else Knobs()
        self.ruleset: Ruleset | None = None
        self._valuer: Valuer | None = None

    def bind(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._valuer = None

    def _guobiao_valuer(self, observation: Observation) -> Valuer:
        if self._valuer is None:
            self.ruleset = family_ruleset(observation, self.ruleset)
            self._valuer = Valuer(self.ruleset)
        return self._valuer

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if isinstance(observation.view, GuobiaoView) and len(legal_actions) > 1:
            valuer = self._guobiao_valuer(observation)
            if observation.phase == "turn" and self.knobs.value_turn:
                chosen = turn_choice(observation, legal_actions, valuer, self.knobs)
                if chosen is not None:
                    return chosen
            elif observation.phase != "turn" and self.knobs.value_claims:
                return claim_choice(observation, legal_actions, valuer, self.knobs)
        if isinstance(observation.view, ArcadeView):  # arcade: expert/arcade.py
            chosen = arcade_expert_choice(self, observation, legal_actions)
            if chosen is not None:
                return chosen
        return super().choose(observation, legal_actions)


register_bot("expert", ExpertBot)
