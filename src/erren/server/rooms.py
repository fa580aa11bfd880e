"""The room catalogue: every registered family in the stake tiers of guobiao-2p §6.3.

A room is a family, a tier and the ruleset options the tier fixes.  The tiers (底分 and entry
limits) are :data:`erren.scoring.guobiao.settlement.ROOMS`; each family converts its points to
beans at the tier's stake: guobiao-2p through its ``room`` option (§6.3), xiamen through ``stake``
(房间基数, R-4.10: every amount, the 400-point escape penalty included), other families (arcade
versus) at the stake with their own settings.  Room ids are ``family/tier``
(``guobiao-2p/normal``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from erren.engine import find_ruleset, ruleset_names
from erren.scoring.guobiao.settlement import ROOMS, Room

__all__ = ["RoomTier", "catalogue", "find_room_tier"]


@dataclass(frozen=True, slots=True)
class RoomTier:
    id: str
    family: str
    tier: Room
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def stake(self) -> int:
        return self.tier.stake

    def admits(self, balance: int) -> bool:
        return self.tier.admits(balance)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "family": self.family,
            "tier": self.tier.id,
            "name": self.tier.name,
            "english": self.tier.english,
            "stake": self.tier.stake,
            "entry_min": self.tier.entry_min,
            "entry_max": self.tier.entry_max,
            "options": self.options,
        }


def _tier_options(family: str, tier: Room) -> dict[str, Any]:
    if family == "guobiao-2p":
        return {"room": tier.name}
    names = set(find_ruleset(family).options_dict())
    if "stake" in names:
        return {"stake": tier.stake}
    return {}


_CACHE: dict[str, RoomTier] = {}


def catalogue() -> dict[str, RoomTier]:
    """Every room, by id, family by family, cheapest tier first."""
    if not _CACHE:
        for family in ruleset_names():
            for tier in ROOMS.values():
                room = RoomTier(f"{family}/{tier.id}", family, tier, _tier_options(family, tier))
                _CACHE[room.id] = room
    return dict(_CACHE)


def find_room_tier(room_id: str) -> RoomTier:
    rooms = catalogue()
    room = rooms.get(room_id)
    if room is None:
        raise KeyError(f"no room {room_id!r}; the rooms are {', '.join(rooms)}")
    return room
