"""Waiting on Redis when it may silently stop answering.

A Redis whose packets are dropped (a network partition, a stalled host) neither refuses nor
resets a connection: without a limit, a command waits forever, and so would the player's
request behind it.  A node therefore talks to Redis through two clients (see
:meth:`erren.server.cluster.Cluster.connect`): the *command* client, whose reads time out after
:func:`command_timeout` (a Redis ``TimeoutError``, which every caller already handles as Redis
being unavailable), and the *blocking* client for the commands that wait on purpose (``BLPOP``
of a quick-match wait or a relay question, ``XREAD BLOCK`` of the relay's inbox), whose socket
has no timeout because the wait is the command's own; each such call goes through
:func:`bounded`, which gives it up once its own wait plus the command timeout has passed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["bounded", "command_timeout"]

T = TypeVar("T")


def command_timeout(lease_ms: int) -> float:
    """Seconds a Redis command may take before the node counts Redis as unreachable: a fifth of
    the lease (the lease is renewed well before it could expire), between 0.2 s and 2 s."""
    return min(2.0, max(0.2, lease_ms / 5000))


async def bounded(call: Awaitable[T], wait_s: float, timeout_s: float) -> T:
    """Await a blocking Redis command that waits ``wait_s`` seconds by itself; a Redis
    ``TimeoutError`` when no answer came ``timeout_s`` seconds after that."""
    try:
        return await asyncio.wait_for(call, wait_s + timeout_s)
    except TimeoutError:
        raise RedisTimeoutError(
            f"Redis did not answer a {wait_s:g} s wait within {timeout_s:g} s after it"
        ) from None
