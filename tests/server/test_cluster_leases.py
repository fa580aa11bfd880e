"""Table leases on the real Redis: one owner at a time, tokens that only grow, renewal only by
the owner, loss noticed."""

from __future__ import annotations

import asyncio

import pytest

from erren.server.cluster.leases import Lease

from ._support.redis_ns import clusters

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_one_owner_at_a_time_and_tokens_grow() -> None:
    async with clusters(2, lease_ms=300) as (a, b):
        first = await a.leases.acquire("t1")
        assert first == 1
        assert await b.leases.acquire("t1") is None  # held
        assert await a.leases.acquire("t1") is None  # held, even by itself
        assert await a.leases.owner("t1") == Lease("node-0", 1)
        await asyncio.sleep(0.45)  # expired: not renewed
        assert await a.leases.owner("t1") is None
        assert await b.leases.acquire("t1") == 2
        assert await a.leases.renew("t1", 1) is False  # the old owner cannot extend it
        assert await a.leases.release("t1", 1) is False  # nor give it away
        assert await a.leases.owner("t1") == Lease("node-1", 2)
        assert await b.leases.release("t1", 2) is True
        assert await a.leases.acquire("t1") == 3


async def test_the_token_is_above_the_floor() -> None:
    """A Redis that restarted counts from 0 again; the database's fence is the floor."""
    async with clusters(1) as (a,):
        assert await a.leases.acquire("t1", floor=41) == 42
        await a.leases.release("t1", 42)
        assert await a.leases.acquire("t1", floor=5) == 43  # the counter is above the floor


async def test_the_owner_keeps_renewing_and_hears_of_a_loss() -> None:
    async with clusters(2, lease_ms=300) as (a, b):
        token = await a.leases.acquire("t1")
        assert token is not None
        lost: list[str] = []
        a.leases.keep("t1", token, lost.append)
        await asyncio.sleep(0.7)  # more than two leases long: renewed meanwhile
        assert await a.leases.owner("t1") == Lease("node-0", token)
        assert await b.leases.acquire("t1") is None
        assert a.leases.renewals >= 2
        await a.redis.delete(f"{a.prefix}lease:t1")  # the lease vanishes (Redis lost it)
        assert await b.leases.acquire("t1") == token + 1
        assert await a.leases.renew_all() == ["t1"]
        assert lost == ["t1"]
        assert "t1" not in a.leases.held


async def test_close_gives_the_leases_up() -> None:
    async with clusters(2) as (a, b):
        token = await a.leases.acquire("t1")
        assert token is not None
        a.leases.keep("t1", token, lambda _: None)
        await a.leases.close()
        assert await b.leases.acquire("t1") == token + 1
