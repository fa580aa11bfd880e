"""Quick match never seats a player with someone who is gone (issue 28, deliverable 2), timed to
the millisecond: the lobby of a single server runs in the test's process on a SQLite store,
its presence timers on a wall clock that moves only when the test says so
(:class:`ManualClock`), so the queue grace and the show-up time are checked at their exact
ends without waiting for them.

* a waiting player whose request's client goes is *away*: paired with nobody, his place kept
  for exactly ``queue_grace_s``; asked again within it, his wait resumes in that place; any
  other request of his ends it;
* a pairing one of whose players has not joined the table ``show_up_s`` after it was made is
  dissolved: the player present hears ``no-show`` and is back at the front of the queue, and no
  bean moves; a pairing both joined in time plays.

``tests/server/test_quick_presence_server.py`` does the same against a real server over HTTP
and WebSockets, ``test_cluster_presence.py`` across two cluster nodes."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erren.cli import serve
from erren.server import protocol
from erren.server.lobby import Lobby, LobbyError
from erren.server.pairing import QUEUE_GRACE_S, SHOW_UP_S, ClientGoneError, Search
from erren.server.socket import dispatch
from erren.server.store import Store, User
from erren.server.store.passwords import Passwords
from erren.server.table import Conn, Gone, Table, TableConfig, TableView
from erren.testing.tables import SLOW_CLOCK
from erren.testing.waits import eventually

from ._support.clocks import ManualClock

pytestmark = pytest.mark.anyio

ROOM = "guobiao-2p/novice"
GRACE_S = 5.0
SHOW_UP = 8.0
WELCOME = 10_000
"""A new account's beans (the welcome grant): every balance here stays exactly this."""
WAIT_S = 600.0

Seat = tuple[TableView, int]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@contextlib.asynccontextmanager
async def lobby_on(tmp: Path, wall: ManualClock) -> AsyncIterator[Lobby]:
    store = await Store.open(f"sqlite:///{tmp / 'erren.sqlite3'}", passwords=Passwords.fast())
    config = replace(SLOW_CLOCK, queue_grace_s=GRACE_S, show_up_s=SHOW_UP)
    lobby = Lobby(store, clock=ManualClock(), config=config, wall=wall)
    try:
        yield lobby
    finally:
        await lobby.shutdown()
        await store.close()


async def _accounts(lobby: Lobby, count: int) -> list[User]:
    return [
        await lobby.store.accounts.register("p" + uuid.uuid4().hex[:10], "password-123")
        for _ in range(count)
    ]


class Waiting:
    """A quick-match request of ``user`` waiting in the queue, and the future its client's
    going sets (:func:`erren.server.quickmatch.client_gone`)."""

    def __init__(self, lobby: Lobby, user: User, *, resume: bool = False, room: str = ROOM) -> None:
        self.lobby, self.user, self.room = lobby, user, room
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(
            lobby.quick_match(user, room, WAIT_S, resume=resume, gone=self.gone)
        )

    async def queued(self) -> Waiting:
        async def there() -> bool:
            return self.task.done() or self.lobby.queues.search(self.user.id) == Search(
                self.room, away=False
            )

        await eventually(there, f"{self.user.name} waits")
        return self

    async def goes(self) -> None:
        """His client closes the connection: the request ends, he is away."""
        self.gone.set_result(None)
        with pytest.raises(ClientGoneError):
            await self.task


async def _waits(lobby: Lobby, user: User) -> Waiting:
    return await Waiting(lobby, user).queued()


def _queue(lobby: Lobby) -> list[int]:
    """The accounts in the room's queue, first to last (away ones included)."""
    return [w.user_id for w in lobby.queues.rooms.get(ROOM, []) if w.live]


