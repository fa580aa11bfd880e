"""Friends across the nodes of a cluster (issue #29, point 1): two ``erren serve --redis``
nodes as separate processes on one PostgreSQL database and the machine's Redis.  A's socket is
on node a, B's on node b: B's presence reaches A (through ``{prefix}presence:{user}`` and the
``{prefix}friends`` channel), A's invite into a bean room reaches B on the other node, B joins
with its code there and both sit at A's table, and B hears when the table of an invite is gone;
the keys are gone after the test."""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from erren.server.client import PlayerClient
from erren.server.clock import Clock
from erren.server.lobby import Lobby, LobbyError
from erren.server.matchrule import Rule, Window
from erren.server.store import Store
from erren.server.store.passwords import Passwords
from erren.testing.tables import SLOW_CLOCK

from ._support.harness import Server, cluster_pair, run
from ._support.helpers import invites_at_login
from ._support.redis_ns import REDIS_URL, clusters

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    tmp = tmp_path_factory.mktemp("cluster-friends")
    with cluster_pair(tmp, ("node-a", "node-b")) as pair:
        yield pair
    for node in pair[:2]:
        log = node.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]


async def _register(url: str) -> tuple[int, str, dict[str, str]]:
    name = "c" + uuid.uuid4().hex[:10]
    async with httpx.AsyncClient(base_url=url) as http:
        made = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert made.status_code == 201, made.text
        auth = {"Authorization": f"Bearer {made.json()['token']}"}
        me = (await http.get("/me", headers=auth)).json()
    return int(me["id"]), made.json()["token"], auth


@dataclass(frozen=True)
class Side:
    """A new account and an HTTP client at its node."""

    id: int
    token: str
    auth: dict[str, str]
    http: httpx.AsyncClient


@contextlib.asynccontextmanager
async def _friends_across(a_node: Server, b_node: Server) -> AsyncIterator[tuple[Side, Side]]:
    """A, new at node a, asks B, new at node b, by B's friend code; B accepts."""
    a_id, a_token, a_auth = await _register(a_node.url)
    b_id, b_token, b_auth = await _register(b_node.url)
    async with (
        httpx.AsyncClient(base_url=a_node.url) as at_a,
        httpx.AsyncClient(base_url=b_node.url) as at_b,
    ):
        code = (await at_b.get("/friends", headers=b_auth)).json()["code"]
        sent = await at_a.post("/friends/requests", json={"who": code}, headers=a_auth)
        assert sent.status_code == 201, sent.text
        accepted = await at_b.post(f"/friends/requests/{a_id}/accept", headers=b_auth)
        assert accepted.status_code == 204
        yield Side(a_id, a_token, a_auth, at_a), Side(b_id, b_token, b_auth, at_b)


async def _until(client: PlayerClient, test: Any, timeout: float = 15) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            message = await client.recv()
            if test(message):
                return message


def test_presence_and_a_bean_invite_cross_the_nodes(nodes: tuple[Server, Server, str]) -> None:
    a_node, b_node, prefix = nodes

    async def main() -> None:
        async with _friends_across(a_node, b_node) as (a, b):
            a_id, a_token, a_auth, at_a = a.id, a.token, a.auth, a.http
            b_id, b_token, b_auth, at_b = b.id, b.token, b.auth, b.http
            sa, sb = PlayerClient(a_node.url, a_token), PlayerClient(b_node.url, b_token)
            await sa.log_in()
            try:
                await sb.log_in()
                seen = await _until(
                    sa, lambda m: m.get("type") == "presence" and m.get("user") == b_id
                )
                assert seen["state"] == "lobby"
                # node a reads B's presence from node b's word in Redis
                page = (await at_a.get("/friends", headers=a_auth)).json()
                assert [(f["id"], f["state"]) for f in page["friends"]] == [(b_id, "lobby")]
                r = aioredis.from_url(REDIS_URL, decode_responses=True)
                try:
                    assert "node-b" in await r.hgetall(f"{prefix}presence:{b_id}")
                finally:
                    await r.aclose()
                made = await at_a.post(
                    f"/friends/{b_id}/invite", json={"room": ROOM}, headers=a_auth
                )
                assert made.status_code == 201, made.text
                invite = await _until(sb, lambda m: m.get("type") == "invite")
                assert (invite["from"], invite["room"]) == (a_id, ROOM)
                joined = await at_b.post(
                    "/tables/join", json={"invite": invite["invite"]}, headers=b_auth
                )
                assert joined.status_code == 200, joined.text
                assert joined.json()["table"] == made.json()["table"]
                assert joined.json()["seat"] == 1 and joined.json()["info"]["room"] == ROOM
                at_table = await _until(
                    sa,
                    lambda m: (
                        m.get("type") == "presence"
                        and m.get("user") == b_id
                        and m.get("state") == "table"
                    ),
                )
                assert at_table["family"] == "guobiao-2p"
                await sb.close()
            finally:
                await sa.close()

    run(main())


