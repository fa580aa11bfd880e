"""Invites held for a friend's sockets that were away (:mod:`erren.server.heldinvites`): kept
for exactly a minute (README: "An invite is also held for a minute") on a test clock, one per
inviter (the newer replaces the older), oldest first, let go by their code; in memory on a
single server and in the real Redis on a cluster node (two nodes: one holds, the other reads),
its key gone with the test."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from erren.server.heldinvites import HeldInvites

from ._support.redis_ns import clusters

HOLD_S = 60.0
"""The README's minute, written here rather than read from the code under test."""


class Wall:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _invite(sender: int, code: str) -> dict[str, Any]:
    return {"type": "invite", "from": sender, "name": f"p{sender}", "invite": code,
            "table": f"t{sender}", "room": None, "family": "xiamen"}  # fmt: skip


async def _the_rules(hold: HeldInvites, read: HeldInvites, wall: Wall) -> None:
    assert await read.held(7) == []
    await hold.hold(7, 1, _invite(1, "AAAAAA"))
    wall.now += 10
    await hold.hold(7, 2, _invite(2, "BBBBBB"))
    await hold.hold(8, 1, _invite(1, "CCCCCC"))  # another friend's: never 7's
    assert await read.held(7) == [_invite(1, "AAAAAA"), _invite(2, "BBBBBB")]
    # a newer invite of player 1 replaces his older one, and is now the newest
    wall.now += 10
    await hold.hold(7, 1, _invite(1, "DDDDDD"))
    assert await read.held(7) == [_invite(2, "BBBBBB"), _invite(1, "DDDDDD")]
    # let go by code (as typed: spaces and lower case), whichever node asks
    await read.drop(7, " bbbbbb ")
    assert await hold.held(7) == [_invite(1, "DDDDDD")]
    await read.drop(7, "ZZZZZZ")  # no such invite: nothing changes
    assert await hold.held(7) == [_invite(1, "DDDDDD")]
    # held for a minute from its sending: one tick before, still; at it, gone
    wall.now += HOLD_S - 0.001
    assert await read.held(7) == [_invite(1, "DDDDDD")]
    assert await read.held(8) == []  # sent 10 + 10 s before 7's newest: expired
    wall.now += 0.001
    assert await read.held(7) == []


def test_held_in_memory_for_a_minute_one_per_inviter() -> None:
    wall = Wall()
    held = HeldInvites(wall=wall)
    asyncio.run(_the_rules(held, held, wall))
    assert held._local == {}  # nothing left behind once read after expiry


@pytest.mark.services
def test_held_in_redis_for_every_node_of_the_cluster() -> None:
    async def main() -> None:
        wall = Wall()
        async with clusters(2) as (one, other):
            hold = HeldInvites(one, wall=wall)
            read = HeldInvites(other, wall=wall)
            await _the_rules(hold, read, wall)
            # the key expires in Redis too, a second after the hold of its newest invite
            await hold.hold(9, 3, _invite(3, "EEEEEE"))
            ttl = await one.redis.ttl(f"{one.prefix}invites:9")
            assert ttl == 61  # the minute and one second of margin

    asyncio.run(main())
