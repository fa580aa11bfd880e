"""The repeat rule of quick match in a cluster (:mod:`erren.server.pairing`, kept in Redis by
:mod:`erren.server.cluster.matching`): the same two accounts are paired again only when the
hold since their last pairing has ended, whichever nodes they wait on; a held-back player's
own node pairs him once it ends.  The shared queues on the real Redis, with the nodes' clock
set by the test (to the millisecond), then two nodes' lobbies in this process."""

from __future__ import annotations

import asyncio
import random
import uuid
from dataclasses import replace
from pathlib import Path

import pytest

from erren.server.clock import Clock
from erren.server.cluster import Cluster
from erren.server.cluster.matching import Again, Found, Joined, Outcome, Paired, Place, PlaceKind
from erren.server.lobby import Lobby, LobbyError
from erren.server.pairing import REPEAT_HOLD_S
from erren.server.store import Store, User
from erren.server.store.passwords import Passwords
from erren.server.table import TableView
from erren.testing.tables import SLOW_CLOCK
from erren.testing.waits import eventually

from ._support.queueing import START_S, Wall, on_wall
from ._support.redis_ns import clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]

ROOM = "gb-novice"
HOLD_MS = round(REPEAT_HOLD_S * 1000)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _paired_and_freed(a: Cluster, b: Cluster, table: str) -> None:
    """Ann (1) waits on ``a``, bob (2) comes on ``b``: paired at ``table``; the table then
    closes (both free again)."""
    assert (await a.matching.join(1, "ann", ROOM, "tA", 600)).kind is Outcome.QUEUED
    assert await b.matching.join(2, "bob", ROOM, table, 600) == Joined(
        Outcome.PAIRED, table, Paired(1, "ann")
    )
    assert await a.redis.lpop(f"{a.prefix}inbox:1") == f"{table}|2|bob"
    assert await a.matching.free_seats(table, [1, 2]) == 2


async def test_a_recent_pair_waits_out_its_hold_to_the_millisecond() -> None:
    wall = Wall()
    async with clusters(2) as (a, b):
        on_wall(wall, a, b)
        await _paired_and_freed(a, b, "t1")
        wall.t += 10
        assert (await a.matching.join(1, "ann", ROOM, "tA", 600)).kind is Outcome.QUEUED
        assert await b.matching.join(2, "bob", ROOM, "t2", 600) == Joined(
            Outcome.QUEUED, ROOM, held_s=REPEAT_HOLD_S - 10
        )
        assert await a.matching.seat_of(1) is None and await a.matching.seat_of(2) is None
        wall.t = START_S + REPEAT_HOLD_S - 0.001
        assert await b.matching.join_again(2, "bob", ROOM, "t3") == Joined(
            Outcome.QUEUED, ROOM, held_s=0.001
        )
        wall.t = START_S + REPEAT_HOLD_S
        assert await b.matching.join_again(2, "bob", ROOM, "t4") == Joined(
            Outcome.PAIRED, "t4", Paired(1, "ann")
        )
        assert await a.redis.lpop(f"{a.prefix}inbox:1") == "t4|2|bob"
        assert await a.matching.seat_of(1) == await a.matching.seat_of(2) == "t4"
        assert await a.redis.lrange(f"{a.prefix}q:{ROOM}", 0, -1) == []
        met = f"{a.prefix}met:1:2"
        assert await a.redis.get(met) == str(round(wall.t * 1000))  # the hold starts again
        assert 0 < await a.redis.pttl(met) <= HOLD_MS


async def test_a_held_back_player_leaves_his_recent_opponent_to_anyone_else() -> None:
    """Bob is held back from ann; cat, who comes next, is paired with ann (the oldest player
    she may meet), bob stays queued with no hold left to wait for; a cancelled bob trying
    again is told he is gone."""
    wall = Wall()
    async with clusters(3) as (a, b, c):
        on_wall(wall, a, b, c)
        await _paired_and_freed(a, b, "t1")
        await a.matching.join(1, "ann", ROOM, "tA", 600)
        assert (await b.matching.join(2, "bob", ROOM, "tB", 600)).held_s == REPEAT_HOLD_S
        assert await c.matching.join(3, "cat", ROOM, "tC", 600) == Joined(
            Outcome.PAIRED, "tC", Paired(1, "ann")
        )
        assert await b.matching.join_again(2, "bob", ROOM, "tD") == Joined(Outcome.QUEUED, ROOM)
        assert await a.redis.lrange(f"{a.prefix}q:{ROOM}", 0, -1) == ["2|bob"]
        assert await c.matching.cancel(2) == Joined(Outcome.CANCELLED, ROOM)
        assert await b.matching.join_again(2, "bob", ROOM, "tE") == Joined(Outcome.GONE, "")


