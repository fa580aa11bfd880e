"""Spectators at a real server (issue #29, point 3): who may watch, what a spectator is sent
(the public view only: the stream checked message by message against the hands' records), the
delay at a bean-room table, coming back by event number, and the bound on spectators."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from erren.server.client import PlayerClient

from ._support.harness import Server, run, serving
from ._support.helpers import play_both, quick_pair, settlements, wait_for
from ._support.spectating import (
    ask_to_watch,
    befriend,
    drain,
    let_watch,
    new_name,
    newest_event,
    private_pair,
    spectator,
)
from ._support.watch_leaks import WatchAudit, audit_watcher

ROOM = "guobiao-2p/novice"
DELAY = 6  # TableConfig.watch_delay_events, erren serve --watch-delay


ENDS_THE_HAND = frozenset({"hu", "zimo", "ting"})
"""Moves the random mover leaves alone: a win ends the hand, and a 报听 hand wins by itself at
its first chance (``ting_auto_hu``); the tests need the hand to go on until they end it."""


async def _step(a: PlayerClient, b: PlayerClient, rng: random.Random) -> int:
    """The seat to act plays a random legal move that does not end the hand
    (:data:`ENDS_THE_HAND`); both seats read until they have its events.  Returns the hand's
    newest event number."""
    for _ in range(200):
        mover = a if a.my_turn() else b if b.my_turn() else None
        if mover is not None:
            break
        for client in (a, b):
            with_timeout = await drain(client, 0.05)
            del with_timeout
    assert mover is not None and mover.state is not None
    before = mover.last_n
    legal = [m for m in mover.state["legal"] if m.split(":")[0] not in ENDS_THE_HAND]
    await mover.act(rng.choice(legal or mover.state["legal"]))
    await wait_for(mover, lambda m: m["type"] == "events" and mover.last_n > before)
    other = b if mover is a else a
    await wait_for(other, lambda m: other.last_n >= mover.last_n, 10)
    return mover.last_n


def test_who_may_watch(server: Server) -> None:
    """Each player's choice (friends by default) must admit the spectator; blocks, guests,
    the table's own players, unknown tables are refused with ``watch-refused``."""

    async def main() -> None:
        a, b, table, na, nb = await private_pair(server.url)
        guest, _ = await spectator(server.url)
        nc = new_name()
        c, c_id = await spectator(server.url, nc)

        async def reason(client: PlayerClient, where: str = table) -> str | None:
            answer = await ask_to_watch(client, where)
            if answer["type"] == "watching":
                await client.send({"type": "unwatch"})
                return None
            assert answer["code"] == "watch-refused", answer
            return str(answer["params"]["reason"])

        assert await reason(guest) == "guest"  # friends (the default) admits no guest
        assert await reason(c) == "friends"
        await befriend(a, na, c, nc)
        assert await reason(c) == "friends"  # a's friend, but b lets only his own friends
        await befriend(b, nb, c, nc)
        assert await reason(c) is None  # a friend of both
        await let_watch(a, "nobody")
        assert await reason(c) == "nobody"
        await let_watch(a, "everyone")
        await let_watch(b, "everyone")
        assert await reason(guest) is None  # everyone, guests included
        reply = await b.http.put(f"/friends/blocks/{c_id}")
        assert reply.status_code == 204, reply.text
        assert await reason(c) == "blocked"
        await a.connect()
        assert await reason(a) == "seated"
        assert await reason(guest, "no-such-table") == "no-table"
        for client in (a, b, c, guest):
            await client.close()

    run(main())


