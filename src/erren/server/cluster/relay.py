"""The relay: any node serves any player.

A player's WebSocket may land on any node; his table lives on one (its lease's holder).  When
he joins a table this node does not hold, the node finds the owner through the table's lease
and *links* the connection to it: every table message he sends after that is put into the
owner's inbox stream (:mod:`.remote` lists what the entries hold), and the owner, which keeps
a :class:`~.remote.RelayConn` in the seat for him, puts each message the table renders for his
seat into this node's inbox, which this node's reader copies into the socket's outbox.  Redis
streams keep the entries in order and lose none while a node lives; one task per node reads
its inbox (``XREAD BLOCK``), one writes (``XADD``s, trimmed with ``MAXLEN ~``).  Resuming by
event number (a player's ``join`` or a spectator's ``watch`` with ``since``) is relayed like any
message, so it works whichever node one comes back to.

Every node keeps ``{prefix}node:{node}:alive`` = its epoch (a random word drawn at start),
expiring after two leases unless renewed (every third of a lease).  Each node watches the
nodes it has links with:

* the owner's key gone (it died, stopped, or restarted with a new epoch): the linked
  connections hear ``closed`` with code ``moved`` (as when a node loses a table's lease) and
  reconnect or join again; the join finds the table's new owner;
* a player's node gone: the owner sees its relayed connections go, as after dropped sockets
  (the seat goes offline, its timers and the grace period run as usual).

A Redis error on the relay's path is logged and counted (``erren_redis_errors_total``); the
player whose message or events could not be relayed gets ``relay-unavailable`` and his socket
is closed (1011), so his client reconnects and resumes by event number: nothing hangs silently.

This module keeps the player's node's side (its links) and the inbox's reader and writer; the
table's node's side, the relayed connections at its tables, is :mod:`.hosted`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from redis.exceptions import RedisError
from redis.typing import EncodableT, FieldT

from erren.server import protocol
from erren.server.cluster.hosted import Hosted, closing
from erren.server.cluster.remote import (
    CLOSE_RELAY,
    client_text,
    inbox_key,
    moved_json,
    relay_failed_json,
)
from erren.server.cluster.waits import bounded
from erren.server.protocol import error_json
from erren.server.table import Conn, Table

if TYPE_CHECKING:
    from erren.server.cluster import Cluster

__all__ = ["BATCH", "INBOX_MAXLEN", "Relay"]

log = logging.getLogger("erren.server.cluster")

INBOX_MAXLEN = 10_000
"""An inbox keeps about this many entries (``XADD MAXLEN ~``): a bound for a node that stopped
reading; a live node trims what it has read at every beat."""
BATCH = 512
"""Entries read, or written, per round trip at most."""
READ_BLOCK_MS = 1_000
CLOSE_GRACE_S = 5.0
"""At a close, how long past a blocked read's own bound the relay's tasks are awaited (a
loaded machine may not run them at once); a task left running would open a new connection."""
RETRIES = 20
"""Beats a notice that could not be sent (a ``gone``, a close) is tried again."""


_Read = list[tuple[str, list[tuple[str, dict[str, str]]]]] | None
"""What ``XREAD`` answers (RESP2, decoded): per stream, its entries ``(id, fields)``."""


@dataclass
class _Link:
    """A connection of this node playing at a table of ``owner`` (epoch ``epoch``)."""

    conn: Conn
    key: str
    owner: str
    epoch: str
    stream: str
    table: str
    answered: bool = False
    """The owner has answered the join (until then a dead owner's link answers the join)."""


class Relay:
    """This node's relay (:class:`~erren.server.socket.Relaying` for the socket): its
    links to other nodes' tables, and the relayed connections at its own ``tables``."""

    def __init__(
        self,
        cluster: Cluster,
        tables: Mapping[str, Table],
        *,
        on_error: Callable[[], None] | None = None,
    ) -> None:
        self.redis = cluster.redis
        self.blocking = cluster.blocking
        self.timeout_s = cluster.timeout_s
        self.prefix = cluster.prefix
        self.node_id = cluster.node_id
        self.leases = cluster.leases
        self.tables = tables
        self.epoch = secrets.token_hex(4)
        self.alive_ms = 2 * cluster.leases.lease_ms
        """How long a node's ``alive`` key outlives its last beat."""
        self.inbox = inbox_key(self.prefix, self.node_id)
        self.inbox_ttl_ms = max(30_000, 10 * self.alive_ms)
        self.links: dict[str, _Link] = {}
        """This node's connections at other nodes' tables, by link key."""
        self._link_of: dict[Conn, _Link] = {}
        self.hosted = Hosted(tables, self.prefix, self.put)
        """Other nodes' connections at this node's tables (its ``watch_rules`` and
        ``on_watching`` are set by the app)."""
        self._out: asyncio.Queue[tuple[str, dict[str, str]]] = asyncio.Queue()
        self._retry: list[tuple[str, dict[str, str], int]] = []
        self._count = 0
        self._last = "0-0"
        self._beaten = 0.0
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = False
        self.errors = 0
        """Redis errors met on the relay's path (each also told to ``on_error``)."""
        self.on_error = on_error
        self.answering: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None = None
        """Answers another node's question (:meth:`ask`): the lobby's invites."""
        self._asked = 0
        self._answers: set[asyncio.Task[None]] = set()

    def _alive(self, node: str) -> str:
        return f"{self.prefix}node:{node}:alive"

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Empty this node's inbox (what a former run with the same id left), say it is
        alive, and start reading, writing and beating."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self.inbox)
            pipe.set(self._alive(self.node_id), self.epoch, px=self.alive_ms)
            await pipe.execute()
        self._beaten = time.monotonic()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(), name="relay-read"),
            loop.create_task(self._write(), name="relay-write"),
            loop.create_task(self._beating(), name="relay-beat"),
        ]

    async def close(self) -> None:
        """Stop; send what is still queued (once), and say this node is gone at once."""
        self._stopped = True
        tasks = [*self._tasks, *self._answers]
        for task in tasks:
            task.cancel()
        if tasks:  # a blocked XREAD may hold its cancellation until it answers or times out
            await asyncio.wait(tasks, timeout=READ_BLOCK_MS / 1000 + self.timeout_s + CLOSE_GRACE_S)
        self._tasks = []
        batch: list[tuple[str, dict[str, str]]] = []
        while not self._out.empty():
            batch.append(self._out.get_nowait())
        if batch:
            await self._send(batch)
        with contextlib.suppress(RedisError):
            await self.redis.delete(self._alive(self.node_id), self.inbox)

    def _failed(self, err: RedisError, what: str) -> None:
        self.errors += 1
        if self.on_error is not None:
            self.on_error()
        log.warning("relay: %s: %s", what, err)

    # ------------------------------------------------------------------ the player's node
    def linked(self, conn: Conn) -> bool:
        return conn in self._link_of

    async def join(
        self, conn: Conn, msg: protocol.Join | protocol.Watch, *, guest: bool = False
    ) -> bool:
        """Link ``conn`` to the node that owns ``msg.table`` and send it the join, or a
        spectator's watch (``guest``: a guest's; the owner admits him by its watch rules)."""
        try:
            lease = await self.leases.owner(msg.table)
            if lease is None or lease.node_id == self.node_id:
                return False
            epoch = await self.redis.get(self._alive(lease.node_id))
        except RedisError as err:
            self._failed(err, f"cannot find the node of table {msg.table[:40]!r}")
            conn.abort(relay_failed_json(), CLOSE_RELAY)
            return True
        if epoch is None:  # its node died: the table is not played anywhere right now
            return False
        link = self._link_of.get(conn)
        if link is not None and (link.owner, link.epoch) != (lease.node_id, str(epoch)):
            self.unlink(conn)
            link = None
        if link is None:
            self._count += 1
            key = f"{self.node_id}:{self.epoch}:{self._count}"
            stream = inbox_key(self.prefix, lease.node_id)
            link = _Link(conn, key, lease.node_id, str(epoch), stream, msg.table)
            self.links[key] = link
            self._link_of[conn] = link
        link.table = msg.table
        fields = {"c": link.key, "m": client_text(msg), "u": str(conn.user_id), "nm": conn.name}
        if isinstance(msg, protocol.Watch):
            fields["gu"] = "1" if guest else ""
        self.put(link.stream, fields)
        return True

    def forward(self, conn: Conn, msg: protocol.ClientMessage) -> None:
        link = self._link_of.get(conn)
        if link is not None:
            self.put(link.stream, {"c": link.key, "m": client_text(msg)})

    def unlink(self, conn: Conn) -> None:
        link = self._link_of.get(conn)
        if link is not None:
            self._drop_link(link)
            self.put(link.stream, {"c": link.key, "g": ""})

    def _drop_link(self, link: _Link) -> None:
        self.links.pop(link.key, None)
        if self._link_of.get(link.conn) is link:
            del self._link_of[link.conn]

    def _deliver(self, key: str, fields: dict[str, str]) -> None:
        link = self.links.get(key)
        if link is None:  # the connection closed or moved on meanwhile
            return
        text = fields.get("t")
        if text is not None:
            link.answered = True
            link.conn.send_text(text)
        code = fields.get("x")
        if code is not None:
            self._drop_link(link)
            link.conn.close(int(code))

    def _owner_gone(self, link: _Link) -> None:
        """The table's node died or restarted: the table's ``closed`` (code ``moved``), as
        when a node loses a table's lease, or the answer to a join it never answered (an
        ``error``, code ``moved``); the client joins again and finds the new owner."""
        self._drop_link(link)
        if link.answered:
            link.conn.send(moved_json(link.table))
        else:
            link.conn.send(
                error_json(
                    "moved",
                    "the server of this table is gone; join again in a moment",
                    {"table": link.table[:40]},
                )
            )

    # ------------------------------------------------------------------ the writer's queue
    def put(self, stream: str, fields: dict[str, str]) -> None:
        """Queue an entry for ``stream`` (the writer sends the queue in order)."""
        self._out.put_nowait((stream, fields))

    # ------------------------------------------------------------------ questions
    async def ask(
        self, node: str, question: dict[str, Any], timeout: float
    ) -> dict[str, Any] | None:
        """Put ``question`` into ``node``'s inbox and wait for its answer (a reply list
        ``{prefix}reply:...`` read with ``BLPOP``); ``None`` when none came within ``timeout``
        seconds or Redis failed (counted)."""
        self._asked += 1
        reply = f"{self.prefix}reply:{self.node_id}:{self.epoch}:{self._asked}"
        self.put(inbox_key(self.prefix, node), {"q": json.dumps(question), "r": reply})
        try:
            got = await bounded(
                self.blocking.blpop([reply], timeout=timeout), timeout, self.timeout_s
            )
        except RedisError as err:
            self._failed(err, f"no answer from node {node}")
            return None
        if got is None:
            log.warning("relay: node %s did not answer within %g s", node, timeout)
            return None
        answer: dict[str, Any] = json.loads(got[1])
        return answer

    async def _answer(self, fields: dict[str, str]) -> None:
        question = json.loads(fields["q"])
        if self.answering is None:
            answer: dict[str, Any] = {"error": "relay-unavailable", "status": 503}
        else:
            try:
                answer = await self.answering(question)
            except Exception:
                log.exception("relay: cannot answer %r", question)
                answer = {"error": "relay-unavailable", "status": 503}
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.rpush(fields["r"], json.dumps(answer))
                pipe.pexpire(fields["r"], 60_000)
                await pipe.execute()
        except RedisError as err:
            self._failed(err, "cannot answer a question")

    # ------------------------------------------------------------------ the tasks
    def _take(self, fields: dict[str, str]) -> None:
        key = fields.get("c", "")
        if "q" in fields:
            task = asyncio.get_running_loop().create_task(self._answer(fields))
            self._answers.add(task)
            task.add_done_callback(self._answers.discard)
        elif "m" in fields:
            self.hosted.request(key, fields)
        elif "g" in fields:
            self.hosted.gone(key)
        else:
            self._deliver(key, fields)

    async def _read(self) -> None:
        while not self._stopped:
            try:
                got = cast(
                    "_Read",
                    await bounded(
                        self.blocking.xread(
                            {self.inbox: self._last}, count=BATCH, block=READ_BLOCK_MS
                        ),
                        READ_BLOCK_MS / 1000,
                        self.timeout_s,
                    ),
                )
            except RedisError as err:
                self._failed(err, "cannot read the inbox")
                await asyncio.sleep(0.2)
                continue
            for _stream, entries in got or ():
                for entry_id, fields in entries:
                    self._last = str(entry_id)
                    try:
                        self._take(fields)
                    except Exception:
                        log.exception("relay: cannot handle %r", fields)

    async def _write(self) -> None:
        while not self._stopped:
            batch = [await self._out.get()]
            while len(batch) < BATCH and not self._out.empty():
                batch.append(self._out.get_nowait())
            await self._send(batch)

    async def _send(self, batch: list[tuple[str, dict[str, str]]], *, again: bool = False) -> bool:
        """Send ``batch`` in one round trip; on a Redis error each entry is
        :meth:`_undelivered` (unless it is ``again`` a notice sent once more)."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                streams: set[str] = set()
                for stream, fields in batch:
                    entry: dict[FieldT, EncodableT] = dict(fields.items())
                    pipe.xadd(stream, entry, maxlen=INBOX_MAXLEN, approximate=True)
                    streams.add(stream)
                for stream in streams:
                    pipe.pexpire(stream, self.inbox_ttl_ms)
                await pipe.execute()
        except RedisError as err:
            self._failed(err, f"cannot send {len(batch)} message(s)")
            if not again:
                for stream, fields in batch:
                    self._undelivered(stream, fields)
            return False
        return True

    def _undelivered(self, stream: str, fields: dict[str, str]) -> None:
        """An entry Redis did not take: whoever waits for it is told, and his socket closed
        so that his client reconnects and resumes by event number."""
        key = fields.get("c", "")
        if "m" in fields:  # a player's message for the table's node
            link = self.links.get(key)
            if link is not None:
                self._drop_link(link)
                link.conn.abort(relay_failed_json(), CLOSE_RELAY)
                self._retry.append((stream, {"c": key, "g": ""}, 0))
        elif "g" in fields:
            self._retry.append((stream, fields, 0))
        elif key in self.hosted.remote:  # the table's message for the player's node
            self.hosted.gone(key)
            self._retry.append((stream, closing(key), 0))

    async def _beating(self) -> None:
        every = self.alive_ms / 6000
        while not self._stopped:
            await asyncio.sleep(every)
            await self.beat()

    async def beat(self) -> None:
        """Say this node is alive, trim what it has read, and look at the nodes it has links
        with (:meth:`_owner_gone`, :meth:`Hosted.nodes_gone` for the dead ones); send again the
        notices that failed.  Redis unreachable for longer than ``alive_ms``: every link is dropped
        (the sockets closed with ``relay-unavailable``), every relayed connection gone."""
        watched = sorted({link.owner for link in self.links.values()} | self.hosted.nodes())
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(self._alive(self.node_id), self.epoch, px=self.alive_ms)
                pipe.pexpire(self.inbox, self.inbox_ttl_ms)
                if self._last != "0-0":
                    pipe.xtrim(self.inbox, minid=self._last, approximate=False)
                for node in watched:
                    pipe.get(self._alive(node))
                answers = await pipe.execute()
        except RedisError as err:
            self._failed(err, "cannot beat")
            if time.monotonic() - self._beaten > self.alive_ms / 1000:
                self._isolated()
            return
        self._beaten = time.monotonic()
        epochs = dict(zip(watched, answers[len(answers) - len(watched) :], strict=True))
        for link in list(self.links.values()):
            if link.owner in epochs and epochs[link.owner] != link.epoch:
                self._owner_gone(link)
        self.hosted.nodes_gone(epochs)
        if self._retry:
            retry, self._retry = self._retry, []
            if not await self._send([(s, f) for s, f, _ in retry], again=True):
                self._retry += [(s, f, n + 1) for s, f, n in retry if n + 1 < RETRIES]

    def _isolated(self) -> None:
        for link in list(self.links.values()):
            self._drop_link(link)
            link.conn.abort(relay_failed_json(), CLOSE_RELAY)
        self.hosted.drop_all()
