"""A family's own computer play, found through its :class:`~erren.engine.Family`.

The shared bots (``efficiency``, ``expert``, the hints) play what every family has in common;
where a family plays otherwise (xiamen's golds and 游 chain, arcade's 财神 and events,
guobiao-2p's valued ready hands and search) its ``bot`` package holds a :class:`Strategy` and
its family returns it from :meth:`~erren.engine.Family.strategy`.  A bot asks
:func:`strategy_of` with the observation it is given: the view names its family
(``view.family``, its id), and the strategy found is kept by the view's
type, so a decision pays one dictionary look-up.

Each hook returns the move (or the count of the hand) or ``None`` to let the shared play
decide; the defaults do nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from erren.analysis.shapes import GUOBIAO_2P, ShapeSet
from erren.engine import Action, Family, Observation, find_family

if TYPE_CHECKING:
    from erren.bots.efficiency import EfficiencyBot
    from erren.bots.expert import ExpertBot
    from erren.bots.hints import HandView
    from erren.bots.novice import NoviceBot

__all__ = ["Strategy", "family_ruleset", "strategy_of"]


class Strategy:
    """The shared play alone: a family's strategy subclasses it and overrides what it plays
    otherwise."""

    shapes: ShapeSet = GUOBIAO_2P
    """The family's winning shapes, for a hand counted without wilds (before the indicator
    is turned, or in a family without any)."""

    def efficiency(
        self, bot: EfficiencyBot, observation: Observation, legal: Sequence[Action]
    ) -> Action | None:
        """The ``efficiency`` bot's move, or ``None`` for the shared tile efficiency."""
        return None

    def novice(
        self, bot: NoviceBot, observation: Observation, legal: Sequence[Action]
    ) -> Action | None:
        """The ``novice`` bot's move in the family's own choices (after its wins), or ``None``
        for its shared sane random play; a random choice draws from ``bot.rng``."""
        return None

    def expert(
        self,
        bot: ExpertBot,
        observation: Observation,
        legal: Sequence[Action],
        *,
        work: int | None,
    ) -> Action | None:
        """The expert's fast choice (no search), or ``None`` for the efficiency bot's; ``work``
        bounds a look-ahead in evaluations (:data:`erren.bots.expert.EVALUATIONS_PER_MS`)."""
        return None

    def searched(
        self,
        bot: ExpertBot,
        observation: Observation,
        legal: Sequence[Action],
        fast: Action,
        *,
        deadline: float,
    ) -> Action:
        """The expert's move after its search within ``bot.budget_ms`` (until ``deadline`` on
        ``bot.clock``), given the ``fast`` choice: ``fast`` where the family does not search."""
        return fast

    def hand_view(
        self, observation: Observation, counts: list[int], held: list[int]
    ) -> HandView | None:
        """The hints' count of the hand (:func:`erren.bots.hints.hand_view`) with the family's
        wilds, given its concealed ``counts`` and the ``held`` tiles of its melds by physical
        kind; ``None`` for the plain count in :attr:`shapes` (no wild yet, or none at all)."""
        return None


_SHARED = Strategy()
_BY_VIEW: dict[type, Strategy] = {}


def strategy_of(observation: Observation) -> Strategy:
    """The strategy of the family whose view ``observation`` carries (the shared play when
    the family has none)."""
    kind = type(observation.view)
    found = _BY_VIEW.get(kind)
    if found is None:
        own = find_family(observation.view.family).strategy()
        found = _BY_VIEW[kind] = own if own is not None else _SHARED
    return found


def family_ruleset(observation: Observation, ruleset: Family | None) -> Family:
    """The bound ``ruleset``, else the default ruleset of the family the view names."""
    if ruleset is not None:
        return ruleset
    return find_family(observation.view.family)
