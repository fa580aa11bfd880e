"""A private corner of the machine's real Redis (127.0.0.1:6379) for one test: a key prefix
of its own (:func:`erren.testing.servers.new_prefix`), every key under it deleted afterwards.
Redis unreachable → the test fails with a message (never skips)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from erren.server.cluster import Cluster, ClusterError
from erren.server.cluster.matching import QUEUE_MARK
from erren.testing.servers import REDIS_URL, drop_prefix, new_prefix
from erren.testing.waits import eventually

__all__ = ["REDIS_URL", "clusters", "drop_prefix", "new_prefix", "until_queued"]


@asynccontextmanager
async def clusters(count: int, *, lease_ms: int = 5_000) -> AsyncIterator[list[Cluster]]:
    """``count`` nodes (``node-0``, ``node-1``, ...) sharing one fresh prefix of the real
    Redis; all closed and the prefix emptied afterwards."""
    prefix = new_prefix()
    nodes: list[Cluster] = []
    try:
        for i in range(count):
            nodes.append(
                await Cluster.connect(
                    REDIS_URL, node_id=f"node-{i}", prefix=prefix, lease_ms=lease_ms
                )
            )
    except ClusterError as err:
        pytest.fail(f"Redis is unreachable at {REDIS_URL} ({err}): start it, don't skip")
    try:
        yield nodes
    finally:
        for node in nodes:
            with contextlib.suppress(RedisError):
                await node.close()
        await drop_prefix(prefix)


async def until_queued(url: str, token: str, prefix: str, timeout: float = 20) -> None:
    """Wait until the account of ``token`` (on the node at ``url``) waits in a quick-match
    queue of the cluster under ``prefix``: its ``seat:{user}`` key holds ``queue:ROOM``
    (:mod:`erren.server.cluster.matching`).  A test that needs one player to be waiting before
    the other arrives awaits this, not a head start."""
    async with httpx.AsyncClient(base_url=url) as http:
        me = await http.get("/me", headers={"Authorization": f"Bearer {token}"})
        me.raise_for_status()
        key = f"{prefix}seat:{me.json()['id']}"
    client = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:

        async def queued() -> bool:
            return str(await client.get(key)).startswith(QUEUE_MARK)

        await eventually(queued, f"the account waits in a queue ({key})", timeout=timeout)
    finally:
        await client.aclose()
