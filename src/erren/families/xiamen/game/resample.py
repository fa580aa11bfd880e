"""xiamen's part of a determinization (:mod:`erren.engine.resample`): the golds and 游 levels
copied from the view, the face-up indicator taken out of the unseen tiles, and a hidden hand in
the 游 chain built 游金-ready (R-3.5), as the rules force it to be.

Functions behind :class:`~erren.families.xiamen.game.family.XiamenFamily`'s resample hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.families.xiamen.game.data import (
    WHITE,
    XiamenData,
    XiamenPhase,
    func_kind,
    natural_of,
    xiamen_data,
    you_ready,
)
from erren.families.xiamen.game.view import XiamenView
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    import random

    from erren.engine.observation import Observation
    from erren.engine.resample import Unseen
    from erren.engine.state import State

__all__ = ["finish", "hidden_hand", "lay_data"]

_BUILD_TRIES = 200
"""Attempts at building a 游金-ready hand before a uniform draw is kept instead."""


def lay_data(state: State, observation: Observation, unseen: Unseen) -> None:
    """The gold (and its White mapping), the indicator and the 游 levels of the view; the
    face-up indicator is seen (R-1.6) unless a 抢金胡 winner took it."""
    view = observation.view
    if not isinstance(view, XiamenView):
        raise ValueError("not a xiamen observation")
    d = xiamen_data(state)
    d.you_level = list(view.you_level)
    d.indicator_taken = view.indicator_taken
    if view.gold is None:
        return
    gold = int(view.gold)
    d.gold = d.indicator = gold
    if gold != WHITE:
        phys = list(range(NUM_KINDS))
        phys[gold] = WHITE
        d.phys = phys
    if not view.indicator_taken:
        unseen.remove(gold)


def hidden_hand(state: State, p: int, pool: list[int], size: int, rng: random.Random) -> list[int]:
    """A draw of ``p``'s hidden hand: 游金-ready (plus the gold he just drew in his
    ``you_choice``) while he is in the 游 chain, uniform otherwise."""
    d = xiamen_data(state)
    if d.you_level[p] and d.gold >= 0:
        extra = int(state.phase is XiamenPhase.YOU_CHOICE and state.actor == p)
        for _ in range(_BUILD_TRIES):
            hand = _ready_hand(state, pool, size - extra, extra, rng)
            if hand is not None:
                return hand
    hand = [0] * NUM_KINDS
    for t in rng.sample(pool, size):
        hand[t] += 1
    return hand


def _ready_hand(
    state: State, pool: list[int], size: int, extra_golds: int, rng: random.Random
) -> list[int] | None:
    """A random 游金-ready ``size``-tile hand (a gold and ``size // 3`` sets by functional
    kind, golds filling in) from ``pool``, plus ``extra_golds`` golds; ``None`` when the draw
    did not fit the unseen tiles."""
    d = xiamen_data(state)
    gold = d.gold
    left = [0] * NUM_KINDS
    for t in pool:
        left[t] += 1
    hand = [0] * NUM_KINDS

    def take(t: int) -> bool:
        if left[t]:
            left[t] -= 1
            hand[t] += 1
            return True
        if left[gold]:  # a gold plays as the missing tile
            left[gold] -= 1
            hand[gold] += 1
            return True
        return False

    if left[gold] < 1 + extra_golds:
        return None
    for _ in range(1 + extra_golds):
        take(gold)
    for _ in range(size // 3):
        shapes = _sets_left(d, left)
        if not shapes:
            return None
        # as likely as a random unseen tile's kind: a set of the kind of one drawn from the
        # tiles left (any set they can still make when none is of that kind)
        naturals = [t for t in range(NUM_KINDS) if t != gold for _ in range(left[t])]
        f = func_kind(d, rng.choice(naturals)) if naturals else -1
        around = [shape for shape in shapes if f in shape]
        if not all(take(natural_of(d, k)) for k in rng.choice(around or shapes)):
            return None
    if sum(hand) != size + extra_golds:
        return None
    check = list(hand)
    check[gold] -= extra_golds
    return hand if you_ready(check, gold) else None


def _sets_left(d: XiamenData, left: list[int]) -> list[tuple[int, int, int]]:
    """Every set (by functional kind: a pung, or a run within a suit) the tiles ``left`` can
    still make with one natural tile at least, golds filling in for missing tiles."""
    golds = left[d.gold]
    out: list[tuple[int, int, int]] = []
    for f in range(NUM_KINDS):
        shapes = [(f, f, f)]
        if f < 27 and f % 9 < 7:
            shapes.append((f, f + 1, f + 2))
        for shape in shapes:
            tiles = [natural_of(d, k) for k in shape]
            missing = sum(max(0, tiles.count(t) - left[t]) for t in set(tiles) if t != d.gold)
            if missing < 3 and missing + tiles.count(d.gold) <= golds:
                out.append(shape)
    return out


def finish(state: State, observation: Observation) -> None:
    """An opponent deciding on a drawn gold (``you_choice``) drew that gold."""
    opp = 1 - observation.player
    if state.phase is XiamenPhase.YOU_CHOICE and state.actor == opp:
        state.last_added[opp] = xiamen_data(state).gold
