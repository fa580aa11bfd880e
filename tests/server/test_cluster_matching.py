"""The shared quick-match queues on the real Redis: players waiting on different nodes are
paired exactly once, an account waits and sits at most once in the whole cluster."""

from __future__ import annotations

import asyncio
import random

import pytest

from erren.server.cluster import Cluster
from erren.server.cluster.matching import (
    CANCELLED,
    MARGIN_MS,
    Found,
    Joined,
    Outcome,
    Paired,
    Place,
    PlaceKind,
)
from erren.testing.waits import eventually

from ._support.redis_ns import clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_two_players_on_two_nodes_are_paired() -> None:
    async with clusters(2) as (a, b):
        assert await a.matching.join(1, "ann", "gb-novice", "tA", 5) == Joined(
            Outcome.QUEUED, "gb-novice"
        )
        waiting = asyncio.create_task(a.matching.wait(1, "gb-novice", 5))
        joined = await b.matching.join(2, "bob", "gb-novice", "tB", 5)
        assert joined == Joined(Outcome.PAIRED, "tB", Paired(1, "ann"))
        # ann's node learns the table bob's node made, and who sits in it
        assert await waiting == Found("tB", Paired(2, "bob"))
        assert await a.matching.seat_of(1) == await b.matching.seat_of(2) == "tB"


async def test_a_waiting_or_seated_account_is_refused_everywhere() -> None:
    async with clusters(2) as (a, b):
        await a.matching.join(1, "ann", "gb-novice", "tA", 5)
        assert await b.matching.join(1, "ann", "gb-expert", "tB", 5) == Joined(
            Outcome.WAITING, "gb-novice"
        )
        assert await b.matching.join(2, "bob", "gb-novice", "tB", 5) == Joined(
            Outcome.PAIRED, "tB", Paired(1, "ann")
        )
        assert await a.matching.join(1, "ann", "gb-novice", "tC", 5) == Joined(Outcome.SEATED, "tB")
        assert await a.matching.take_seat(2, "tD") == Place(PlaceKind.SEATED, "tB")  # private, say
        assert await a.matching.free_seats("tB", [1, 2]) == 2
        assert await a.matching.take_seat(2, "tD") is None
        assert await a.matching.free_seats("tB", [2]) == 0  # seated at tD, not freed


async def test_a_waiting_account_takes_no_seat_and_a_seated_one_does_not_wait() -> None:
    """One place per account (issue 26: ann waited on one node and opened a table on the
    other): while she waits, no node seats her anywhere; once she sits, no node queues her,
    and a pairing never moves a seated account."""
    async with clusters(2) as (a, b):
        await a.matching.join(1, "ann", "gb-novice", "tA", 5)
        assert await b.matching.take_seat(1, "tP") == Place(PlaceKind.WAITING, "gb-novice")
        assert await b.matching.place_of(1) == Place(PlaceKind.WAITING, "gb-novice")
        assert await b.matching.seat_of(1) is None
        assert await b.matching.cancel(1) == Joined(Outcome.CANCELLED, "gb-novice")
        assert await b.matching.take_seat(1, "tP") is None  # her private table, say
        assert await a.matching.join(1, "ann", "gb-novice", "tA", 5) == Joined(Outcome.SEATED, "tP")
        assert (await a.matching.join(2, "bob", "gb-novice", "tB", 5)).kind is Outcome.QUEUED
        assert await a.redis.lrange(f"{a.prefix}q:gb-novice", 0, -1) == ["2|bob"]
        assert await a.matching.place_of(1) == Place(PlaceKind.SEATED, "tP")


