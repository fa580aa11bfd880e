"""Durability: the server is killed with SIGKILL mid-hand and restarted; the table is restored
from its record and the hand plays on; beans are neither lost nor paid twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erren.bots import find_bot
from erren.server.fairness import verify_record
from erren.server.store import Store, Transfer

from ._support.harness import Server, run, serving
from ._support.helpers import quick_pair, settlements, wait_for

pytestmark = pytest.mark.services


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of its own (the test kills it), on both backends: the restore reads the
    database."""
    with serving(str(request.param), tmp_path) as server:
        yield server


def test_sigkill_mid_hand_then_the_game_continues(fresh: Server) -> None:
    server = fresh

    async def main() -> None:
        a, b, table = await quick_pair(server.url, "guobiao-2p/novice")
        a.keep = b.keep = True
        for c in (a, b):
            await c.connect()
            await c.join(table)
        bots = {id(a): find_bot("random", seed=1), id(b): find_bot("random", seed=2)}

        async def moves(c: object, count: int) -> None:
            for _ in range(count):
                message = await c.recv(10)  # type: ignore[attr-defined]
                if c.hand_over(message):  # type: ignore[attr-defined]
                    return
                if c.my_turn():  # type: ignore[attr-defined]
                    await c._move(bots[id(c)], None)  # type: ignore[attr-defined]

        await asyncio.gather(moves(a, 6), moves(b, 6))
        assert not settlements(a.messages), "the hand is still running"
        game, seen = a.game, a.last_n
        server.kill()
        for c in (a, b):
            await c.disconnect()
        # a long grace (10 s) on the restarted server: the player comes back in time even
        # when the machine is slow to answer (nobody back → called off, test_faults)
        server.extra = (*server.extra, "--grace", "1000")
        server.start()  # same database: the unfinished table is restored
        for c in (a, b):
            await c.connect()
            await c.join(table, resume=True)
            joined = await wait_for(c, lambda m: m.get("type") in ("joined", "error"))
            assert joined["type"] == "joined", joined
        caught = await wait_for(a, lambda m: m.get("type") in ("events", "snapshot"))
        if caught["type"] == "events":
            assert all(e["n"] > seen for e in caught["events"])
        assert a.game == game
        restored = len(a.messages), len(b.messages)
        # play the hand to its end on the restarted server
        await asyncio.gather(
            a.play(table, find_bot("random", seed=3), hands=1, leave_after=False, timeout=30),
            b.play(table, find_bot("random", seed=4), hands=1, leave_after=False, timeout=30),
        )
        end = settlements(a.messages)[-1]
        assert end["game"] == game
        _check_deadlines([a.messages[restored[0] :], b.messages[restored[1] :]])
        verify_record(end["record"])
        a_id = (await a.http.get("/me")).json()["id"]
        b_id = (await b.http.get("/me")).json()["id"]
        balances = await a.balance() + await b.balance()
        assert balances == 20_000
        await a.close()
        await b.close()
        store = await Store.open(server.database)
        try:
            audit = await store.ledger.audit()
            assert audit.users_total == audit.granted
            # the settlement of this game is done: doing it again pays nothing
            if any(end["beans"]):
                again = [Transfer(a_id, b_id, 1, "again")]
                assert not await store.ledger.settle(f"game:{game}", again)
        finally:
            await store.close()

    run(main())


def _deadlines(messages: list[dict[str, Any]]) -> list[float]:
    """Every ``timer.deadline`` in the messages, wherever the state sits in them."""
    found: list[float] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            timer = value.get("timer")
            if isinstance(timer, dict) and "deadline" in timer:
                found.append(float(timer["deadline"]))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(messages)
    return found


def _check_deadlines(seen: list[list[dict[str, Any]]]) -> None:
    """Every timer the restored table announced is a real deadline: Unix time within a
    minute of now (a 20 s turn at the tests' hundredth of real time), never decades past."""
    deadlines = [d for messages in seen for d in _deadlines(messages)]
    assert deadlines, "the restored table announced no timer"
    assert all(time.time() - 60 < d < time.time() + 60 for d in deadlines), deadlines


def test_concurrent_settlements_cannot_pay_twice(fresh: Server) -> None:
    async def main() -> None:
        store = await Store.open(fresh.database)
        try:
            one = await store.accounts.guest()
            two = await store.accounts.guest()
            start = await store.ledger.balance(one.user.id) + await store.ledger.balance(
                two.user.id
            )
            transfer = [Transfer(one.user.id, two.user.id, 700, "the same hand")]
            done = await asyncio.gather(
                *(store.ledger.settle("game:concurrent", transfer) for _ in range(20))
            )
            assert sum(bool(d) for d in done) == 1
            assert (
                await store.ledger.balance(two.user.id) - await store.ledger.balance(one.user.id)
                == 1400
            )
            assert (
                await store.ledger.balance(one.user.id) + await store.ledger.balance(two.user.id)
                == start
            )
        finally:
            await store.close()

    run(main())
