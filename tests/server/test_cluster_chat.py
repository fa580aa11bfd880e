"""Quick chat across a cluster (issue 29, point 2): two ``erren serve --redis`` nodes on one
PostgreSQL database and the machine's Redis; the table lives on ``far`` and ann plays it from
``near`` through the relay.  Her phrase reaches both seats, bob's sticker reaches her, and the
owner's rate limit answers her through the relay (``chat-too-fast``), at real speed."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from erren.server.client import PlayerClient

from ._support.harness import Server, cluster_pair, run
from ._support.helpers import wait_for
from ._support.redis_ns import REDIS_URL, until_queued

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    """Two nodes at real speed: the 3 s between two chat messages is 3 s."""
    with cluster_pair(tmp_path, ("near", "far")) as pair:
        yield pair


async def _account(url: str) -> PlayerClient:
    async with httpx.AsyncClient(base_url=url) as http:
        name = "c" + uuid.uuid4().hex[:10]
        reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert reply.status_code == 201, reply.text
        client = PlayerClient(url, reply.json()["token"])
    client.keep = True
    return client


def _chat(message: dict[str, Any]) -> bool:
    return message.get("type") == "chat"


def test_chat_reaches_a_relayed_player_and_the_owner_limits_him(
    nodes: tuple[Server, Server, str],
) -> None:
    """Slow (about 10 s): two nodes, a quick match across them and a hand's start."""
    near, far, prefix = nodes

    async def go() -> None:
        ann, bob = await _account(near.url), await _account(far.url)
        waiting = asyncio.create_task(ann.quick_match(ROOM, 20))
        await until_queued(near.url, ann.token, prefix)
        second = await bob.quick_match(ROOM, 20)
        first = await waiting
        table = str(first["table"])
        assert (first["seat"], second["seat"]) == (0, 1)
        with redis.Redis.from_url(REDIS_URL, decode_responses=True) as client:
            assert str(client.get(f"{prefix}lease:{table}")).startswith("far|")
        for c in (ann, bob):
            await c.connect()
            await c.join(table)
        for c in (ann, bob):  # the hand is dealt once both sit
            await wait_for(c, lambda m: m.get("type") == "events")
        await ann.send({"type": "chat", "phrase": "hurry"})
        said = {"type": "chat", "seat": 0, "phrase": "hurry"}
        assert await wait_for(bob, _chat) == said
        assert await wait_for(ann, _chat) == said  # relayed back to her own node
        await bob.send({"type": "chat", "sticker": "tea"})
        assert await wait_for(ann, _chat) == {"type": "chat", "seat": 1, "sticker": "tea"}
        await ann.send({"type": "chat", "sticker": "smile"})  # within 3 s of her phrase
        refused = await wait_for(ann, lambda m: m.get("code") == "chat-too-fast")
        assert 0 < refused["params"]["retry_ms"] <= 3000
        assert not [m for m in bob.messages if m.get("sticker") == "smile"]
        await ann.send({"type": "leave"})
        for c in (ann, bob):
            closed = await wait_for(c, lambda m: m.get("type") == "closed")
            assert closed["code"] == "escaped"
            await c.close()

    run(go())
