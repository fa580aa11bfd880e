"""The efficiency bot's arcade play (an :class:`~erren.engine.ArcadeView` with a wild): 财神
wilds, 报听, the events.

* wins whenever a win is offered (自摸, 点和, 抢杠和, the 报听 and 海底捞月 prompts);
* counts the wild tiles as wilds (never discards one while a natural tile serves as well) and
  plays for the lowest shanten, then the most unseen effective tiles (standard, seven pairs and
  国士无双 with wilds, :data:`~erren.analysis.shapes.ARCADE`);
* declares 报听 with that discard when the hand is ready with at least ``ting_min_waits`` unseen
  winning tiles (any once the wall is short): the frozen hand then wins automatically, earns
  门清报听/天听 and the post-draw 海底捞月 draws;
* opening exchange: gives up the isolated tiles (honors and terminals first) of a hand two or
  more tiles from ready, none otherwise, one ``give`` at a time (the plan is worked out again
  from the hand at each step: ``observation.giving`` says how far it got);
* pick-any: names the wild kind when a wild can still be drawn, else the kind that lowers the
  shanten most, else draws blind;
* pung offer: accepts when giving three non-wild tiles for the pung lowers the shanten (three
  ``give`` steps, likewise);
* claims and kongs as in guobiao, with wilds counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement

from erren.analysis.shanten import shanten
from erren.analysis.shapes import ARCADE
from erren.analysis.waits import DiscardOption, discard_table, improving
from erren.bots.common import (
    best_claim,
    by_tile,
    choose_discard,
    kong_keeping_shanten,
    passing,
    visible_counts,
)
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.tiles import NUM_KINDS

__all__ = ["arcade_choice", "next_give", "wild_counts"]

AK = ActionKind


def wild_counts(obs: Observation, view: ArcadeView, w: int) -> tuple[list[int], int, list[int]]:
    """``(counts, wilds, visible)``: the natural concealed tiles, the wilds held (``w`` is the
    wild kind), and the copies the player can see (pools, melds, flowers, the indicator; a wild
    kind counts as seen)."""
    hand, visible = visible_counts(obs, flowers=True)
    k = hand[w]
    hand[w] = 0
    visible[w] = 4
    if view.flower_kind is not None:
        visible[int(view.flower_kind)] = 4
    return hand, k, visible


def arcade_choice(
    obs: Observation,
    view: ArcadeView,
    wild: int,
    legal: Sequence[Action],
    *,
    ting_min_waits: int,
    ting_late_wall: int,
) -> Action:
    """The efficiency bot's move in an arcade hand whose wild kind is ``wild``."""
    for action in legal:
        if action.kind in (AK.HU, AK.ZIMO):
            return action
    if len(legal) == 1:
        return legal[0]
    phase = obs.phase
    if phase is ArcadePhase.EXCHANGE:
        done = Action.make(ArcadeVerb.EXCHANGE, obs.player)
        return next_give(view, _exchange(obs, view, wild), legal, done)
    if phase is Phase.TURN and view.giving:  # the answer to the pung offer is under way
        c, k, _ = wild_counts(obs, view, wild)
        offered = int(view.offer)  # type: ignore[arg-type]
        plan = _take_pung(obs, offered, c, k, _turn_shanten(obs, view, wild))
        return next_give(view, plan, legal, legal[0])
    if phase is ArcadePhase.PICK:
        return _pick(obs, view, wild, legal)
    if phase is Phase.TURN:
        return _turn(
            obs, view, wild, legal, ting_min_waits=ting_min_waits, ting_late_wall=ting_late_wall
        )
    return _claim(obs, view, wild, legal)


def next_give(
    view: ArcadeView, plan: Sequence[int] | None, legal: Sequence[Action], done: Action
) -> Action:
    """The next legal ``give`` of a tile of ``plan`` not given yet, else ``done``.  The tiles
    given so far (``view.giving``) may not be the plan's (another player — a Monte-Carlo
    rollout, 托管 — began the choice): the plan's remaining tiles that the canonical order
    still allows go first, and an answer to the pung offer that must go on takes the first
    legal give."""
    rest = list(plan or ())
    for given in view.giving:
        if int(given) in rest:
            rest.remove(int(given))
    gives = by_tile(legal, ArcadeVerb.GIVE)
    for t in rest:
        if t in gives:
            return gives[t]
    if done in legal:
        return done
    return next(iter(gives.values()), legal[0])


