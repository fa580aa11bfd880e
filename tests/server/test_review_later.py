"""Reviews kept without asking (:mod:`erren.server.reviewlater`): a hand a registered player
finishes against the computer at a real table (:class:`~erren.server.table.Table`, real SQLite
store, the player in 托管) is reviewed once, for his seat and not the computer's, and kept; a
guest's hand is not reviewed; with the review process busy the hand is dropped, not queued.
A spy stands in for the review process (it runs the job in a thread and counts it)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from erren.engine import Record
from erren.review import review_hand, reviewer
from erren.server import work
from erren.server.clock import Clock
from erren.server.reviewlater import LATER_ROOM, later_for
from erren.server.store import Passwords, Store, User
from erren.server.table import (
    Conn,
    Join,
    Seat,
    SetTrustee,
    Table,
    TableKind,
    TableSpec,
    make_bot_seat,
)
from erren.server.work import Work
from erren.testing.tables import SLOW_CLOCK

CONFIG = dataclasses.replace(SLOW_CLOCK, review_hands=True)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Work, tuple[Any, ...]]]:
    """The review jobs given to the server's pools (each run in a thread here; the other
    pools' jobs run as they would, uncounted)."""
    jobs: list[tuple[Work, tuple[Any, ...]]] = []

    real = work.run

    async def counting(kind: Work, fn: Callable[..., Any], *args: Any) -> Any:
        if kind is not Work.REVIEW:
            return await real(kind, fn, *args)
        jobs.append((kind, args))
        return await asyncio.to_thread(fn, *args)

    monkeypatch.setattr(work, "run", counting)
    return jobs


async def _settled_game(store: Store, user: User) -> tuple[int, dict[str, Any]]:
    """One hand of guobiao-2p, the player (seat 0, in 托管) against the computer: its game id
    and record, once the table settled it."""
    spec = TableSpec("t-later", TableKind.COMPUTER, "guobiao-2p", {}, bot="random")
    seats = [Seat(user.id, user.name), make_bot_seat("bot", "random", 3)]
    table = Table(spec, seats, store, clock=Clock(1.0), config=CONFIG, rng=random.Random(5))
    table.start()
    conn = Conn(user.id, user.name)
    table.submit(Join(conn, 0, None, None))
    table.submit(SetTrustee(conn, on=True))
    try:
        while True:
            text = await asyncio.wait_for(conn.queue.get(), 60)
            assert text is not None, "the table closed"
            for event in json.loads(text).get("events", []):
                if event["kind"] == "settlement":
                    await later_for(store).settled()
                    return int(event["game"]), event["record"]
    finally:
        await table.stop()


def test_a_registered_players_hand_is_reviewed_for_his_seat_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _spy(monkeypatch)

    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'e.sqlite3'}", passwords=Passwords.fast())
        try:
            alice = await store.accounts.register("alice", "password-123")
            game, record = await _settled_game(store, alice)
            assert [(kind, args[1]) for kind, args in jobs] == [(Work.REVIEW, 0)]
            kept = await store.reviews.get(game, 0)
            assert kept is not None and kept.user_id == alice.id and kept.family == "guobiao-2p"
            expected = review_hand(Record.from_dict(record), 0, reviewer()).to_dict()
            assert {k: kept.review[k] for k in expected} == expected
            assert await store.reviews.get(game, 1) is None  # the computer's seat
            assert (later_for(store).kept, later_for(store).dropped) == (1, 0)
            assert await store.reviews.count(alice.id, "guobiao-2p") == 1
        finally:
            await store.close()

    asyncio.run(main())


def test_a_guests_hand_is_not_reviewed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _spy(monkeypatch)

    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'e.sqlite3'}", passwords=Passwords.fast())
        try:
            guest = (await store.accounts.guest()).user
            game, _ = await _settled_game(store, guest)
            assert jobs == []
            assert await store.reviews.get(game, 0) is None
            assert later_for(store).kept == later_for(store).dropped == 0
        finally:
            await store.close()

    asyncio.run(main())


def test_with_the_review_process_busy_the_hand_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _spy(monkeypatch)
    monkeypatch.setattr(work, "in_flight", lambda kind: LATER_ROOM)

    async def main() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'e.sqlite3'}", passwords=Passwords.fast())
        try:
            alice = await store.accounts.register("alice", "password-123")
            game, _ = await _settled_game(store, alice)
            assert jobs == [] and not later_for(store).pending
            assert (later_for(store).kept, later_for(store).dropped) == (0, 1)
            assert await store.reviews.get(game, 0) is None
        finally:
            await store.close()

    asyncio.run(main())
