"""Fair quick match in a cluster: the shared queues' script (:mod:`erren.server.cluster.matching`)
pairs by the single server's rule (:mod:`erren.server.matchrule`): the closest skill within the
wider of the two windows, a waiting player told when his next chance comes, never a barred
(blocked) account.  On the real Redis, with the nodes' clock set by the test; every figure is
computed here from the documented formula."""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from erren.server.clock import Clock
from erren.server.cluster.matching import Joined, Outcome, Paired, Place, PlaceKind
from erren.server.lobby import Lobby, LobbyError
from erren.server.matchrule import BASE_GAP, LONGEST_WAIT_S, WIDEN_PER_S, Rule, Window
from erren.server.store import Store, User
from erren.server.store.passwords import Passwords
from erren.testing.tables import SLOW_CLOCK
from erren.testing.waits import eventually

from ._support.queueing import START_S, Wall, on_wall
from ._support.redis_ns import clusters

pytestmark = [pytest.mark.anyio, pytest.mark.services]

ROOM = "gb-novice"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def opens_after(gap: float) -> float:
    """The wait after which the documented window admits ``gap``."""
    return 0.0 if gap <= BASE_GAP else min((gap - BASE_GAP) / WIDEN_PER_S, LONGEST_WAIT_S)


async def test_the_closest_admitted_player_is_chosen_not_the_oldest() -> None:
    """Ann (25.0) waits; 1 s later bob (27.0): gap 2.0 opens after 4 s of the longer wait
    (ann's 1 s): queued, his next chance in 3 s; 1 s later cat (26.2): ann's gap 1.2 opens after
    0.8 s (she waited 2), bob's 0.8 at once: bob, the closer."""
    wall = Wall()
    async with clusters(2) as (a, b):
        on_wall(wall, a, b)
        queue, skills = f"{a.prefix}q:{ROOM}", f"{a.prefix}q:{ROOM}#skill"
        assert (await a.matching.join(1, "ann", ROOM, "tA", 600, skill=25.0)).kind is (
            Outcome.QUEUED
        )
        wall.t += 1
        chance = opens_after(2.0) - 1
        assert await b.matching.join(2, "bob", ROOM, "tB", 600, skill=27.0) == Joined(
            Outcome.QUEUED, ROOM, held_s=chance
        )
        assert await a.redis.hgetall(skills) == {
            "1": f"25.0|{round(START_S * 1000)}",
            "2": f"27.0|{round((START_S + 1) * 1000)}",
        }
        wall.t += 1
        assert opens_after(1.2) <= 2 and opens_after(0.8) == 0
        assert await a.matching.join(3, "cat", ROOM, "tC", 600, skill=26.2) == Joined(
            Outcome.PAIRED, "tC", Paired(2, "bob")
        )
        assert await a.redis.lrange(queue, 0, -1) == ["1|ann"]
        assert list(await a.redis.hgetall(skills)) == ["1"]
        assert await a.matching.cancel(1) == Joined(Outcome.CANCELLED, ROOM)
        assert await a.redis.exists(skills) == 0


async def test_a_waiting_player_is_paired_when_the_window_widens() -> None:
    """Ann (25.0) waits; bob (30.0) comes at once: gap 5.0 opens after 16 s: queued, told
    16 s; at 15.999 s his node's try finds nothing yet (1 ms left), at 16 s it pairs him.
    A gap of 20 (dan, 45.0) waits the longest wait, 20 s."""
    wall = Wall()
    async with clusters(2) as (a, b):
        on_wall(wall, a, b)
        await a.matching.join(1, "ann", ROOM, "tA", 600, skill=25.0)
        after = opens_after(5.0)
        assert after == 16.0
        assert await b.matching.join(2, "bob", ROOM, "tB", 600, skill=30.0) == Joined(
            Outcome.QUEUED, ROOM, held_s=after
        )
        wall.t = START_S + after - 0.001
        assert await b.matching.join_again(2, "bob", ROOM, "t2") == Joined(
            Outcome.QUEUED, ROOM, held_s=0.001
        )
        wall.t = START_S + after
        assert await b.matching.join_again(2, "bob", ROOM, "t3") == Joined(
            Outcome.PAIRED, "t3", Paired(1, "ann")
        )
        assert await a.redis.lpop(f"{a.prefix}inbox:1") == "t3|2|bob"
        await a.matching.free_seats("t3", [1, 2])
        wall.t += 100
        await a.matching.join(3, "cat", ROOM, "tC", 600, skill=25.0)
        assert await b.matching.join(4, "dan", ROOM, "tD", 600, skill=45.0) == Joined(
            Outcome.QUEUED, ROOM, held_s=LONGEST_WAIT_S
        )


