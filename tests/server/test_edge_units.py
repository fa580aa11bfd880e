"""The flood bounds without a server: the edge under uvicorn's protocol (a request head and body
must arrive in time, the connections a peer may hold while they wait for a head, the process's
connection budget), the sockets per client address, and the guest throttle.

The edge's protocol is driven here through a fake transport on a real event loop, with deadlines
of a few hundredths of a second: each test awaits the transport's close (or the app's answer),
never a fixed time, except to show that something does *not* happen."""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from uvicorn.server import ServerState

from erren.cli import serve
from erren.server.client import KEEPALIVE_EXPIRY_S, PlayerClient
from erren.server.edge import (
    FD_RESERVE,
    KEEP_ALIVE_S,
    Budget,
    Deadline,
    Edge,
    EdgeLimits,
    EdgeProtocol,
    Refusal,
    connection_budget,
    edge_protocol,
    raise_open_files,
    trusted_peers,
)
from erren.server.ratelimit import (
    MAX_SOCKETS_PER_ADDRESS,
    MAX_UNAUTHENTICATED_PER_ADDRESS,
    AccessLimits,
    AccountGate,
    AddressSockets,
    SocketCap,
)

SHORT_S = 0.05
"""The deadlines of the protocol tests (seconds)."""
QUIET_S = 0.3
"""How long a test watches a connection to show it is *not* closed (several deadlines)."""
ANSWER = b"HTTP/1.1 200 OK"

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


# ---------------------------------------------------------------------------- the budget
def test_the_connection_budget_leaves_room_for_the_reserve_and_the_backlog() -> None:
    assert connection_budget(1024) == Budget(open_files=1024, connections=768, backlog=128)
    assert connection_budget(65536) == Budget(open_files=65536, connections=63360, backlog=2048)
    assert connection_budget(256) == Budget(open_files=256, connections=64, backlog=64)
    for limit in (256, 1024, 4096, 20000, 65536, 1 << 20):
        budget = connection_budget(limit)
        assert budget.connections + budget.backlog + FD_RESERVE == limit