async def test_the_wait_of_a_node_that_died_expires() -> None:
    """A node that dies while its player waits never takes the wait back: the reservation
    expires ``MARGIN_MS`` after the wait would have ended, and the account may sit again; the
    queue's entry is dropped by the next arrival."""
    async with clusters(2) as (a, b):
        await a.matching.join(1, "ann", "gb-novice", "tA", 0.1)  # node a dies now
        assert await b.matching.take_seat(1, "tP") == Place(PlaceKind.WAITING, "gb-novice")
        assert 0 < await b.redis.pttl(b.matching.seat_key(1)) <= 100 + MARGIN_MS

        async def free() -> bool:
            return await b.matching.place_of(1) is None

        await eventually(free, "the dead node's wait expires", timeout=2 * MARGIN_MS / 1000 + 5)
        assert await b.matching.take_seat(1, "tP") is None
        assert (await b.matching.join(2, "bob", "gb-novice", "tB", 5)).kind is Outcome.QUEUED
        assert await b.redis.lrange(f"{b.prefix}q:gb-novice", 0, -1) == ["2|bob"]


async def test_one_player_is_not_paired_with_himself_and_leaves_when_time_is_up() -> None:
    async with clusters(1) as (a,):
        await a.matching.join(1, "ann", "gb-novice", "tA", 0.2)
        assert await a.matching.wait(1, "gb-novice", 0.2) is None
        assert await a.matching.place_of(1) is None  # his wait is over: he may sit anywhere
        # he left: bob waits alone, nobody pairs with the stale entry
        assert (await a.matching.join(2, "bob", "gb-novice", "tB", 5)).kind is Outcome.QUEUED
        assert await a.redis.lrange(f"{a.prefix}q:gb-novice", 0, -1) == ["2|bob"]


async def test_a_cancelled_wait_leaves_the_queue() -> None:
    async with clusters(2) as (a, b):
        await a.matching.join(1, "ann", "gb-novice", "tA", 5)
        waiting = asyncio.create_task(a.matching.wait(1, "gb-novice", 5))
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert (await b.matching.join(2, "bob", "gb-novice", "tB", 5)).kind is Outcome.QUEUED


async def test_a_cancel_from_another_node_ends_the_wait_there_at_once() -> None:
    """Ann waits on node a and cancels from node b (another tab): she leaves the queue once,
    node a's wait answers ``cancelled`` (woken through her inbox, long before its 20 s), a
    second cancel finds nothing, and nobody is paired with a ghost of her."""
    async with clusters(2) as (a, b):
        await a.matching.join(1, "ann", "gb-novice", "tA", 20)
        waiting = asyncio.create_task(a.matching.wait(1, "gb-novice", 20))
        await asyncio.sleep(0.05)
        assert await b.matching.cancel(1) == Joined(Outcome.CANCELLED, "gb-novice")
        assert await asyncio.wait_for(waiting, 5) == CANCELLED
        assert await b.matching.cancel(1) == Joined(Outcome.IDLE)
        assert await a.redis.lrange(f"{a.prefix}q:gb-novice", 0, -1) == []
        assert (await b.matching.join(2, "bob", "gb-novice", "tB", 5)).kind is Outcome.QUEUED
        # she may wait again at once; the old news is not read as the new wait's
        assert (await a.matching.join(1, "ann", "gb-novice", "tC", 5)).kind is Outcome.PAIRED
        assert await a.matching.seat_of(1) == "tC"


