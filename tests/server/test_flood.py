"""Holding under a flood (issue 26, point 1), against real servers on loopback.

* Guests are throttled per client address like registrations (429 ``guest-limit`` with
  ``Retry-After``), and a client address holds a bounded number of WebSockets, those not logged
  in yet and all of them: the next handshake is refused with 429 ``connection-limit`` before a
  socket is opened, and one that never logs in is closed at the auth deadline (``auth``, 4401),
  which frees its place (a server with small bounds of its own).
* The flood: 2,000 WebSockets that never log in, 200 request heads that never end and 100 guest
  requests, all from 127.0.0.2, against ``erren serve`` under ``prlimit --nofile=1024:1024``
  (systemd's default soft limit), while a registered player logs in from 127.0.0.1 and plays a
  hand against the computer and ``/health`` is asked every 0.2 s.

The bounds' mechanics, with deadlines of hundredths of a second, are in ``test_edge_units.py``;
the auth message's deadline on its own in ``test_socket.py``.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from erren.bots import find_bot
from erren.server.client import PlayerClient, guest_token, ws_url
from erren.server.edge import connection_budget, raise_open_files
from erren.server.socket import AUTH_TIMEOUT_S
from erren.testing.flood import Flood, Kind, Outcome, flooding, watch_health
from erren.testing.waits import eventually

from ._support.harness import Server, database, run, serving

pytestmark = pytest.mark.services

GUESTS, UNAUTHENTICATED, SOCKETS = 3, 2, 3
"""The small bounds of the ``capped`` server: guests an hour, sockets not logged in yet and
sockets in all per client address."""
OPEN_FILES = 1024
"""The flood's server's open-file limit, soft and hard (systemd's default soft limit)."""
FLOOD_SOCKETS, FLOOD_SLOW, FLOOD_GUESTS = 2000, 200, 100
GUEST_LIMIT = 30
"""``erren serve``'s default: new guests per address an hour."""
PASSWORD = "password-123"


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with small per-address bounds, guests throttled."""
    tmp = tmp_path_factory.mktemp("capped")
    options = [
        *("--guest-limit", str(GUESTS)),
        *("--unauthenticated-per-address", str(UNAUTHENTICATED)),
        *("--sockets-per-address", str(SOCKETS)),
    ]
    with serving("sqlite", tmp, *options, throttle_guests=True) as srv:
        yield srv


def _from(address: str) -> dict[str, str]:
    """The headers of a request from ``address`` (uvicorn believes ``X-Forwarded-For`` from
    127.0.0.1, its default trusted proxy)."""
    return {"X-Forwarded-For": address}


# ---------------------------------------------------------------------------- guests
def test_guests_are_throttled_per_address_like_registrations(capped: Server) -> None:
    with httpx.Client(base_url=capped.url) as http:
        for _ in range(GUESTS):
            assert http.post("/auth/guest", headers=_from("192.0.2.70")).status_code == 200
        refused = http.post("/auth/guest", headers=_from("192.0.2.70"))
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 3500 < wait <= 3600
        assert refused.json() == {
            "detail": f"at most {GUESTS} new guests per address; try again in {wait} s",
            "code": "guest-limit",
            "params": {"retry_after": wait},
        }
        assert http.post("/auth/guest", headers=_from("192.0.2.71")).status_code == 200


# ---------------------------------------------------------------------------- sockets
async def _open(url: str, address: str) -> ClientConnection:
    return await connect(f"{ws_url(url)}/ws", additional_headers=_from(address), open_timeout=10)


async def _refused(url: str, address: str) -> tuple[int, dict[str, str], object]:
    """The status, ``Retry-After`` and JSON body of a refused handshake."""
    with pytest.raises(InvalidStatus) as refused:
        ws = await _open(url, address)
        await ws.close()
    response = refused.value.response
    retry = {"Retry-After": response.headers.get("Retry-After", "")}
    return response.status_code, retry, json.loads(bytes(response.body or b""))


async def _log_in(ws: ClientConnection, token: str) -> None:
    await ws.send(json.dumps({"type": "auth", "token": token}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert welcome["type"] == "welcome", welcome


async def _closed_by_the_server(ws: ClientConnection) -> tuple[int | None, str]:
    """Wait (at most the auth deadline and a margin) until the server closes ``ws``: its close
    code and the code of the error before it."""
    error = json.loads(await asyncio.wait_for(ws.recv(), AUTH_TIMEOUT_S + 10))
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    return ws.close_code, error["code"]


def test_sockets_per_address_are_bounded_before_the_handshake(capped: Server) -> None:
    """Two sockets of one address wait to log in: a third is refused before its handshake;
    once one logs in a third opens, and a fourth meets the bound on all sockets.  The two that
    never log in are closed at the auth deadline (5 s), and their places are free again."""

    async def main() -> None:
        address = "192.0.2.80"
        token = await guest_token(capped.url)
        first, second = await _open(capped.url, address), await _open(capped.url, address)
        assert await _refused(capped.url, address) == (
            429,
            {"Retry-After": "5"},
            {
                "detail": f"your address already has {UNAUTHENTICATED} connections that have "
                "not logged in (the limit); try again in 5 s",
                "code": "connection-limit",
                "params": {"cap": "unauthenticated", "limit": UNAUTHENTICATED, "retry_after": 5},
            },
        )
        other = await _open(capped.url, "192.0.2.81")  # another address is not affected
        await other.close()
        await _log_in(first, token)  # one of the two logs in: a place to wait is free
        third = await _open(capped.url, address)
        assert await _refused(capped.url, address) == (
            429,
            {"Retry-After": "30"},
            {
                "detail": f"your address already has {SOCKETS} connections open (the limit); "
                "try again in 30 s",
                "code": "connection-limit",
                "params": {"cap": "open", "limit": SOCKETS, "retry_after": 30},
            },
        )
        # the sockets that never log in are closed at their deadline, and their places freed
        assert await _closed_by_the_server(second) == (4401, "auth")
        assert await _closed_by_the_server(third) == (4401, "auth")
        reopened: list[ClientConnection] = []

        async def a_place_is_free() -> bool:  # once the server has let the socket go
            try:
                reopened.append(await _open(capped.url, address))
            except InvalidStatus:
                return False
            return True

        await eventually(a_place_is_free, "a closed socket's place taken again")
        for ws in (first, second, third, *reopened):
            await ws.close()

    run(main())


# ---------------------------------------------------------------------------- the flood
class Limited(Server):
    """``erren serve`` under ``prlimit --nofile=1024:1024``: it cannot raise its soft limit
    (the hard one is the same), as under systemd's default without ``LimitNOFILE``."""

    def command(self) -> list[str]:
        return ["prlimit", f"--nofile={OPEN_FILES}:{OPEN_FILES}", *super().command()]


def _open_files_limit(pid: int) -> int:
    """The soft open-file limit of process ``pid``."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError(f"no open-file limit in /proc/{pid}/limits")


def _open_files(pid: int) -> int:
    """The descriptors process ``pid`` holds now."""
    return sum(1 for _ in Path(f"/proc/{pid}/fd").iterdir())


async def _play_a_hand(url: str, name: str) -> list[float]:
    """Log ``name`` in and play one hand against the computer; the seconds from each of the
    player's moves to the server's answer."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        login = await http.post("/auth/login", json={"name": name, "password": PASSWORD})
        assert login.status_code == 200, login.text
    async with PlayerClient(url, login.json()["token"]) as me:
        table = (await me.vs_computer("guobiao-2p", turn_timeout_s=1000))["table"]
        assert await me.play(table, find_bot("random", seed=26), hands=1, timeout=60) == 1
        return me.latencies


async def _watch_files(pid: int, stop: asyncio.Event, most: list[int]) -> None:
    """Keep the most descriptors process ``pid`` held (sampled every 0.05 s) in ``most``."""
    while not stop.is_set():
        most[0] = max(most[0], _open_files(pid))
        await asyncio.sleep(0.05)


async def _flood_and_play(server: Server, pid: int) -> tuple[Flood, list[float], list[int | None]]:
    """Flood ``server`` from 127.0.0.2 while a player registered before logs in and plays a
    hand; returns the flood (stopped), the player's move times and ``/health``'s statuses."""
    name = "f" + uuid.uuid4().hex[:12]
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        made = await http.post("/auth/register", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
    done, most = asyncio.Event(), [0]
    health = asyncio.create_task(watch_health(server.url, done))
    files = asyncio.create_task(_watch_files(pid, done, most))
    try:
        async with flooding(
            "127.0.0.1", server.port, sockets=FLOOD_SOCKETS, slow=FLOOD_SLOW, guests=FLOOD_GUESTS
        ) as flood:
            await asyncio.wait_for(flood.holding.wait(), 60)  # its excess is refused by now
            moves = await _play_a_hand(server.url, name)
            await asyncio.wait_for(flood.expired.wait(), 60)  # a held head missed its deadline
            await asyncio.wait_for(flood.sockets_done.wait(), 60)
    finally:
        done.set()
        statuses = [status for _, status in await health]
        await files
    assert most[0] < connection_budget(OPEN_FILES).connections, most
    assert statuses and set(statuses) == {200}, statuses
    return flood, moves, statuses


@pytest.mark.slow
def test_a_flood_from_one_address_leaves_health_and_a_player_alone(tmp_path: Path) -> None:
    """Slow (about 25 s): the flood's held connections end by the server's own deadlines at
    real speed (a request head's 10 s, the auth message's 5 s), and the flood opens thousands
    of connections on the shared two cores.

    Every WebSocket of the flood is refused (429 ``connection-limit``: at the edge, or at the
    handshake), or opened and closed with ``auth`` and 4401 when it sends nothing; every slow
    head is refused at once, or held until its deadline and closed without an answer; at most
    30 guests are made; the server never holds more descriptors than its budget; ``/health``
    answers 200 every time; the player logs in and plays his hand."""
    wanted = FLOOD_SOCKETS + FLOOD_SLOW + 512
    assert raise_open_files(wanted) >= wanted, "the test process needs its own descriptors"
    with database("sqlite", tmp_path) as url:
        server = Limited(url, tmp_path / "server.log", throttle_guests=True)
        server.start()
        try:
            assert server.proc is not None
            assert _open_files_limit(server.proc.pid) == OPEN_FILES
            result: list[tuple[Flood, list[float], list[int | None]]] = []

            async def main() -> None:
                assert server.proc is not None
                result.append(await _flood_and_play(server, server.proc.pid))

            run(main(), timeout=180)
        finally:
            server.stop()
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    flood, moves, _ = result[0]
    tally = flood.tally
    assert moves, "the player made no move"

    sockets = {o for (k, o), n in tally.outcomes.items() if k is Kind.SOCKET and n}
    assert sockets <= {Outcome.ACCEPTED, Outcome.REFUSED, Outcome.RESET}, tally.lines()
    assert tally.total(Kind.SOCKET) == FLOOD_SOCKETS
    accepted = tally.count(Kind.SOCKET, Outcome.ACCEPTED)
    assert tally.close_codes == ({4401: accepted} if accepted else {}), tally.lines()
    assert tally.errors == ({"auth": accepted} if accepted else {}), tally.lines()

    slow = {o for (k, o), n in tally.outcomes.items() if k is Kind.SLOW and n}
    assert {Outcome.REFUSED, Outcome.EXPIRED} <= slow, tally.lines()
    assert slow <= {Outcome.REFUSED, Outcome.EXPIRED, Outcome.STOPPED, Outcome.RESET}

    assert tally.total(Kind.GUEST) == FLOOD_GUESTS
    assert tally.count(Kind.GUEST, Outcome.CREATED) <= GUEST_LIMIT, tally.lines()
    codes = {code for (_, code), n in tally.codes.items() if n}
    bounds = {f"connection-limit[{cap}]" for cap in ("pending", "unauthenticated", "open")}
    assert codes <= {*bounds, "guest-limit"}, tally.lines()