def test_the_open_file_limit_is_raised_up_to_the_hard_limit_and_never_lowered() -> None:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert raise_open_files(wanted=16) == soft  # never down
    script = (
        "import resource; from erren.server.edge import raise_open_files; "
        "print(raise_open_files(wanted=4096), raise_open_files(wanted=1 << 30), "
        "*resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    done = subprocess.run(
        ["prlimit", "--nofile=512:2048", sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.split() == ["2048", "2048", "2048", "2048"]


# ---------------------------------------------------------------------------- the edge
def test_a_peer_at_its_bound_of_waiting_connections_is_refused_others_are_not() -> None:
    edge = Edge(EdgeLimits(pending_per_address=2, max_connections=10), trusted_peers("10.0.0.2"))
    assert edge.counted("10.0.0.2") is None  # the trusted proxy: never bounded
    assert edge.counted(None) is None
    key = edge.counted("192.0.2.7")
    assert key == "192.0.2.7"
    edge.wait(key)
    edge.wait(key)
    assert edge.pending(key) == 2
    assert edge.admit(key, open_connections=3) is Refusal.PENDING
    assert edge.admit("192.0.2.8", open_connections=3) is None
    assert edge.admit(None, open_connections=3) is None
    edge.done(key)
    assert edge.admit(key, open_connections=3) is None
    assert edge.admit(None, open_connections=11) is Refusal.FULL
    assert edge.admit(None, open_connections=10) is None


def test_no_bound_is_no_bound() -> None:
    edge = Edge(EdgeLimits(pending_per_address=0, max_connections=0))
    assert edge.counted("192.0.2.7") is None
    assert edge.admit(None, open_connections=10**6) is None


def test_a_refusal_is_a_complete_http_answer_with_its_code() -> None:
    edge = Edge(EdgeLimits(pending_per_address=64, max_connections=768, head_timeout_s=10))
    head, body = edge.answers[Refusal.PENDING].split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
    assert b"\r\nretry-after: 10\r\n" in head and b"\r\nconnection: close" in head
    assert f"content-length: {len(body)}".encode() in head
    assert json.loads(body) == {
        "detail": "your address already has 64 connections waiting to send a request (the "
        "limit); try again in 10 s",
        "code": "connection-limit",
        "params": {"cap": "pending", "limit": 64, "retry_after": 10},
    }
    head, body = edge.answers[Refusal.FULL].split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert json.loads(body) == {
        "detail": "the server holds as many connections as it can (768); try again in 5 s",
        "code": "server-full",
        "params": {"limit": 768, "retry_after": 5},
    }


# ---------------------------------------------------------------------------- the protocol
class FakeTransport(asyncio.Transport):
    """What uvicorn's protocol needs of a transport: the peer, writes, close (which tells the
    protocol, as a real one does, on the next turn of the loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, peer: str) -> None:
        super().__init__()
        self.loop = loop
        self.peer = peer
        self.protocol: asyncio.BaseProtocol | None = None
        self.written = bytearray()
        self.closed = asyncio.Event()
        self._closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.peer, 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if not self._closing:
            self._closing = True
            assert self.protocol is not None
            self.loop.call_soon(self.protocol.connection_lost, None)
            self.loop.call_soon(self.closed.set)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _app(scope: Scope, receive: Receive, send: Send) -> None:
    """Read the whole body, answer ``200 ok``; accept a WebSocket and wait for its end."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass
        return
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        if not message.get("more_body"):
            break
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
    )
    await send({"type": "http.response.body", "body": b"ok"})


class Harness:
    """A server's worth of state for :class:`EdgeProtocol` connections on fake transports."""

    def __init__(self, limits: EdgeLimits) -> None:
        self.loop = asyncio.get_running_loop()
        self.edge = Edge(limits, trusted_peers("127.0.0.1"))
        self.config = uvicorn.Config(
            _app, log_level="warning", lifespan="off", timeout_keep_alive=5
        )
        self.config.load()
        self.state = ServerState()
        self.protocol_class = edge_protocol(self.edge)

    def connect(self, peer: str = "192.0.2.7") -> tuple[EdgeProtocol, FakeTransport]:
        protocol = self.protocol_class(
            config=self.config, server_state=self.state, app_state={}, _loop=self.loop
        )
        transport = FakeTransport(self.loop, peer)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        return protocol, transport


def _run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), timeout=30))


async def _closed(transport: FakeTransport) -> None:
    await asyncio.wait_for(transport.closed.wait(), timeout=10)


async def _answered(transport: FakeTransport) -> None:
    while ANSWER not in transport.written:
        await asyncio.sleep(0.005)


def test_a_head_that_does_not_arrive_in_time_closes_the_connection() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=SHORT_S, pending_per_address=4))
        _silent, silent_t = h.connect()
        slow, slow_t = h.connect()
        slow.data_received(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # never finished
        assert h.edge.pending("192.0.2.7") == 2
        await _closed(silent_t)
        await _closed(slow_t)
        await asyncio.sleep(0)  # connection_lost runs on the loop's next turn
        assert silent_t.written == slow_t.written == b""  # closed without an answer
        assert h.edge.expired[Deadline.HEAD] == 2
        assert h.edge.pending("192.0.2.7") == 0
        assert not h.state.connections

    _run(main)


def test_trickling_bytes_does_not_extend_the_head_deadline() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=4 * SHORT_S))
        protocol, transport = h.connect()
        protocol.data_received(b"GET / HTTP/1.1\r\n")
        while not transport.is_closing():
            protocol.data_received(b"X")  # one byte of a header name, again and again
            await asyncio.sleep(SHORT_S / 5)
        assert h.edge.expired[Deadline.HEAD] == 1

    _run(main)


