"""``efficiency``: plays for the fastest ready hand, from the observation alone.

The bot knows its own concealed tiles and every tile lying face-up (both discard pools, both
players' exposed melds, its own concealed kongs); the *unseen* copies of a kind are four minus
those.  With the analysis kernel (:mod:`erren.analysis.waits`) it:

* wins whenever a win is legal (自摸, 点和, 抢杠和);
* discards the tile that leaves the lowest shanten, then the most unseen effective tiles
  (the first row of :func:`~erren.analysis.waits.discard_table`);
* declares 报听 with that discard when it leaves the hand ready and at least
  ``ting_min_waits`` unseen winning tiles (any wait at all once the wall is nearly empty);
* claims a discard (chi, peng, 明杠) when the hand after the claim is closer to ready, or as
  close with more effective tiles; takes a concealed or added kong when it costs no shanten.

A family that plays otherwise (wilds, its own phases) says how in its strategy
(:meth:`erren.bots.strategy.Strategy.efficiency`, found by :func:`~erren.bots.strategy.
strategy_of`): xiamen's golds and 游 chain, arcade's 财神 and events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from erren.analysis.shapes import GUOBIAO_2P, ShapeSet
from erren.analysis.waits import discard_table
from erren.bots.base import Bot, register_bot
from erren.bots.common import best_claim, kong_keeping_shanten, passing, visible_counts
from erren.bots.strategy import strategy_of
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase

__all__ = ["EfficiencyBot", "seen_counts"]

AK = ActionKind
_WIN = (AK.HU, AK.ZIMO)


def seen_counts(observation: Observation) -> tuple[list[int], list[int]]:
    """``(hand, visible)``: the player's concealed counts, and the copies of each kind he can
    see (his hand, every exposed meld, his own concealed kongs, unclaimed discards, a tile being
    added to a kong)."""
    hand, visible = visible_counts(observation)
    if observation.phase is Phase.ROB and observation.pending is not None:
        visible[observation.pending] += 1
    return hand, visible


class EfficiencyBot(Bot):
    """Tile efficiency.  ``shapes``: the winning shapes of the family (default guobiao-2p)."""

    name: ClassVar[str] = "efficiency"

    def __init__(
        self,
        *,
        seed: int | None = None,
        shapes: ShapeSet = GUOBIAO_2P,
        ting_min_waits: int = 3,
        ting_late_wall: int = 8,
    ) -> None:
        self.seed = seed  # deterministic: kept for the interface only
        self.shapes = shapes
        self.ting_min_waits = ting_min_waits
        self.ting_late_wall = ting_late_wall

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        own = strategy_of(observation).efficiency(self, observation, legal_actions)
        if own is not None:
            return own
        for action in legal_actions:
            if action.kind in _WIN:
                return action
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.phase is Phase.TURN:
            return self._turn(observation, legal_actions)
        return self._claim(observation, legal_actions)

    # ------------------------------------------------------------------ own turn
    def _turn(self, observation: Observation, legal: Sequence[Action]) -> Action:
        discards: dict[int, Action] = {}
        tings: dict[int, Action] = {}
        kongs: list[Action] = []
        for action in legal:
            kind = action.kind
            tile = -1 if action.tile is None else int(action.tile)
            if kind is AK.DISCARD:
                discards[tile] = action
            elif kind is AK.TING:
                tings[tile] = action
            elif kind is AK.AN_GANG or kind is AK.JIA_GANG:
                kongs.append(action)
        hand, visible = seen_counts(observation)
        rows = discard_table(hand, shapes=self.shapes, visible=visible)
        best = next((r for r in rows if r.discard in discards), None)
        if best is None:  # every discard filtered out: should not happen, stay legal
            return next(iter(discards.values()), legal[0])
        kong = kong_keeping_shanten(kongs, hand, wilds=0, shapes=self.shapes, target=best.shanten)
        if kong is not None:
            return kong
        if tings and best.shanten == 0:
            need = self.ting_min_waits if observation.wall_count > self.ting_late_wall else 1
            for row in rows:
                if row.shanten != 0:
                    break
                if row.discard in tings and row.remaining >= need:
                    return tings[row.discard]
        return discards[best.discard]  # type: ignore[index]

    # ------------------------------------------------------------------ claims
    def _claim(self, observation: Observation, legal: Sequence[Action]) -> Action:
        x = observation.pending
        if x is None:
            return passing(legal)
        hand, visible = seen_counts(observation)
        return best_claim(legal, int(x), hand, visible, wilds=0, shapes=self.shapes)


register_bot("efficiency", EfficiencyBot)
