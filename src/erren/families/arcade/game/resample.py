"""arcade's part of a determinization (:mod:`erren.engine.resample`): the wild, the flower kind,
the player's offer and exchange progress, the 报听 kinds and 海底 copied from the view; the
face-down reserve (its count is seen, its tiles are not) drawn from the unseen tiles; the
stock laid out as the family keeps it (live wall, indicator, reserve).

Functions behind :class:`~erren.families.arcade.game.family.ArcadeFamily`'s resample hooks.  What
the view does not tell and is set by convention: the event generator is a fresh one drawn from
the caller's ``rng``; the kind of a pung offer the player took this turn (``pung_kind``) and
``dealt_ready`` are unset; when both seats are in 报听 the order of their declarations (which
decides the 海底 player) is drawn at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from erren.families.arcade.game.options import ArcadeData, ArcadePhase, arcade_data
from erren.families.arcade.game.view import ArcadeView

if TYPE_CHECKING:
    from erren.engine.observation import Observation
    from erren.engine.resample import Unseen
    from erren.engine.state import State

__all__ = ["finish", "hidden_hand", "lay_data"]


def lay_data(state: State, observation: Observation, rng: random.Random, unseen: Unseen) -> None:
    """Copy the view into ``state.data``; the indicator is seen; the reserve's tiles are drawn
    with the wall (``unseen.aside``) and laid out by :func:`finish`."""
    view = observation.view
    if not isinstance(view, ArcadeView) or view.wild is None:
        raise ValueError("not an arcade observation after the indicator's reveal")
    d = arcade_data(state)
    d.reveal(int(view.wild))
    unseen.remove(d.wild)  # the face-up indicator (R1.3)
    d.rng = random.Random(rng.getrandbits(63))
    me = observation.player
    if view.offer is not None:
        d.offer[me] = int(view.offer)
    d.giving = [int(t) for t in view.giving]
    d.baoting_kind = list(view.baoting)
    for seat in (0, 1):
        state.tianting[seat] = view.baoting[seat] == "tianting"
    d.discard_no = len(observation.discards[0]) + len(observation.discards[1])
    ready = [seat for seat in (0, 1) if observation.ting[seat]]
    if len(ready) == 2 and rng.random() < 0.5:
        ready.reverse()
    for order, seat in enumerate(ready):
        d.baoting_seq[seat] = d.discard_no - len(ready) + 1 + order
    d.haidi_player = -1 if view.haidi_player is None else view.haidi_player
    d.haidi_left = view.haidi_left
    if view.bleed:
        d.bleed, d.bleed_seat = view.bleed, me
    _lay_exchange(state, d)
    unseen.aside_count = view.reserve_count  # the reserve, laid out by finish()


def _lay_exchange(state: State, d: ArcadeData) -> None:
    """Who has exchanged (R2.21): in the exchange phase the seats before the actor, the dealer
    first; everybody once play began."""
    if state.phase is ArcadePhase.EXCHANGE:
        d.exchanged = [False, False]
        if state.actor != state.dealer:
            d.exchanged[state.dealer] = True
    else:
        d.exchanged = [True, True]


def hidden_hand(state: State, p: int, pool: list[int], size: int, rng: random.Random) -> list[int]:
    """A uniform draw of ``p``'s hidden hand, leaving in the pool three copies of a kind offered
    to the other seat (an offer needs three unseen copies in the wall and reserve, R2.22)."""
    offered = arcade_data(state).offer[1 - p]
    if offered >= 0:
        pool = list(pool)
        for _ in range(3):
            if offered in pool:
                pool.remove(offered)
    hand = [0] * len(state.hands[p])
    for t in rng.sample(pool, size):
        hand[t] += 1
    return hand


def finish(state: State, unseen: Unseen) -> None:
    """Lay the stock as the family keeps it: the live wall (``head..tail``), the face-up
    indicator, then the reserve drawn by :func:`lay_data` (``wall[reserve:]``)."""
    d = arcade_data(state)
    live = state.wall
    state.wall = [*live, d.wild, *unseen.aside]
    d.reserve = len(live) + 1
