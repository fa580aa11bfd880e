"""A node's death loses nothing: two ``erren serve --redis`` nodes on one PostgreSQL database;
the owner of a table mid-hand is killed (SIGKILL) or paused (SIGSTOP past its lease, then
SIGCONT); the other node takes the table over from the record within a few seconds, the
players reconnect to it and finish the hand; the stored actions are exactly the record's, the
beans add up and the ledger audit passes."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from ._support.cluster_play import finish_elsewhere, mid_hand, node_pair, stored_actions
from ._support.harness import Server, run
from ._support.redis_ns import REDIS_URL, drop_prefix

pytestmark = pytest.mark.services


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    with node_pair(tmp_path) as nodes:
        yield nodes


def test_sigkill_of_the_owner_mid_hand_the_other_node_finishes_it(
    pair: tuple[Server, Server, str],
) -> None:
    """Slow (about 10 s): two server processes of its own; the heir takes over once the killed
    owner's 3 s lease lapses on Redis's clock."""
    owner, heir, _ = pair

    async def go() -> None:
        a, b, table = await mid_hand(owner)
        game, seen = a.game, a.last_n
        owner.kill()
        end = await finish_elsewhere(a, b, table, heir, game=game, seen=seen)
        assert game is not None
        assert await stored_actions(owner.database, game) == tuple(end["record"]["actions"])
        await a.close()
        await b.close()

    run(go())


def test_a_paused_owner_loses_its_table_and_cannot_write(
    pair: tuple[Server, Server, str],
) -> None:
    """Slow (about 10 s): two server processes of its own; the owner stays paused past its 3 s
    lease."""
    owner, heir, _ = pair

    async def go() -> None:
        a, b, table = await mid_hand(owner)
        game, seen = a.game, a.last_n
        assert owner.proc is not None
        owner.proc.send_signal(signal.SIGSTOP)  # paused past its lease
        end = await finish_elsewhere(a, b, table, heir, game=game, seen=seen)
        owner.proc.send_signal(signal.SIGCONT)
        for _ in range(100):  # it wakes up, finds its lease gone and lets the table go
            await asyncio.sleep(0.1)
            if f"lost the lease of table {table}" in owner.log.read_text():
                break
        assert f"lost the lease of table {table}" in owner.log.read_text()
        assert game is not None
        assert await stored_actions(owner.database, game) == tuple(end["record"]["actions"])
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
        a, b, table = await mid_hand(owner)
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
        end = await finish_elsewhere(a, b, table, node, game=game, seen=seen)
        assert game is not None
        assert await stored_actions(owner.database, game) == tuple(end["record"]["actions"])
        await a.close()
        await b.close()

    run(go())
