"""Fair quick match on a single server (:mod:`erren.server.matchrule`): the closest rating within
a window that widens with the wait (the wider of the two windows decides), ties to the oldest,
anyone after the longest wait, never a blocked player; a waiting player is paired when a window
widens (an alarm on the queues' wall clock).  Every figure is computed here from the documented
formula; the clocks move only when the test says so (:class:`ManualClock`)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import cast

import httpx
import pytest

from erren.server.app import create_app
from erren.server.lobby import Lobby
from erren.server.matchrule import (
    BASE_GAP,
    LONGEST_WAIT_S,
    START_SKILL,
    WIDEN_PER_S,
    Candidate,
    Rule,
    StoreSkills,
    Window,
)
from erren.server.pairing import Queues, RecentPairs
from erren.server.store import Store, User
from erren.server.store.passwords import Passwords
from erren.server.table import TableView
from erren.testing.tables import SLOW_CLOCK
from erren.testing.waits import eventually

from ._support.clocks import ManualClock
from ._support.queueing import settle, waits_in

pytestmark = pytest.mark.anyio

ROOM = "guobiao-2p/novice"
Seat = tuple[TableView, int]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def window(waited: float) -> float:
    """The documented formula, written out again."""
    return math.inf if waited >= LONGEST_WAIT_S else BASE_GAP + WIDEN_PER_S * waited


def _skill(candidate: Candidate) -> float:
    assert candidate.skill is not None
    return candidate.skill


class FakeBlocks:
    """A block list of pairs of accounts."""

    def __init__(self, *pairs: tuple[int, int]) -> None:
        self.pairs = {frozenset(p) for p in pairs}

    def blocked(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.pairs

    def barred(self, user_id: int) -> frozenset[int]:
        return frozenset(u for p in self.pairs if user_id in p for u in p if u != user_id)


class FakeSkills:
    def __init__(self) -> None:
        self.of: dict[int, float] = {}

    async def skill(self, user_id: int, family: str) -> float:
        assert family == "guobiao-2p"
        return self.of.get(user_id, START_SKILL)


def test_the_window_widens_as_documented() -> None:
    w = Window()
    assert (w.base, w.per_s, w.longest_s) == (1.0, 0.25, 20.0)
    for waited in (0, 4, 10, 19.5, 20, 60):
        assert w.gap(waited) == window(waited)
    assert w.gap(10) == 3.5 and w.gap(20) == math.inf
    assert w.opens_after(0.5) == 0 and w.opens_after(3.5) == 10 and w.opens_after(40) == 20
    # the wider window decides: gap 3 opens after 8 s of the longer wait
    assert w.chance_in(3.0, 2.0, 5.0) == 3.0 and w.chance_in(3.0, 8.0, 0.0) == 0.0


def test_the_closest_of_three_admitted_players_is_chosen() -> None:
    """Ann (25.0) waited 6 s, bob (27.0) 4 s, cat (26.2) 2 s; dan (26.5) arrives: every gap
    within the wider window (ann 1.5 ≤ 2.5, bob 0.5 ≤ 2.0, cat 0.3 ≤ 1.5), cat's the closest."""
    waiting = [Candidate(1, 25.0, 6.0), Candidate(2, 27.0, 4.0), Candidate(3, 26.2, 2.0)]
    dan = Candidate(4, 26.5, 0.0)
    admitted = [c for c in waiting if abs(_skill(c) - 26.5) <= max(window(c.waited_s), window(0))]
    assert [c.user_id for c in admitted] == [1, 2, 3]
    closest = min(admitted, key=lambda c: abs(_skill(c) - 26.5))
    assert Rule().choose(dan, waiting, lambda a, b: 0.0) == waiting.index(closest) == 2
    # held back from cat by the repeat rule: bob, the next closest
    assert Rule().choose(dan, waiting, lambda a, b: 5.0 if 3 in (a, b) else 0.0) == 1


def test_a_gap_outside_every_window_waits_and_ties_go_to_the_oldest() -> None:
    """Eve (30.0) arrives: ann's gap 5.0 > max(2.5, 1.0), the others' too: nobody; her next
    chance is when bob's window reaches his gap 3.0 (8 s of bob's wait, 4 s from now).  Two at the
    same gap: the one who waited longer."""
    waiting = [Candidate(1, 25.0, 6.0), Candidate(2, 27.0, 4.0), Candidate(3, 26.2, 2.0)]
    eve = Candidate(5, 30.0, 0.0)
    rule = Rule()
    assert rule.choose(eve, waiting, lambda a, b: 0.0) is None
    chances = [(abs(_skill(c) - 30.0) - BASE_GAP) / WIDEN_PER_S - c.waited_s for c in waiting]
    assert rule.next_chance(eve, waiting) == pytest.approx(min(chances)) == pytest.approx(4.0)
    tie = [Candidate(1, 24.0, 1.0), Candidate(2, 26.0, 3.0), Candidate(3, 26.0, 0.5)]
    assert rule.choose(Candidate(9, 25.0, 0.0), tie, lambda a, b: 0.0) == 0


