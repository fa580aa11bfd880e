"""Table leases on the real Redis: one owner at a time, tokens that only grow, renewal only by
the owner, loss noticed."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import pytest
from redis.exceptions import RedisError

from erren.server.cluster import Cluster
from erren.server.cluster.leases import Lease
from erren.testing.proxy import TcpProxy
from erren.testing.waits import eventually

from ._support.redis_ns import REDIS_URL, clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_one_owner_at_a_time_and_tokens_grow() -> None:
    """The lease (2 s: room for the three checks while it stands on a slow machine) is held
    until it expires, not renewed."""
    async with clusters(2, lease_ms=2000) as (a, b):
        first = await a.leases.acquire("t1")
        assert first == 1
        assert await b.leases.acquire("t1") is None  # held
        assert await a.leases.acquire("t1") is None  # held, even by itself
        assert await a.leases.owner("t1") == Lease("node-0", 1)
        assert a.leases.lease_ms == 2000

        async def lapsed() -> bool:  # expires, not renewed (Redis's clock: real time)
            return await a.leases.owner("t1") is None

        await eventually(lapsed, "the lease expires", timeout=20)
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
    """A 3 s lease, renewed every second in the background: two renewals are awaited, and
    Redis's expiry of the key shows each pushed it back (past the acquired lease's end).
    When the lease vanishes, the loss is heard by the explicit round or by the background
    one, whichever runs first."""
    async with clusters(2, lease_ms=3000) as (a, b):
        key = f"{a.prefix}lease:t1"
        token = await a.leases.acquire("t1")
        acquired = time.monotonic()  # the acquired lease ends before this + 3 s
        assert token is not None
        lost: list[str] = []
        a.leases.keep("t1", token, lost.append)

        async def renewed() -> bool:
            return a.leases.renewals >= 2

        await eventually(renewed, "the owner renews its lease in the background", timeout=20)
        asked = time.monotonic()
        left_ms = await a.redis.pttl(key)
        assert asked + left_ms / 1000 > acquired + 3  # the key now outlives the first lease
        assert await a.leases.owner("t1") == Lease("node-0", token)
        assert await b.leases.acquire("t1") is None
        await a.redis.delete(key)  # the lease vanishes (Redis lost it)
        assert await b.leases.acquire("t1") == token + 1
        assert await a.leases.renew_all() in (["t1"], [])  # [] if the background round ran

        async def heard() -> bool:
            return lost == ["t1"]

        await eventually(heard, "the owner hears of the loss, once", timeout=20)
        assert lost == ["t1"]
        assert "t1" not in a.leases.held


async def test_close_gives_the_leases_up() -> None:
    async with clusters(2) as (a, b):
        token = await a.leases.acquire("t1")
        assert token is not None
        a.leases.keep("t1", token, lambda _: None)
        await a.leases.close()
        assert await b.leases.acquire("t1") == token + 1


@asynccontextmanager
async def _behind_proxy(prefix: str, lease_ms: int) -> AsyncIterator[tuple[Cluster, TcpProxy]]:
    """A node (``cut``) whose Redis is reached through a proxy the test cuts and restores."""
    with TcpProxy(*_redis_address()) as proxy:
        node = await Cluster.connect(
            f"redis://127.0.0.1:{proxy.port}/0", node_id="cut", prefix=prefix, lease_ms=lease_ms
        )
        try:
            yield node, proxy
        finally:
            proxy.restore()
            with contextlib.suppress(RedisError):
                await node.close()


def _redis_address() -> tuple[str, int]:
    parts = urlsplit(REDIS_URL)
    return parts.hostname or "127.0.0.1", parts.port or 6379


LONG_MS = 6_000
"""A lease whose safety margin (a fifth: 1.2 s) leaves a slow test process room to look at the
lease in Redis after the owner gave it up and before it expires."""


async def test_an_owner_cut_off_from_redis_gives_its_table_up_before_the_lease_can_expire() -> None:
    """Slow (about 5 s: the owner gives up at 4/5 of its 6 s lease).  Redis unreachable for
    the owner: it cannot renew, and gives the table up while the lease still stands in Redis
    (nobody else can have taken it yet), without a restart it renews and takes leases again
    once Redis answers."""
    async with (
        clusters(1, lease_ms=LONG_MS) as (other,),
        _behind_proxy(other.prefix, LONG_MS) as (node, proxy),
    ):
        token = await node.leases.acquire("t1")
        assert token is not None
        gone: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        node.leases.keep("t1", token, gone.set_result)
        proxy.cut()
        assert await asyncio.wait_for(gone, LONG_MS / 1000 + 20) == "t1"
        # given up while its lease still stands: no other node can hold the table yet (the
        # checks have the safety margin, a fifth of the lease, to run in)
        assert await other.leases.owner("t1") == Lease("cut", token)
        assert await other.redis.pttl(f"{other.prefix}lease:t1") > 0
        assert node.leases.errors >= 1
        assert "t1" not in node.leases.held
        proxy.restore()

        async def reconnected() -> bool:  # the node's next call reconnects
            return await node.healthy()

        await eventually(reconnected, "the node reaches Redis again", timeout=20)
        again = await node.leases.acquire("t2")
        assert again is not None
        node.leases.keep("t2", again, lambda _: None)
        assert await node.leases.renew_all() == []


async def test_a_short_cut_costs_no_lease() -> None:
    """Redis away for less than the lease's safe part: renewals fail, the table is kept,
    and renewing resumes when Redis answers."""
    async with (
        clusters(1, lease_ms=3000) as (other,),
        _behind_proxy(other.prefix, 3000) as (node, proxy),
    ):
        token = await node.leases.acquire("t1")
        assert token is not None
        lost: list[str] = []
        node.leases.keep("t1", token, lost.append)
        proxy.cut()
        assert await node.leases.renew_all() == []  # failed, but the lease is still sure
        assert node.leases.errors >= 1  # this round's (the background one's may come too)
        await asyncio.sleep(0.3)
        proxy.restore()
        renewed = node.leases.renewals

        async def resumed() -> bool:
            return node.leases.renewals > renewed

        await eventually(resumed, "renewing resumes once Redis answers", timeout=20)
        assert lost == []
        assert await other.leases.owner("t1") == Lease("cut", token)