def test_a_complete_request_is_answered_and_the_kept_alive_connection_waits_again() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=SHORT_S, pending_per_address=4))
        protocol, transport = h.connect()
        protocol.data_received(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        await _answered(transport)
        assert h.edge.pending("192.0.2.7") == 1  # kept alive, waiting for the next head
        await asyncio.sleep(QUIET_S)  # proving a negative: no deadline runs between requests
        assert not transport.is_closing()  # (uvicorn's keep-alive of 5 s closes it, not this)
        protocol.data_received(b"POST /x HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\n\r\nhi")
        while transport.written.count(ANSWER) < 2:
            await asyncio.sleep(0.005)
        assert h.edge.expired == {}
        transport.close()
        await _closed(transport)
        await asyncio.sleep(0)
        assert h.edge.pending("192.0.2.7") == 0

    _run(main)


def test_a_later_request_whose_head_stalls_is_closed() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=SHORT_S))
        protocol, transport = h.connect()
        protocol.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        await _answered(transport)
        protocol.data_received(b"GET / HTTP/1.1\r\nHo")
        await _closed(transport)
        assert h.edge.expired == {Deadline.HEAD: 1}

    _run(main)


def test_a_body_that_stalls_closes_the_connection_and_the_app_hears_the_disconnect() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=10, body_timeout_s=SHORT_S))
        protocol, transport = h.connect()
        protocol.data_received(b"POST /x HTTP/1.1\r\nHost: x\r\ncontent-length: 10\r\n\r\nabc")
        await _closed(transport)
        assert h.edge.expired == {Deadline.BODY: 1}
        assert ANSWER not in transport.written
        for _ in range(100):  # the app's task sees http.disconnect and ends
            if not h.state.tasks:
                break
            await asyncio.sleep(0.01)
        assert not h.state.tasks

    _run(main)


def test_a_peer_over_its_bound_is_answered_429_at_once_a_trusted_proxy_is_not() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=10, pending_per_address=2))
        held = [h.connect(), h.connect()]
        _, refused = h.connect()
        assert refused.is_closing() and refused.written == h.edge.answers[Refusal.PENDING]
        _, other = h.connect("192.0.2.8")  # another address
        proxied = [h.connect("127.0.0.1") for _ in range(5)]  # the trusted proxy
        assert not other.is_closing()
        assert not any(t.is_closing() for _, t in proxied)
        assert h.edge.refused == {Refusal.PENDING: 1}
        await _closed(refused)
        held[0][0].data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # its head came
        _, admitted = h.connect()
        assert not admitted.is_closing()
        for _, t in [*held, (None, other), (None, admitted), *proxied]:
            t.close()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert h.edge.pending("192.0.2.7") == 0

    _run(main)


def test_over_the_process_budget_every_new_connection_is_answered_503() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(max_connections=2))
        first, second = h.connect(), h.connect("127.0.0.1")
        _, third = h.connect("127.0.0.1")
        assert third.is_closing() and third.written == h.edge.answers[Refusal.FULL]
        assert h.edge.refused == {Refusal.FULL: 1}
        for _, t in (first, second):
            t.close()
        await _closed(third)

    _run(main)


