"""The room catalogue: every registered family in the five stake tiers of guobiao-2p §6.3.

A tier is a stake (beans per point, 底分 / 房间基数) and the entry limits on a player's balance
(§6.4); a room is a family in a tier (``guobiao-2p/normal``).  Every family plays its own rules
in points at every tier — the engine never sees a stake — and the table converts the points of
a finished hand to beans at the room's stake, once, with :func:`erren.server.settlement.to_beans`
(guobiao-2p §6.2–6.4, xiamen R-4.10, arcade R2.25).  Bean rooms need a registered account;
guests play practice tables (vs-computer and private, score-only).

>>> TIERS["novice"].stake, TIERS["senior"].entry_min
(50, 200000)
>>> room = find_room_tier("xiamen/normal")
>>> room.stake, room.escape_points, room.escape_beans
(200, 400, 80000)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from erren.engine import family_names, find_family
from erren.server.settlement import to_beans

__all__ = [
    "TIERS",
    "RoomTier",
    "Tier",
    "catalogue",
    "find_room_tier",
    "find_tier",
    "rooms_admitting",
]


@dataclass(frozen=True, slots=True)
class Tier:
    """A stake tier: ``stake`` beans per point and the entry limits on the balance (§6.4)."""

    id: str
    name: str
    english: str
    stake: int
    entry_min: int
    entry_max: int

    def admits(self, balance: int) -> bool:
        """Whether a player with ``balance`` beans may sit (and stay) here (§6.4)."""
        return self.entry_min <= balance <= self.entry_max

    def __str__(self) -> str:
        return f"{self.name} {self.english}"


TIERS: Final[dict[str, Tier]] = {
    tier.id: tier
    for tier in (
        Tier("novice", "新手场", "Novice", 50, 1_000, 60_000),
        Tier("normal", "普通场", "Normal", 200, 5_000, 80_000),
        Tier("junior", "初级场", "Junior", 500, 10_000, 100_000),
        Tier("intermediate", "中级场", "Intermediate", 2_000, 50_000, 1_000_000),
        Tier("senior", "高级场", "Senior", 6_000, 200_000, 2_000_000_000),
    )
}
"""The five tiers of seed 002 (guobiao-2p §6.3), by id, cheapest first; every family uses them."""


def find_tier(name: str) -> Tier:
    """A tier by id, Chinese or English name: ``find_tier("普通场") is TIERS["normal"]``."""
    key = name.strip().lower()
    for tier in TIERS.values():
        if key in (tier.id, tier.name, tier.english.lower()):
            return tier
    known = ", ".join(f"{t.id} ({t.name})" for t in TIERS.values())
    raise ValueError(f"no room tier {name!r}; the tiers are {known}")


@dataclass(frozen=True)
class RoomTier:
    """A family in a tier: what a quick-match table of that room plays."""

    id: str
    family: str
    tier: Tier
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def stake(self) -> int:
        return self.tier.stake

    def admits(self, balance: int) -> bool:
        return self.tier.admits(balance)

    @cached_property
    def escape_points(self) -> int:
        """What leaving a running hand costs in points (guobiao-2p §6.5: 13, xiamen R-2.12: 400,
        arcade R2.25: 13 × base points)."""
        return find_family(self.family, self.options).escape_penalty()

    @property
    def escape_beans(self) -> int:
        """What leaving a running hand costs in beans at this room's stake (before the balance
        limit)."""
        return to_beans((-self.escape_points, self.escape_points), self.stake).owed

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
            "account_needed": True,
            "escape_points": self.escape_points,
            "escape_beans": self.escape_beans,
        }


_CACHE: dict[str, RoomTier] = {}


def catalogue() -> dict[str, RoomTier]:
    """Every room, by id, family by family, cheapest tier first."""
    if not _CACHE:
        for family in family_names():
            for tier in TIERS.values():
                room = RoomTier(f"{family}/{tier.id}", family, tier)
                _CACHE[room.id] = room
    return dict(_CACHE)


def find_room_tier(room_id: str) -> RoomTier:
    rooms = catalogue()
    room = rooms.get(room_id)
    if room is None:
        raise KeyError(f"no room {room_id!r}; the rooms are {', '.join(rooms)}")
    return room


def rooms_admitting(family: str, balance: int) -> tuple[RoomTier, ...]:
    """The rooms of ``family`` a player with ``balance`` beans may enter, cheapest first."""
    return tuple(r for r in catalogue().values() if r.family == family and r.admits(balance))
