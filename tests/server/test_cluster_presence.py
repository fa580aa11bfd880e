"""Quick match never seats a player with someone who is gone, across the nodes of a cluster
(issue 28, deliverable 2): two ``erren serve --redis`` nodes as separate processes on one
PostgreSQL database and the machine's Redis, with a queue grace of 2 s and a show-up time of
2 s (wall-clock seconds).

The account's one reservation stays ``seat:{user}`` (``queue:ROOM`` while it waits, away or
not); ``away:{user}`` marks a wait whose client went.  Each test reads both from Redis, with
the room's queue ``q:ROOM``, besides what the players are told over HTTP and WebSockets."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import redis.asyncio as aioredis

from erren.server.client import PlayerClient
from erren.testing.waits import eventually

from ._support.harness import Server, cluster_pair, run
from ._support.helpers import wait_for
from ._support.presence import WELCOME, Player, Searching, register
from ._support.redis_ns import REDIS_URL

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"
GRACE_S = 2.0
SHOW_UP_S = 2.0


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    """Node a, node b and the cluster's Redis prefix; the logs checked for tracebacks after."""
    tmp = tmp_path_factory.mktemp("cluster-presence")
    options = ("--queue-grace", f"{GRACE_S:g}")
    with cluster_pair(tmp, ("node-a", "node-b"), *options, "--show-up", f"{SHOW_UP_S:g}") as pair:
        yield pair
    for node in pair[:2]:
        log = node.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]


class Keys:
    """The cluster's keys of quick match, under the test's prefix."""

    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.redis, self.prefix = client, prefix

    async def seat(self, player: Player) -> str | None:
        value = await self.redis.get(f"{self.prefix}seat:{player.id}")
        return None if value is None else str(value)

    async def away(self, player: Player) -> bool:
        return bool(await self.redis.exists(f"{self.prefix}away:{player.id}"))

    async def queue(self) -> list[str]:
        return [
            str(e).partition("|")[2]
            for e in await self.redis.lrange(f"{self.prefix}q:{ROOM}", 0, -1)
        ]


@contextlib.asynccontextmanager
async def _keys(prefix: str) -> AsyncIterator[Keys]:
    client = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        yield Keys(client, prefix)
    finally:
        await client.aclose()


async def _seats(url: str, table: str) -> list[str]:
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.get(f"/tables/{table}")
        assert reply.status_code == 200, reply.text
        return [str(seat["name"]) for seat in reply.json()["seats"]]


def test_a_ghost_on_one_node_is_nobody_to_be_seated_with_on_the_other(
    nodes: tuple[Server, Server, str],
) -> None:
    """Z waits on node a and his tab closes: he is away (his reservation still says the queue);
    W, on node b, is not seated with him but waits behind him; once the grace is over Z's keys
    and his entry are gone; X comes to node a and W is seated with X."""
    a, b, prefix = nodes

    async def go() -> None:
        async with _keys(prefix) as keys:
            z, w, x = [await register(a.url) for _ in range(3)]
            zs = Searching(a.url, z, ROOM)
            await z.until(b.url, (ROOM, False))
            await zs.goes()
            await z.until(b.url, (ROOM, True))
            assert (await keys.seat(z), await keys.away(z)) == (f"queue:{ROOM}", True)
            ws = Searching(b.url, w, ROOM)
            await w.until(a.url, (ROOM, False))
            assert await keys.queue() == [z.name, w.name] and not ws.task.done()
            await z.until(a.url, None)
            assert (await keys.seat(z), await keys.away(z), await keys.queue()) == (
                None,
                False,
                [w.name],
            )
            status, his = await Searching(a.url, x, ROOM).answer()
            w_status, hers = await ws.answer()
            assert (status, w_status) == (200, 200)
            assert hers["table"] == his["table"] and (hers["seat"], his["seat"]) == (0, 1)
            assert await _seats(a.url, his["table"]) == [w.name, x.name]  # node a made it

    run(go())