async def test_a_barred_account_is_never_paired() -> None:
    """Ann and dan blocked each other: dan (barred from ann, at the same skill) is queued with
    no chance to wait for, even after the longest wait; eve is paired with ann."""
    wall = Wall()
    async with clusters(2) as (a, b):
        on_wall(wall, a, b)
        await a.matching.join(1, "ann", ROOM, "tA", 600, skill=25.0)
        barred = frozenset({1})
        assert await b.matching.join(4, "dan", ROOM, "tD", 600, skill=25.0, barred=barred) == (
            Joined(Outcome.QUEUED, ROOM)
        )
        wall.t += 2 * LONGEST_WAIT_S
        assert await b.matching.join_again(4, "dan", ROOM, "t2", barred) == Joined(
            Outcome.QUEUED, ROOM
        )
        assert await a.matching.join(5, "eve", ROOM, "tE", 600, skill=40.0) == Joined(
            Outcome.PAIRED, "tE", Paired(1, "ann")
        )


# ------------------------------------------------------------------ two nodes' lobbies
BEAN_ROOM = "guobiao-2p/novice"
QUICK = Rule(window=Window(base=1.0, per_s=50.0, longest_s=20.0))
"""A window that widens fast (a gap of 5 opens after 0.08 s): the lobbies run in real time."""


class FakeSkills:
    def __init__(self, of: dict[int, float]) -> None:
        self.of = of

    async def skill(self, user_id: int, family: str) -> float:
        return self.of[user_id]


class FakeBlocks:
    def __init__(self, a: int, b: int) -> None:
        self.pair = {a, b}

    def blocked(self, a: int, b: int) -> bool:
        return {a, b} == self.pair

    def barred(self, user_id: int) -> frozenset[int]:
        return frozenset(self.pair - {user_id}) if user_id in self.pair else frozenset()


@contextlib.asynccontextmanager
async def _two_lobbies(tmp: Path) -> AsyncIterator[tuple[Store, Lobby, Lobby]]:
    store = await Store.open(f"sqlite:///{tmp / 'erren.sqlite3'}", passwords=Passwords.fast())
    try:
        async with clusters(2) as nodes:
            lobbies = [
                Lobby(store, clock=Clock(), config=SLOW_CLOCK, rng=random.Random(i), cluster=n)
                for i, n in enumerate(nodes)
            ]
            try:
                yield store, lobbies[0], lobbies[1]
            finally:
                for lobby in lobbies:
                    await lobby.shutdown()
    finally:
        await store.close()


def _set(lobby: Lobby, skills: dict[int, float], rule: Rule) -> None:
    lobby.ground.skills = FakeSkills(skills)
    lobby.ground.queues.rule = rule
    assert lobby.cluster is not None
    lobby.cluster.matching.rule = rule


async def _waiting(lobby: Lobby, user: User) -> None:
    assert lobby.cluster is not None
    matching = lobby.cluster.matching

    async def waits() -> bool:
        return await matching.place_of(user.id) == Place(PlaceKind.WAITING, BEAN_ROOM)

    await eventually(waits, f"{user.name} waits")


async def test_two_nodes_pair_far_apart_players_when_the_window_widens(tmp_path: Path) -> None:
    """Ann (25) waits on node 0, bob (30) comes on node 1: gap 5, queued; his node tries
    again when the window admits it and pairs them (its table, bob in seat 1)."""
    async with _two_lobbies(tmp_path) as (store, near, far):
        ann, bob = [
            await store.accounts.register("w" + uuid.uuid4().hex[:10], "password-123")
            for _ in range(2)
        ]
        for lobby in (near, far):
            _set(lobby, {ann.id: 25.0, bob.id: 30.0}, QUICK)
        hers = asyncio.create_task(near.quick_match(ann, BEAN_ROOM, 20))
        await _waiting(near, ann)
        (table, seat), (again, other) = await asyncio.gather(
            hers, far.quick_match(bob, BEAN_ROOM, 20)
        )
        assert (seat, other) == (0, 1) and table.spec.id == again.spec.id in far.tables
        assert [s.user_id for s in far.tables[table.spec.id].seats] == [ann.id, bob.id]


async def test_two_nodes_never_pair_blocked_players(tmp_path: Path) -> None:
    """Ann (node 0) and dan (node 1) blocked each other: both wait past the longest wait
    (0.3 s with a 0.2 s longest wait); eve (same skill) comes and is paired with ann, the
    oldest of the two she may meet."""
    async with _two_lobbies(tmp_path) as (store, near, far):
        ann, dan, eve = [
            await store.accounts.register("b" + uuid.uuid4().hex[:10], "password-123")
            for _ in range(3)
        ]
        rule = Rule(window=Window(longest_s=0.2), blocks=FakeBlocks(ann.id, dan.id))
        for lobby in (near, far):
            _set(lobby, {ann.id: 25.0, dan.id: 25.0, eve.id: 25.0}, rule)
        hers = asyncio.create_task(near.quick_match(ann, BEAN_ROOM, 20))
        await _waiting(near, ann)
        his = asyncio.create_task(far.quick_match(dan, BEAN_ROOM, 20))
        await _waiting(far, dan)
        await asyncio.sleep(0.3)
        assert not hers.done() and not his.done()
        table, seat = await far.quick_match(eve, BEAN_ROOM, 20)
        theirs, her_seat = await hers
        assert (seat, her_seat) == (1, 0) and theirs.spec.id == table.spec.id
        assert [s.user_id for s in far.tables[table.spec.id].seats] == [ann.id, eve.id]
        assert await far.quick.cancel_quick(dan.id)
        with pytest.raises(LobbyError):
            await his