async def test_no_hold_pairs_the_same_two_again_at_once() -> None:
    async with clusters(2) as (a, b):
        for node in (a, b):
            node.matching.repeat_ms = 0
        for table in ("t1", "t2", "t3"):
            await _paired_and_freed(a, b, table)
        assert await a.redis.exists(f"{a.prefix}met:1:2") == 0


async def test_the_held_back_players_node_pairs_him_when_the_hold_ends() -> None:
    """Real time, a hold of 0.3 s: ann waits on node a, bob (held back) on node b; bob's wait
    tries again when the hold ends and pairs him (his node makes the table: a ``paired``
    answer); ann's wait finds the table, as when an opponent comes."""
    async with clusters(2) as (a, b):
        for node in (a, b):
            node.matching.repeat_ms = 300
        await _paired_and_freed(a, b, "t1")
        await a.matching.join(1, "ann", ROOM, "tA", 20)
        hers = asyncio.create_task(a.matching.wait(1, ROOM, 20))
        queued = await b.matching.join(2, "bob", ROOM, "tB", 20)
        assert queued.held_s is not None and 0 < queued.held_s <= 0.3
        tables = iter(["t2", "t3", "t4"])
        again = Again("bob", lambda: next(tables), queued.held_s)
        his = await asyncio.wait_for(b.matching.wait(2, ROOM, 20, again), 10)
        assert his == Joined(Outcome.PAIRED, "t2", Paired(1, "ann"))
        assert await asyncio.wait_for(hers, 10) == Found("t2", Paired(2, "bob"))


# ------------------------------------------------------------------ two nodes' lobbies
BEAN_ROOM = "guobiao-2p/novice"
SCALE = 0.005
"""The lobbies' clock: two minutes of hold last 0.6 s."""


def _lobbies(store: Store, nodes: list[Cluster]) -> list[Lobby]:
    config = replace(SLOW_CLOCK, repeat_hold_s=REPEAT_HOLD_S)
    return [
        Lobby(store, clock=Clock(SCALE), config=config, rng=random.Random(i), cluster=node)
        for i, node in enumerate(nodes)
    ]


async def _queued(node: Cluster, user: User) -> None:
    async def waits() -> bool:
        place = await node.matching.place_of(user.id)
        return place == Place(PlaceKind.WAITING, BEAN_ROOM)

    await eventually(waits, f"{user.name} waits")


async def _match(near: Lobby, far: Lobby, ann: User, bob: User) -> TableView:
    """Ann waits on ``near``, bob comes on ``far``: paired at once (far's table)."""
    assert near.cluster is not None
    hers = asyncio.create_task(near.quick_match(ann, BEAN_ROOM, 20))
    await _queued(near.cluster, ann)
    table, seat = await far.quick_match(bob, BEAN_ROOM, 20)
    assert seat == 1 and (await hers)[1] == 0
    return table


async def _close(lobby: Lobby, table_id: str) -> None:
    table = lobby.tables[table_id]
    lobby._closed(table)
    await table.stop()
    for chore in list(lobby._chores):
        await chore


async def test_two_nodes_pair_a_recent_pair_again_only_after_the_hold(tmp_path: Path) -> None:
    """Ann waits on node 0, bob comes on node 1: paired, node 1's table; it closes.  They
    quick-match again at once: bob is held back (both wait), and 0.6 s later (two game
    minutes) bob's node pairs them: its table, ann in seat 0."""
    store = await Store.open(f"sqlite:///{tmp_path / 'erren.sqlite3'}", passwords=Passwords.fast())
    try:
        async with clusters(2) as nodes:
            near, far = _lobbies(store, nodes)
            try:
                ann, bob = [
                    await store.accounts.register("r" + uuid.uuid4().hex[:10], "password-123")
                    for _ in range(2)
                ]
                first = await _match(near, far, ann, bob)
                assert first.spec.id in far.tables
                await _close(far, first.spec.id)
                hers = asyncio.create_task(near.quick_match(ann, BEAN_ROOM, 20))
                await _queued(nodes[0], ann)
                his = asyncio.create_task(far.quick_match(bob, BEAN_ROOM, 20))
                await _queued(nodes[1], bob)
                assert not hers.done()  # held back: both wait
                (table, seat), (again, other) = await asyncio.gather(hers, his)
                assert (seat, other) == (0, 1) and table.spec.id == again.spec.id
                assert table.spec.id in far.tables and table.spec.id != first.spec.id
                assert [s.user_id for s in far.tables[table.spec.id].seats] == [ann.id, bob.id]
                with pytest.raises(LobbyError) as refused:
                    await near.private_table(ann, "guobiao-2p", {})
                assert (refused.value.code, refused.value.table) == ("seated", table.spec.id)
            finally:
                for lobby in (near, far):
                    await lobby.shutdown()
    finally:
        await store.close()