async def test_a_cancel_racing_a_pairing_never_both() -> None:
    """Bob's pairing and ann's cancel (from two nodes) race 30 times: either the pairing
    stands (the cancel answers ``seated``, her wait finds the table) or the cancel does (her
    wait answers ``cancelled``, bob is queued) — never both, never neither."""
    rng = random.Random(5)
    paired = cancelled = 0
    async with clusters(3) as (a, b, c):
        for i in range(30):
            ann, bob, room = 2 * i + 1, 2 * i + 2, f"race{i}"
            await a.matching.join(ann, "ann", room, f"tA{i}", 10)
            waiting = asyncio.create_task(a.matching.wait(ann, room, 10))

            async def pair(bob: int = bob, room: str = room, i: int = i) -> Joined:
                await asyncio.sleep(rng.random() * 0.004)
                return await b.matching.join(bob, "bob", room, f"tB{i}", 10)

            async def cancel(ann: int = ann) -> Joined:
                await asyncio.sleep(rng.random() * 0.004)
                return await c.matching.cancel(ann)

            joined, undone = await asyncio.gather(pair(), cancel())
            found = await asyncio.wait_for(waiting, 5)
            if joined.kind is Outcome.PAIRED:
                paired += 1
                assert undone == Joined(Outcome.SEATED, f"tB{i}")
                assert found == Found(f"tB{i}", Paired(bob, "bob"))
            else:
                cancelled += 1
                assert (joined.kind, undone) == (Outcome.QUEUED, Joined(Outcome.CANCELLED, room))
                assert found == CANCELLED
                assert await a.matching.seat_of(ann) is None
                assert await b.matching.cancel(bob) == Joined(Outcome.CANCELLED, room)
    assert paired + cancelled == 30


async def _play(node: Cluster, user: int, room: str, rng: random.Random) -> tuple[int, str]:
    await asyncio.sleep(rng.random() * 0.02)
    joined = await node.matching.join(user, f"p{user}", room, f"t-{user}", 3)
    if joined.kind is Outcome.PAIRED:
        return user, joined.where
    assert joined.kind is Outcome.QUEUED
    found = await node.matching.wait(user, room, 3)
    assert isinstance(found, Found)
    return user, found.table_id


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_concurrent_quick_matches_on_three_nodes_seat_every_account_once(
    seed: int,
) -> None:
    """40 players (even) in 2 rooms, each on one of 3 nodes at random, all at once: every
    player ends at exactly one table, every table holds exactly two players of one room."""
    rng = random.Random(seed)
    players = [(user, f"room{user % 2}") for user in range(1, 41)]
    async with clusters(3) as nodes:
        seated = await asyncio.gather(
            *(_play(rng.choice(nodes), user, room, rng) for user, room in players)
        )
        by_table: dict[str, list[int]] = {}
        for user, table in seated:
            by_table.setdefault(table, []).append(user)
        assert sorted(u for u, _ in seated) == list(range(1, 41))  # each once
        assert len(by_table) == 20
        for users in by_table.values():
            assert len(users) == 2 and users[0] % 2 == users[1] % 2
            for user in users:
                assert await nodes[0].matching.seat_of(user) == next(
                    t for t, us in by_table.items() if user in us
                )


async def test_a_dead_owners_seats_expire_and_a_live_owners_are_renewed() -> None:
    """Seats last three leases past the owner's last renewal: a live owner keeps renewing
    them with its lease; a dead owner's players are free again (if no node took the table)."""
    async with clusters(2, lease_ms=300) as (a, b):
        assert a.matching.seat_ms == 900
        await a.matching.join(1, "ann", "gb-novice", "tA", 5)
        await b.matching.join(2, "bob", "gb-novice", "tB", 5)  # seats 1, 2 at tB
        await a.matching.join(3, "cat", "gb-novice", "tC", 5)
        await b.matching.join(4, "dan", "gb-novice", "tD", 5)  # seats 3, 4 at tD
        token = await b.leases.acquire("tD")  # tD's owner lives and renews
        assert token is not None
        b.leases.keep("tD", token, lambda _: None, ([b.matching.seat_key(u) for u in (3, 4)], 900))

        async def freed() -> bool:  # tB's owner died: nobody renews its seats
            return await a.matching.seat_of(1) is None and await a.matching.seat_of(2) is None

        await eventually(freed, "the dead owner's seats expire", timeout=5)
        assert (await a.matching.join(1, "ann", "gb-novice", "tE", 5)).kind is Outcome.QUEUED
        assert await a.matching.seat_of(3) == await a.matching.seat_of(4) == "tD"
        assert (await a.matching.join(3, "cat", "gb-novice", "tF", 5)) == Joined(
            Outcome.SEATED, "tD"
        )
