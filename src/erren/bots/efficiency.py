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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from erren.analysis.shanten import shanten
from erren.analysis.shapes import GUOBIAO_2P, ShapeSet
from erren.analysis.waits import discard_table, improving
from erren.bots.base import Bot, register_bot
from erren.engine import Action, ActionKind, Observation
from erren.tiles import NUM_KINDS

__all__ = ["EfficiencyBot", "seen_counts"]

AK = ActionKind
_WIN = (AK.HU, AK.ZIMO)


def seen_counts(observation: Observation) -> tuple[list[int], list[int]]:
    """``(hand, visible)``: the player's concealed counts, and the copies of each kind he can
    see (his hand, every exposed meld, his own concealed kongs, unclaimed discards, a tile being
    added to a kong)."""
    hand = [0] * NUM_KINDS
    for t in observation.hand:
        hand[t] += 1
    visible = list(hand)
    for seat in (0, 1):
        claimed = observation.claimed[seat]
        for i, t in enumerate(observation.discards[seat]):
            if i not in claimed:
                visible[t] += 1
        for meld in observation.melds[seat]:
            for t in meld.tiles:
                visible[t] += 1
    if observation.phase == "rob" and observation.pending is not None:
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
        for action in legal_actions:
            if action.kind in _WIN:
                return action
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.phase == "turn":
            return self._turn(observation, legal_actions)
        return self._claim(observation, legal_actions)

    # ------------------------------------------------------------------ own turn
    def _turn(self, observation: Observation, legal: Sequence[Action]) -> Action:
        discards: dict[int, Action] = {}
        tings: dict[int, Action] = {}
        kongs: list[tuple[Action, int]] = []
        for action in legal:
            kind = action.kind
            tile = -1 if action.tile is None else int(action.tile)
            if kind is AK.DISCARD:
                discards[tile] = action
            elif kind is AK.TING:
                tings[tile] = action
            elif kind is AK.AN_GANG:
                kongs.append((action, 4))
            elif kind is AK.JIA_GANG:
                kongs.append((action, 1))
        hand, visible = seen_counts(observation)
        rows = discard_table(hand, shapes=self.shapes, visible=visible)
        best = next((r for r in rows if r.discard in discards), None)
        if best is None:  # every discard filtered out: should not happen, stay legal
            return next(iter(discards.values()), legal[0])
        for action, used in kongs:
            k = int(action.tile)  # type: ignore[arg-type]
            hand[k] -= used
            after = shanten(hand, shapes=self.shapes)
            hand[k] += used
            if after <= best.shanten:
                return action
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
        passing = next((a for a in legal if a.kind is AK.PASS), legal[-1])
        if x is None:
            return passing
        hand, visible = seen_counts(observation)
        now, kinds = improving(hand, shapes=self.shapes)
        now_left = sum(4 - visible[k] for k in kinds)
        best: tuple[int, int, int] | None = None
        choice = passing
        for order, action in enumerate(legal):
            kind = action.kind
            if kind is AK.MING_GANG:
                hand[x] -= 3
                after, left = shanten(hand, shapes=self.shapes), now_left
                hand[x] += 3
            elif kind is AK.PENG or kind is AK.CHI:
                if kind is AK.PENG:
                    used = [int(x), int(x)]
                else:
                    start = int(action.tile)  # type: ignore[arg-type]
                    used = [t for t in (start, start + 1, start + 2) if t != x]
                for t in used:
                    hand[t] -= 1
                row = discard_table(hand, shapes=self.shapes, visible=visible)[0]
                for t in used:
                    hand[t] += 1
                after, left = row.shanten, row.remaining
            else:
                continue
            if after < now or (after == now and left > now_left):
                key = (after, -left, order)
                if best is None or key < best:
                    best, choice = key, action
        return choice


register_bot("efficiency", EfficiencyBot)
