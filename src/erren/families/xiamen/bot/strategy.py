"""Xiamen's computer play (:class:`XiamenStrategy`, returned by
:meth:`erren.families.xiamen.game.XiamenFamily.strategy`): the efficiency bot's golds and 游
chain (:mod:`.efficiency`), the expert's race and opening (:mod:`.expert`), and the hints'
count of a hand with golds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from erren.analysis.shapes import XIAMEN
from erren.bots.efficiency import seen_counts
from erren.bots.hints import HandView
from erren.bots.strategy import Strategy
from erren.engine import Action, Observation
from erren.families.xiamen.bot.efficiency import gold_counts, golds_choice
from erren.families.xiamen.bot.expert import xiamen_expert_choice
from erren.families.xiamen.game.view import XiamenView

if TYPE_CHECKING:
    from erren.bots.efficiency import EfficiencyBot
    from erren.bots.expert import ExpertBot

__all__ = ["STRATEGY", "XiamenStrategy"]

_WHITE = 31
_WILDS_IN_PLAY = 3
"""The golds in play: the fourth tile of the gold kind is the face-up indicator."""


class XiamenStrategy(Strategy):
    """Golds as wilds, the White as the gold kind, the 游 chain."""

    shapes = XIAMEN

    def efficiency(
        self, bot: EfficiencyBot, observation: Observation, legal: Sequence[Action]
    ) -> Action | None:
        view = observation.view
        if not isinstance(view, XiamenView) or view.gold is None:
            return None
        return golds_choice(observation, view, int(view.gold), legal)

    def expert(
        self,
        bot: ExpertBot,
        observation: Observation,
        legal: Sequence[Action],
        *,
        work: int | None,
    ) -> Action | None:
        return xiamen_expert_choice(bot, observation, legal)

    def hand_view(
        self, observation: Observation, counts: list[int], held: list[int]
    ) -> HandView | None:
        gold = observation.view.wild
        if gold is None:
            return None
        g = int(gold)
        k, counts[g] = counts[g], 0
        fheld = list(held)
        fheld[g] = 0
        if g != _WHITE:
            counts[g], counts[_WHITE] = counts[_WHITE], 0
            fheld[g], fheld[_WHITE] = held[_WHITE], 0

        def seen() -> tuple[list[int], int]:
            visible = gold_counts(observation, g)[2]
            _, raw = seen_counts(observation)
            return visible, max(0, _WILDS_IN_PLAY - raw[g])

        return HandView(
            counts,
            k,
            fheld,
            XIAMEN,
            g,
            physical=lambda t: _WHITE if t == g and g != _WHITE else t,
            functional=lambda t: g if t == _WHITE and g != _WHITE else t,
            seen=seen,
        )


STRATEGY = XiamenStrategy()
