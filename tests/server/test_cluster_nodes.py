"""Two ``erren serve --redis`` nodes as separate processes on one PostgreSQL database and the
machine's Redis (a key prefix of the test's own): players who wait on different nodes are
paired exactly once, an account is never seated twice, the paired table has one owner node
and its hand plays to the end there, every bean audited afterwards."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import httpx
import pytest
import redis

from erren.bots import find_bot
from erren.server.client import PlayerClient

from ._support.harness import Server, cluster_pair, run
from ._support.redis_ns import REDIS_URL, until_queued

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    """Two nodes of one cluster (and the cluster's Redis prefix); stopped, the ledger audited
    and the Redis keys deleted afterwards."""
    with cluster_pair(tmp_path_factory.mktemp("cluster"), ("node-a", "node-b")) as pair:
        yield pair


async def _account(url: str) -> str:
    name = "c" + uuid.uuid4().hex[:10]
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])


async def _quick(url: str, token: str, wait_s: float = 20) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        return await http.post(
            "/match/quick",
            json={"room": ROOM, "wait_s": wait_s},
            headers={"Authorization": f"Bearer {token}"},
        )


def _owner(prefix: str, table: str) -> str:
    with redis.Redis.from_url(REDIS_URL, decode_responses=True) as client:
        value = client.get(f"{prefix}lease:{table}")
    assert isinstance(value, str), f"table {table} has no lease"
    return value.rpartition("|")[0]


def test_players_waiting_on_two_nodes_are_paired_and_play_at_the_owner(
    nodes: tuple[Server, Server, str],
) -> None:
    """Slow (5–11 s): a whole hand at the cluster nodes' real-speed timers (the cluster tests
    run at real time, 3 s leases), after a quick match across two nodes."""
    a, b, prefix = nodes

    async def go() -> None:
        ann, bob = await _account(a.url), await _account(b.url)  # one database: any node
        waiting = asyncio.create_task(_quick(a.url, ann))
        await until_queued(a.url, ann, prefix)  # ann waits on node a
        second = await _quick(b.url, bob)
        first = await waiting
        assert first.status_code == second.status_code == 200, (first.text, second.text)
        one, two = first.json(), second.json()
        assert one["table"] == two["table"]
        assert (one["seat"], two["seat"]) == (0, 1)  # she waited: seat 0
        table = one["table"]
        names = [s["name"] for s in two["info"]["seats"]]
        assert [s["name"] for s in one["info"]["seats"]] == names
        # the node that paired them (b) made the table and owns it
        assert _owner(prefix, table) == "node-b"
        # both play a hand to its end at the owner
        players = [PlayerClient(b.url, ann), PlayerClient(b.url, bob)]
        try:
            done = await asyncio.gather(
                *(
                    p.play(table, find_bot("random", seed=i), hands=1, timeout=30)
                    for i, p in enumerate(players)
                )
            )
        finally:
            for p in players:
                await p.close()
        assert done == [1, 1]

    run(go())


def test_concurrent_quick_matches_across_nodes_never_seat_an_account_twice(
    nodes: tuple[Server, Server, str],
) -> None:
    """Six accounts each ask both nodes at once: each is seated exactly once, three tables
    of two different accounts each; the other request of each account is refused (409)."""
    a, b, _ = nodes

    async def go() -> None:
        tokens = [await _account(a.url) for _ in range(6)]
        asks = [(t, node.url) for t in tokens for node in (a, b)]
        answers = await asyncio.gather(*(_quick(url, t) for t, url in asks))
        seated: dict[str, list[str]] = {}
        for (token, _), answer in zip(asks, answers, strict=True):
            if answer.status_code == 200:
                seated.setdefault(token, []).append(answer.json()["table"])
            else:
                assert answer.status_code == 409, answer.text
                assert answer.json()["code"] in ("waiting", "seated"), answer.text
        assert sorted(seated) == sorted(tokens)
        assert all(len(tables) == 1 for tables in seated.values())  # never twice
        by_table: dict[str, int] = {}
        for (table,) in seated.values():
            by_table[table] = by_table.get(table, 0) + 1
        assert sorted(by_table.values()) == [2, 2, 2]

    run(go())


async def _cancel(url: str, token: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        return await http.delete("/match/quick", headers={"Authorization": f"Bearer {token}"})


def test_a_quick_match_waiting_on_one_node_is_cancelled_from_the_other(
    nodes: tuple[Server, Server, str],
) -> None:
    """Ann waits on node a and cancels from node b (another tab): her request on node a
    answers 409 ``cancelled`` long before its 20 s, she is out of the queue (bob finds nobody),
    and a second cancel answers 404.  Once a pairing came first, a cancel answers 409
    ``seated`` with the table: the match stands."""
    a, b, prefix = nodes

    async def go() -> None:
        ann, bob = await _account(a.url), await _account(b.url)
        waiting = asyncio.create_task(_quick(a.url, ann, wait_s=20))
        for _ in range(100):  # until she is in the queue
            await asyncio.sleep(0.05)
            cancelled = await _cancel(b.url, ann)
            if cancelled.status_code == 204:
                break
            assert cancelled.json()["code"] == "not-waiting", cancelled.text
        assert cancelled.status_code == 204
        answer = await asyncio.wait_for(waiting, 10)
        assert (answer.status_code, answer.json()["code"]) == (409, "cancelled")
        alone = await _quick(b.url, bob, wait_s=0.5)
        assert (alone.status_code, alone.json()["code"]) == (408, "no-opponent")
        again = await _cancel(a.url, ann)
        assert (again.status_code, again.json()["code"]) == (404, "not-waiting")
        # too late: bob pairs with her first, her cancel (from either node) leaves the match
        waiting = asyncio.create_task(_quick(a.url, ann, wait_s=20))
        await until_queued(a.url, ann, prefix)
        second = await _quick(b.url, bob)
        first = await waiting
        assert first.status_code == second.status_code == 200, (first.text, second.text)
        late = await _cancel(b.url, ann)
        assert (late.status_code, late.json()["code"]) == (409, "seated")
        assert late.json()["table"] == first.json()["table"]

    run(go())
