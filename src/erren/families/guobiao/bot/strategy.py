"""Guobiao-2p's computer play (:class:`GuobiaoStrategy`, returned by
:meth:`erren.families.guobiao.game.GuobiaoFamily.strategy`).

The efficiency bot and the hints play guobiao-2p as the shared play does; the expert values its
ready hands by the table's own payment (:mod:`.expert`, :mod:`.values`) and, with a time
budget, defends against a 报听 opponent (:mod:`erren.bots.expert.defence`, off by default;
the defence that pays, :mod:`.defence`, knob ``pays``, off by default too) and searches its
claims and ready discards (:mod:`.policy`, :mod:`erren.bots.expert.search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from erren.bots.efficiency import EfficiencyBot
from erren.bots.expert.defence import danger, safer_discard
from erren.bots.expert.risk import risk_model
from erren.bots.strategy import Strategy, family_ruleset
from erren.engine import Action, ActionKind, Family, Observation
from erren.engine.phases import Phase
from erren.families.guobiao.bot.defence import Pays, defend
from erren.families.guobiao.bot.expert import Seen, claim_choice, discard_values, turn_choice
from erren.families.guobiao.bot.policy import search_candidates
from erren.families.guobiao.bot.values import Valuer

if TYPE_CHECKING:
    from erren.bots.expert import ExpertBot

__all__ = ["STRATEGY", "GuobiaoStrategy", "valuer_of"]

_VALUERS: WeakKeyDictionary[ExpertBot, tuple[Family, Valuer]] = WeakKeyDictionary()


def valuer_of(bot: ExpertBot, observation: Observation) -> Valuer:
    """The valuer of ``bot``'s table (built once per ruleset it is bound to)."""
    kept = _VALUERS.get(bot)
    if kept is not None and kept[0] is bot.ruleset:
        return kept[1]
    bot.ruleset = family_ruleset(observation, bot.ruleset)
    valuer = Valuer(bot.ruleset)
    _VALUERS[bot] = (bot.ruleset, valuer)
    return valuer


class GuobiaoStrategy(Strategy):
    """The expert's guobiao-2p play: valued ready hands, then defence and search."""

    def expert(
        self,
        bot: ExpertBot,
        observation: Observation,
        legal: Sequence[Action],
        *,
        work: int | None,
    ) -> Action | None:
        if len(legal) <= 1:
            return None
        valuer = valuer_of(bot, observation)
        if observation.phase is Phase.TURN:
            chosen = turn_choice(observation, legal, valuer, bot.knobs, work=work)
            knobs = bot.knobs
            if not knobs.pays or not (observation.ting[observation.opponent] or knobs.pays_before):
                return chosen
            if chosen is None:
                chosen = EfficiencyBot.choose(bot, observation, legal)
            risk = bot.risk or risk_model(valuer.options.fan_table)
            return defend(observation, legal, chosen, valuer, risk, pays=Pays.of(knobs))
        if observation.phase in (Phase.CLAIM, Phase.ROB):
            return claim_choice(observation, legal, valuer, bot.knobs)
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
        valuer = valuer_of(bot, observation)
        if observation.phase is Phase.TURN:
            fast = _defend(bot, observation, legal, fast, valuer=valuer, deadline=deadline)
        candidates = search_candidates(observation, legal, fast, valuer, bot.knobs)
        if len(candidates) < 2:
            return fast
        search = bot.searcher(observation)
        best = search.best(observation, candidates, bot.decision_rng(observation), deadline)
        return fast if best is None else best


def _defend(
    bot: ExpertBot,
    observation: Observation,
    legal: Sequence[Action],
    chosen: Action,
    *,
    valuer: Valuer,
    deadline: float,
) -> Action:
    """``chosen``, or a safer discard of the same shanten against a 报听 opponent."""
    knobs = bot.knobs
    if (
        not knobs.defence
        or not observation.ting[observation.opponent]
        or chosen.kind not in (ActionKind.DISCARD, ActionKind.TING)
        or chosen.tile is None
    ):
        return chosen
    ruleset = family_ruleset(observation, bot.ruleset)
    rng = bot.decision_rng(observation)
    risk = danger(ruleset, observation, rng, clock=bot.clock, deadline=deadline)
    tile = int(chosen.tile)
    if risk[tile] < knobs.defence_threshold:
        return chosen
    discards = {a.tile_kind(): a for a in legal if a.kind is ActionKind.DISCARD}
    values = discard_values(Seen.of(observation), valuer, discards)
    if tile not in values:
        return chosen
    safer = safer_discard(
        tile, values, risk, threshold=knobs.defence_threshold, keep=knobs.defence_keep
    )
    if safer == tile:
        return chosen
    ting = next(
        (a for a in legal if a.kind is ActionKind.TING and a.tile_kind() == safer),
        None,
    )
    return ting if chosen.kind is ActionKind.TING and ting is not None else discards[safer]


STRATEGY = GuobiaoStrategy()