def test_a_websocket_handshake_leaves_the_edge_once_its_head_is_complete() -> None:
    async def main() -> None:
        h = Harness(EdgeLimits(head_timeout_s=SHORT_S, pending_per_address=4))
        protocol, transport = h.connect()
        protocol.data_received(
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        assert transport.protocol is not protocol  # handed over to the WebSocket protocol
        assert h.edge.pending("192.0.2.7") == 0
        await asyncio.sleep(QUIET_S)  # proving a negative: no head deadline for the socket
        assert h.edge.expired == {}
        transport.close()
        await _closed(transport)

    _run(main)


# ---------------------------------------------------------------------------- sockets
def test_sockets_per_address_not_logged_in_and_in_all() -> None:
    sockets = AddressSockets(unauthenticated=2, open_=3)
    assert sockets.limit(SocketCap.UNAUTHENTICATED) == 2
    assert sockets.limit(SocketCap.OPEN) == 3
    with sockets.holding("a") as first, sockets.holding("a") as second:
        assert sockets.waiting("a") == 2 and sockets.count("a") == 2
        assert sockets.full("a") is SocketCap.UNAUTHENTICATED
        assert sockets.full("b") is None
        sockets.logged_in(first)
        sockets.logged_in(first)  # twice: counted once
        assert sockets.waiting("a") == 1 and sockets.full("a") is None
        with sockets.holding("a"):
            assert sockets.full("a") is SocketCap.OPEN
        assert not second.logged_in
    assert sockets.count("a") == sockets.waiting("a") == 0
    assert sockets.full("a") is None


def test_no_bound_on_sockets_is_no_bound() -> None:
    sockets = AddressSockets(unauthenticated=0, open_=0)
    with sockets.holding("a"), sockets.holding("a"):
        assert sockets.full("a") is None


def test_the_default_bounds_are_erren_serves() -> None:
    limits = AccessLimits()
    assert (limits.unauthenticated_per_address, limits.sockets_per_address) == (32, 256)
    assert (MAX_UNAUTHENTICATED_PER_ADDRESS, MAX_SOCKETS_PER_ADDRESS) == (32, 256)
    assert (limits.guest_per_address, limits.guest_window_s) == (30, 3600)
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args([])
    assert args.guest_limit == limits.guest_per_address
    assert args.unauthenticated_per_address == limits.unauthenticated_per_address
    assert args.sockets_per_address == limits.sockets_per_address


def test_the_server_keeps_an_idle_connection_well_past_the_time_clients_reuse_it() -> None:
    """A client that reuses a kept-alive connection just as the server closes it gets a read
    error (a CI run failed so: uvicorn's default keep-alive and httpx's expiry are both 5 s).
    The server keeps one 15 s; its own client, like httpx's default, reuses one for 5 s."""
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    server = serve._server(parser.parse_args([]), Starlette(), "node-test")
    assert server.config.timeout_keep_alive == KEEP_ALIVE_S == 15
    assert KEEPALIVE_EXPIRY_S == httpx.Limits().keepalive_expiry == 5
    client = PlayerClient("http://127.0.0.1:1", "token")
    pool = client.http._transport._pool  # type: ignore[attr-defined]
    assert pool._keepalive_expiry == KEEPALIVE_EXPIRY_S


# ---------------------------------------------------------------------------- guests
class Clock:
    """``time.time`` for the ``limits`` library and the throttle, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_guests_per_address_are_throttled_within_their_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    gate = AccountGate(AccessLimits(guest_per_address=2, guest_window_s=60))
    for _ in range(2):
        assert gate.guest.retry_after("a") is None
        gate.guest.count("a")
    assert gate.guest.retry_after("a") == 60
    assert gate.guest.retry_after("b") is None  # another address
    assert gate.register.retry_after("a") is None  # registrations are counted apart
    clock.now += 45
    assert gate.guest.retry_after("a") == 15
    clock.now += 15.5
    assert gate.guest.retry_after("a") is None


def test_guests_being_made_count_before_they_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time", Clock())
    gate = AccountGate(AccessLimits(guest_per_address=2, guest_window_s=60))
    with gate.guest.attempt("a"), gate.guest.attempt("a"):
        assert gate.guest.retry_after("a") is not None  # two in flight: the limit
    assert gate.guest.retry_after("a") is None  # neither counted (they failed)


def test_a_guest_limit_of_zero_is_no_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time", Clock())
    gate = AccountGate(AccessLimits(guest_per_address=0))
    for _ in range(100):
        gate.guest.count("a")
    assert gate.guest.retry_after("a") is None