def test_a_spectator_sees_only_the_public_view(server: Server) -> None:
    """Two hands at a score-only table (no delay): every spectator message is the public view
    of its step (no concealed or drawn tile, no legal move, no record), the settlement shows
    both hands, and the players see the number of watchers."""

    async def main() -> None:
        a, b, table, _, _ = await private_pair(server.url)
        await let_watch(a, "everyone")
        await let_watch(b, "everyone")
        s, _ = await spectator(server.url)
        assert await ask_to_watch(s, table) == {
            "type": "watching",
            "table": table,
            "delay": 0,
            "limit": 20,
        }

        async def watch_hands(hands: int) -> None:
            while hands:
                hands -= s.hand_over(await s.recv(60))

        a.keep = True
        watching = asyncio.create_task(watch_hands(2))
        await play_both(a, b, table, hands=2)
        await asyncio.wait_for(watching, 30)
        ends = settlements(a.messages)
        audit = WatchAudit()
        audit_watcher(s.messages, [e["record"] for e in ends], audit)
        assert not audit.leaks, "\n".join(audit.leaks[:5])
        assert audit.states > 20
        for game in {e["game"] for e in ends}:  # every event of each hand, once, in order
            numbers = [
                e["n"]
                for m in s.messages
                if m["type"] == "events" and m["game"] == game
                for e in m["events"]
            ]
            assert numbers == list(range(len(numbers))), numbers
        shown = settlements(s.messages)
        assert [e["hands"] for e in shown] == [e["hands"] for e in ends]
        assert all("record" not in e for e in shown)
        assert {"type": "watchers", "count": 1} in a.messages
        for client in (a, b, s):
            await client.close()

    run(main())


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose timers run at a fifth of real time (a hand waits for the test's moves)
    and whose tables admit two spectators."""
    tmp = tmp_path_factory.mktemp("watch")
    with serving("sqlite", tmp, "--max-watchers", "2", time_scale=0.2) as srv:
        yield srv


@pytest.mark.services  # a server of its own (erren serve)
def test_the_bean_room_delay_and_coming_back(slow: Server) -> None:
    """At a bean-room table a spectator's newest event is always at least ``DELAY`` events
    behind the hand; he comes back with ``game``/``since`` and gets what he missed, still
    delayed; the settlement (an escape here) comes at once with every event before it."""

    async def main() -> None:
        a, b, table = await quick_pair(slow.url, ROOM)
        await let_watch(a, "everyone")
        await let_watch(b, "everyone")
        s, _ = await spectator(slow.url)
        answer = await ask_to_watch(s, table)
        assert answer["type"] == "watching" and answer["delay"] == DELAY, answer
        a.keep = True
        for client in (a, b):
            await client.connect()
            await client.join(table)
        rng = random.Random(7)
        head = -1
        for _ in range(14):
            await _step(a, b, rng)
            newest = newest_event(await drain(s, 0.15))
            await drain(a, 0.05)  # the seats hear of a step before its spectators
            await drain(b, 0.05)
            head = max(a.last_n, b.last_n)
            assert newest <= head - DELAY, (newest, head)
        assert s.last_n >= 0, "the spectator saw the hand"
        since, game = s.last_n, s.game
        await s.disconnect()
        for _ in range(4):
            head = await _step(a, b, rng)
        await s.connect()
        assert (await s.recv(10))["type"] == "welcome"
        answer = await ask_to_watch(s, table, game=game, since=since)
        assert answer["type"] == "watching", answer
        missed = await drain(s, 0.3)
        await drain(a, 0.05)
        await drain(b, 0.05)
        head = max(a.last_n, b.last_n)
        first = next(m for m in missed if m["type"] == "events")
        assert first["events"][0]["n"] == since + 1, (since, first["events"][0])
        assert newest_event(missed) <= head - DELAY
        await a.send({"type": "leave"})  # an escape: the hand ends
        end = await wait_for(s, s.hand_over, 10)
        numbers = [e["n"] for e in end["events"]]
        assert end["events"][-1]["kind"] == "settlement"
        assert numbers == list(range(numbers[0], numbers[-1] + 1))
        await wait_for(a, a.hand_over, 10)
        audit = WatchAudit()
        audit_watcher(s.messages, [e["record"] for e in settlements(a.messages)], audit)
        assert not audit.leaks, "\n".join(audit.leaks[:5])
        for client in (a, b, s):
            await client.close()

    run(main())


@pytest.mark.services  # a server of its own (erren serve)
def test_the_spectators_of_a_table_are_bounded(slow: Server) -> None:
    async def main() -> None:
        a, b, table, _, _ = await private_pair(slow.url)
        await let_watch(a, "everyone")
        await let_watch(b, "everyone")
        await a.connect()
        await a.join(table)
        watchers = [(await spectator(slow.url))[0] for _ in range(3)]
        assert (await ask_to_watch(watchers[0], table))["type"] == "watching"
        assert (await ask_to_watch(watchers[1], table))["type"] == "watching"
        full = await ask_to_watch(watchers[2], table)
        assert full["code"] == "watch-full" and full["params"] == {"limit": 2}, full
        await wait_for(a, lambda m: m == {"type": "watchers", "count": 2})
        await watchers[0].send({"type": "unwatch"})
        await wait_for(a, lambda m: m == {"type": "watchers", "count": 1})
        assert (await ask_to_watch(watchers[2], table))["type"] == "watching"
        await watchers[1].close()  # a closed socket stops watching
        await wait_for(a, lambda m: m == {"type": "watchers", "count": 1})
        for client in (a, b, *watchers):
            await client.close()

    run(main())