def test_an_invite_sent_while_the_friend_was_away_reaches_him_on_another_node(
    nodes: tuple[Server, Server, str],
) -> None:
    """A, on node a, invites B while B has no socket open.  B's login on node b hears it
    (held in Redis); B joins A's table there, and his next login, on node a, hears nothing."""
    a_node, b_node, _ = nodes

    async def main() -> None:
        async with _friends_across(a_node, b_node) as (a, b):
            made = await a.http.post(f"/friends/{b.id}/invite", json={"room": ROOM}, headers=a.auth)
            assert made.status_code == 201, made.text
            seat = made.json()
            heard = await invites_at_login(b_node.url, b.token)
            assert [(m["type"], m["from"], m["invite"], m["table"], m["room"]) for m in heard] == [
                ("invite", a.id, seat["invite"], seat["table"], ROOM)
            ]
            joined = await b.http.post(
                "/tables/join", json={"invite": seat["invite"]}, headers=b.auth
            )
            assert joined.status_code == 200 and joined.json()["table"] == seat["table"]
            assert await invites_at_login(a_node.url, b.token) == []

    run(main())


def test_an_invite_is_over_on_the_friends_node_once_its_table_closes(
    nodes: tuple[Server, Server, str],
) -> None:
    """A, on node a, invites B, whose socket is on node b, and leaves his table: B's socket
    hears ``invite-over`` across the nodes, exactly A's and the code, and a later login of B's,
    on node a, hears no invite (the held one was let go, and the table is gone)."""
    a_node, b_node, _ = nodes

    async def main() -> None:
        async with _friends_across(a_node, b_node) as (a, b):
            a_name = (await a.http.get("/me", headers=a.auth)).json()["name"]
            sa, sb = PlayerClient(a_node.url, a.token), PlayerClient(b_node.url, b.token)
            await sa.log_in()
            try:
                await sb.log_in()
                made = await a.http.post(
                    f"/friends/{b.id}/invite", json={"family": "xiamen"}, headers=a.auth
                )
                assert made.status_code == 201, made.text
                seat = made.json()
                await _until(sb, lambda m: m.get("type") == "invite")
                await sa.join(seat["table"])
                await _until(sa, lambda m: m.get("type") == "joined")
                await sa.send({"type": "leave"})
                over = await _until(sb, lambda m: m.get("type") == "invite-over")
                assert over == {"type": "invite-over", "from": a.id, "name": a_name,
                                "invite": seat["invite"], "seated": False}  # fmt: skip
                await sb.close()
            finally:
                await sa.close()
            assert await invites_at_login(a_node.url, b.token) == []

    run(main())


def test_two_nodes_never_pair_players_with_a_block_from_the_store(tmp_path: Path) -> None:
    """Dan blocked ann (``store.social``): ann waits on node 0, dan on node 1, both past the
    longest wait (0.2 s here), and neither is paired; once he lifts the block they are."""

    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'e.sqlite3'}", passwords=Passwords.fast())
        try:
            async with clusters(2) as nodes:
                lobbies = [
                    Lobby(store, clock=Clock(), config=SLOW_CLOCK, rng=random.Random(i), cluster=n)
                    for i, n in enumerate(nodes)
                ]
                try:
                    ann, dan = [
                        await store.accounts.register("q" + uuid.uuid4().hex[:10], "password-123")
                        for _ in range(2)
                    ]
                    for lobby in lobbies:
                        rule = Rule(window=Window(longest_s=0.2), blocks=lobby.ground.blocks)
                        lobby.ground.queues.rule = rule
                        assert lobby.cluster is not None
                        lobby.cluster.matching.rule = rule
                    await store.social.block(dan.id, ann.id)
                    found = await asyncio.gather(
                        lobbies[0].quick_match(ann, ROOM, 1.5),
                        lobbies[1].quick_match(dan, ROOM, 1.5),
                        return_exceptions=True,
                    )
                    for result in found:
                        assert isinstance(result, LobbyError) and result.code == "no-opponent"
                    await store.social.unblock(dan.id, ann.id)
                    (table, _), (again, _) = await asyncio.gather(
                        lobbies[0].quick_match(ann, ROOM, 10),
                        lobbies[1].quick_match(dan, ROOM, 10),
                    )
                    assert table.spec.id == again.spec.id
                finally:
                    for lobby in lobbies:
                        await lobby.shutdown()
        finally:
            await store.close()

    run(main())
