"""One node of a cluster: ``erren serve --redis redis://HOST:PORT/DB``.

Any number of nodes share one PostgreSQL database (the durable truth) and one Redis (leases,
queues; it keeps nothing the database does not also have).  :class:`Cluster` is this node's
handle on Redis: the connection, the key namespace (``erren:`` unless told otherwise, so tests
can share one Redis) and the node's id.  Its parts:

* :mod:`~erren.server.cluster.leases`: one owner node per table, found through a lease with a
  fencing token that every write of the table's game checks in the database;
* :mod:`~erren.server.cluster.matching`: the quick-match queues every node shares;
* :mod:`~erren.server.cluster.relay`: any node serves any player (a player's table messages
  go to the owner node, its messages for him come back, through one Redis stream per node);
* :mod:`~erren.server.cluster.invites`: private tables joined by their code on any node;
* :mod:`~erren.server.cluster.waits`: no call waits forever on a Redis that stopped answering.

Without ``--redis`` nothing here is imported and no Redis is needed.
"""

from __future__ import annotations

import asyncio
import os
import socket

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import RedisError

from erren.server.cluster.leases import Leases
from erren.server.cluster.matching import Matching
from erren.server.cluster.waits import command_timeout
from erren.server.clusterconfig import DEFAULT_PREFIX

__all__ = ["DEFAULT_PREFIX", "POOL_SIZE", "Cluster", "ClusterError", "default_node_id"]

POOL_SIZE = 1000
"""Connections each of a node's two Redis clients may open at once.  redis-py 8 caps a pool at
100 and refuses the next command with "Too many connections"; a node's bursts (a table's
writes, presence, relayed messages and their waits, the lease renewals) went past that.  A
thousand per client leaves a Redis (10,000 clients by default) room for several nodes.  (A
pool that waits for a free connection instead, redis-py's ``BlockingConnectionPool``, was
tried: a test's shutdown hung with it, its tasks not finishing their cancellation.)"""


class ClusterError(Exception):
    """Redis cannot be reached or answered wrongly; the message names the URL and the cause."""


def default_node_id() -> str:
    """``HOST-PID``: unique among the processes of a machine and among machines."""
    return f"{socket.gethostname()}-{os.getpid()}"


class Cluster:
    """This node's share of the cluster: ``redis`` (a :class:`redis.asyncio.Redis`),
    ``prefix`` (the key namespace), ``node_id``, and its :attr:`leases` and :attr:`matching`."""

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        blocking: aioredis.Redis | None = None,
        node_id: str | None = None,
        prefix: str = DEFAULT_PREFIX,
        lease_ms: int = 5_000,
    ) -> None:
        self.redis = client
        self.blocking = blocking or client
        """The client of the commands that wait on purpose (:mod:`~.waits`)."""
        self.timeout_s = command_timeout(lease_ms)
        self.node_id = node_id or default_node_id()
        self.prefix = prefix
        self.leases = Leases(client, prefix, self.node_id, lease_ms=lease_ms)
        self.matching = Matching(
            client, prefix, seat_ms=3 * lease_ms, blocking=self.blocking, timeout_s=self.timeout_s
        )

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        node_id: str | None = None,
        prefix: str = DEFAULT_PREFIX,
        lease_ms: int = 5_000,
    ) -> Cluster:
        """Connect to the Redis at ``url`` and check that it answers (:class:`ClusterError`
        if not).  Two clients (:mod:`~.waits`): commands time out after
        :func:`~.waits.command_timeout`, blocking waits are bounded one by one."""
        timeout = command_timeout(lease_ms)
        try:
            client = _client(url, lease_ms, socket_timeout=timeout)
            blocking = _client(url, lease_ms, socket_timeout=None)
        except ValueError as err:
            raise ClusterError(f"bad Redis URL {url!r}: {err}") from None
        try:
            await client.ping()
        except RedisError as err:
            await client.aclose()
            await blocking.aclose()
            raise ClusterError(f"Redis at {url} does not answer: {err}") from None
        return cls(client, blocking=blocking, node_id=node_id, prefix=prefix, lease_ms=lease_ms)

    async def healthy(self, timeout: float = 2.0) -> bool:
        """Whether Redis answers now (within ``timeout`` s)."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), timeout))
        except (RedisError, TimeoutError):
            return False

    async def close(self) -> None:
        """Stop renewing, give up this node's leases (another node may take the tables at
        once) and close the connection."""
        await self.leases.close()
        await self.redis.aclose()
        if self.blocking is not self.redis:
            await self.blocking.aclose()


def _client(url: str, lease_ms: int, *, socket_timeout: float | None) -> aioredis.Redis:
    return aioredis.Redis.from_url(
        url,
        decode_responses=True,
        max_connections=POOL_SIZE,
        # a call fails within ~0.1 s of Redis refusing it (redis-py's default retries for
        # seconds: longer than a lease), and a connection attempt within 2 s
        retry=Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.05), retries=2),
        socket_connect_timeout=min(2.0, lease_ms / 5000),
        socket_timeout=socket_timeout,
    )
