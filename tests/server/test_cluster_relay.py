"""Any node serves any player: two ``erren serve --redis`` nodes on one PostgreSQL database;
a player connected to the node that does not own his table plays through the relay (his
moves into the owner's inbox, its events back), each event once and in order; he comes back
on the other node with ``since`` and gets exactly what he missed; the owner is killed mid-hand
and the other node finishes the hand, identical record, every bean audited."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from erren.bots import Bot, find_bot
from erren.server.client import PlayerClient
from erren.server.fairness import verify_record

from ._support.cluster_play import drop, stored_actions
from ._support.exact_beans import TIERS, spec_points
from ._support.harness import TIME_SCALE, Server, cluster_pair, run
from ._support.helpers import player, settlements, wait_for
from ._support.redis_ns import REDIS_URL, until_queued

pytestmark = pytest.mark.services

ROOM = "guobiao-2p/novice"


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    """A cluster the tests that kill no node share, its timers at the tests' time scale (a
    player who drops has his turns played by his clock and 托管 while the other plays on)."""
    with cluster_pair(
        tmp_path_factory.mktemp("relay"), ("near", "far"), time_scale=TIME_SCALE
    ) as pair:
        yield pair


@pytest.fixture
def doomed(tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    """A cluster of the test's own (it kills a node), at real speed: nothing at the table
    times out and plays on by itself while the table moves to the other node."""
    with cluster_pair(tmp_path, ("near", "far")) as pair:
        yield pair


async def _account(url: str) -> PlayerClient:
    async with httpx.AsyncClient(base_url=url) as http:
        name = "r" + uuid.uuid4().hex[:10]
        reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert reply.status_code == 201, reply.text
        client = PlayerClient(url, reply.json()["token"])
    client.keep = True
    return client


async def _paired(near: Server, far: Server, prefix: str) -> tuple[PlayerClient, PlayerClient, str]:
    """``ann`` waits on ``near``, ``bob`` arrives on ``far``: ``far`` makes and owns the table
    (seat 0: ann, who waited); ann's socket stays on ``near``."""
    ann, bob = await _account(near.url), await _account(far.url)
    waiting = asyncio.create_task(ann.quick_match(ROOM, 20))
    await until_queued(near.url, ann.token, prefix)
    second = await bob.quick_match(ROOM, 20)
    first = await waiting
    assert first["table"] == second["table"]
    assert (first["seat"], second["seat"]) == (0, 1)
    table = str(first["table"])
    with redis.Redis.from_url(REDIS_URL, decode_responses=True) as client:
        assert str(client.get(f"{prefix}lease:{table}")).startswith("far|")
    return ann, bob, table


def _numbers(messages: list[dict[str, Any]], game: int | None) -> list[int]:
    """The event numbers of ``game`` in the order they arrived."""
    return [
        int(e["n"])
        for m in messages
        if m.get("type") == "events" and m.get("game") == game
        for e in m["events"]
    ]


async def _moves(c: PlayerClient, bot: Bot, done: Callable[[PlayerClient], bool]) -> None:
    """Read and play until ``done(c)`` or the hand is over."""
    while not done(c):
        message = await c.recv(15)
        if c.hand_over(message):
            return
        if message.get("type") in ("events", "snapshot") and c.my_turn():
            await c._move(bot, None)


async def _come_back(c: PlayerClient, node: Server, table: str) -> int:
    """Reconnect to ``node`` and join with ``since`` (again until the node finds the table's
    owner); returns where this connection's messages begin in ``c.messages``."""
    c.server = node.url
    await c.http.aclose()
    c.http = httpx.AsyncClient(
        base_url=node.url, headers={"Authorization": f"Bearer {c.token}"}, timeout=60
    )
    answer: dict[str, Any] = {}
    for _ in range(100):
        await drop(c, 0.5)
        await c.connect()
        start = len(c.messages)
        await c.join(table, resume=True)
        answer = await wait_for(c, lambda m: m.get("type") in ("joined", "error"))
        if answer["type"] == "joined":
            return start
        await asyncio.sleep(0.2)
    raise AssertionError(f"{node.url} never found table {table}: {answer}")