async def test_the_queues_choose_by_the_rule_on_the_wall_clock() -> None:
    wall, game = ManualClock(), ManualClock()
    queues = Queues(RecentPairs(game), wall=wall)
    queues.add(ROOM, 1, "ann", skill=25.0)
    wall.advance(2)
    queues.add(ROOM, 2, "bob", skill=27.0)
    wall.advance(2)
    queues.add(ROOM, 3, "cat", skill=26.2)
    wall.advance(2)
    chosen = queues.partner(ROOM, 4, 26.5)
    assert chosen is not None and chosen.name == "cat"
    # eve (30.0) meets nobody now; bob's window (waited 4 s) admits 3.0 after 8 s
    assert queues.partner(ROOM, 5, 30.0) is None
    eve = queues.add(ROOM, 5, "eve", skill=30.0)
    assert queues.widens(ROOM, eve) == pytest.approx((3.0 - BASE_GAP) / WIDEN_PER_S - 4)
    wall.advance(4 - 0.01)
    assert queues.partner(ROOM, 5, 30.0, eve.since) is None
    wall.advance(0.01)
    found = queues.partner(ROOM, 5, 30.0, eve.since)
    assert found is not None and found.name == "bob"
    queues.drop(ROOM, eve)  # paired: the lobby takes her out of the queue
    # blocked: ann and fay are never paired, however long they wait
    queues.rule = Rule(blocks=FakeBlocks((1, 6)))
    wall.advance(LONGEST_WAIT_S)
    assert queues.partner(ROOM, 6, 25.0) is None
    fay = queues.add(ROOM, 6, "fay", skill=25.0)
    assert queues.widens(ROOM, fay) is None and queues.hold(ROOM, 6) is None
    for waiter in queues.rooms[ROOM]:
        waiter.future.cancel()


@contextlib.asynccontextmanager
async def lobby_on(tmp: Path, wall: ManualClock) -> AsyncIterator[tuple[Lobby, FakeSkills]]:
    store = await Store.open(f"sqlite:///{tmp / 'erren.sqlite3'}", passwords=Passwords.fast())
    lobby = Lobby(store, clock=ManualClock(), wall=wall, config=SLOW_CLOCK)
    skills = FakeSkills()
    lobby.ground.skills = skills
    try:
        yield lobby, skills
    finally:
        await lobby.shutdown()
        await store.close()


async def _accounts(lobby: Lobby, count: int) -> list[User]:
    return [
        await lobby.store.accounts.register("f" + uuid.uuid4().hex[:10], "password-123")
        for _ in range(count)
    ]


@pytest.mark.parametrize(("bob_skill", "after_s"), [(30.0, 16.0), (45.0, LONGEST_WAIT_S)])
async def test_two_far_apart_are_paired_when_the_window_widens(
    tmp_path: Path, bob_skill: float, after_s: float
) -> None:
    """Ann (25) waits, bob arrives: gap 5 opens after (5 − 1) / 0.25 = 16 s; gap 20 only at
    the longest wait, 20 s.  Nothing before; at that second bob's alarm pairs them (he is the
    one whose alarm rang: seat 1)."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as (lobby, skills):
        ann, bob = await _accounts(lobby, 2)
        skills.of = {ann.id: 25.0, bob.id: bob_skill}
        assert min((bob_skill - 25.0 - BASE_GAP) / WIDEN_PER_S, LONGEST_WAIT_S) == after_s
        hers = await waits_in(lobby, ann, ROOM)
        his = await waits_in(lobby, bob, ROOM)
        assert wall.t + after_s in wall.pending()
        wall.advance(after_s - 0.01)
        await settle()
        assert not hers.done() and not his.done()
        wall.advance(0.01)
        (table, seat), (again, other) = await asyncio.gather(hers, his)
        assert (seat, other) == (0, 1) and table is again
        assert [s.user_id for s in lobby.tables[table.spec.id].seats] == [ann.id, bob.id]


async def test_the_closest_waiting_player_is_paired_and_a_blocked_one_never(
    tmp_path: Path,
) -> None:
    """Ann (25.0) waits; at 2 s bob (27.0) comes: gap 2.0 > 1.5, the wider window: he waits;
    at 3 s cat (26.2) comes: ann (gap 1.2 ≤ 1.75) and bob (0.8 ≤ 1.25) are admitted, bob is the
    closer: paired, though ann waited longer.  Dan (25.2) is blocked with ann: however long
    they wait, never paired; eve (25.4) comes: dan (0.2) is closer than ann (0.4)."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as (lobby, skills):
        ann, bob, cat, dan, eve = await _accounts(lobby, 5)
        skills.of = {ann.id: 25.0, bob.id: 27.0, cat.id: 26.2, dan.id: 25.2, eve.id: 25.4}
        lobby.queues.rule = Rule(blocks=FakeBlocks((ann.id, dan.id)))
        hers = await waits_in(lobby, ann, ROOM)
        wall.advance(2)
        his = await waits_in(lobby, bob, ROOM)  # gap 2.0 > max(window(2), window(0)) = 1.5
        wall.advance(1)
        assert abs(27.0 - 25.0) > max(window(2), window(0))
        assert abs(26.2 - 25.0) <= max(window(3), window(0)) and abs(27.0 - 26.2) <= window(1)
        table, seat = await lobby.quick_match(cat, ROOM, 600)
        assert seat == 1 and await his == (table, 0)
        dans = await waits_in(lobby, dan, ROOM)  # gap 0.2 to ann, but blocked
        assert lobby.queues.widens(ROOM, lobby.queues.rooms[ROOM][-1]) is None
        wall.advance(2 * LONGEST_WAIT_S)
        await settle()
        assert not hers.done() and not dans.done()
        table, seat = await lobby.quick_match(eve, ROOM, 600)
        assert seat == 1 and await dans == (table, 0)
        assert not hers.done()
        hers.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await hers


