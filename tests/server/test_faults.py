"""Faults are never charged to a player: a database that stops taking writes under a running
server (the SQLite file vanishes; PostgreSQL turns read-only and its connections are killed)
keeps the table, retries the write and loses nothing; a hand restored after a SIGKILL that
nobody comes back to is called off, with no beans moved."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from erren.bots import find_bot
from erren.server.client import PlayerClient
from erren.server.fairness import verify_record
from erren.server.store import Store
from erren.testing.waits import eventually

from ._support.harness import PG_ADMIN, TIME_SCALE, Server, run, serving
from ._support.helpers import private_pair, registered, settlements, wait_for

pytestmark = pytest.mark.services

GRACE_S = 60 * TIME_SCALE  # erren serve --grace default 60, at the harness's time scale
LONG_TIMER_S = 1000
"""The turn and claim timers of the outage tests' table.  They act at a turn or a claim window
of their own choosing while they break the database under the server, which takes a while on a
loaded machine: the table's own timers must not move the hand on meanwhile (a move of theirs
would be ``stale``)."""


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    with serving("sqlite", tmp_path) as server:
        yield server


@pytest.fixture
def pg_server(tmp_path: Path) -> Iterator[Server]:
    with serving("postgresql", tmp_path) as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with serving(str(request.param), tmp_path) as server:
        yield server


def _events(message: dict[str, Any]) -> list[dict[str, Any]]:
    return list(message.get("events", [])) if message.get("type") == "events" else []


def _deciding(c: PlayerClient) -> bool:
    """``c`` has a decision of his own to make: a window that offers only a pass is not one
    (the server passes for him after the 鸣牌保护 pause, which would make his move stale)."""
    return c.my_turn() and c.state is not None and c.state["legal"] != ["pass"]


async def _to_decide(a: PlayerClient, b: PlayerClient) -> tuple[PlayerClient, PlayerClient]:
    """Read on until one of the two has a decision to make, both up to the same event (so that
    a move names the latest one); that one first."""
    while True:
        for c, other in ((a, b), (b, a)):
            while c.last_n < other.last_n:
                await wait_for(c, lambda m: m.get("type") == "events")
        if _deciding(a) or _deciding(b):
            return (a, b) if _deciding(a) else (b, a)
        await wait_for(a, lambda m: m.get("type") == "events")


async def _seated_pair(url: str) -> tuple[PlayerClient, PlayerClient, str]:
    """A private pair at a table with long timers, both joined, whose first client is to act."""
    a, b, table = await private_pair(
        url, keep=True, turn_timeout_s=LONG_TIMER_S, claim_timeout_s=LONG_TIMER_S
    )
    for c in (a, b):
        await c.connect()
        await c.join(table)
    for c in (a, b):
        await wait_for(c, lambda m: m.get("type") == "events")
    a, b = await _to_decide(a, b)
    return a, b, table


async def _outage(
    server: Server, a: PlayerClient, b: PlayerClient, table: str, heal: Any, *, readable: bool
) -> None:
    """While the store refuses writes: a's move waits (told ``store-retrying``), nothing is
    sent twice, the players stay seated, new writes over HTTP get 503; ``heal`` ends the
    outage and the move goes out once.  ``readable``: the database still answers reads (a
    read-only PostgreSQL), so the seat can be seen kept during the outage; a vanished SQLite
    file answers every request with 503 until it is back."""
    assert a.state is not None
    move = a.state["legal"][0]
    seen = a.last_n
    await a.act(move)
    told = await wait_for(a, lambda m: m.get("type") == "error")
    assert told["code"] == "store-retrying" and told["message"]
    await wait_for(b, lambda m: m.get("type") == "error" and m["code"] == "store-retrying")
    async with httpx.AsyncClient(base_url=server.url) as http:
        refused = await http.post("/auth/guest")
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "store-unavailable"
        unready = await http.get("/ready")  # a load balancer stops sending players here
        assert unready.status_code == 503, unready.text
        assert unready.json()["code"] == "store-unavailable"
    if readable:
        await _still_seated(a, table)
    else:
        again = await a.http.post("/tables/vs-computer", json={"family": "guobiao-2p"})
        assert (again.status_code, again.json()["code"]) == (503, "store-unavailable")
    assert server.proc is not None and server.proc.poll() is None  # the process lives
    assert a.last_n == seen  # nothing went out before it was durable
    await heal()
    await _still_seated(a, table)
    await wait_for(a, lambda m: m.get("type") == "store-ok", timeout=20)
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/ready")).json()["ready"] is True
    back = await wait_for(a, lambda m: bool(_events(m)))
    assert back["events"][0]["n"] == seen + 1
    # the hand plays to its end; the move is in the record once, at its place
    await asyncio.gather(
        a.play(table, find_bot("random", seed=1), hands=1, leave_after=False, timeout=30),
        b.play(table, find_bot("random", seed=2), hands=1, leave_after=False, timeout=30),
    )
    numbers = [e["n"] for m in a.messages for e in _events(m)]
    assert len(numbers) == len(set(numbers))  # no event twice
    record = settlements(a.messages)[-1]["record"]
    verify_record(record)
    assert f"{a.seat}:{move}" in record["actions"]


async def _still_seated(a: PlayerClient, table: str) -> None:
    """The account's seat was not freed: a new table is refused, ``/me/table`` names it."""
    again = await a.http.post("/tables/vs-computer", json={"family": "guobiao-2p"})
    assert again.status_code == 409 and again.json()["code"] == "seated"  # not freed
    assert (await a.http.get("/me/table")).json()["table"] == table