def _exchange(obs: Observation, view: ArcadeView, w: int) -> list[int]:
    c, k, _ = wild_counts(obs, view, w)
    give: list[int] = []
    if shanten(c, wilds=k, shapes=ARCADE) >= 2:
        for t in range(NUM_KINDS):
            if c[t] != 1:
                continue
            if t >= 27:
                give.append(t)
                continue
            r = t % 9
            near = [t + d for d in (-2, -1, 1, 2) if 0 <= r + d <= 8]
            if not any(c[n] for n in near):
                give.append(t)
    return give[:6]


def _pick(obs: Observation, view: ArcadeView, w: int, legal: Sequence[Action]) -> Action:
    picks = by_tile(legal, ArcadeVerb.PICK)
    if w in picks:
        return picks[w]
    c, k, _ = wild_counts(obs, view, w)
    _, kinds = improving(c, wilds=k, shapes=ARCADE)
    for t in kinds:
        if t in picks:
            return picks[t]
    return next(a for a in legal if a.kind is AK.PASS)


def _turn(
    obs: Observation,
    view: ArcadeView,
    w: int,
    legal: Sequence[Action],
    *,
    ting_min_waits: int,
    ting_late_wall: int,
) -> Action:
    c, k, visible = wild_counts(obs, view, w)
    discards = by_tile(legal, AK.DISCARD)
    tings = by_tile(legal, AK.TING)
    rows = discard_table(c, wilds=k, shapes=ARCADE, visible=visible)
    keyed, tile = choose_discard(rows, discards, w)
    if tile is None:
        return next(iter(discards.values()), legal[0])
    best = keyed[0][0]
    if view.offer is not None:
        take = _take_pung(obs, int(view.offer), c, k, best.shanten)
        if take is not None:
            return Action.make(ArcadeVerb.GIVE, obs.player, take[0])
    kong = kong_keeping_shanten(legal, c, wilds=k, shapes=ARCADE, target=best.shanten)
    if kong is not None:
        return kong
    if tings and best.shanten == 0:
        need = ting_min_waits if obs.wall_count > ting_late_wall else 1
        declared = ting_choice(keyed, tings, need=need, wilds=k)
        if declared is not None:
            return declared
    return discards[tile]


def ting_choice(
    keyed: Sequence[tuple[DiscardOption, int]],
    tings: Mapping[int, Action],
    *,
    need: int,
    wilds: int,
) -> Action | None:
    """The 报听 discard among the ready ones (``keyed``: best first): the first whose waits
    leave at least ``need`` tiles unseen, any ready one when wilds are held; ``None`` if
    none."""
    for row, t in keyed:
        if row.shanten != 0:
            break
        if t in tings and (row.remaining >= need or wilds > 0):
            return tings[t]
    return None


def _turn_shanten(obs: Observation, view: ArcadeView, w: int) -> int:
    """The shanten after the best discard of the hand (what ``_turn`` weighs the pung offer
    against: every held tile is a legal discard there)."""
    c, k, visible = wild_counts(obs, view, w)
    discards = {int(t): Action.make(AK.DISCARD, obs.player, int(t)) for t in obs.hand}
    rows = discard_table(c, wilds=k, shapes=ARCADE, visible=visible)
    keyed, _ = choose_discard(rows, discards, w)
    return keyed[0][0].shanten


def _take_pung(obs: Observation, x: int, c: list[int], k: int, now: int) -> tuple[int, ...] | None:
    """The three tiles (sorted) to give for the offer of a pung of ``x`` if some three natural
    tiles given for it lower the shanten ``now``, else ``None`` (decline)."""
    held = [t for t in range(NUM_KINDS) if c[t]]
    best: tuple[int, tuple[int, ...]] | None = None
    for give in combinations_with_replacement(held, 3):
        if any(give.count(t) > c[t] for t in give):
            continue
        for t in give:
            c[t] -= 1
        c[x] += 3
        if c[x] <= 4:
            value = shanten(c, wilds=k, shapes=ARCADE)
            if best is None or value < best[0]:
                best = (value, give)
        c[x] -= 3
        for t in give:
            c[t] += 1
    if best is None or best[0] >= now:
        return None
    return best[1]


def _claim(obs: Observation, view: ArcadeView, w: int, legal: Sequence[Action]) -> Action:
    x = obs.pending
    if x is None or obs.phase is not Phase.CLAIM:
        return passing(legal)
    c, k, visible = wild_counts(obs, view, w)
    return best_claim(legal, int(x), c, visible, wilds=k, shapes=ARCADE)
