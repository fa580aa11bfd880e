"""A flood from one client address against a server on loopback, for the flood test and its
benchmark: WebSockets that never log in, request heads that never end (slowloris), guests made
as fast as the server answers.

The attacker binds its connections to a source address of its own (all of 127/8 is loopback on
Linux: ``127.0.0.2``), so the bounds per address meet it and not the player, who connects from
127.0.0.1.  Every connection ends in an :class:`Outcome`, counted in :attr:`Flood.tally`; the
flood holds what it is given until :meth:`Flood.stop`, and closes everything it opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx

__all__ = [
    "ATTACKER",
    "CONNECT_TIMEOUT_S",
    "RETRY_S",
    "Answer",
    "Flood",
    "Kind",
    "Outcome",
    "Tally",
    "flooding",
    "upgrade_request",
    "watch_health",
]

ATTACKER = "127.0.0.2"
"""The flood's source address (loopback, and not the player's 127.0.0.1)."""
CONNECT_TIMEOUT_S = 20.0
"""How long a connection may wait to be accepted (a full listen queue drops SYNs, which the
kernel sends again after 1, 3, 7 s ...) before it counts as :attr:`Outcome.UNANSWERED`."""
RETRY_S = 1.0
"""The pause of a sustained flood's worker after a refusal, before its next connection."""
TRICKLE_S = 1.0
"""A slow head sends one more byte this often."""
READ_LIMIT = 1 << 16
"""The most an answer's head or a frame may be (an answer of the server is far shorter)."""


class Kind(enum.Enum):
    """What a flood's connection does."""

    SOCKET = "socket"
    """A WebSocket that never sends its ``auth`` message."""
    SLOW = "slow"
    """A request head that never ends: one more byte every :data:`TRICKLE_S`."""
    GUEST = "guest"
    """``POST /auth/guest``."""


class Outcome(enum.Enum):
    """How a flood's connection ended."""

    ACCEPTED = "accepted"
    """A WebSocket opened (and was closed by the server: see :attr:`Tally.close_codes`)."""
    REFUSED = "refused"
    """An HTTP answer refused it (its code in :attr:`Tally.codes`)."""
    EXPIRED = "expired"
    """The server held it, then closed it without answering (a missed deadline)."""
    RESET = "reset"
    """Reset, or closed before any answer, as soon as it was accepted."""
    UNANSWERED = "unanswered"
    """Not accepted within :data:`CONNECT_TIMEOUT_S`."""
    CREATED = "created"
    """A guest was made."""
    STOPPED = "stopped"
    """The flood stopped while the server still held it."""


@dataclass
class Tally:
    """What the flood's connections met."""

    outcomes: Counter[tuple[Kind, Outcome]] = field(default_factory=Counter)
    codes: Counter[tuple[Kind, str]] = field(default_factory=Counter)
    """The ``code`` of each refusal by kind, with the bound it met when it names one
    (``connection-limit[pending]``, ``connection-limit[unauthenticated]``, ``guest-limit``)."""
    close_codes: Counter[int | None] = field(default_factory=Counter)
    """The close code of each accepted WebSocket (``None``: closed without one)."""
    errors: Counter[str] = field(default_factory=Counter)
    """The ``code`` of the error message an accepted WebSocket got before its close."""
    opened: int = 0
    """Connections the server accepted (TCP), of every kind."""

    def count(self, kind: Kind, outcome: Outcome) -> int:
        return self.outcomes[kind, outcome]

    def total(self, kind: Kind) -> int:
        return sum(n for (k, _), n in self.outcomes.items() if k is kind)

    def lines(self) -> list[str]:
        """The tally, one line per kind."""
        out = []
        for kind in Kind:
            parts = [f"{o.value} {self.count(kind, o)}" for o in Outcome if self.count(kind, o)]
            codes = sorted(f"{c} {n}" for (k, c), n in self.codes.items() if k is kind)
            refusals = f" ({', '.join(codes)})" if codes else ""
            out.append(f"{kind.value}: {', '.join(parts)}{refusals}")
        closes = dict(self.close_codes)
        out.append(f"accepted sockets: closed with {closes}, errors before {dict(self.errors)}")
        return out


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status and its JSON body's ``code`` (``""`` when it has none)."""

    status: int
    code: str


