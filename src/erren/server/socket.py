"""The WebSocket edge ``/ws``: who is on the other end, how many of him, and what he sends.

A connection opens with no token in its URL and sends ``{"type": "auth", "token": ...}`` as its
first message (within :data:`AUTH_TIMEOUT_S`); the server answers ``welcome``, or an ``auth``
error and close code 4401.  Before its handshake is answered, a connection whose client address
already holds too many sockets (:class:`~erren.server.ratelimit.AddressSockets`: those not
logged in yet, or all of them) is refused with HTTP 429 ``connection-limit``.  The old
``/ws?token=...`` form (and ``Authorization: Bearer``) still works for one release; the token is
never written to a log (:class:`RedactTokens` blanks it in uvicorn's lines, which print the URL
with its query).

:class:`Sockets` keeps the open connections by session and by account: logging out closes that
session's sockets at once (``logged-out``, 4401), and an account has at most
:data:`MAX_SOCKETS_PER_ACCOUNT` open at a time (the next one: ``too-many-connections``, 4429).

Each connection has a writer task (:func:`_pump`, draining the :class:`~erren.server.table.Conn`
outbox) and a reader (:func:`_read`) that parses, rate-limits and hands messages to the lobby
and the table (:func:`dispatch`; on a cluster node, a table another node owns through
:class:`Relaying`).  A refused message is answered with an error that has a
``code`` and the connection stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from fastapi import FastAPI, WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect, WebSocketState

from erren.server import protocol
from erren.server.dispatch import dispatch
from erren.server.heldinvites import HeldInvites
from erren.server.lobby import Lobby
from erren.server.protocol import ProtocolError, error_json, parse_client
from erren.server.ratelimit import (
    AccessLimits,
    AddressSockets,
    HeldSocket,
    SocketCap,
    TokenBucket,
)
from erren.server.redact import redact_token_logs
from erren.server.store import Store, User
from erren.server.table import Conn
from erren.server.table import Gone as TGone
from erren.server.watching import StoreWatchRules, WatchRules, relayed_watch, unwatch, watch

if TYPE_CHECKING:
    from erren.server.appstate import AppState

__all__ = [
    "AUTH_TIMEOUT_S",
    "CAP_RETRY_S",
    "CLOSE_AUTH",
    "CLOSE_TOO_MANY",
    "MAX_SOCKETS_PER_ACCOUNT",
    "Relaying",
    "Sockets",
    "dispatch",
    "mount_socket",
    "redact_token_logs",
]

log = logging.getLogger("erren.server.socket")

AUTH_TIMEOUT_S = 5.0
"""How long a new connection may take to send its ``auth`` message (wall-clock seconds, not
scaled by ``--time-scale``); then it is closed (4401)."""
CAP_RETRY_S = {SocketCap.UNAUTHENTICATED: 5, SocketCap.OPEN: 30}
"""The ``Retry-After`` (seconds) of a socket refused because its address holds too many: a
socket that has not logged in is closed within :data:`AUTH_TIMEOUT_S`; open ones end when
their players close them, so there the wait is only a hint (half a minute)."""
MAX_SOCKETS_PER_ACCOUNT = 8
"""Open sockets one account may have at a time (tabs, devices, a bot or two)."""
CLOSE_AUTH = 4401
"""Close code: no valid session (unknown token, no ``auth`` message in time, logged out)."""
CLOSE_TOO_MANY = 4429
"""Close code: the account already has :data:`MAX_SOCKETS_PER_ACCOUNT` sockets open."""
REVOKED_KEPT = 4096
"""Sessions logged out recently whose token is refused even by a connection that had already
looked it up (the race between a socket's login and a logout)."""


class Relaying(Protocol):
    """How a cluster node plays a table another node owns (the app state's relay, set by a node
    started with ``--redis``: :class:`erren.server.cluster.relay.Relay`).  A connection is
    *linked* once it has joined such a table: its table messages go to the owner node, whose
    messages for it come back into its outbox."""

    def linked(self, conn: Conn) -> bool:
        """Whether ``conn`` plays at a table of another node."""
        ...

    async def join(
        self, conn: Conn, msg: protocol.Join | protocol.Watch, *, guest: bool = False
    ) -> bool:
        """Send the join (or a spectator's watch; ``guest``: his account is a guest's) to the
        node that owns ``msg.table``: ``True`` once it is on its way (the owner answers, or the
        connection was told why not), ``False`` when no other node holds the table (answer as
        for a local join)."""
        ...

    def forward(self, conn: Conn, msg: protocol.ClientMessage) -> None:
        """Send a table message of a linked connection to its owner node."""
        ...

    def unlink(self, conn: Conn) -> None:
        """The connection left its remote table (it closed, or joined a table here): the
        owner sees it gone, as after a dropped socket."""
        ...


def _token_key(token: str) -> str:
    """The registry's key of a token: its SHA-256 (the token itself is kept nowhere)."""
    return hashlib.sha256(token.encode(errors="surrogatepass")).hexdigest()


class Sockets:
    """The open, authenticated connections, by session (token hash) and by account."""

    def __init__(self, per_account: int = MAX_SOCKETS_PER_ACCOUNT) -> None:
        self.per_account = per_account
        self._by_token: dict[str, set[Conn]] = {}
        self._by_user: dict[int, set[Conn]] = {}
        self._key: dict[Conn, str] = {}
        self._revoked: deque[str] = deque(maxlen=REVOKED_KEPT)
        self._revoked_set: set[str] = set()
        self._guests: set[int] = set()
        self.on_change: Callable[[int], None] | None = None
        """Told the account whose first socket opened or last one closed (presence)."""

    def __len__(self) -> int:
        return len(self._key)

    def count(self, user_id: int) -> int:
        """The account's open sockets."""
        return len(self._by_user.get(user_id, ()))

    def conns(self, user_id: int) -> list[Conn]:
        """The account's open sockets."""
        return list(self._by_user.get(user_id, ()))

    def users(self) -> list[int]:
        """The accounts with a socket open."""
        return list(self._by_user)

    def guest(self, user_id: int) -> bool:
        """Whether the account is a guest's (known while a socket of his is open, and when his
        last one closes)."""
        return user_id in self._guests

    def revoked(self, token: str) -> bool:
        return _token_key(token) in self._revoked_set

    def add(self, conn: Conn, token: str, *, guest: bool = False) -> bool:
        """Register ``conn`` of session ``token`` (``guest``: a guest's account); ``False``
        (nothing registered) when the account is at its limit."""
        mine = self._by_user.setdefault(conn.user_id, set())
        if len(mine) >= self.per_account:
            if not mine:
                del self._by_user[conn.user_id]
            return False
        if guest:
            self._guests.add(conn.user_id)
        key = _token_key(token)
        mine.add(conn)
        self._by_token.setdefault(key, set()).add(conn)
        self._key[conn] = key
        if len(mine) == 1 and self.on_change is not None:
            self.on_change(conn.user_id)
        return True

    def remove(self, conn: Conn) -> None:
        key = self._key.pop(conn, None)
        if key is None:
            return
        session = self._by_token.get(key)
        if session is not None:
            session.discard(conn)
            if not session:
                del self._by_token[key]
        account = self._by_user.get(conn.user_id)
        if account is not None:
            account.discard(conn)
            if not account:
                del self._by_user[conn.user_id]
                if self.on_change is not None:
                    self.on_change(conn.user_id)
                self._guests.discard(conn.user_id)

    def log_out(self, token: str) -> int:
        """The session ended: each of its sockets gets ``logged-out`` and is closed with 4401
        at once (its seat sees him go, as after a dropped connection); returns how many."""
        key = _token_key(token)
        if key not in self._revoked_set:
            if len(self._revoked) == self._revoked.maxlen:
                self._revoked_set.discard(self._revoked[0])
            self._revoked.append(key)
            self._revoked_set.add(key)
        conns = list(self._by_token.get(key, ()))
        for conn in conns:
            conn.abort(
                error_json("logged-out", "this session was logged out; log in again to play"),
                CLOSE_AUTH,
            )
            self.remove(conn)
        return len(conns)


# ---------------------------------------------------------------------------- the route
def address_sockets(limits: AccessLimits) -> AddressSockets:
    """The count of each client address's sockets, bounded by ``limits``."""
    return AddressSockets(limits.unauthenticated_per_address, limits.sockets_per_address)


def mount_socket(app: FastAPI, state: AppState, *, rate: float, burst: float) -> None:
    """Add ``/ws`` to ``app``; ``state`` is the app's (its store and lobby once started, its
    ``sockets`` and ``addresses``).  ``rate``/``burst``: messages a second a connection may
    send."""
    redact_token_logs()

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await serve(websocket, state, rate=rate, burst=burst)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_text(protocol.dumps(error_json(code, message)))
        await websocket.close(code=close)


async def _first_token(websocket: WebSocket) -> str | None:
    """The token of the connection's first message; ``None`` once refused or gone."""
    try:
        message = await asyncio.wait_for(websocket.receive(), AUTH_TIMEOUT_S)
    except TimeoutError:
        await _refuse(
            websocket,
            "auth",
            f'send {{"type": "auth", "token": ...}} first; none came within {AUTH_TIMEOUT_S:g} s',
            CLOSE_AUTH,
        )
        return None
    if message["type"] == "websocket.disconnect":
        return None
    raw = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    try:
        parsed = parse_client(raw)
    except ProtocolError as err:
        await _refuse(websocket, "auth", f"the first message must be auth: {err}", CLOSE_AUTH)
        return None
    if not isinstance(parsed, protocol.Auth):
        await _refuse(
            websocket,
            "auth",
            'the first message must be {"type": "auth", "token": ...}',
            CLOSE_AUTH,
        )
        return None
    return parsed.token


def _address(websocket: WebSocket) -> str:
    """The client's address as the app sees it (uvicorn takes it from ``X-Forwarded-For`` when
    the peer is a trusted proxy: ``--forwarded-allow-ips``)."""
    return websocket.client.host if websocket.client is not None else "unknown"


async def _deny(websocket: WebSocket, cap: SocketCap, limit: int) -> None:
    """Refuse the handshake with HTTP 429 ``connection-limit`` (no WebSocket is opened); a
    server without the ASGI denial extension answers a bare 403 instead."""
    wait = CAP_RETRY_S[cap]
    if cap is SocketCap.UNAUTHENTICATED:
        why = f"your address already has {limit} connections that have not logged in (the limit)"
    else:
        why = f"your address already has {limit} connections open (the limit)"
    body = {
        "detail": f"{why}; try again in {wait} s",
        "code": "connection-limit",
        "params": {"cap": cap.value, "limit": limit, "retry_after": wait},
    }
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            response = JSONResponse(body, status_code=429, headers={"Retry-After": str(wait)})
            await websocket.send_denial_response(response)
        else:
            await websocket.close(code=CLOSE_TOO_MANY)


async def serve(websocket: WebSocket, state: AppState, *, rate: float, burst: float) -> None:
    """One connection, from the handshake to the last message; refused before its handshake
    is answered when its address holds too many sockets."""
    redact_token_logs()  # before uvicorn logs the accepted URL (its logging is set up by now)
    addresses = state.addresses
    address = _address(websocket)
    cap = addresses.full(address)
    if cap is not None:
        await _deny(websocket, cap, addresses.limit(cap))
        return
    with addresses.holding(address) as held:
        await websocket.accept()
        await _serve_accepted(websocket, state, held, rate=rate, burst=burst)


def _offered_token(websocket: WebSocket) -> str | None:
    """A token of the handshake itself: the deprecated ``?token=`` or a ``Bearer`` header."""
    token = websocket.query_params.get("token")  # deprecated: the URL form of old bots
    if not token:
        header = websocket.headers.get("authorization") or ""
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
    return token or None


async def _log_in(websocket: WebSocket, store: Store, sockets: Sockets) -> tuple[User, Conn] | None:
    """Authenticate the accepted connection and register it; ``None`` once refused or gone."""
    token = _offered_token(websocket) or await _first_token(websocket)
    if token is None:
        return None
    user = None
    if 0 < len(token) <= 200 and not sockets.revoked(token):
        with contextlib.suppress(UnicodeError):
            user = await store.accounts.user_for_token(token)
    if user is None or sockets.revoked(token):
        await _refuse(websocket, "auth", "unknown or expired session token; log in", CLOSE_AUTH)
        return None
    conn = Conn(user.id, user.name)
    if not sockets.add(conn, token, guest=user.is_guest):
        limit = sockets.per_account
        await _refuse(
            websocket,
            "too-many-connections",
            f"this account already has {limit} connections open (the limit); close one",
            CLOSE_TOO_MANY,
        )
        return None
    return user, conn


async def _send_held_invites(conn: Conn, user: User, held: HeldInvites, state: AppState) -> None:
    """The invites sent to ``user`` in the last minute (:mod:`erren.server.heldinvites`) from
    players who are still his friends, to tables that still wait for him: this socket may have
    been away when they were pushed."""
    invites = await held.held(user.id)
    if not invites:
        return
    friends = set(await state.store.social.friend_ids(user.id))
    for message in invites:
        if message.get("from") in friends and await state.lobby.invite_open(message["invite"]):
            conn.send(message)


async def _serve_accepted(
    websocket: WebSocket, state: AppState, held: HeldSocket, *, rate: float, burst: float
) -> None:
    """An accepted connection: its login, then its messages until it ends."""
    sockets = state.sockets
    logged = await _log_in(websocket, state.store, sockets)
    if logged is None:
        return
    user, conn = logged
    state.addresses.logged_in(held)
    writer = asyncio.create_task(_pump(websocket, conn))
    bucket = TokenBucket(rate=rate, burst=burst, max_strikes=int(burst))
    conn.send(
        {
            "type": "welcome",
            "user": {"id": user.id, "name": user.name, "guest": user.is_guest},
            "version": 1,
        }
    )
    running = state.running
    relay: Relaying | None = running.relay if running is not None else None
    try:
        if not user.is_guest and running is not None and running.friends is not None:
            await _send_held_invites(conn, user, running.friends.held, state)
        rules = StoreWatchRules(state.store)
        await _read(websocket, conn, user, bucket, state.lobby, relay=relay, rules=rules)
    finally:
        sockets.remove(conn)
        unwatch(conn)
        if conn.table is not None:
            conn.table.submit(TGone(conn))
        if relay is not None:
            relay.unlink(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=1.0)
        writer.cancel()


async def _pump(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's outbox in order; a ``None`` closes the socket."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                if websocket.application_state is WebSocketState.CONNECTED:
                    await websocket.close(code=conn.close_code)
                return
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        conn.closed = True


async def _read(
    websocket: WebSocket,
    conn: Conn,
    user: User,
    bucket: TokenBucket,
    lobby: Lobby,
    *,
    relay: Relaying | None,
    rules: WatchRules,
) -> None:
    while not conn.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect" or conn.closed:
            return
        raw: str | bytes | None = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if not bucket.take():
            if bucket.exhausted:
                conn.abort(error_json("flood", "too many messages; closing the connection"), 1008)
                return
            if bucket.strikes == 1:  # one warning per flood, not one per message
                conn.send(error_json("rate-limited", "too many messages; the excess is ignored"))
            continue
        try:
            parsed = parse_client(raw)
        except ProtocolError as err:
            conn.send(error_json(err.code, err.message, err.params))
            continue
        if isinstance(parsed, protocol.Watch | protocol.Unwatch):
            if relay is not None and await relayed_watch(parsed, conn, user, lobby.tables, relay):
                continue
            await watch(parsed, conn, (user.id, user.is_guest), lobby.tables, rules)
            lobby.ground.moved([user.id])  # his friends see him watching, or not any more
            continue
        if relay is not None and await _relayed(parsed, conn, lobby, relay):
            continue
        dispatch(parsed, conn, user.id, lobby.tables)


async def _relayed(msg: protocol.ClientMessage, conn: Conn, lobby: Lobby, relay: Relaying) -> bool:
    """Whether a cluster node sent ``msg`` on to the node that owns the table (a join for a
    table held elsewhere, or a table message of a connection linked to one)."""
    match msg:
        case protocol.Ping() | protocol.Auth():
            return False
        case protocol.Join():
            table = lobby.tables.get(msg.table)
            if table is not None and not table.closed:  # played here
                if table.seat_of(conn.user_id) is not None:
                    relay.unlink(conn)
                return False
            if not await relay.join(conn, msg):
                return False
            if conn.table is not None:  # it leaves the table it sat at here
                conn.table.submit(TGone(conn))
                conn.table, conn.seat = None, -1
            return True
        case _:
            if relay.linked(conn):
                relay.forward(conn, msg)
                return True
            return False