def _expected_beans(end: dict[str, Any], before: list[int]) -> list[int]:
    """What the spec makes the hand move: guobiao-2p §6.1–6.3, the loser pays points × 底分
    (novice: 50), at most what he holds."""
    result = verify_record(end["record"]).result
    assert result is not None
    stake = TIERS["novice"][0]
    points = spec_points("guobiao-2p", result)
    payer = -1 if result.loser is None or points == 0 else result.loser
    paid = min(points * stake, before[payer]) if payer >= 0 else 0
    beans = [0, 0]
    if payer >= 0:
        beans[payer], beans[1 - payer] = -paid, paid
    return beans


def test_a_player_on_the_other_node_plays_a_whole_hand_through_the_relay(
    nodes: tuple[Server, Server, str],
) -> None:
    """Slow (about 7 s): a whole hand relayed between two server processes."""
    near, far, prefix = nodes

    async def go() -> None:
        ann, bob, table = await _paired(near, far, prefix)
        before = [await ann.balance(), await bob.balance()]
        await asyncio.gather(
            ann.play(table, find_bot("random", seed=1), hands=1, leave_after=False, timeout=30),
            bob.play(table, find_bot("random", seed=2), hands=1, leave_after=False, timeout=30),
        )
        (end,) = settlements(ann.messages)
        assert settlements(bob.messages) == [end]
        game = end["game"]
        # every event of the hand, once each, in order, through the relay as at the owner
        relayed = _numbers(ann.messages, game)
        assert relayed == list(range(end["n"] + 1))
        assert _numbers(bob.messages, game) == relayed
        beans = _expected_beans(end, before)
        assert end["beans"] == beans
        assert [await ann.balance(), await bob.balance()] == [
            b + d for b, d in zip(before, beans, strict=True)
        ]
        assert await stored_actions(near.database, game) == tuple(end["record"]["actions"])
        # the relayed player leaves: the owner closes the table for both
        await ann.send({"type": "leave"})
        for c in (ann, bob):
            closed = await wait_for(c, lambda m: m.get("type") == "closed")
            assert closed["code"] == "left"
            await c.close()

    run(go())


def test_players_come_back_on_the_other_node_and_get_exactly_what_they_missed(
    nodes: tuple[Server, Server, str],
) -> None:
    near, far, prefix = nodes

    async def go() -> None:
        ann, bob, table = await _paired(near, far, prefix)
        bots = {id(ann): find_bot("random", seed=3), id(bob): find_bot("random", seed=4)}
        for c in (ann, bob):
            await c.connect()
            await c.join(table)
        await asyncio.gather(
            *(
                _moves(c, bots[id(c)], lambda c: c.game is not None and c.last_n >= 6)
                for c in (ann, bob)
            )
        )
        game = ann.game
        assert game is not None and not settlements(ann.messages)
        # ann (relayed through near) drops; bob plays on while ann's clock runs (托管)
        seen = ann.last_n
        await drop(ann, 0.5)
        await _moves(bob, bots[id(bob)], lambda c: c.last_n >= seen + 4)
        offline = {"type": "presence", "seat": 0, "online": False}
        if offline not in bob.messages:  # the owner saw her relayed socket go
            await wait_for(bob, lambda m: m == offline)
        # ann comes back on far, the owner
        start = await _come_back(ann, far, table)
        # bob (at the owner) drops and comes back on near: relayed, with since
        bob_seen = bob.last_n
        await drop(bob, 0.5)
        bob_start = await _come_back(bob, near, table)
        await asyncio.gather(*(_moves(c, bots[id(c)], lambda c: False) for c in (ann, bob)))
        (end,) = settlements(ann.messages)
        everything = list(range(end["n"] + 1))
        for c, at, last in ((ann, start, seen), (bob, bob_start, bob_seen)):
            before, after = _numbers(c.messages[:at], game), _numbers(c.messages[at:], game)
            assert before == list(range(last + 1))
            assert after == list(range(last + 1, end["n"] + 1))  # exactly what was missed
            assert before + after == everything
        verify_record(end["record"])
        assert await stored_actions(near.database, game) == tuple(end["record"]["actions"])
        for c in (ann, bob):
            await c.close()

    run(go())


