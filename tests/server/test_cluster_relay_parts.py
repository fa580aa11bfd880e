"""The relay's parts on the real Redis (two or three cluster handles in one process, no
server): a connection of one node linked to a table another node holds, what goes each way,
in order; a dead owner (its relay closed) and a dead player's node; a Redis error on the way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import redis.asyncio as aioredis

from erren.server import protocol
from erren.server.cluster import Cluster
from erren.server.cluster.relay import Relay
from erren.server.table import Conn, Table

from ._support.redis_ns import clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]

LEASE_MS = 300
"""Nodes' alive keys last two leases: 0.6 s."""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def relays(count: int) -> AsyncIterator[list[tuple[Cluster, Relay]]]:
    """``count`` nodes with their relays (no tables of their own), stopped afterwards."""
    async with clusters(count, lease_ms=LEASE_MS) as nodes:
        tables: dict[str, Table] = {}
        started = [Relay(node, tables) for node in nodes]
        for relay in started:
            await relay.start()
        try:
            yield list(zip(nodes, started, strict=True))
        finally:
            for relay in started:
                await relay.close()


async def received(conn: Conn, timeout: float = 5) -> dict[str, Any] | None:
    """The next message in ``conn``'s outbox (``None``: the connection was closed)."""
    text = await asyncio.wait_for(conn.queue.get(), timeout)
    return None if text is None else dict(json.loads(text))


async def test_a_join_and_the_messages_after_it_reach_the_owner_and_its_answers_come_back() -> None:
    async with relays(2) as [(owner, _), (_, near)]:
        assert await owner.leases.acquire("t-remote") is not None
        conn = Conn(7, "ann")
        assert await near.join(conn, protocol.Join("t-remote", None, None))
        assert near.linked(conn)
        # the owner has no such table for her: it answers as for a local join, relayed back
        assert await received(conn) == {
            "type": "error",
            "code": "not-seated",
            "message": "you have no seat at table 't-remote'",
            "params": {"table": "t-remote"},
        }
        near.forward(conn, protocol.Act("discard:1m", 4))
        assert (await received(conn) or {})["code"] == "no-table"
        for k in range(20):  # in order, each once
            near.forward(conn, protocol.Join(f"t-{k}", None, None))
        answers = [(await received(conn) or {})["params"]["table"] for _ in range(20)]
        assert answers == [f"t-{k}" for k in range(20)]
        await asyncio.sleep(0.2)
        assert conn.queue.empty()


async def test_a_table_nobody_holds_or_this_node_holds_is_not_relayed() -> None:
    async with relays(2) as [(one, first), _]:
        conn = Conn(7, "ann")
        assert not await first.join(conn, protocol.Join("t-nobody", None, None))
        assert await one.leases.acquire("t-mine") is not None
        assert not await first.join(conn, protocol.Join("t-mine", None, None))
        assert not first.linked(conn)


async def test_the_owners_death_closes_the_linked_table_with_moved() -> None:
    async with relays(2) as [(owner, far), (_, near)]:
        assert await owner.leases.acquire("t-gone") is not None
        conn = Conn(7, "ann")
        assert await near.join(conn, protocol.Join("t-gone", None, None))
        assert (await received(conn) or {})["code"] == "not-seated"
        await far.close()  # the owner stops: its alive key is deleted
        closed = await received(conn, timeout=5)
        assert closed == {
            "type": "closed",
            "table": "t-gone",
            "code": "moved",
            "reason": "this table is played on another server now; reconnect",
            "params": {},
        }
        assert not near.linked(conn)
        assert not conn.closed  # the socket stays: the player joins again


async def test_a_join_a_killed_owner_never_answers_is_answered_moved() -> None:
    """The owner was killed (``kill -9``): its lease and its alive key are still there for a
    while, so the join goes into its inbox, which nobody reads; once the alive key lapses the
    join is answered with an error ``moved`` (the client joins again), never left waiting."""
    async with clusters(2, lease_ms=LEASE_MS) as (dead, node):
        assert await dead.leases.acquire("t-dead") is not None
        await dead.redis.set(f"{dead.prefix}node:node-0:alive", "0dead0", px=2 * LEASE_MS)
        near = Relay(node, {})
        await near.start()
        try:
            conn = Conn(7, "ann")
            assert await near.join(conn, protocol.Join("t-dead", None, None))
            answer = await received(conn, timeout=5)
            assert answer == {
                "type": "error",
                "code": "moved",
                "message": "the server of this table is gone; join again in a moment",
                "params": {"table": "t-dead"},
            }
            assert not near.linked(conn)
        finally:
            await near.close()


async def test_the_player_nodes_death_takes_its_connections_away_from_the_owner() -> None:
    async with relays(2) as [(owner, far), (_, near)]:
        assert await owner.leases.acquire("t-x") is not None
        conn = Conn(7, "ann")
        assert await near.join(conn, protocol.Join("t-x", None, None))
        await received(conn)
        assert len(far.hosted.remote) == 1
        await near.close()
        for _ in range(50):
            if not far.hosted.remote:
                break
            await asyncio.sleep(0.1)
        assert far.hosted.remote == {}


async def test_the_connection_leaving_is_seen_by_the_owner() -> None:
    async with relays(2) as [(owner, far), (_, near)]:
        assert await owner.leases.acquire("t-y") is not None
        conn = Conn(7, "ann")
        assert await near.join(conn, protocol.Join("t-y", None, None))
        await received(conn)
        near.unlink(conn)
        for _ in range(50):
            if not far.hosted.remote:
                break
            await asyncio.sleep(0.05)
        assert far.hosted.remote == {}
        assert not near.linked(conn)


async def test_a_redis_error_on_the_way_closes_the_socket_with_a_code_and_is_counted() -> None:
    async with relays(2) as [(owner, _), (_, near)]:
        assert await owner.leases.acquire("t-z") is not None
        conn = Conn(7, "ann")
        assert await near.join(conn, protocol.Join("t-z", None, None))
        await received(conn)
        errors: list[int] = []
        near.on_error = lambda: errors.append(1)
        working = near.redis
        near.redis = aioredis.Redis.from_url("redis://127.0.0.1:1/0", decode_responses=True)
        try:
            near.forward(conn, protocol.Act("discard:1m", 4))
            failed = await received(conn)
            assert failed is not None
            assert (failed["type"], failed["code"]) == ("error", "relay-unavailable")
            assert await received(conn) is None  # then the socket closes ...
            assert conn.close_code == 1011  # ... with 1011: the client reconnects
            assert not near.linked(conn)
            assert errors and near.errors >= 1
        finally:
            await near.redis.aclose()
            near.redis = working