def test_sqlite_file_vanishing_keeps_the_table_and_loses_nothing(sqlite_server: Server) -> None:
    server = sqlite_server
    path = Path(server.database.split(":///", 1)[1])

    async def main() -> None:
        a, b, table = await _seated_pair(server.url)
        away = path.with_name(path.name + ".away")
        path.rename(away)

        async def heal() -> None:
            away.rename(path)

        try:
            await _outage(server, a, b, table, heal, readable=False)
        finally:
            if away.exists():
                away.rename(path)
            await a.close()
            await b.close()

    run(main())


def _pg(sql: str) -> None:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def _kill_backends(name: str) -> None:
    _pg(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    )


def test_postgresql_read_only_and_killed_connections_lose_nothing(pg_server: Server) -> None:
    server = pg_server
    name = server.database.rsplit("/", 1)[1]

    async def main() -> None:
        a, b, table = await _seated_pair(server.url)
        # the server's connections are killed: the pool reconnects, play goes on
        _kill_backends(name)
        assert a.state is not None
        seen = a.last_n
        await a.act(a.state["legal"][0])
        moved = await wait_for(a, lambda m: bool(_events(m)) or m.get("type") == "error")
        if moved.get("type") == "error":  # a write met a dead connection: retried
            assert moved["code"] == "store-retrying"
            moved = await wait_for(a, lambda m: bool(_events(m)), timeout=20)
        assert moved["events"][0]["n"] == seen + 1
        a, b = await _to_decide(a, b)
        # now the database turns read-only under the server
        _pg(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        _kill_backends(name)

        async def heal() -> None:
            _pg(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
            _kill_backends(name)

        try:
            await _outage(server, a, b, table, heal, readable=True)
        finally:
            with contextlib.suppress(Exception):
                _pg(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
            await a.close()
            await b.close()

    run(main())


def test_ready_says_so_while_the_tables_cannot_write(pg_server: Server) -> None:
    """A fault only writes meet (a full disk, an immutable journal file; here a trigger that
    refuses the game's moves): the database answers ``/ready``'s own query, but a table is
    retrying its record, so the node is not ready until the write goes through."""
    server = pg_server
    name = server.database.rsplit("/", 1)[1]
    pg_url = PG_ADMIN.rsplit("/", 1)[0] + "/" + name

    def on_db(sql: str) -> None:
        import psycopg  # noqa: PLC0415

        with psycopg.connect(pg_url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql)

    async def main() -> None:
        a, b, _table = await _seated_pair(server.url)
        on_db(
            "CREATE FUNCTION refuse_moves() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'no space left (a test)'; END $$ LANGUAGE plpgsql; "
            "CREATE TRIGGER refuse_moves BEFORE INSERT ON game_actions "
            "FOR EACH ROW EXECUTE FUNCTION refuse_moves()"
        )
        try:
            assert a.state is not None
            await a.act(a.state["legal"][0])
            told = await wait_for(a, lambda m: m.get("type") == "error")
            assert told["code"] == "store-retrying", told
            async with httpx.AsyncClient(base_url=server.url) as http:
                unready = await http.get("/ready")
                assert unready.status_code == 503, unready.text
                assert unready.json()["code"] == "store-unavailable"
                assert "1 table(s) retrying" in unready.json()["detail"]
                on_db("DROP TRIGGER refuse_moves ON game_actions")
                await wait_for(a, lambda m: m.get("type") == "store-ok", timeout=20)
                assert (await http.get("/ready")).json()["ready"] is True
        finally:
            with contextlib.suppress(Exception):
                on_db("DROP TRIGGER IF EXISTS refuse_moves ON game_actions")
            await a.close()
            await b.close()

    run(main())


def test_a_restored_hand_nobody_rejoins_is_called_off(fresh: Server) -> None:
    server = fresh

    async def main() -> None:
        a = await registered(server.url, "fault-a")
        b = await registered(server.url, "fault-b")
        first, _second = await asyncio.gather(
            a.quick_match("guobiao-2p/novice", 20), b.quick_match("guobiao-2p/novice", 20)
        )
        table = first["table"]
        for c in (a, b):
            await c.connect()
            await c.join(table)
        for c in (a, b):
            await wait_for(c, lambda m: m.get("type") == "events")
        game = a.game
        before = (await a.balance(), await b.balance())
        server.kill()  # SIGKILL mid-hand
        for c in (a, b):
            await c.disconnect()
        server.start()  # the hand is restored; nobody comes back

        async def called_off() -> bool:
            return bool((await a.http.get(f"/games/{game}")).json()["finished"])

        await eventually(called_off, "the restored hand is called off", timeout=GRACE_S + 20)
        assert (await a.balance(), await b.balance()) == before  # no escape charged
        for c in (a, b):
            assert (await c.http.get("/me/table")).json() is None
        found = (await a.http.get(f"/games/{game}")).json()
        assert found["finished"] is True
        assert "called_off" in found["record"], sorted(found["record"])
        assert "result" not in found["record"]
        ledger = (await a.http.get("/me/ledger")).json()
        assert not [row for row in ledger if f"game {game}" in row["reason"]]
        store = await Store.open(server.database)
        try:
            audit = await store.ledger.audit()
            assert audit.users_total == audit.granted
        finally:
            await store.close()
        # free to play again
        again = await a.http.post("/tables/vs-computer", json={"family": "guobiao-2p"})
        assert again.status_code == 201, again.text
        await a.close()
        await b.close()

    run(main())


def test_a_player_back_after_a_restart_hears_called_off(fresh: Server) -> None:
    """Slow (about 9 s): the server is killed and restarted, and the call-off waits out the
    absent player's grace period (5 s here)."""
    server = fresh

    async def main() -> None:
        a, b, table = await private_pair(server.url)
        for c in (a, b):
            await c.connect()
            await c.join(table)
        await wait_for(a, lambda m: m.get("type") == "events")
        server.kill()
        for c in (a, b):
            await c.disconnect()
        # the restarted server's grace is 5 s (500 s at the time scale): a player who takes a
        # while to reconnect on a loaded machine is still back before the call-off
        server.extra = (*server.extra, "--grace", "500")
        server.start()
        await a.connect()
        await a.join(table, resume=True)  # a is back, b never comes
        await wait_for(a, lambda m: m.get("type") == "joined")
        closed = await wait_for(
            a, lambda m: m.get("type") == "closed", timeout=500 * TIME_SCALE + 30
        )
        assert closed["code"] == "called-off" and closed["table"] == table
        await a.close()
        await b.close()

    run(main())


def test_a_fatal_signal_leaves_every_threads_stack_in_the_log(sqlite_server: Server) -> None:
    """SIGBUS is what SQLite's memory-mapped ``-shm`` raises when its file cannot back the
    mapping (an immutable or vanished file): the process cannot go on, but it no longer dies
    silently — ``erren serve`` enables :mod:`faulthandler`, which writes the fatal error and the
    Python stack of every thread to the log before the process ends."""
    assert sqlite_server.proc is not None
    sqlite_server.proc.send_signal(signal.SIGBUS)
    assert sqlite_server.proc.wait(10) == -signal.SIGBUS
    log = sqlite_server.log.read_text(errors="replace")
    assert "Fatal Python error: Bus error" in log
    assert "Current thread" in log and 'File "' in log  # the stacks, with their files
