"""The connection edge under the app: what a client may hold before any request of his is read,
and how long a request may take to arrive.

uvicorn reads a request with no deadline: a connection that sends half a request head and then
nothing holds its file descriptor for ever (slowloris), and nothing stops one address from
opening connections until the process runs out of descriptors — and at ``EMFILE`` the event loop
drops every new connection unanswered (``/health`` included), the database may fail to open a
connection, and uvloop closes the listening socket for good once libuv's spare descriptor is
gone too.  :class:`EdgeProtocol` is uvicorn's httptools protocol (the one its ``auto`` picks)
with:

* **a head deadline**: a connection's request head (the request line and headers, a WebSocket
  handshake included) must be complete within :data:`HEAD_TIMEOUT_S` of the connection, or of
  the request's first byte on a kept-alive connection; otherwise the connection is closed;
* **a body deadline**: the body must be complete within :data:`BODY_TIMEOUT_S` of its head;
* **a bound per peer**: a peer that is not a trusted proxy (``--forwarded-allow-ips``; behind a
  proxy every client comes from it, and the proxy buffers requests itself) holds at most
  :data:`PENDING_PER_ADDRESS` connections waiting for a request head (new ones and kept-alive
  ones between requests); a further one is answered ``429 connection-limit`` and closed as
  soon as it is accepted, before anything of it is read;
* **a bound for the process**: at most :attr:`EdgeLimits.max_connections` connections in all
  (:func:`connection_budget`: the open-file limit less a reserve for the database, the logs and
  the connections the kernel has queued); a further one is answered ``503 server-full`` and
  closed at once, so the process never runs out of descriptors.

``erren serve`` passes :func:`edge_protocol` to ``uvicorn.Config(http=...)``; the WebSocket
bounds per client address (as the app sees it) are in :mod:`erren.server.socket`.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
import resource
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = [
    "BODY_TIMEOUT_S",
    "FD_RESERVE",
    "FULL_RETRY_S",
    "HEAD_TIMEOUT_S",
    "KEEP_ALIVE_S",
    "OPEN_FILES_WANTED",
    "PENDING_PER_ADDRESS",
    "Budget",
    "Deadline",
    "Edge",
    "EdgeLimits",
    "EdgeProtocol",
    "Refusal",
    "connection_budget",
    "edge_protocol",
    "raise_open_files",
    "trusted_peers",
]

log = logging.getLogger("erren.server.edge")

KEEP_ALIVE_S = 15
"""Seconds an idle kept-alive connection stays open after its last answer.  uvicorn's default
(5 s) equals the idle expiry of common clients (httpx's 5 s): a client that reuses a connection
at the moment the server closes it gets a read error instead of an answer (a CI run saw it).
15 s outlast such clients by a margin a loaded server's delays fit in; the budget counts an idle
connection as one waiting for a head (:data:`PENDING_PER_ADDRESS`)."""
HEAD_TIMEOUT_S = 10.0
"""Seconds a request head may take to arrive complete, from the connection (or from the first
byte of a later request on a kept-alive connection).  A browser sends its head in one packet;
10 s leave room for a very slow mobile link."""
BODY_TIMEOUT_S = 20.0
"""Seconds a request body may take to arrive complete after its head (bodies are at most
64 KiB: 3.2 KiB/s is enough)."""
PENDING_PER_ADDRESS = 64
"""Connections one peer (not a trusted proxy) may hold while they wait for a request head.  A
browser keeps about six connections to a host; 64 leave room for ten behind one address."""
OPEN_FILES_WANTED = 65536
"""The open-file limit ``erren serve`` raises its own soft limit to, when the hard limit lets
it (systemd's default is 1024 soft, 524288 hard)."""
FD_RESERVE = 128
"""Descriptors kept for everything but client connections: the database (a pool, or the SQLite
file and its journal), Redis, the logs, the listening socket, the event loop's own."""
FULL_RETRY_S = 5
"""The ``Retry-After`` of a connection refused because the process holds all it can."""
BACKLOG_MAX = 2048
"""uvicorn's default listen backlog, the most the edge asks for (the kernel's ``somaxconn``
caps it too)."""
BACKLOG_MIN = 64
"""The least listen backlog the edge asks for, however small the open-file limit."""


class Refusal(enum.Enum):
    """Why the edge closed a connection as soon as it was accepted."""

    PENDING = "pending"
    """Its peer holds :data:`PENDING_PER_ADDRESS` connections waiting for a request head."""
    FULL = "full"
    """The process holds :attr:`EdgeLimits.max_connections` connections."""


class Deadline(enum.Enum):
    """Which deadline a connection missed."""

    HEAD = "head"
    BODY = "body"


@dataclass(frozen=True)
class EdgeLimits:
    """The edge's bounds (0: no bound)."""

    head_timeout_s: float = HEAD_TIMEOUT_S
    body_timeout_s: float = BODY_TIMEOUT_S
    pending_per_address: int = PENDING_PER_ADDRESS
    max_connections: int = 0


@dataclass(frozen=True)
class Budget:
    """What a node can hold with ``open_files`` descriptors: ``connections`` client
    connections, and a listen ``backlog`` the kernel queues new ones in meanwhile."""

    open_files: int
    connections: int
    backlog: int


def connection_budget(open_files: int) -> Budget:
    """The connections and listen backlog that fit in ``open_files`` descriptors: the event
    loop accepts every connection the kernel has queued at once (up to the backlog) before the
    edge can close the excess, so the backlog, the :data:`FD_RESERVE` and the connections
    together stay under the limit."""
    backlog = max(BACKLOG_MIN, min(BACKLOG_MAX, open_files // 8))
    return Budget(open_files, max(open_files - FD_RESERVE - backlog, 1), backlog)


def raise_open_files(wanted: int = OPEN_FILES_WANTED) -> int:
    """Raise this process's soft open-file limit towards ``wanted`` (never above the hard
    limit, never down); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
        soft = ceiling
    return int(soft)


def trusted_peers(forwarded_allow_ips: list[str] | str) -> Callable[[str], bool]:
    """Whether a peer is one of the proxies uvicorn believes ``X-Forwarded-For`` from (the same
    parsing as uvicorn's proxy-headers middleware: addresses, networks, ``*``)."""
    hosts = _TrustedHosts(forwarded_allow_ips)
    return hosts.__contains__


def _response(status: str, retry_after: int, body: dict[str, Any]) -> bytes:
    """A complete HTTP/1.1 response that closes the connection."""
    content = json.dumps(body).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(content)}\r\nretry-after: {retry_after}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + content


class Edge:
    """The state every connection of one server shares: the connections waiting for a request
    head per untrusted peer, and the answers of the refusals."""

    def __init__(
        self, limits: EdgeLimits, trusted: Callable[[str], bool] = lambda _peer: False
    ) -> None:
        self.limits = limits
        self._trusted = trusted
        self._pending: Counter[str] = Counter()
        self.refused: Counter[Refusal] = Counter()
        """Connections refused so far, by kind."""
        self.expired: Counter[Deadline] = Counter()
        """Connections closed so far for a missed deadline, by kind."""
        pending, most = limits.pending_per_address, limits.max_connections
        self.answers = {
            Refusal.PENDING: _response(
                "429 Too Many Requests",
                round(limits.head_timeout_s),
                {
                    "detail": f"your address already has {pending} connections waiting to send a "
                    f"request (the limit); try again in {round(limits.head_timeout_s)} s",
                    "code": "connection-limit",
                    "params": {
                        "cap": Refusal.PENDING.value,
                        "limit": pending,
                        "retry_after": round(limits.head_timeout_s),
                    },
                },
            ),
            Refusal.FULL: _response(
                "503 Service Unavailable",
                FULL_RETRY_S,
                {
                    "detail": f"the server holds as many connections as it can ({most}); try "
                    f"again in {FULL_RETRY_S} s",
                    "code": "server-full",
                    "params": {"limit": most, "retry_after": FULL_RETRY_S},
                },
            ),
        }
        """The bytes each refusal writes before it closes the connection."""

    def counted(self, peer: str | None) -> str | None:
        """The key ``peer``'s connections are counted under, ``None`` for a trusted proxy (or
        an unknown peer, a Unix socket): it is not bounded."""
        if peer is None or self.limits.pending_per_address <= 0 or self._trusted(peer):
            return None
        return peer

    def pending(self, key: str) -> int:
        """The connections of ``key`` waiting for a request head."""
        return self._pending[key]

    def admit(self, key: str | None, open_connections: int) -> Refusal | None:
        """Whether a connection just accepted may stay: ``None``, or why not.  ``key``: its
        peer's (:meth:`counted`); ``open_connections``: the server's, this one included."""
        most = self.limits.max_connections
        if most > 0 and open_connections > most:
            return Refusal.FULL
        if key is not None and self._pending[key] >= self.limits.pending_per_address:
            return Refusal.PENDING
        return None

    def wait(self, key: str | None) -> None:
        """A connection of ``key`` now waits for a request head."""
        if key is not None:
            self._pending[key] += 1

    def done(self, key: str | None) -> None:
        """A connection of ``key`` no longer waits for a head (it came, or the connection
        closed)."""
        if key is not None:
            self._pending[key] -= 1
            if self._pending[key] <= 0:
                del self._pending[key]


class EdgeProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the edge's deadlines and bounds (the module's
    docstring).  A subclass made by :func:`edge_protocol` carries the server's :class:`Edge`."""

    edge: ClassVar[Edge]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key: str | None = None
        self._refused = False
        self._waiting = False
        self._timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ the connection
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # the refusal comes first and touches nothing else: under a flood it is most of the
        # connections, and uvicorn's own setup (addresses, flow control) costs more than it
        peer = transport.get_extra_info("peername")
        self._key = self.edge.counted(peer[0] if isinstance(peer, tuple) else None)
        refusal = self.edge.admit(self._key, len(self.connections) + 1)
        if refusal is not None:
            self._refused = True
            self.edge.refused[refusal] += 1
            writer = cast("asyncio.WriteTransport", transport)  # uvloop's: no subclass of it
            writer.write(self.edge.answers[refusal])
            writer.close()
            return
        super().connection_made(transport)  # type: ignore[arg-type]
        self._set_waiting(True)
        self._arm(Deadline.HEAD)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:  # uvicorn never saw it
            return
        self._disarm()
        self._set_waiting(False)
        super().connection_lost(exc)

    # ------------------------------------------------------------------ the parser's events
    def on_message_begin(self) -> None:
        if self._timer is None:  # a later request on a kept-alive connection
            self._arm(Deadline.HEAD)
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._disarm()
        self._set_waiting(False)
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._arm(Deadline.BODY)  # on_message_complete disarms it at once without a body

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        queued = bool(self.pipeline)  # a pipelined request starts now: nothing waits for a head
        super().on_response_complete()
        if not queued and not self.transport.is_closing():
            self._set_waiting(True)  # kept alive: it waits for the next request's head

    # ------------------------------------------------------------------ the deadlines
    def _set_waiting(self, waiting: bool) -> None:
        if waiting != self._waiting:
            self._waiting = waiting
            if waiting:
                self.edge.wait(self._key)
            else:
                self.edge.done(self._key)

    def _arm(self, deadline: Deadline) -> None:
        self._disarm()
        limits = self.edge.limits
        seconds = limits.head_timeout_s if deadline is Deadline.HEAD else limits.body_timeout_s
        if seconds > 0:
            self._timer = self.loop.call_later(seconds, self._expire, deadline)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self, deadline: Deadline) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        self.edge.expired[deadline] += 1
        peer = "%s:%d" % self.client if self.client else "?"  # noqa: UP031 - uvicorn's form
        log.debug("closing %s: its request %s did not arrive in time", peer, deadline.value)
        self.transport.close()


def edge_protocol(edge: Edge) -> type[EdgeProtocol]:
    """The protocol class to pass to ``uvicorn.Config(http=...)``, bound to ``edge``."""

    class ErrenHttpProtocol(EdgeProtocol):
        pass

    ErrenHttpProtocol.edge = edge
    return ErrenHttpProtocol