def test_over_http_two_far_apart_are_paired_when_the_window_widens(tmp_path: Path) -> None:
    """``POST /match/quick`` in the app's process: ann (25) and bob (30) both wait (gap 5 opens
    after 16 s); at 16 s of the queues' clock both requests answer, bob's alarm having paired
    them (ann waited: seat 0)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'erren.sqlite3'}", metrics=False, passwords=Passwords.fast()
    )
    wall = ManualClock()

    async def main() -> None:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as http,
        ):
            lobby: Lobby = app.state.erren.lobby
            lobby.queues.wall = wall
            skills = FakeSkills()
            lobby.ground.skills = skills
            heads = []
            for skill in (25.0, 30.0):
                name = "h" + uuid.uuid4().hex[:10]
                reply = await http.post(
                    "/auth/register", json={"name": name, "password": "password-123"}
                )
                assert reply.status_code == 201, reply.text
                skills.of[reply.json()["user"]["id"]] = skill
                heads.append({"Authorization": f"Bearer {reply.json()['token']}"})
            body = {"room": ROOM, "wait_s": 30}
            posts: list[asyncio.Task[httpx.Response]] = []

            async def queued() -> bool:
                return len(lobby.queues.rooms.get(ROOM, [])) == len(posts)

            for head in heads:
                posts.append(
                    asyncio.create_task(http.post("/match/quick", json=body, headers=head))
                )
                await eventually(queued, f"{len(posts)} waiting")
            wall.advance(16 - 0.01)
            await settle()
            assert not any(p.done() for p in posts)
            wall.advance(0.01)
            hers, his = [(await p).json() for p in posts]
            assert hers["table"] == his["table"] and (hers["seat"], his["seat"]) == (0, 1)

    asyncio.run(main())


def test_the_benchmark_compares_both_rules(run_benchmark: Callable[..., str]) -> None:
    """``bench_matchmaking`` on a few players (its own process, as ``make bench`` runs it):
    both rules on the same arrivals, every player paired, the closer pairs by the rule."""
    printed = run_benchmark("bench_matchmaking", "--players", "400", "--rates", "1")
    rows = [line.split("|") for line in printed.splitlines() if line.startswith("| 1 |")]
    assert [r[2].strip() for r in rows] == ["closest", "oldest"]
    assert all(r[3].strip() == "200" and r[4].strip() == "0" for r in rows)
    closest, oldest = (float(r[8]) for r in rows)
    assert closest < oldest


async def test_the_skill_is_the_rating_mu_in_the_rooms_family() -> None:
    """:class:`StoreSkills` reads the family's ``mu`` (the store's one-row read, tested against
    openskill in tests/server/store/test_profiles.py); unrated there: the model's start, 25."""

    class Profiles:
        async def rating_mu(self, user_id: int, family: str) -> float | None:
            return {(1, "guobiao-2p"): 27.5, (1, "xiamen"): 30.0}.get((user_id, family))

    class FakeStore:
        profiles = Profiles()

    skills = StoreSkills(cast("Store", FakeStore()))
    assert await skills.skill(1, "guobiao-2p") == 27.5
    assert await skills.skill(1, "arcade") == START_SKILL == 25.0
    assert await skills.skill(2, "guobiao-2p") == START_SKILL
