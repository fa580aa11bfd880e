"""What anyone may see of a hand: the public view a spectator receives.

A seat's :class:`~erren.engine.Observation` holds the public facts (both rivers, the exposed
melds, flowers, hand sizes, the wall count, 报听/托管 flags, whose turn, the timer) and the
seat's own (his concealed tiles, his drawn tile, his concealed kongs' kinds, his legal moves,
the family view's :attr:`~erren.engine.views.ViewFacts.own_fields`).  :func:`public_observation`
keeps only the first kind, so it is the same whichever seat's observation it starts from
(``tests/server/test_watch_leaks.py`` checks exactly that over thousands of hands): a
spectator learns nothing that either seat has not also been shown.  :func:`public_event`
is an event as neither seat's owner sees it (a private event loses its tiles).

At the end of a hand the winner's hand is public through ``result`` (§2.11), as for the seats;
the full hands are the settlement's business (:mod:`erren.server.reveal`).
"""

from __future__ import annotations

import dataclasses

from erren.engine.events import Event
from erren.engine.observation import Observation, observe
from erren.engine.state import State
from erren.melds import MeldKind

__all__ = ["PUBLIC_SIDE", "observe_public", "public_event", "public_observation"]

PUBLIC_SIDE = 0
"""The seat a public view is drawn from (the ``player`` of a public observation: the side of
the table a spectator sees at the bottom)."""


def public_observation(obs: Observation) -> Observation:
    """``obs`` without anything its seat alone may see: no concealed tile, no drawn tile, no
    legal move, both seats' concealed kongs counted face down, the family view's own fields
    at their defaults; ``player`` is :data:`PUBLIC_SIDE`."""
    melds = []
    hidden = list(obs.hidden_kongs)
    for seat in (0, 1):
        shown = tuple(m for m in obs.melds[seat] if m.kind is not MeldKind.AN_GANG)
        hidden[seat] += len(obs.melds[seat]) - len(shown)
        melds.append(shown)
    view = obs.view
    own = type(view).own_fields
    if own:
        blank = type(view)()  # every field at its default
        view = dataclasses.replace(view, **{name: getattr(blank, name) for name in own})  # type: ignore[type-var]
    return dataclasses.replace(
        obs,
        player=PUBLIC_SIDE,
        hand=(),
        last_drawn=None,
        melds=(melds[0], melds[1]),
        hidden_kongs=(hidden[0], hidden[1]),
        legal_actions=(),
        view=view,
    )


def observe_public(state: State) -> Observation:
    """The public view of ``state`` (:func:`public_observation` of a seat's observation)."""
    return public_observation(observe(state, PUBLIC_SIDE))


def public_event(event: Event) -> Event:
    """``event`` as anyone may see it: a private event (a draw, a concealed kong...) without
    its tiles."""
    if not event.private:
        return event
    return event._replace(tile=None, tiles=())
