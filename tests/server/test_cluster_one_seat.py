"""One place per account in the whole cluster (issue 26, point 2): two ``erren serve --redis``
nodes as separate processes on one PostgreSQL database and the machine's Redis.

An account waits in one quick-match queue or sits at one table — private, against the
computer, a campaign's, a quick match's, a friend's joined by its code — on one node, never
two: the probe's scenario (waiting on node a, then a table opened on node b) is refused with
409 ``waiting``, and every pair of the five ways to take a place, fired at the two nodes at the
same instant, seats the account exactly once; the other request is told where it is (409
``seated`` with the table, or ``waiting``).  Each round checks both nodes' ``/me/table`` and the
account's ``seat:{user}`` key in Redis."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import redis.asyncio as aioredis

from erren.server.cluster.matching import Place, PlaceKind
from erren.testing.waits import eventually

from ._support.harness import Server, cluster_pair, run
from ._support.one_seat import SUCCESS, Account, Answer, Kind, Node
from ._support.redis_ns import REDIS_URL, until_queued

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"
LANE_ROOMS = ("guobiao-2p/novice", "xiamen/novice", "arcade/novice")
"""The race runs this many rounds at a time, each lane's quick matches in a room of its own (a
waiting account is alone in its room: nobody pairs with it)."""
ROUNDS_PER_PAIR = 6
"""Rounds of each ordered pair of kinds (kind on node a, kind on node b): 25 × 6 = 150."""
SEED = 26
UNTOUCHED_RUN = ("ready", 1000)
"""A campaign run no hand was dealt for: status and bankroll (arcade R3.1)."""


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    """Two nodes of one cluster that take any number of new accounts (and the cluster's Redis
    prefix); stopped, their logs checked for tracebacks, the ledger audited and the Redis
    keys deleted afterwards."""
    tmp = tmp_path_factory.mktemp("one-seat")
    with cluster_pair(tmp, ("node-a", "node-b")) as pair:
        yield pair
    for node in pair[:2]:
        log = node.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]


@contextlib.asynccontextmanager
async def _clients(servers: tuple[Server, Server, str]) -> AsyncIterator[tuple[Node, Node]]:
    a, b, prefix = servers
    store = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    limits = httpx.Limits(max_connections=32)
    async with (
        httpx.AsyncClient(base_url=a.url, timeout=30, limits=limits) as near,
        httpx.AsyncClient(base_url=b.url, timeout=30, limits=limits) as far,
    ):
        try:
            yield Node("node-a", near, store, prefix), Node("node-b", far, store, prefix)
        finally:
            await store.aclose()


def _refused(answer: Answer, code: str, table: str | None = None) -> None:
    assert (answer.status, answer.code, answer.table) == (409, code, table), answer


# ---------------------------------------------------------------------------- the probe
def test_the_probe_waiting_on_one_node_opens_no_table_on_the_other(
    nodes: tuple[Server, Server, str],
) -> None:
    """The outside probe's scenario: X waits for a quick match on node a and asks node b for
    a private table, a table against the computer, a friend's table by its code and a campaign
    hand: each is refused with 409 ``waiting`` (it was 201 before).  An opponent then quick-
    matches on node b: X's wait answers 200, and X sits at that one table only — node b's
    ``/me/table`` and Redis name it, node a's names none, and both nodes refuse anything else
    with 409 ``seated`` and the table.  The friend's table kept its free seat; the refused
    tables left nothing behind (no invite code, no stake taken from the campaign)."""

    async def go() -> None:
        async with _clients(nodes) as (a, b):
            x, y, friend = [await a.register() for _ in range(3)]
            friends_table, code = await b.private_table(friend)
            assert await b.campaign(x, "start") == 201
            waiting = asyncio.create_task(a.ask(x, Kind.QUICK, ROOM))
            await until_queued(nodes[0].url, x.token, nodes[2])
            for kind in (Kind.PRIVATE, Kind.COMPUTER, Kind.INVITE, Kind.CAMPAIGN):
                refused = await b.ask(x, kind, invite=code)
                _refused(refused, "waiting")
                assert ROOM in str(refused.body["detail"]), refused
            assert await b.guest_of(friends_table) == ""
            assert await b.run_of(x) == UNTOUCHED_RUN  # the refused hand took no stake
            assert await b.invites() == [code]  # the refused private table gave its code back
            paired = await b.ask(y, Kind.QUICK, ROOM)
            first = await waiting
            assert first.status == paired.status == 200, (first, paired)
            table = first.table
            assert table is not None and paired.table == table
            assert (first.body["seat"], paired.body["seat"]) == (0, 1)
            assert (await a.my_table(x), await b.my_table(x)) == (None, table)
            assert await a.place_of(x) == Place(PlaceKind.SEATED, table)
            for node in (a, b):
                for kind in Kind:
                    _refused(await node.ask(x, kind, ROOM, code), "seated", table)
            assert await b.guest_of(friends_table) == ""

    run(go())


def test_a_table_on_one_node_refuses_a_wait_on_the_other(
    nodes: tuple[Server, Server, str],
) -> None:
    """The reverse order: X's private table on node b, then a quick match on node a is refused
    at once (409 ``seated`` with the table); X never enters the queue."""

    async def go() -> None:
        async with _clients(nodes) as (a, b):
            x = await a.register()
            made = await b.ask(x, Kind.PRIVATE)
            assert made.status == 201, made
            _refused(await a.ask(x, Kind.QUICK, ROOM), "seated", made.table)
            assert f"{x.id}|{x.name}" not in await a.queued(ROOM)
            assert await a.place_of(x) == Place(PlaceKind.SEATED, str(made.table))

    run(go())


# ---------------------------------------------------------------------------- the race
class Round:
    """One round of the race: a fresh account X asks node a for ``kinds[0]`` and node b for
    ``kinds[1]`` at the same instant (two tasks started together, not gathered: a quick match
    that waits answers only once X cancels it)."""

    def __init__(self, a: Node, b: Node, kinds: tuple[Kind, Kind], room: str, n: int) -> None:
        self.nodes = (a, b)
        self.kinds = kinds
        self.room = room
        self.n = n
        self.friends: dict[int, tuple[Node, str, str]] = {}
        """Per slot asking by invite code: the friend's node, table and code."""

    async def prepare(self) -> Account:
        x = await self.nodes[self.n % 2].register()
        if Kind.CAMPAIGN in self.kinds:
            assert await self.nodes[0].campaign(x, "start") == 201
        for slot, kind in enumerate(self.kinds):
            if kind is Kind.INVITE:  # the friend's table on either node
                node = self.nodes[(self.n + slot) % 2]
                table, code = await node.private_table(await node.register())
                self.friends[slot] = (node, table, code)
        return x

    async def race(self) -> int:
        """Which request took X's place (0: node a's, 1: node b's); every check made, what it
        opened closed."""
        x = await self.prepare()
        won = await self._race(x)
        if Kind.CAMPAIGN in self.kinds and self.kinds[won] is not Kind.CAMPAIGN:
            assert await self.nodes[0].run_of(x) == UNTOUCHED_RUN
        return won

    async def _race(self, x: Account) -> int:
        asks = [
            asyncio.create_task(node.ask(x, kind, self.room, self._code(slot)))
            for slot, (node, kind) in enumerate(zip(self.nodes, self.kinds, strict=True))
        ]

        async def settled() -> bool:  # both answered, or one waits in the queue
            if all(t.done() for t in asks):
                return True
            waiting = [k for t, k in zip(asks, self.kinds, strict=True) if not t.done()]
            return waiting == [Kind.QUICK] and await self._waits(x)

        await eventually(settled, f"round {self.n} {self.kinds} settles")
        answers = [t.result() if t.done() else None for t in asks]
        if None in answers:
            slot = answers.index(None)
            await self._queue_won(x, asks[slot], answers[1 - slot])
        else:
            slot = next(i for i, ans in enumerate(answers) if ans and ans.status in SUCCESS)
            await self._table_won(x, slot, answers)
        return slot

    def _code(self, slot: int) -> str:
        return self.friends[slot][2] if slot in self.friends else ""

    async def _waits(self, x: Account) -> bool:
        return await self.nodes[0].place_of(x) == Place(PlaceKind.WAITING, self.room)

    async def _queue_won(
        self, x: Account, waiting: asyncio.Task[Answer], loser: Answer | None
    ) -> None:
        """X waits in the queue: the other request was refused with ``waiting``, no node seats
        X; X's cancel (from either node) ends the wait, and the queue and Redis forget X."""
        a, _ = self.nodes
        assert loser is not None
        _refused(loser, "waiting")
        assert [await node.my_table(x) for node in self.nodes] == [None, None]
        assert await a.queued(self.room) == [f"{x.id}|{x.name}"]
        await self._friends_free()
        assert await self.nodes[self.n % 2].cancel(x) == 204
        _refused(await waiting, "cancelled")
        assert await a.place_of(x) is None and await a.queued(self.room) == []

    async def _table_won(self, x: Account, slot: int, answers: list[Answer | None]) -> None:
        """X sits at one table: the other request was refused with ``seated`` and that table,
        exactly one node's ``/me/table`` and Redis name it."""
        won, lost = answers[slot], answers[1 - slot]
        assert won is not None and lost is not None
        table = won.table
        assert table is not None
        if self.kinds == (Kind.CAMPAIGN, Kind.CAMPAIGN) and lost.code == "campaign-over":
            _refused(lost, "campaign-over")  # it read the run once the winner had staked:
            assert lost.body["params"] == {"status": "in_hand"}  # as on a single server
        else:
            _refused(lost, "seated", table)
        seen = [await node.my_table(x) for node in self.nodes]
        assert (seen.count(table), seen.count(None)) == (1, 1), seen  # one node holds it
        assert await self.nodes[0].place_of(x) == Place(PlaceKind.SEATED, table)
        assert f"{x.id}|{x.name}" not in await self.nodes[0].queued(self.room)
        if self.kinds[slot] is Kind.INVITE:
            node, friends_table, _ = self.friends[slot]
            assert table == friends_table and await node.guest_of(table) == x.name
        await self._friends_free(but=slot)
        if self.kinds[slot] is Kind.CAMPAIGN:  # its hand would play on by the timers
            owner = self.nodes[seen.index(table)]
            assert await owner.campaign(x, "abandon") == 200

    async def _friends_free(self, but: int = -1) -> None:
        """A friend's table X did not join kept its free seat."""
        for slot, (node, table, _) in self.friends.items():
            if slot != but:
                assert await node.guest_of(table) == ""


