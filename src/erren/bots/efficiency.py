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

With golds (a :class:`~erren.engine.XiamenView` with a gold) it counts golds as wild and
Whites as the gold kind, declares 三金倒/抢金胡 whenever offered, goes for 游金 — with a
complete hand it discards into 游金-ready instead of winning 自摸 while the wall is long
enough, and in the 游 chain discards a drawn gold to climb to 双游/三游 —, never throws a
gold while a natural tile serves as well, and only ever picks among the legal discards, so
it never breaks 跟打.

With 财神 wilds (an :class:`~erren.engine.ArcadeView`) it plays as
:mod:`erren.families.arcade.bot.efficiency`
says: wilds kept, 报听 when ready, the opening exchange, pick-any and the pung offer answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from erren.analysis.golds import you_ready
from erren.analysis.shapes import GUOBIAO_2P, XIAMEN, ShapeSet
from erren.analysis.waits import discard_table
from erren.bots.base import Bot, register_bot
from erren.bots.common import (
    best_claim,
    by_tile,
    choose_discard,
    kong_keeping_shanten,
    passing,
    visible_counts,
)
from erren.engine import Action, ActionKind, ArcadeView, Observation, XiamenView
from erren.families.arcade.bot.efficiency import arcade_choice
from erren.tiles import Tile

__all__ = ["EfficiencyBot", "seen_counts"]

AK = ActionKind
_WIN = (AK.HU, AK.ZIMO)


def seen_counts(observation: Observation) -> tuple[list[int], list[int]]:
    """``(hand, visible)``: the player's concealed counts, and the copies of each kind he can
    see (his hand, every exposed meld, his own concealed kongs, unclaimed discards, a tile being
    added to a kong)."""
    hand, visible = visible_counts(observation)
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
        match observation.view:
            case ArcadeView(wild=Tile() as wild) as view:
                return arcade_choice(
                    observation,
                    view,
                    int(wild),
                    legal_actions,
                    ting_min_waits=self.ting_min_waits,
                    ting_late_wall=self.ting_late_wall,
                )
            case XiamenView(gold=Tile() as gold) as view:
                return self._golds(observation, view, int(gold), legal_actions)
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

    # ------------------------------------------------------------------ golds (xiamen)
    you_min_wall: ClassVar[int] = 8
    """Wall tiles needed to prefer 游金 (or a higher 游) to an immediate win."""

    def _golds(
        self, obs: Observation, view: XiamenView, gold: int, legal: Sequence[Action]
    ) -> Action:
        kinds = {a.kind for a in legal}
        if len(legal) == 1:
            return legal[0]
        if obs.phase == "opening":  # 三金倒 / 抢金胡: a sure ×4 now
            return next((a for a in legal if a.kind is not AK.PASS), legal[0])
        if obs.phase == "you_choice":
            level = view.you_level[obs.player]
            climb = level >= 2 or obs.wall_count >= self.you_min_wall
            want = AK.DISCARD_GOLD if climb else AK.WIN
            return next(a for a in legal if a.kind is want)
        if obs.phase == "last_draw" or AK.HU in kinds:
            return next(a for a in legal if a.kind in (AK.ZIMO, AK.HU))
        if obs.phase == "turn":
            return self._gold_turn(obs, gold, legal)
        return self._gold_claim(obs, gold, legal)

    def _gold_turn(self, obs: Observation, gold: int, legal: Sequence[Action]) -> Action:
        c, k, visible = gold_counts(obs, gold)
        discards = by_tile(legal, AK.DISCARD)
        zimo = next((a for a in legal if a.kind is AK.ZIMO), None)
        if zimo is not None:
            if obs.wall_count >= self.you_min_wall:
                for tile, action in discards.items():
                    if _you_ready_after(c, k, gold, tile):
                        return action
            return zimo
        rows = discard_table(c, wilds=k, shapes=XIAMEN, visible=visible)
        legal_rows, chosen = choose_discard(rows, discards, gold, lambda t: _physical(t, gold))
        if chosen is None:
            return next(iter(discards.values()), legal[0])
        best, tile = legal_rows[0][0], chosen
        if best.shanten == 0:  # prefer a discard that enters 游金 at once
            for row, t in legal_rows:
                if row.shanten == 0 and _you_ready_after(c, k, gold, t):
                    tile = t
                    break
        kong = kong_keeping_shanten(
            legal,
            c,
            wilds=k,
            shapes=XIAMEN,
            target=best.shanten,
            functional=lambda t: _functional(t, gold),
        )
        if kong is not None:
            return kong
        return discards[tile]

    def _gold_claim(self, obs: Observation, gold: int, legal: Sequence[Action]) -> Action:
        x = obs.pending
        if x is None or obs.phase != "claim":
            return passing(legal)
        c, k, visible = gold_counts(obs, gold)
        fx = _functional(int(x), gold)
        return best_claim(legal, fx, c, visible, wilds=k, shapes=XIAMEN)


_WHITE = 31


def _functional(tile: int, gold: int) -> int:
    return gold if tile == _WHITE and gold != _WHITE else tile


def _physical(kind: int, gold: int) -> int:
    return _WHITE if kind == gold and gold != _WHITE else kind


def gold_counts(observation: Observation, gold: int) -> tuple[list[int], int, list[int]]:
    """``(counts, golds, visible)`` with golds (xiamen, ``gold`` the gold kind): the concealed
    natural tiles by functional kind (a White counts as the gold kind), the golds held, and the
    functional copies the player can see (golds and the indicator are no kind's copies)."""
    hand, visible = seen_counts(observation)
    k = hand[gold]
    c = list(hand)
    seen = list(visible)
    for counts in (c, seen):
        counts[gold] = 0
        if gold != _WHITE:
            counts[gold] = counts[_WHITE]
            counts[_WHITE] = 0
    return c, k, seen


def _you_ready_after(c: list[int], k: int, gold: int, tile: int) -> bool:
    """Whether discarding ``tile`` leaves a 游金-ready hand (xiamen R-3.5)."""
    if tile == gold:
        return you_ready(c, k - 1)
    f = _functional(tile, gold)
    c[f] -= 1
    ok = you_ready(c, k)
    c[f] += 1
    return ok


register_bot("efficiency", EfficiencyBot)
