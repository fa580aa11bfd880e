"""Arcade's computer play (:class:`ArcadeStrategy`, returned by
:meth:`erren.families.arcade.game.ArcadeFamily.strategy`): the efficiency bot's 财神 and events
(:mod:`.efficiency`), the expert's valued play (:mod:`.expert`), and the hints' count of a hand
with wilds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from erren.analysis.shapes import ARCADE
from erren.bots.common import visible_counts
from erren.bots.hints import HandView
from erren.bots.strategy import Strategy
from erren.engine import Action, Observation
from erren.families.arcade.bot.efficiency import arcade_choice, wild_counts
from erren.families.arcade.bot.expert import arcade_expert_choice
from erren.families.arcade.bot.stage import stage_move
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb

if TYPE_CHECKING:
    from erren.bots.efficiency import EfficiencyBot
    from erren.bots.expert import ExpertBot
    from erren.bots.novice import NoviceBot

__all__ = ["STRATEGY", "ArcadeStrategy"]

_WILDS_IN_PLAY = 3
"""The wilds in play: the fourth tile of the wild kind is the face-up indicator."""


class ArcadeStrategy(Strategy):
    """财神 wilds, 报听, the opening exchange, pick-any and the pung offer; in stage mode the
    computer's seat plays for the stage's objective at its level
    (:mod:`~erren.families.arcade.bot.stage`)."""

    shapes = ARCADE

    def efficiency(
        self, bot: EfficiencyBot, observation: Observation, legal: Sequence[Action]
    ) -> Action | None:
        staged = stage_move(bot, observation, legal)
        if staged is not None:
            return staged
        view = observation.view
        if not isinstance(view, ArcadeView) or view.wild is None:
            return None
        return arcade_choice(
            observation,
            view,
            int(view.wild),
            legal,
            ting_min_waits=bot.ting_min_waits,
            ting_late_wall=bot.ting_late_wall,
        )

    def novice(
        self, bot: NoviceBot, observation: Observation, legal: Sequence[Action]
    ) -> Action | None:
        """The opening exchange keeps every tile; pick-any names a kind at random (or
        passes)."""
        staged = stage_move(bot, observation, legal)
        if staged is not None:
            return staged
        kinds = {a.kind for a in legal}
        if ArcadeVerb.EXCHANGE in kinds:
            return next(a for a in legal if a.kind is ArcadeVerb.EXCHANGE)
        if ArcadeVerb.PICK in kinds:
            return bot.rng.choice(list(legal))
        return None

    def expert(
        self,
        bot: ExpertBot,
        observation: Observation,
        legal: Sequence[Action],
        *,
        work: int | None,
    ) -> Action | None:
        staged = stage_move(bot, observation, legal)
        if staged is not None:
            return staged
        return arcade_expert_choice(bot, observation, legal)

    def hand_view(
        self, observation: Observation, counts: list[int], held: list[int]
    ) -> HandView | None:
        view = observation.view
        if not isinstance(view, ArcadeView) or view.wild is None:
            return None
        w = int(view.wild)
        k, counts[w] = counts[w], 0

        def seen() -> tuple[list[int], int]:
            visible = wild_counts(observation, view, w)[2]
            _, raw = visible_counts(observation, flowers=True)
            return visible, max(0, _WILDS_IN_PLAY - raw[w])

        return HandView(counts, k, held, ARCADE, w, seen=seen)


STRATEGY = ArcadeStrategy()
