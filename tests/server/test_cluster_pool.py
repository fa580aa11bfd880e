"""A node's Redis clients under a burst: three hundred commands at once all run.  redis-py 8's
pool refuses the 101st with "Too many connections"; a node serving over a hundred players
lost its presence refresh, relayed messages and a relay heartbeat to that (found by the
two-node seat race under load).  A node's clients hold up to ``POOL_SIZE`` connections."""

from __future__ import annotations

import asyncio

import pytest

from erren.server.cluster import POOL_SIZE

from ._support.redis_ns import clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]

HOLD_S = 0.05
"""How long each command of the burst holds its connection (a ``BLPOP`` on an empty list)."""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_burst_of_three_hundred_commands_is_not_refused() -> None:
    """Three hundred commands at once on each client, each holding its connection for 50 ms:
    every one answers (an empty list's ``BLPOP`` times out with ``None``) rather than failing
    past the hundredth."""
    burst = 300
    assert burst <= POOL_SIZE
    async with clusters(1) as (node,):
        for client in (node.redis, node.blocking):
            empty = f"{node.prefix}burst:{id(client)}"
            answers = await asyncio.gather(
                *(client.blpop([empty], timeout=HOLD_S) for _ in range(burst)),
                return_exceptions=True,
            )
            refused = [a for a in answers if isinstance(a, BaseException)]
            assert refused == [], f"{len(refused)} of {burst} refused: {refused[:1]}"
            assert answers == [None] * burst
