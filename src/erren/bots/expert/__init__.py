"""``expert``: plays for value, from the observation alone.

Each family says how in its strategy (:class:`erren.bots.strategy.Strategy`: ``expert`` for the
fast choice, ``searched`` for the search within the budget; its ``bot`` package).  Guobiao-2p:
it values a ready hand by what the table would really pay for each wait (the fan calculator and
the settlement with the ruleset's minimum, cap and multipliers) times the unseen copies, and
chooses ready discards by that worth, one- and two-from-ready discards by the worth of the ready
hands the next draws lead to, and passes a claim that would leave a ready hand worth less.
Arcade: ready discards, claims, pick-any and the pung offer by the real payment (patterns,
yakuman, the 13 cap), no 报听, the opening exchange by Monte-Carlo over the reserve.  Xiamen:
the efficiency bot's play, but while the opponent is at a 游 level it wins at once and passes
chi/peng, it passes 三金倒/抢金胡 for a 游金-ready opening hand, otherwise declares the
opening win that pays most, and chooses its ready discards, 自摸 or 游金 and 游金 or 双游
by the expected 水 payment (:mod:`erren.families.xiamen.bot.value`).  Where the strategy
has nothing to say, the efficiency bot decides.

Optional in guobiao-2p, off by default because duplicate play measured no gain
(:class:`~erren.bots.expert.knobs.Knobs`): Monte-Carlo search of claims and ready discards
(:mod:`~erren.bots.expert.search`) over states resampled with
the opponent readiness model (:mod:`~erren.bots.expert.opponent`, learnt by
:mod:`~erren.bots.expert.train_opponent`), defence against a 报听 opponent
(:mod:`~erren.bots.expert.defence`), and the defence that pays (knob ``pays``,
:mod:`erren.families.guobiao.bot.defence`, the risk from :mod:`erren.bots.expert.risk`): never a
risky tile while a certainly-safe one keeps the hand as close to ready, and a fold when the risk
× a deal-in's payment outweighs what the hand is worth.  ``budget_ms`` bounds the time of the
searched part of a decision (the clock is ``self.clock``); out of time it plays its fast policy,
and ``budget_ms=0`` is the fast policy alone.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Sequence
from typing import ClassVar

from erren.bots.base import register_bot
from erren.bots.efficiency import EfficiencyBot
from erren.bots.expert.knobs import Knobs
from erren.bots.expert.risk import RiskModel
from erren.bots.expert.search import Clock, Search
from erren.bots.strategy import family_ruleset, strategy_of
from erren.engine import Action, Family, Observation

__all__ = ["DEFAULT_BUDGET_MS", "ExpertBot"]

DEFAULT_BUDGET_MS = 150.0
"""The time one decision may take, in milliseconds."""
EVALUATIONS_PER_MS = 15
"""The budget of guobiao-2p's one-from-ready shape look, in ready-hand evaluations per
millisecond of ``budget_ms``: a count, not a clock, so that play does not depend on the
machine's load (about 18 a millisecond were measured on one core of the reference machine, so
150 ms allow 2,250, about 125 ms there)."""
DEFAULT_SEED = 20261202
"""The seed of a bot built without one."""


class ExpertBot(EfficiencyBot):
    """Value-aware play within ``budget_ms`` per decision."""

    name: ClassVar[str] = "expert"
    deliberate: ClassVar[bool] = True

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget_ms: float = DEFAULT_BUDGET_MS,
        knobs: Knobs | None = None,
        strong: bool = False,
    ) -> None:
        super().__init__(seed=seed)
        if budget_ms < 0:
            raise ValueError("the time budget is ≥ 0 ms")
        self.budget_ms = budget_ms
        self.knobs = knobs if knobs is not None else Knobs()
        self.strong = strong
        """高手: each family's strategy plays its ``STRONG`` knobs unless configured."""
        self.ruleset: Family | None = None
        self._search: Search | None = None
        self.base_seed = DEFAULT_SEED if seed is None else seed
        self.clock: Clock = time.perf_counter
        """Where the search reads the time (a test injects a fake)."""
        self.samples = 24
        """Samples per searched decision when time allows."""
        self.risk: RiskModel | None = None
        """The opponent's winning chances the defence that pays reads (``None``: the family's
        own, the wait reader; a benchmark injects an oracle told his real winning tiles)."""

    def bind(self, ruleset: Family) -> None:
        self.ruleset = ruleset
        self._search = None

    def searcher(self, observation: Observation) -> Search:
        """The Monte-Carlo search of this table (rollouts by two ``efficiency`` bots)."""
        if self._search is None:
            ruleset = family_ruleset(observation, self.ruleset)
            self.ruleset = ruleset
            rollout = [EfficiencyBot(), EfficiencyBot()]
            for bot in rollout:
                bot.bind(ruleset)
            self._search = Search(ruleset, rollout, self.clock)
        self._search.clock = self.clock
        self._search.samples = self.samples
        return self._search

    def decision_rng(self, observation: Observation) -> random.Random:
        """A generator that depends on the seed and on the observation only."""
        o = observation
        key = (o.player, o.phase, o.wall_count, o.hand, o.discards, o.melds, o.pending, o.ting)
        return random.Random(self.base_seed * 1_000_003 + zlib.crc32(repr(key).encode()))

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        start = self.clock()
        work = round(self.budget_ms * EVALUATIONS_PER_MS) if self.budget_ms > 0 else None
        fast = self.fast_choice(observation, legal_actions, work=work)
        if self.budget_ms <= 0:
            return fast
        deadline = start + self.budget_ms / 1000.0
        strategy = strategy_of(observation)
        return strategy.searched(self, observation, legal_actions, fast, deadline=deadline)

    def fast_choice(
        self,
        observation: Observation,
        legal_actions: Sequence[Action],
        *,
        work: int | None = None,
    ) -> Action:
        """The choice without search (``budget_ms=0``): the family's strategy's, else the
        efficiency bot's; with ``work``, guobiao-2p's one-from-ready shape look is dropped when
        it would take the decision past that many ready-hand evaluations
        (:data:`EVALUATIONS_PER_MS`)."""
        own = strategy_of(observation).expert(self, observation, legal_actions, work=work)
        if own is not None:
            return own
        return super().choose(observation, legal_actions)


register_bot("expert", ExpertBot)