def test_a_reload_on_the_other_node_keeps_the_place(nodes: tuple[Server, Server, str]) -> None:
    """Z waits on node a and reloads; the balancer sends the reloaded page to node b.  Y, who
    came to node b meanwhile, waits behind Z; Z's resume on node b is paired with Y at once."""
    a, b, prefix = nodes

    async def go() -> None:
        async with _keys(prefix) as keys:
            z, y = await register(a.url), await register(b.url)
            zs = Searching(a.url, z, ROOM)
            await z.until(a.url, (ROOM, False))
            await zs.goes()
            ys = Searching(b.url, y, ROOM)
            await y.until(b.url, (ROOM, False))
            assert await keys.queue() == [z.name, y.name]
            (z_status, back), (y_status, his) = (
                await Searching(b.url, z, ROOM, resume=True).answer(),
                await ys.answer(),
            )
            assert (z_status, y_status) == (200, 200)
            assert back["table"] == his["table"] and (his["seat"], back["seat"]) == (0, 1)
            assert await keys.seat(z) == await keys.seat(y) == back["table"]
            assert not await keys.away(z) and await keys.queue() == []

    run(go())


def test_a_dissolved_pairing_across_nodes_puts_the_one_present_first(
    nodes: tuple[Server, Server, str],
) -> None:
    """W waits on node a; G, on node b, is paired with her (node b makes the table) and never
    comes; Y queues on node a meanwhile.  W joins the table through node a (relayed to node b)
    and hears ``no-show``; Redis has her waiting again, away, first in the queue, before Y;
    her resume on node a pairs her with Y at once; G's seat is released as the table stops
    (just after the close reaches W).  No bean moved."""
    a, b, prefix = nodes

    async def go() -> None:
        async with _keys(prefix) as keys:
            w, g, y = [await register(a.url) for _ in range(3)]
            waiting = Searching(a.url, w, ROOM)
            await w.until(a.url, (ROOM, False))
            status, ghost = await Searching(b.url, g, ROOM).answer()
            assert status == 200 and ghost["seat"] == 1
            _, hers = await waiting.answer()
            table = hers["table"]
            assert ghost["table"] == table and await _seats(b.url, table) == [w.name, g.name]
            ys = Searching(a.url, y, ROOM)
            await y.until(a.url, (ROOM, False))
            async with PlayerClient(a.url, w.token) as client:
                await client.connect()
                await client.join(table)
                closed = await wait_for(client, lambda m: m.get("type") == "closed", timeout=30)
            params = {"room": ROOM, "seats": [1], "seconds": round(SHOW_UP_S)}
            assert (closed["code"], closed["params"]) == ("no-show", params)
            assert (await keys.seat(w), await keys.away(w)) == (f"queue:{ROOM}", True)
            assert await keys.queue() == [w.name, y.name]

            async def g_released() -> bool:  # the table lets him go as it stops, after the close
                return await keys.seat(g) is None

            await eventually(g_released, "the absent player's seat released")
            (w_status, again), (y_status, his) = (
                await Searching(a.url, w, ROOM, resume=True).answer(),
                await ys.answer(),
            )
            assert (w_status, y_status) == (200, 200)
            assert again["table"] == his["table"] != table
            assert (his["seat"], again["seat"]) == (0, 1)
            assert [await p.balance(b.url) for p in (w, g, y)] == [WELCOME] * 3

    run(go())


def test_an_away_wait_yields_to_a_table_on_the_other_node(
    nodes: tuple[Server, Server, str],
) -> None:
    """Z's search on node a is away when he opens a table against the computer on node b: he
    is seated (not refused with ``waiting``); his reservation is that table, his entry and
    away mark are gone."""
    a, b, prefix = nodes

    async def go() -> None:
        async with _keys(prefix) as keys:
            z = await register(a.url)
            zs = Searching(a.url, z, "xiamen/novice")
            await z.until(a.url, ("xiamen/novice", False))
            await zs.goes()
            await z.until(a.url, ("xiamen/novice", True))
            async with httpx.AsyncClient(base_url=b.url) as http:
                made = await http.post(
                    "/tables/vs-computer", json={"family": "guobiao-2p"}, headers=z.auth
                )
            assert made.status_code == 201, made.text
            assert await keys.seat(z) == made.json()["table"] and not await keys.away(z)
            assert await z.search(a.url) is None
            entries = await keys.redis.lrange(f"{prefix}q:xiamen/novice", 0, -1)
            assert f"{z.id}|{z.name}" not in entries

    run(go())
