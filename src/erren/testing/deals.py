"""Hands dealt from crafted walls, for tests and examples: ``start(ruleset, dealer, other)``
deals the dealer's 14 tiles and the other seat's 13 in the order of guobiao-2p §1.5, then the
front and back draws asked for, the rest of the wall shuffled from a seed."""

from __future__ import annotations

import random
from collections import Counter

from erren.engine import Action, Family, State
from erren.notation import parse_tiles

__all__ = ["DEAL_ORDER", "make_wall", "start"]

DEAL_ORDER = ((0, 4), (1, 4), (0, 4), (1, 4), (0, 4), (1, 4), (0, 1), (1, 1), (0, 1))
"""§1.5: (receiver, count), receiver 0 = dealer, 1 = non-dealer."""


def make_wall(
    ruleset: Family,
    dealer: str,
    other: str,
    draws: str = "",
    back: str = "",
    *,
    seed: int = 0,
) -> tuple[int, ...]:
    """A wall dealing ``dealer`` (14 tiles) and ``other`` (13), then front draws ``draws`` in
    order and back draws ``back`` in order (from the tail); the rest filled at random."""
    hands = [list(parse_tiles(dealer)), list(parse_tiles(other))]
    if (len(hands[0]), len(hands[1])) != (14, 13):
        raise ValueError(f"the dealer gets 14 tiles and the other 13, not {len(hands[0])}")
    front: list[int] = []
    for who, n in DEAL_ORDER:
        front.extend(int(t) for t in hands[who][:n])
        del hands[who][:n]
    front.extend(int(t) for t in parse_tiles(draws))
    tail = [int(t) for t in parse_tiles(back)]
    rest = Counter(ruleset.tiles)
    rest.subtract(front)
    rest.subtract(tail)
    if any(v < 0 for v in rest.values()):
        raise ValueError("more copies than the ruleset has")
    middle = list(rest.elements())
    random.Random(seed).shuffle(middle)
    return tuple(front + middle + tail[::-1])


def start(
    ruleset: Family, dealer: str, other: str, draws: str = "", back: str = "", *, seat: int = 0
) -> State:
    """A hand dealt from a crafted wall, dealer at ``seat``."""
    state = State(ruleset, dealer=seat)
    state.apply(Action.shuffle(make_wall(ruleset, dealer, other, draws, back)))
    state.apply(Action.dice(3, 4))
    return state
