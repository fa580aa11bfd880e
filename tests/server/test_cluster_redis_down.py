"""Redis unreachable (not emptied: its keys stay and keep expiring) costs at most the matchmaking
in flight, never a table or a bean.

The owner node reaches Redis through a TCP proxy the test cuts (connections reset, new ones
refused) or stalls (connections open, no byte passes: packets silently dropped) and restores;
the other node, when there is one, reaches Redis directly. While the owner is cut off: its quick
match answers 503 ``cluster-unavailable``, ``/ready`` says so, ``erren_redis_errors_total``
rises, and it stops its table (``closed`` ``moved``) before the lease it can no longer renew
could expire — no write of it is ever refused by the fence. The table is taken over (by the
other node at once, or by the owner itself once Redis is back), the players rejoin and finish
the hand: its record verifies and equals the stored actions, the beans add up, the ledger audit
passes; and the owner, not restarted, matches players again."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from erren.testing.proxy import TcpProxy

from ._support.cluster_play import finish_elsewhere, mid_hand, stored_actions
from ._support.harness import Server, cluster_node, database, run
from ._support.helpers import quick_pair, settlements, wait_for
from ._support.redis_ns import REDIS_URL, drop_prefix, new_prefix

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


@pytest.fixture
def proxy() -> Iterator[TcpProxy]:
    parts = urlsplit(REDIS_URL)
    with TcpProxy(parts.hostname or "127.0.0.1", parts.port or 6379) as running:
        yield running


def _nodes(
    tmp: Path, url: str, prefix: str, proxy: TcpProxy, *, heir: bool
) -> tuple[Server, Server | None]:
    """The owner, reaching Redis through the proxy, and (``heir``) a node reaching it
    directly; real-speed timers (:func:`cluster_node`): idle while Redis is cut, the players'
    turns do not time out and play the hand on before the owner stops its table."""
    through = f"redis://127.0.0.1:{proxy.port}/{urlsplit(REDIS_URL).path.lstrip('/') or '0'}"
    owner = cluster_node(url, tmp / "owner.log", prefix, "owner", redis=through)
    other = cluster_node(url, tmp / "heir.log", prefix, "heir")
    return owner, other if heir else None


@pytest.fixture(params=["two-nodes", "one-node"])
def cluster(
    request: pytest.FixtureRequest, tmp_path: Path, proxy: TcpProxy
) -> Iterator[tuple[Server, Server | None, TcpProxy]]:
    """The owner behind the proxy, and (``two-nodes``) a node reaching Redis directly; both
    stopped, the Redis keys deleted and the ledger audited afterwards."""
    prefix = new_prefix()
    with database("postgresql", tmp_path) as url:
        owner, heir = _nodes(tmp_path, url, prefix, proxy, heir=request.param == "two-nodes")
        try:
            owner.start()
            if heir is not None:
                heir.start()
            yield owner, heir, proxy
        finally:
            proxy.restore()
            for node in (owner, heir):
                if node is not None:
                    node.stop()
            asyncio.run(drop_prefix(prefix))


async def _register(url: str) -> str:
    async with httpx.AsyncClient(base_url=url) as http:
        name = "r" + uuid.uuid4().hex[:10]
        reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])


async def _redis_errors(http: httpx.AsyncClient) -> float:
    text = (await http.get("/metrics")).text
    found = re.search(r"^erren_redis_errors_total\{[^}]*\} (\S+)$", text, re.MULTILINE)
    assert found is not None, text[:2000]
    return float(found.group(1))


async def _while_cut(owner: Server) -> None:
    """What the owner answers while it cannot reach Redis."""
    token = await _register(owner.url)  # the database still answers: accounts work
    async with httpx.AsyncClient(base_url=owner.url, timeout=30) as http:
        asked = await http.post(
            "/match/quick",
            json={"room": ROOM, "wait_s": 5},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert (asked.status_code, asked.json()["code"]) == (503, "cluster-unavailable")
        cancel = await http.delete("/match/quick", headers={"Authorization": f"Bearer {token}"})
        assert (cancel.status_code, cancel.json()["code"]) == (503, "cluster-unavailable")
        ready = await http.get("/ready")
        assert (ready.status_code, ready.json()["code"]) == (503, "cluster-unavailable")
        assert (await http.get("/health")).status_code == 200
        assert await _redis_errors(http) > 0


async def _recovered(owner: Server) -> None:
    """Back without a restart: ready again, and it pairs two players at a table it owns."""
    async with httpx.AsyncClient(base_url=owner.url, timeout=10) as http:
        for _ in range(100):
            if (await http.get("/ready")).status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert (await http.get("/ready")).json() == {"ready": True, "node": "owner"}
    a, b, table = await quick_pair(owner.url, ROOM)
    assert table
    await a.close()
    await b.close()


@pytest.mark.parametrize("how", ["cut", "stall"])
def test_redis_unreachable_stops_the_table_safely_and_the_hand_finishes(
    cluster: tuple[Server, Server | None, TcpProxy], how: str
) -> None:
    """``cut``: connections reset, new ones refused; ``stall``: connections stay open and no
    byte passes (nothing refuses, nothing answers: every wait must be bounded by the node).

    Slow (about 8–15 s for each case): two server processes of its own; the owner gives the table
    up 0.6 s before its 3 s lease could lapse, and a stalled Redis is noticed only through the
    nodes' bounded waits."""
    owner, heir, proxy = cluster

    async def go() -> None:
        a, b, table = await mid_hand(owner)
        game = a.game
        proxy.cut() if how == "cut" else proxy.stall()
        # the owner gives the table up before its lease could expire, writing nothing more
        for c in (a, b):
            closed = await wait_for(c, lambda m: m.get("type") == "closed", timeout=20)
            assert closed["code"] == "moved", closed
        assert not settlements(a.messages), "the hand was still running"
        seen = max(a.last_n, b.last_n)
        await _while_cut(owner)
        if heir is None:  # one node: it takes its own table back once Redis answers (the
            proxy.restore()  # players' rejoin tries again until its lease has lapsed)
        end = await finish_elsewhere(a, b, table, heir or owner, game=game, seen=seen)
        assert game is not None
        assert await stored_actions(owner.database, game) == tuple(end["record"]["actions"])
        proxy.restore()
        await _recovered(owner)
        log = owner.log.read_text()
        assert f"lost the lease of table {table}" in log
        assert "owned by another node" not in log  # no write of it was ever fenced off
        await a.close()
        await b.close()

    run(go(), timeout=55)
