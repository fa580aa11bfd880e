"""A node's death loses no table that was waiting for a deal (no hand under way, so nothing in
the database to restore it from): a private table waiting for its guest, a table between two
hands.  Two ``erren serve --redis`` nodes on one PostgreSQL database; the owner is killed
(SIGKILL); the other node picks the table up from its entry in Redis
(:mod:`erren.server.cluster.idle`) once the lease has expired, and the players play on there:
the guest is seated by the code, the next hand is dealt with the hand number and the dealer
that follow, the beans add up and the ledger audit passes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erren.server.client import ClientError, PlayerClient
from erren.server.fairness import verify_record

from ._support.cluster_play import node_pair, rejoin
from ._support.harness import Server, run
from ._support.helpers import play_both, player, quick_pair, settlements, wait_for
from ._support.redis_ns import drop_prefix

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    with node_pair(tmp_path) as nodes:
        yield nodes


async def _join_by_code(guest: PlayerClient, code: str) -> dict[str, object]:
    """Join by ``code`` on the guest's node, again while the table is not picked up yet: 503
    ``relay-unavailable`` while the dead owner's lease lasts (it is asked and does not answer),
    404 ``no-invite`` once it has expired and until a node holds the table."""
    for _ in range(100):
        try:
            return await guest.join_invite(code)
        except ClientError as err:
            assert "no-invite" in str(err) or "relay-unavailable" in str(err), err
        await asyncio.sleep(0.1)
    raise AssertionError(f"no node picked up the table of invite {code}")


async def _host_waiting(owner: Server) -> tuple[PlayerClient, dict[str, Any]]:
    """A host at his private table on ``owner``, joined, waiting for his guest."""
    host = await player(owner.url, keep=True)
    made = await host.private_table("guobiao-2p")
    await host.connect()
    await host.join(made["table"])
    await wait_for(host, lambda m: m.get("type") == "joined")
    return host, made


async def _guest_back(host: PlayerClient, made: dict[str, Any], node: Server) -> PlayerClient:
    """A guest seated by the code on ``node`` once a node has picked the table up, and the
    host rejoined there; returns the guest."""
    guest = await player(node.url, keep=True)
    joined = await _join_by_code(guest, made["invite"])
    assert (joined["table"], joined["seat"]) == (made["table"], 1)
    await rejoin(host, node, made["table"])
    return guest


def test_a_private_table_waiting_for_its_guest_outlives_its_node(
    pair: tuple[Server, Server, str],
) -> None:
    """Slow (about 10 s): two server processes; the dead node's table waits for its 3 s lease to
    lapse on Redis's clock before another node takes it."""
    owner, heir, _ = pair

    async def go() -> None:
        host, made = await _host_waiting(owner)
        table = made["table"]
        owner.kill()
        guest = await _guest_back(host, made, heir)
        await play_both(host, guest, table, 1, seed=5)
        (end,) = settlements(guest.messages)
        assert end["record"]["outcome"]["hand"] == 1
        host_name, guest_name = end["record"]["seats"]
        assert host_name == made["info"]["seats"][0]["name"] and guest_name.startswith("guest-")
        verify_record(end["record"])
        assert "took over 1 table(s) nobody held" in heir.log.read_text()
        for c in (host, guest):
            await c.close()

    run(go())


def test_a_table_between_two_hands_outlives_its_node(pair: tuple[Server, Server, str]) -> None:
    """Hand 1 is played to its end on the owner, which dies before hand 2 is dealt: on the
    heir, hand 2 is dealt by the seat the match rules name (guobiao-2p §1.3: the dealer keeps
    the deal after a win of his, passes it after the other's win or a draw) and the beans of
    both hands add up.

    Slow (about 12 s): two server processes, a hand played, and the takeover after the dead
    node's 3 s lease lapses."""
    owner, heir, _ = pair

    async def go() -> None:
        a, b, table = await quick_pair(owner.url, ROOM)
        a.keep = b.keep = True
        await play_both(a, b, table, 1, seed=9)
        (first,) = settlements(a.messages)
        dealer, outcome = first["record"]["dealer"], first["record"]["outcome"]
        owner.kill()
        for c in (a, b):
            await rejoin(c, heir, table)
        await play_both(a, b, table, 1, seed=11)
        second = settlements(a.messages)[-1]
        assert second["game"] != first["game"]
        assert second["record"]["outcome"]["hand"] == 2
        keeps = outcome["winner"] == dealer  # guobiao-2p §1.3: a draw passes the deal too
        assert second["record"]["dealer"] == (dealer if keeps else 1 - dealer)
        verify_record(second["record"])
        assert await a.balance() + await b.balance() == 20_000
        assert "took over 1 table(s) nobody held" in heir.log.read_text()
        for c in (a, b):
            await c.close()

    run(go())


def test_a_private_table_waiting_for_its_guest_outlives_a_redis_restart(
    pair: tuple[Server, Server, str],
) -> None:
    """Every key of the cluster is gone (a Redis restart; Redis keeps nothing on disk here)
    while the host waits for his guest: the owner loses the lease, puts the table's entry back
    (nobody holds the lease), a node picks the table up and publishes its code again; the
    guest joins by the code on the other node and the two play.

    Slow (about 9 s): two server processes; the owner notices the lost lease at its next renewal
    and a node takes the table back."""
    owner, heir, prefix = pair

    async def go() -> None:
        host, made = await _host_waiting(owner)
        table = made["table"]
        await drop_prefix(prefix)
        closed = await wait_for(host, lambda m: m.get("type") == "closed", timeout=10)
        assert closed["code"] == "moved", closed
        guest = await _guest_back(host, made, heir)
        await play_both(host, guest, table, 1, seed=7)
        (end,) = settlements(guest.messages)
        assert end["record"]["outcome"]["hand"] == 1
        verify_record(end["record"])
        assert f"table {table} is waiting to be picked up again" in owner.log.read_text()
        for c in (host, guest):
            await c.close()

    run(go())
