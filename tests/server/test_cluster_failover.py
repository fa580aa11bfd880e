"""A node's death loses nothing: two ``erren serve --redis`` nodes on one PostgreSQL database;
the owner of a table mid-hand is killed (SIGKILL) or paused (SIGSTOP past its lease, then
SIGCONT); the other node takes the table over from the record within a few seconds, the
players reconnect to it and finish the hand; the stored actions are exactly the record's, the
beans add up and the ledger audit passes."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from erren.bots import find_bot
from erren.server.client import PlayerClient
from erren.server.fairness import verify_record
from erren.server.store import Store

from ._support.harness import Server, database, run
from ._support.helpers import quick_pair, settlements, wait_for
from ._support.redis_ns import REDIS_URL, drop_prefix, new_prefix

LEASE_S = 1.0


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    prefix = new_prefix()
    with database("postgresql", tmp_path) as url:
        common = ("--redis", REDIS_URL, "--redis-prefix", prefix, "--lease", str(LEASE_S))
        # a long grace on both: the players come back in time even on a slow machine
        owner = Server(url, tmp_path / "a.log", *common, "--grace", "1000", "--node-id", "owner")
        heir = Server(url, tmp_path / "b.log", *common, "--grace", "1000", "--node-id", "heir")
        try:
            owner.start()
            heir.start()
            yield owner, heir, prefix
        finally:
            for node in (owner, heir):
                if node.proc is not None and node.proc.poll() is None:
                    node.proc.send_signal(signal.SIGCONT)
                node.stop()
            asyncio.run(drop_prefix(prefix))


async def _some_moves(players: tuple[PlayerClient, PlayerClient], until_n: int) -> None:
    """Play until each player has seen event ``until_n`` of a stored game (or the hand is
    over)."""
    bots = [find_bot("random", seed=1), find_bot("random", seed=2)]

    async def moves(c: PlayerClient, bot: Any) -> None:
        while c.game is None or c.last_n < until_n:
            message = await c.recv(10)
            if c.hand_over(message):
                return
            if c.my_turn():
                await c._move(bot, None)

    await asyncio.gather(*(moves(c, bot) for c, bot in zip(players, bots, strict=True)))


async def _drop(c: PlayerClient) -> None:
    """Close the player's socket (a paused node does not answer the closing handshake)."""
    if c.ws is not None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(c.ws.close(), 0.2)
        c.ws = None


async def _rejoin(c: PlayerClient, node: Server, table: str) -> None:
    """Reconnect to ``node`` and resume by event number, until it has taken the table over."""
    await _drop(c)
    c.server = node.url
    await c.http.aclose()
    c.http = httpx.AsyncClient(
        base_url=node.url, headers={"Authorization": f"Bearer {c.token}"}, timeout=60
    )
    answer: dict[str, Any] = {}
    for _ in range(100):
        await c.connect()
        await c.join(table, resume=True)
        answer = await wait_for(c, lambda m: m.get("type") in ("joined", "error"))
        if answer["type"] == "joined":
            return
        await _drop(c)
        await asyncio.sleep(0.2)
    raise AssertionError(f"{node.url} never took table {table} over: {answer}")


async def _finish_elsewhere(
    a: PlayerClient, b: PlayerClient, table: str, heir: Server, *, game: int | None, seen: int
) -> dict[str, Any]:
    for c in (a, b):
        await _rejoin(c, heir, table)
    caught = await wait_for(a, lambda m: m.get("type") in ("events", "snapshot"))
    if caught["type"] == "events":
        assert all(e["n"] > seen for e in caught["events"])  # nothing twice
    assert a.game == game
    await asyncio.gather(
        a.play(table, find_bot("random", seed=3), hands=1, leave_after=False, timeout=30),
        b.play(table, find_bot("random", seed=4), hands=1, leave_after=False, timeout=30),
    )
    end = settlements(a.messages)[-1]
    assert end["game"] == game
    verify_record(end["record"])
    assert await a.balance() + await b.balance() == 20_000
    return end


async def _stored_actions(url: str, game: int) -> tuple[str, ...]:
    store = await Store.open(url)
    try:
        stored = await store.get_game(game)
        assert stored is not None and stored.finished
        return stored.actions
    finally:
        await store.close()


async def _mid_hand(owner: Server) -> tuple[PlayerClient, PlayerClient, str]:
    a, b, table = await quick_pair(owner.url, "guobiao-2p/novice")  # both on the owner
    a.keep = b.keep = True
    for c in (a, b):
        await c.connect()
        await c.join(table)
    await _some_moves((a, b), 8)
    assert a.game is not None, "the hand's game is stored"
    assert not settlements(a.messages), "the hand is still running"
    return a, b, table


def test_sigkill_of_the_owner_mid_hand_the_other_node_finishes_it(
    pair: tuple[Server, Server, str],
) -> None:
    owner, heir, _ = pair

    async def go() -> None:
        a, b, table = await _mid_hand(owner)
        game, seen = a.game, a.last_n
        owner.kill()
        end = await _finish_elsewhere(a, b, table, heir, game=game, seen=seen)
        assert game is not None
        assert await _stored_actions(owner.database, game) == tuple(end["record"]["actions"])
        await a.close()
        await b.close()

    run(go())


def test_a_paused_owner_loses_its_table_and_cannot_write(
    pair: tuple[Server, Server, str],
) -> None:
    owner, heir, _ = pair

    async def go() -> None:
        a, b, table = await _mid_hand(owner)
        game, seen = a.game, a.last_n
        assert owner.proc is not None
        owner.proc.send_signal(signal.SIGSTOP)  # paused past its lease
        end = await _finish_elsewhere(a, b, table, heir, game=game, seen=seen)
        owner.proc.send_signal(signal.SIGCONT)
        for _ in range(100):  # it wakes up, finds its lease gone and lets the table go
            await asyncio.sleep(0.1)
            if f"lost the lease of table {table}" in owner.log.read_text():
                break
        assert f"lost the lease of table {table}" in owner.log.read_text()
        assert game is not None
        assert await _stored_actions(owner.database, game) == tuple(end["record"]["actions"])
        await a.close()
        await b.close()

    run(go())


def test_redis_losing_every_key_mid_hand_loses_no_table(pair: tuple[Server, Server, str]) -> None:
    """What a Redis restart does to the cluster (Redis keeps nothing on disk here): every key
    of the cluster is gone mid-hand.  The owner cannot renew its lease and lets the table go;
    a node takes it over again from the database (a token above the stored fence); the players
    rejoin there and finish the hand."""
    owner, heir, prefix = pair

    async def go() -> None:
        a, b, table = await _mid_hand(owner)
        game, seen = a.game, a.last_n
        await drop_prefix(prefix)  # the machine's Redis is shared: only this cluster's keys
        client = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
        try:
            for _ in range(200):  # until a node holds the table again
                await asyncio.sleep(0.1)
                value = str(await client.get(f"{prefix}lease:{table}") or "")
                if value and not value.endswith("|1"):
                    break
        finally:
            await client.aclose()
        assert value, "no node took the table back"
        node_id, _, token = value.rpartition("|")
        assert int(token) >= 2  # above the fence the first owner wrote with
        node = {"owner": owner, "heir": heir}[node_id]
        end = await _finish_elsewhere(a, b, table, node, game=game, seen=seen)
        assert game is not None
        assert await _stored_actions(owner.database, game) == tuple(end["record"]["actions"])
        await a.close()
        await b.close()

    run(go())
