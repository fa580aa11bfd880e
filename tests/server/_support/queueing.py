"""What the quick-match tests share: a player put in a room's queue (returning once he waits),
a pause that lets every ready task run, and the cluster nodes' wall clock moved by the test."""

from __future__ import annotations

import asyncio

from erren.server.cluster import Cluster
from erren.server.lobby import Lobby
from erren.server.store import User
from erren.server.table import TableView
from erren.testing.waits import eventually

__all__ = ["START_S", "Wall", "on_wall", "settle", "waits_in"]

START_S = 1_800_000_000.0
"""The nodes' wall clock when a test begins (any time will do)."""

Seat = tuple[TableView, int]


async def waits_in(lobby: Lobby, user: User, room: str) -> asyncio.Task[Seat]:
    """``user`` asks for a quick match in ``room``; returns once he waits in its queue."""
    task = asyncio.create_task(lobby.quick_match(user, room, 600))

    async def queued() -> bool:
        return lobby.queues.waiting_in(user.id) == room

    await eventually(queued, f"{user.name} waits")
    return task


async def settle() -> None:
    """Let every ready task run (to show that nothing is paired: there is no event to await)."""
    for _ in range(20):
        await asyncio.sleep(0)


class Wall:
    """The nodes' wall clock, moved by the test."""

    def __init__(self) -> None:
        self.t = START_S

    def now(self) -> float:
        return self.t


def on_wall(wall: Wall, *nodes: Cluster) -> None:
    """Set ``nodes``' shared queues on ``wall``."""
    for node in nodes:
        node.matching.now = wall.now