@pytest.mark.slow
def test_every_pair_of_seat_requests_raced_across_two_nodes_seats_once(
    nodes: tuple[Server, Server, str],
) -> None:
    """Slow (about 20 s): 150 rounds, each ordered pair of the five kinds (quick-match wait,
    private table, a friend's table by its code, a table against the computer, a campaign
    hand; node a × node b) 6 times, three rounds at a time, each with a fresh account whose
    two requests are fired at both nodes at once.  Every round seats or queues the account
    exactly once and refuses the other request with the code naming where it is.  The race is
    real: each node wins rounds (the tally by pair and winning node is printed)."""

    async def go() -> None:
        rounds = [kinds for kinds in itertools.product(Kind, Kind) for _ in range(ROUNDS_PER_PAIR)]
        random.Random(SEED).shuffle(rounds)
        won: Counter[tuple[tuple[Kind, Kind], int]] = Counter()
        began = time.monotonic()
        async with _clients(nodes) as (a, b):

            async def lane(i: int) -> None:
                room = LANE_ROOMS[i]
                for n in range(i, len(rounds), len(LANE_ROOMS)):
                    kinds = rounds[n]
                    won[kinds, await Round(a, b, kinds, room, n).race()] += 1

            await asyncio.gather(*(lane(i) for i in range(len(LANE_ROOMS))))
        took = time.monotonic() - began
        assert sum(won.values()) == len(rounds) == 25 * ROUNDS_PER_PAIR
        by_node = [sum(n for (_, slot), n in won.items() if slot == s) for s in (0, 1)]
        assert all(by_node), by_node
        print(f"\n{len(rounds)} rounds in {took:.1f} s; won on node a, b: {by_node}")
        for kinds in itertools.product(Kind, Kind):
            print(f"  {kinds[0]:>8} (a) × {kinds[1]:<8} (b): {won[kinds, 0]:2} – {won[kinds, 1]}")

    run(go(), timeout=240)