def test_the_owner_killed_mid_hand_the_relayed_player_hears_moved_and_both_finish(
    doomed: tuple[Server, Server, str],
) -> None:
    """Slow (about 12 s): two server processes of its own; the takeover waits for the killed
    owner's 3 s lease to lapse."""
    near, far, prefix = doomed

    async def go() -> None:
        ann, bob, table = await _paired(near, far, prefix)
        before = [await ann.balance(), await bob.balance()]
        bots = {id(ann): find_bot("random", seed=5), id(bob): find_bot("random", seed=6)}
        for c in (ann, bob):
            await c.connect()
            await c.join(table)
        await asyncio.gather(
            *(
                _moves(c, bots[id(c)], lambda c: c.game is not None and c.last_n >= 8)
                for c in (ann, bob)
            )
        )
        game, seen = ann.game, ann.last_n
        assert game is not None and not settlements(ann.messages)
        far.kill()
        # near sees far's alive key lapse: ann's relayed table closes with moved, no hang
        closed = await wait_for(ann, lambda m: m.get("type") == "closed", timeout=20)
        assert closed["code"] == "moved"
        # near takes the table over; ann joins again on her socket, bob reconnects to near
        answer: dict[str, Any] = {}
        for _ in range(100):
            await ann.join(table, resume=True)
            answer = await wait_for(ann, lambda m: m.get("type") in ("joined", "error"))
            if answer["type"] == "joined":
                break
            await asyncio.sleep(0.2)
        assert answer["type"] == "joined", answer
        await _come_back(bob, near, table)
        await asyncio.gather(*(_moves(c, bots[id(c)], lambda c: False) for c in (ann, bob)))
        (end,) = settlements(ann.messages)
        assert end["game"] == game
        numbers = _numbers(ann.messages, game)
        assert numbers == sorted(set(numbers))  # never an event twice
        assert numbers[: seen + 1] == list(range(seen + 1))
        verify_record(end["record"])
        assert await stored_actions(near.database, game) == tuple(end["record"]["actions"])
        beans = _expected_beans(end, before)
        assert end["beans"] == beans
        assert [await ann.balance(), await bob.balance()] == [
            b + d for b, d in zip(before, beans, strict=True)
        ]
        for c in (ann, bob):
            await c.close()

    run(go())


def test_an_invite_code_seats_a_player_of_another_node_once(
    nodes: tuple[Server, Server, str],
) -> None:
    """A private table made on ``near`` is joined by its code on ``far`` (the owner seats him,
    asked through the relay) and played there through the relay; two players racing for a
    seat from both nodes: one gets it; a seated account gets no second seat anywhere."""
    near, far, _ = nodes

    async def go() -> None:
        ann, bob, cat = await player(near.url), await player(far.url), await player(near.url)
        code = (await ann.private_table("guobiao-2p"))["invite"]
        raced = await asyncio.gather(
            bob.http.post("/tables/join", json={"invite": code}),
            cat.http.post("/tables/join", json={"invite": code}),
        )
        assert sorted(r.status_code for r in raced) == [200, 409], [r.text for r in raced]
        (lost,) = [r for r in raced if r.status_code == 409]
        assert lost.json()["code"] == "table-full"
        loser = bob if lost is raced[0] else cat
        # eve's table on near, dan on far: seated by near, once however often he asks
        eve, dan = await player(near.url, keep=True), await player(far.url, keep=True)
        made = await eve.private_table("guobiao-2p")
        for invite in (made["invite"].lower(), made["invite"]):
            joined = await dan.join_invite(invite)
            assert (joined["table"], joined["seat"]) == (made["table"], 1)
            assert joined["info"]["seats"][0] == made["info"]["seats"][0]
        third = await loser.private_table("guobiao-2p")
        refused = await dan.http.post("/tables/join", json={"invite": third["invite"]})
        assert (refused.status_code, refused.json()["code"]) == (409, "seated")
        # dan (on far) plays the hand at near's table through the relay
        table = made["table"]
        await asyncio.gather(
            eve.play(table, find_bot("random", seed=7), hands=1, leave_after=False, timeout=30),
            dan.play(table, find_bot("random", seed=8), hands=1, leave_after=False, timeout=30),
        )
        (end,) = settlements(dan.messages)
        assert _numbers(dan.messages, end["game"]) == list(range(end["n"] + 1))
        verify_record(end["record"])
        for c in (ann, bob, cat, eve, dan):
            await c.close()

    run(go())
