"""Friends while a cluster node cannot reach Redis (issue #29's gaps), with the technique of
``test_cluster_redis_down.py``: the ``cut`` node reaches Redis through a TCP proxy the test
cuts (connections reset, new ones refused) and restores; the ``whole`` node reaches it
directly.  Ann and cat are on the cut node, dan on the whole one; ann is friends with both.

While Redis is cut (or stalled): ann comes online and cat, on her node, hears it (what her
node knows); ann's invite of cat is refused with 503 ``invites-unavailable`` and leaves no
table open; dan comes online on the other node (his word goes to Redis, which the cut node
cannot hear).  Once Redis answers again the cut node catches up: dan hears ann's presence,
ann hears dan's; then presence flows as usual (dan leaves: ann hears him offline)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from erren.server.client import PlayerClient
from erren.testing.proxy import TcpProxy

from ._support.harness import Server, cluster_node, database, run
from ._support.helpers import registered, wait_for
from ._support.redis_ns import REDIS_URL, drop_prefix, new_prefix
from ._support.spectating import befriend, new_name

pytestmark = pytest.mark.services


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[Server, Server, TcpProxy]]:
    """The cut node (through the proxy) and the whole one; both stopped, the proxy restored
    and the Redis keys deleted afterwards."""
    prefix = new_prefix()
    parts = urlsplit(REDIS_URL)
    with (
        TcpProxy(parts.hostname or "127.0.0.1", parts.port or 6379) as proxy,
        database("postgresql", tmp_path) as url,
    ):
        through = f"redis://127.0.0.1:{proxy.port}/{parts.path.lstrip('/') or '0'}"
        cut = cluster_node(url, tmp_path / "cut.log", prefix, "cut", redis=through)
        whole = cluster_node(url, tmp_path / "whole.log", prefix, "whole")
        try:
            cut.start()
            whole.start()
            yield cut, whole, proxy
        finally:
            proxy.restore()
            cut.stop()
            whole.stop()
            asyncio.run(drop_prefix(prefix))


def _presence_of(user: int, state: str) -> Any:
    return lambda m: m.get("type") == "presence" and m["user"] == user and m["state"] == state


async def _connected(client: PlayerClient) -> int:
    client.keep = True
    welcome = await client.log_in()
    return int(welcome["user"]["id"])


async def _id(client: PlayerClient) -> int:
    reply = await client.http.get("/me")
    assert reply.status_code == 200, reply.text
    return int(reply.json()["id"])


@pytest.mark.parametrize("how", ["cut", "stall"])
def test_presence_falls_back_and_resumes_and_invites_say_why(
    nodes: tuple[Server, Server, TcpProxy], how: str
) -> None:
    """``cut``: connections reset, new ones refused; ``stall``: connections open, no byte
    passes (every wait is the node's own bound), and the held bytes pass once restored.

    Slow (about 5 s cut, 13 s stalled, and 15–25 s to start its two server processes on a
    busy machine): the cut node's bounded waits and its reconnection to Redis."""
    cut, whole, proxy = nodes

    async def main() -> None:
        na, nc, nd = new_name(), new_name(), new_name()
        ann, cat = await registered(cut.url, na), await registered(cut.url, nc)
        dan = await registered(whole.url, nd)
        await befriend(ann, na, cat, nc)
        await befriend(ann, na, dan, nd)
        ann_id, dan_id = await _id(ann), await _id(dan)
        await _connected(cat)
        proxy.cut() if how == "cut" else proxy.stall()
        await _connected(ann)
        await wait_for(cat, _presence_of(ann_id, "lobby"))  # what the cut node knows
        refused = await ann.http.post(f"/friends/{await _id(cat)}/invite", json={})
        assert (refused.status_code, refused.json()["code"]) == (503, "invites-unavailable")
        assert (await ann.http.get("/friends")).status_code == 200  # the store answers
        await _connected(dan)
        proxy.restore()
        # caught up: each hears of the other, though neither moved since Redis came back
        await wait_for(dan, _presence_of(ann_id, "lobby"), 30)
        await wait_for(ann, _presence_of(dan_id, "lobby"), 30)
        await dan.close()
        await wait_for(ann, _presence_of(dan_id, "offline"))
        made = await ann.http.post(f"/friends/{dan_id}/invite", json={})
        assert made.status_code == 201, made.text  # no table was left open by the refusal
        for client in (ann, cat):
            await client.close()

    run(main(), timeout=90)
