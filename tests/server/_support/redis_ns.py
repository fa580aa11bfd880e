"""A private corner of the machine's real Redis (127.0.0.1:6379) for one test: a key prefix
of its own (:func:`erren.testing.servers.new_prefix`), every key under it deleted afterwards.
Redis unreachable → the test fails with a message (never skips)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from redis.exceptions import RedisError

from erren.server.cluster import Cluster, ClusterError
from erren.testing.servers import REDIS_URL, drop_prefix, new_prefix

__all__ = ["REDIS_URL", "clusters", "drop_prefix", "new_prefix"]


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