async def _settle() -> None:
    """Let every ready task run (to show that nothing happened: there is no event to await)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def _balances(lobby: Lobby, users: list[User]) -> list[int]:
    return [await lobby.store.ledger.balance(u.id) for u in users]


def _join(lobby: Lobby, table: TableView, user: User) -> Conn:
    """``user`` joins ``table`` over a connection of his (as the socket's reader does)."""
    conn = Conn(user.id, user.name)
    dispatch(protocol.Join(table.spec.id), conn, user.id, lobby.tables)
    return conn


async def _joined(lobby: Lobby, table: TableView, user: User) -> Conn:
    conn = _join(lobby, table, user)
    real = lobby.tables[table.spec.id]
    seat = real.seat_of(user.id)
    assert seat is not None

    async def online() -> bool:
        return real.seats[seat].online

    await eventually(online, f"{user.name} is at the table")
    return conn


def _sent(conn: Conn) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


# ---------------------------------------------------------------------------- away
async def test_an_away_player_is_paired_with_nobody_and_leaves_when_the_grace_ends(
    tmp_path: Path,
) -> None:
    """Ann waits and her client goes (the issue's closed tab): bob, who comes a moment later,
    is not seated with her but waits; 4.999 s on she still holds her place, at 5 s she has
    left; cat, then, is paired with bob."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob, cat = await _accounts(lobby, 3)
        await (await _waits(lobby, ann)).goes()
        assert lobby.queues.search(ann.id) == Search(ROOM, away=True)
        assert wall.pending() == [wall.t + GRACE_S]  # her grace, nothing else
        his = await _waits(lobby, bob)
        assert not his.task.done() and _queue(lobby) == [ann.id, bob.id]
        wall.advance(GRACE_S - 0.001)
        await _settle()
        assert lobby.queues.search(ann.id) == Search(ROOM, away=True)
        wall.advance(0.001)
        assert lobby.queues.search(ann.id) is None and _queue(lobby) == [bob.id]
        table, seat = await lobby.quick_match(cat, ROOM, WAIT_S)
        assert seat == 1 and await his.task == (table, 0)
        assert [s.user_id for s in lobby.tables[table.spec.id].seats] == [bob.id, cat.id]


async def test_asked_again_within_the_grace_the_wait_resumes_in_its_place(
    tmp_path: Path,
) -> None:
    """Ann's page reloads: she is away, bob comes and waits behind her; her request (resume)
    finds her place first in the queue and bob in it: paired at once, he in seat 0."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob = await _accounts(lobby, 2)
        await (await _waits(lobby, ann)).goes()
        his = await _waits(lobby, bob)
        assert _queue(lobby) == [ann.id, bob.id]
        wall.advance(GRACE_S - 0.001)
        table, seat = await lobby.quick_match(ann, ROOM, WAIT_S, resume=True)
        assert seat == 1 and await his.task == (table, 0)
        assert [s.user_id for s in lobby.tables[table.spec.id].seats] == [bob.id, ann.id]
        assert wall.pending() == [wall.t + SHOW_UP]  # her grace is over: the table's show-up


async def test_a_resumed_wait_keeps_waiting_and_goes_away_again(tmp_path: Path) -> None:
    """Alone in the room, ann's page hides and shows again twice: her one place is kept (never
    a second entry), each absence with a grace of its own."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        (ann,) = await _accounts(lobby, 1)
        await (await _waits(lobby, ann)).goes()
        for _ in range(2):
            wall.advance(GRACE_S - 1)
            again = await Waiting(lobby, ann, resume=True).queued()
            assert _queue(lobby) == [ann.id] and wall.pending() == []
            await again.goes()
            assert wall.pending() == [wall.t + GRACE_S]
        wall.advance(GRACE_S)
        assert _queue(lobby) == [] and lobby.queues.search(ann.id) is None


async def test_a_resume_with_nothing_kept_says_so(tmp_path: Path) -> None:
    """``resume`` past the grace: 404 ``search-lost`` (the client queues again and says so);
    while a request of hers still waits: 409 ``waiting``; a cancel ends an away wait."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob = await _accounts(lobby, 2)
        with pytest.raises(LobbyError) as lost:
            await lobby.quick_match(ann, ROOM, WAIT_S, resume=True)
        assert (lost.value.status, lost.value.code, lost.value.params) == (
            404,
            "search-lost",
            {"room": ROOM},
        )
        hers = await _waits(lobby, ann)
        with pytest.raises(LobbyError) as waiting:
            await lobby.quick_match(ann, ROOM, WAIT_S, resume=True)
        assert (waiting.value.status, waiting.value.code) == (409, "waiting")
        await hers.goes()
        assert await lobby.cancel_quick(ann.id) is True
        assert lobby.queues.search(ann.id) is None and wall.pending() == []
        await (await _waits(lobby, bob)).goes()
        wall.advance(GRACE_S)
        with pytest.raises(LobbyError) as late:
            await lobby.quick_match(bob, ROOM, WAIT_S, resume=True)
        assert late.value.code == "search-lost"


async def test_an_away_wait_yields_to_any_other_request(tmp_path: Path) -> None:
    """Ann closed the tab while searching and, a second later, plays the computer on her
    phone: she is seated (not refused with ``waiting``) and has left the queue; bob, away in
    the novice room, quick-matches in another room: his old wait ends, the new one stands."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob = await _accounts(lobby, 2)
        await (await _waits(lobby, ann)).goes()
        table = await lobby.vs_computer(ann, "guobiao-2p", {})
        assert lobby.table_of(ann.id) is table and lobby.queues.search(ann.id) is None
        await (await _waits(lobby, bob)).goes()
        other = await Waiting(lobby, bob, room="xiamen/novice").queued()
        assert lobby.queues.search(bob.id) == Search("xiamen/novice", away=False)
        assert _queue(lobby) == [] and wall.pending() == []
        await other.goes()


# ---------------------------------------------------------------------------- show up
async def test_a_pairing_one_player_never_joins_is_dissolved_and_the_other_goes_first(
    tmp_path: Path,
) -> None:
    """Ann waits; bob is paired with her and never comes to the table (his tab closed as the
    answer came); cat queues meanwhile.  Ann at the table sees the hand not dealt; 7.999 s
    after the pairing nothing happened; at 8 s ann hears ``no-show`` (bob's seat, the room)
    and is back at the front of the queue, before cat; asking again, she is paired with cat
    at once.  Nobody paid: every balance is exactly the welcome grant."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob, cat = await _accounts(lobby, 3)
        hers = await _waits(lobby, ann)
        table, seat = await lobby.quick_match(bob, ROOM, WAIT_S)
        assert seat == 1 and await hers.task == (table, 0)
        conn = await _joined(lobby, table, ann)
        cats = await _waits(lobby, cat)
        wall.advance(SHOW_UP - 0.001)
        await _settle()
        real = lobby.tables[table.spec.id]
        assert not real.closed and real.state is None
        wall.advance(0.001)

        async def dissolved() -> bool:
            return real.closed and lobby.queues.search(ann.id) == Search(ROOM, away=True)

        await eventually(dissolved, "the pairing is dissolved")
        closed = [m for m in _sent(conn) if m["type"] == "closed"]
        assert [(m["code"], m["params"]) for m in closed] == [
            ("no-show", {"room": ROOM, "seats": [1], "seconds": 8})
        ]
        assert _queue(lobby) == [ann.id, cat.id]
        assert lobby.table_of(ann.id) is None and lobby.table_of(bob.id) is None
        assert lobby.queues.search(bob.id) is None  # he is gone: not queued again
        again, seat = await lobby.quick_match(ann, ROOM, WAIT_S, resume=True)
        assert seat == 1 and await cats.task == (again, 0)
        assert await _balances(lobby, [ann, bob, cat]) == [WELCOME] * 3


async def test_a_player_who_joined_and_left_again_counts_as_gone(tmp_path: Path) -> None:
    """Bob joins and his connection drops; ann never comes: at the show-up time nobody is
    there: the table closes, neither is queued again, nobody paid."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob = await _accounts(lobby, 2)
        hers = await _waits(lobby, ann)
        table, _ = await lobby.quick_match(bob, ROOM, WAIT_S)
        await hers.task
        his = await _joined(lobby, table, bob)
        real = lobby.tables[table.spec.id]
        real.submit(Gone(his))

        async def left() -> bool:
            return not real.seats[1].online

        await eventually(left, "bob's connection is gone")
        wall.advance(SHOW_UP)

        async def dissolved() -> bool:
            return real.closed

        await eventually(dissolved, "the pairing is dissolved")
        assert real.close_code == "no-show"
        assert lobby.queues.search(ann.id) is None and lobby.queues.search(bob.id) is None
        assert await _balances(lobby, [ann, bob]) == [WELCOME] * 2


async def test_a_pairing_both_joined_in_time_plays(tmp_path: Path) -> None:
    """Both come to the table within the show-up time: the hand is dealt, and the show-up
    time passing changes nothing."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob = await _accounts(lobby, 2)
        hers = await _waits(lobby, ann)
        table, _ = await lobby.quick_match(bob, ROOM, WAIT_S)
        await hers.task
        await _joined(lobby, table, ann)
        wall.advance(SHOW_UP - 0.001)
        await _joined(lobby, table, bob)
        real: Table = lobby.tables[table.spec.id]

        async def dealt() -> bool:
            return real.state is not None

        await eventually(dealt, "the hand is dealt")
        wall.advance(0.001)
        await _settle()
        assert not real.closed and lobby.queues.search(ann.id) is None


async def test_a_pairing_nobody_joined_frees_both(tmp_path: Path) -> None:
    """Neither player comes: the table closes, nobody is queued again, both are free."""
    wall = ManualClock()
    async with lobby_on(tmp_path, wall) as lobby:
        ann, bob = await _accounts(lobby, 2)
        hers = await _waits(lobby, ann)
        table, _ = await lobby.quick_match(bob, ROOM, WAIT_S)
        await hers.task
        wall.advance(SHOW_UP)
        real = lobby.tables[table.spec.id]

        async def dissolved() -> bool:
            return real.closed

        await eventually(dissolved, "the pairing is dissolved")
        assert real.close_code == "no-show" and _queue(lobby) == []
        assert lobby.table_of(ann.id) is None and lobby.table_of(bob.id) is None
        made = await lobby.vs_computer(ann, "guobiao-2p", {})  # free to sit anywhere
        assert lobby.table_of(ann.id) is made


# ---------------------------------------------------------------------------- the settings
def test_erren_serve_takes_the_defaults_and_refuses_bad_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--queue-grace`` and ``--show-up`` default to the table settings' 5 s and 8 s; a
    negative, zero (show-up) or endless time is refused at start with a message naming it."""
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args([])
    assert (args.queue_grace, args.show_up) == (QUEUE_GRACE_S, SHOW_UP_S) == (5.0, 8.0)
    assert (TableConfig().queue_grace_s, TableConfig().show_up_s) == (5.0, 8.0)
    for flags, said in (
        (["--queue-grace", "-1"], "--queue-grace must be between 0 and 600 seconds, not -1"),
        (["--show-up", "0"], "--show-up must be between 0.1 and 600 seconds, not 0"),
        (["--show-up", "nan"], "--show-up must be between 0.1 and 600 seconds, not nan"),
        (["--queue-grace", "1e9"], "--queue-grace must be between 0 and 600 seconds, not 1e+09"),
    ):
        assert serve.run(parser.parse_args(flags)) == 2
        assert capsys.readouterr().err.strip() == f"erren serve: {said}"
