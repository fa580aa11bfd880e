"""What a stranger may see of another player's beans: nothing that adds up to his balance.

A balance is the opening grant plus every settlement and relief grant, so anything that shows a
player's exact bean results to someone else gives it away.  Two places did:

* the bean leaderboard: it now shows each player's net in a **band** (:func:`bean_band`), wide
  enough that the three families' bands together leave thousands of beans open, and only to
  someone logged in;
* the records of bean-room games, public by id (ids are sequential): to anyone but the game's
  two players a bean-room record is **anonymous** (:func:`record_for`): no names, no beans.
  Its points stay (the replay needs them), but points × stake is not what was paid once a
  balance runs short, and without names nobody can add a player's games up.
"""

from __future__ import annotations

import bisect
import copy
from dataclasses import dataclass
from typing import Any

__all__ = ["BAND_EDGES", "BeanBand", "bean_band", "is_bean_room", "record_for"]

BAND_EDGES = (1_000, 5_000, 10_000, 50_000, 100_000, 500_000, 1_000_000)
"""The bands' edges, for a net won and (mirrored) for a net lost: 0–1,000, 1,000–5,000, …, and
1,000,000 or more."""


@dataclass(frozen=True, slots=True)
class BeanBand:
    """A net of beans shown as a range: ``low <= net < high``; ``None`` is open (the band beyond
    the last edge).  A loss is mirrored: ``low < net <= high``."""

    low: int | None
    high: int | None

    def to_json(self) -> dict[str, int | None]:
        return {"low": self.low, "high": self.high}


def bean_band(net: int) -> BeanBand:
    """The band of a net won (``net >= 0``) or lost (``net < 0``)."""
    size = abs(net)
    at = bisect.bisect_right(BAND_EDGES, size)
    low = 0 if at == 0 else BAND_EDGES[at - 1]
    high = BAND_EDGES[at] if at < len(BAND_EDGES) else None
    if net >= 0:
        return BeanBand(low, high)
    return BeanBand(None if high is None else -high, -low)


def is_bean_room(room: str | None) -> bool:
    """Whether a game's room moves beans: a bean room's id is ``family/tier``; private and
    computer tables have none."""
    return room is not None and "/" in room


def record_for(
    record: dict[str, Any],
    room: str | None,
    seats: tuple[int | None, int | None],
    viewer: int | None,
) -> dict[str, Any]:
    """A finished game's record as ``viewer`` (a user id, ``None``: not logged in) may see it:
    whole for its players and for games that move no beans; otherwise without the players'
    names and the beans."""
    if not is_bean_room(room) or (viewer is not None and viewer in seats):
        return record
    shown = copy.deepcopy(record)
    shown["seats"] = [None, None]
    outcome = shown.get("outcome")
    if isinstance(outcome, dict):
        outcome.pop("beans", None)
    return shown
