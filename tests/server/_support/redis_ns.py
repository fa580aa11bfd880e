"""A private corner of the machine's real Redis (127.0.0.1:6379) for one test: a key prefix
of its own, every key under it deleted afterwards.  Redis unreachable → the test fails with a
message (never skips)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from erren.server.cluster import Cluster, ClusterError

REDIS_URL = "redis://127.0.0.1:6379/0"


def new_prefix() -> str:
    return f"erren-test:{uuid.uuid4().hex[:12]}:"


async def drop_prefix(prefix: str) -> None:
    """Delete every key under ``prefix``."""
    client = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


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