def upgrade_request(host: str) -> bytes:
    """A WebSocket handshake for ``/ws``."""
    return (
        f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode("ascii")


def _status(head: bytes) -> int:
    """The status of an answer's head (``ValueError`` for anything else)."""
    parts = head.split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
        raise ValueError(f"not an HTTP answer: {head[:40]!r}")
    return int(parts[1])


def _code(body: bytes) -> str:
    """The ``code`` of a JSON body, with the bound it names when it names one
    (``connection-limit[pending]``); ``""`` when it has none."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return ""
    if not isinstance(parsed, dict):
        return ""
    params = parsed.get("params")
    cap = params.get("cap") if isinstance(params, dict) else None
    code = str(parsed.get("code", ""))
    return f"{code}[{cap}]" if code and cap else code


async def _read_answer(reader: asyncio.StreamReader) -> Answer:
    """The HTTP answer on ``reader`` (its body read when it has a length)."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = _status(head)
    length = 0
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if status == 101 or length == 0:
        return Answer(status, "")
    return Answer(status, _code(await reader.readexactly(length)))


async def _read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """A server's (unmasked, unfragmented) WebSocket frame: its opcode and payload."""
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        length = int.from_bytes(await reader.readexactly(2), "big")
    elif length == 127:
        length = int.from_bytes(await reader.readexactly(8), "big")
    if length > READ_LIMIT:
        raise ValueError(f"a frame of {length} bytes")
    return first & 0x0F, await reader.readexactly(length)


class Flood:
    """The flood of one source address against the server at ``host``:``port``: ``sockets``
    WebSockets and ``guests`` guest requests (each once, or again and again after a pause when
    ``sustain`` is on), and ``slow`` slow heads, each opened again as soon as it ends, until
    :meth:`stop`.  :attr:`holding` is set once the server has refused a slow head (the flood
    holds all the server lets it hold), :attr:`expired` once it has closed one for its missed
    deadline."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        source: str = ATTACKER,
        sockets: int = 2000,
        slow: int = 200,
        guests: int = 100,
        sustain: bool = False,
    ) -> None:
        self.host, self.port, self.source = host, port, source
        self.sockets, self.slow, self.guests, self.sustain = sockets, slow, guests, sustain
        self.tally = Tally()
        self.holding = asyncio.Event()
        self.expired = asyncio.Event()
        self.stopping = asyncio.Event()
        self.sockets_done = asyncio.Event()
        """Set once every WebSocket of a flood that does not sustain has ended."""
        self._tasks: list[asyncio.Task[None]] = []
        self._writers: set[asyncio.StreamWriter] = set()

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        """Start every worker (the WebSockets first, then the slow heads and the guests)."""
        self._tasks.append(asyncio.create_task(self._sockets()))
        self._tasks += [asyncio.create_task(self._slow_worker()) for _ in range(self.slow)]
        self._tasks.append(asyncio.create_task(self._guests()))

    async def stop(self) -> None:
        """Stop every worker and close every connection still open."""
        self.stopping.set()
        for writer in list(self._writers):
            writer.transport.abort()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _note(self, kind: Kind, outcome: Outcome, code: str = "") -> None:
        self.tally.outcomes[kind, outcome] += 1
        if code:
            self.tally.codes[kind, code] += 1

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
        """A TCP connection from the source address (:class:`TimeoutError` when the server
        does not accept it in time); closed when the block ends."""
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                self.host, self.port, local_addr=(self.source, 0), limit=READ_LIMIT
            ),
            CONNECT_TIMEOUT_S,
        )
        self.tally.opened += 1
        self._writers.add(writer)
        try:
            yield reader, writer
        finally:
            self._writers.discard(writer)
            writer.transport.abort()

    # ------------------------------------------------------------------ WebSockets
    async def _sockets(self) -> None:
        await asyncio.gather(*(self._socket_worker() for _ in range(self.sockets)))
        self.sockets_done.set()

    async def _socket_worker(self) -> None:
        while not self.stopping.is_set():
            outcome = await self._socket()
            if not self.sustain:
                return
            if outcome is not Outcome.ACCEPTED:
                await self._pause(RETRY_S)

    async def _socket(self) -> Outcome:
        outcome, code = Outcome.RESET, ""
        try:
            async with self._connection() as (reader, writer):
                writer.write(upgrade_request(self.host))
                answer = await _read_answer(reader)
                if answer.status == 101:
                    outcome = Outcome.ACCEPTED
                    await self._until_closed(reader)
                else:
                    outcome, code = Outcome.REFUSED, answer.code or f"http-{answer.status}"
        except TimeoutError:
            outcome = Outcome.UNANSWERED
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            if self.stopping.is_set() and outcome is Outcome.ACCEPTED:
                outcome = Outcome.STOPPED
        self._note(Kind.SOCKET, outcome, code)
        return outcome

    async def _until_closed(self, reader: asyncio.StreamReader) -> None:
        """Read an accepted WebSocket's frames until the server closes it (the close code and
        the error before it are counted)."""
        while True:
            try:
                opcode, payload = await _read_frame(reader)
            except asyncio.IncompleteReadError:
                if self.stopping.is_set():  # the flood closed it: counted as stopped
                    raise
                self.tally.close_codes[None] += 1
                return
            if opcode == 0x1:  # text: the error message before the close
                with contextlib.suppress(ValueError, AttributeError):
                    self.tally.errors[str(json.loads(payload).get("code"))] += 1
            elif opcode == 0x8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                self.tally.close_codes[code] += 1
                return

    # ------------------------------------------------------------------ slow heads
    async def _slow_worker(self) -> None:
        while not self.stopping.is_set():
            outcome = await self._slow_head()
            if outcome is Outcome.REFUSED:
                self.holding.set()
                await self._pause(RETRY_S)
            elif outcome is Outcome.EXPIRED:
                self.expired.set()

    async def _slow_head(self) -> Outcome:
        outcome, code = Outcome.RESET, ""
        try:
            async with self._connection() as (reader, writer):
                writer.write(f"GET /health HTTP/1.1\r\nHost: {self.host}\r\nX-Slow: ".encode())
                outcome, code = await self._trickle(reader, writer)
        except TimeoutError:
            outcome = Outcome.UNANSWERED
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            outcome = Outcome.STOPPED if self.stopping.is_set() else Outcome.RESET
        self._note(Kind.SLOW, outcome, code)
        return outcome

    async def _trickle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> tuple[Outcome, str]:
        """Send a byte of the head every :data:`TRICKLE_S` until the server answers or closes
        (or the flood stops)."""
        while not self.stopping.is_set():
            try:
                first = await asyncio.wait_for(reader.read(1), TRICKLE_S)
            except TimeoutError:
                writer.write(b"x")
                continue
            if not first:
                return Outcome.EXPIRED, ""
            head, _, body = (first + await _rest(reader)).partition(b"\r\n\r\n")
            return Outcome.REFUSED, _code(body) or f"http-{_status(head)}"
        return Outcome.STOPPED, ""

    # ------------------------------------------------------------------ guests
    async def _guests(self) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=self.source)
        base = f"http://{self.host}:{self.port}"
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
            workers = min(10, self.guests)
            share = [self.guests // workers + (i < self.guests % workers) for i in range(workers)]
            await asyncio.gather(*(self._guest_worker(http, n) for n in share))

    async def _guest_worker(self, http: httpx.AsyncClient, count: int) -> None:
        asked = 0
        while not self.stopping.is_set() and (self.sustain or asked < count):
            asked += 1
            if await self._guest(http) is not Outcome.CREATED and self.sustain:
                await self._pause(RETRY_S)

    async def _guest(self, http: httpx.AsyncClient) -> Outcome:
        try:
            reply = await http.post("/auth/guest")
        except httpx.TimeoutException:
            outcome, code = Outcome.UNANSWERED, ""
        except httpx.TransportError:
            outcome, code = Outcome.RESET, ""
        else:
            if reply.status_code == 200:
                outcome, code = Outcome.CREATED, ""
            else:
                outcome, code = Outcome.REFUSED, _code_of(reply)
        self._note(Kind.GUEST, outcome, code)
        return outcome


def _code_of(reply: httpx.Response) -> str:
    return _code(reply.content) or f"http-{reply.status_code}"


async def _rest(reader: asyncio.StreamReader) -> bytes:
    """What ``reader`` holds until the server closes (at most :data:`READ_LIMIT` bytes)."""
    data = bytearray()
    while len(data) < READ_LIMIT and (chunk := await reader.read(READ_LIMIT)):
        data += chunk
    return bytes(data)


@contextlib.asynccontextmanager
async def flooding(host: str, port: int, **options: Any) -> AsyncIterator[Flood]:
    """A started :class:`Flood` (``options``: its own), stopped when the block ends."""
    flood = Flood(host, port, **options)
    flood.start()
    try:
        yield flood
    finally:
        await flood.stop()


async def watch_health(
    url: str, stop: asyncio.Event, every: float = 0.2
) -> list[tuple[float, int | None]]:
    """Ask ``url``'s ``/health`` every ``every`` s until ``stop``, each time on a new
    connection (as a load balancer's check, or a new player, comes): each answer's time
    (seconds) and status (``None``: no answer within 30 s, or the connection failed)."""
    seen: list[tuple[float, int | None]] = []
    fresh = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=fresh) as http:
        while not stop.is_set():
            began = time.perf_counter()
            try:
                status: int | None = (await http.get("/health")).status_code
            except httpx.HTTPError:
                status = None
            seen.append((time.perf_counter() - began, status))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
    return seen
