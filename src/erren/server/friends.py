"""Friends on the wire: presence pushed live to a player's friends, invites and friend-list
nudges delivered to a player wherever he is, and the block list quick match honours.

**Presence.**  A registered player is ``offline`` (no socket open anywhere), ``lobby`` (a
socket open, seated at no table), ``table`` (seated at a table; ``family`` names its family)
or ``watching`` (a socket of his watches a table, not said which).  It is worked out by each
node for the players it serves (:meth:`Friends.local`: its open sockets, its tables, and the
spectators its tables admitted through the cluster's relay, whose sockets are on other nodes)
and, on a cluster node, published in Redis (``{prefix}presence:{user}``, one field per node,
each with its expiry, refreshed every :data:`REFRESH_S`); the player's presence is the
"busiest" of his nodes'.  A change is pushed as ``{"type": "presence", "user", "state",
"family", "table"}`` to the sockets of his friends, and only of his friends (never to anyone
else), on every node.  A guest has no friends: his comings and goings cost nothing (no store
read, nothing published) wherever his node knows him as one (his socket, or his watch
relayed from another node).

**Redis down.**  A cluster node that cannot reach Redis pushes a change to the friends it
serves itself, from what it knows (:meth:`Friends.local`); when Redis answers again it
publishes its players' presence anew and pushes to its players the presence of their friends
(what it missed meanwhile), sends again the blocks it could not push, and lets its tables
read their blocks again (a push from another node may have been missed).  Invites need
Redis on a cluster node: :meth:`Friends.reachable`, and :meth:`Friends.deliver` raises
:class:`UndeliveredError` when the message could not be sent.
An invite is also held for a minute (:attr:`Friends.held`,
:mod:`erren.server.heldinvites`): a socket of the friend that logs in meanwhile hears it.
When the table stops waiting for him (he sat there, someone else did, or it closed), his
sockets hear so (:meth:`Friends.invite_watch`) and the held invite is let go.

**Delivery.**  :meth:`Friends.deliver` puts a message into the open sockets of some accounts:
on a single server directly, on a cluster node through the channel ``{prefix}friends`` that
every node reads (a node delivers what it reads to the sockets it holds).

**Blocks.**  :class:`StoreBlocks` is quick match's :class:`~erren.server.matchrule.Blocks`
fed from ``store.social``: a player's block list is loaded when he asks for a quick match
(:meth:`StoreBlocks.load`) and kept up to date by the block routes.  A block made or lifted is
pushed to every node (:meth:`Friends.block_changed`; through the channel on a cluster), which
updates its quick-match blocks and the chat of the table that seats both
(:meth:`~erren.server.table.chatter.Chatter.blocked`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, Protocol

from erren.server.heldinvites import HeldInvites

if TYPE_CHECKING:
    from redis.asyncio.client import PubSub

    from erren.server.cluster import Cluster
    from erren.server.lobbybase import Ground
    from erren.server.socket import Sockets
    from erren.server.store import Store
    from erren.server.table import Conn, Table

__all__ = [
    "REFRESH_S",
    "Friends",
    "Presence",
    "PresenceKind",
    "RelayedWatchers",
    "StoreBlocks",
    "UndeliveredError",
]

log = logging.getLogger("erren.server.friends")

REFRESH_S: Final = 20.0
"""How often a cluster node writes again the presence of the players it serves."""
EXPIRES_S: Final = 3 * REFRESH_S
"""A node's word on a player's presence lasts this long unless written again (a node that
died stops counting after it)."""


class PresenceKind(StrEnum):
    """Where a player is, as his friends see it (the wire's ``state``)."""

    OFFLINE = "offline"
    LOBBY = "lobby"
    TABLE = "table"
    WATCHING = "watching"
    """Watching a table (which one is not said: the watched players chose who may watch)."""


_RANK = {PresenceKind.OFFLINE: 0, PresenceKind.LOBBY: 1, PresenceKind.WATCHING: 2}


@dataclass(frozen=True, slots=True)
class Presence:
    """A player's presence; ``family`` and ``table`` are his table's (``table`` only: his
    friends may ask to watch it, which its players' choice then decides)."""

    kind: PresenceKind
    family: str | None = None
    table: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"state": self.kind.value, "family": self.family, "table": self.table}

    @property
    def rank(self) -> int:
        """How busy: a table beats watching beats the lobby beats offline."""
        return _RANK.get(self.kind, 3)

    @staticmethod
    def busiest(found: Iterable[Presence]) -> Presence:
        return max(found, key=lambda p: p.rank, default=OFFLINE)


OFFLINE: Final = Presence(PresenceKind.OFFLINE)


class StoreBlocks:
    """Quick match's block list (:class:`~erren.server.matchrule.Blocks`), from the store:
    each player's barred accounts (whom he blocked, who blocked him), loaded when he asks for a
    quick match and kept while he might wait."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._barred: dict[int, frozenset[int]] = {}

    async def load(self, user_id: int) -> None:
        """Read ``user_id``'s barred accounts from the store (before he joins a queue)."""
        barred = frozenset(await self.store.social.barred(user_id))
        if barred:
            self._barred[user_id] = barred
        else:  # most players block nobody: nothing kept for them
            self._barred.pop(user_id, None)

    def changed(self, a: int, b: int, *, blocked: bool) -> None:
        """A block between ``a`` and ``b`` was made or lifted here: a new one counts at once
        (a lifted one stays until the next :meth:`load`: the other may block too)."""
        if not blocked:
            return
        for one, other in ((a, b), (b, a)):
            self._barred[one] = self._barred.get(one, frozenset()) | {other}

    def blocked(self, a: int, b: int) -> bool:
        return b in self._barred.get(a, ()) or a in self._barred.get(b, ())

    def barred(self, user_id: int) -> frozenset[int]:
        return self._barred.get(user_id, frozenset())


class UndeliveredError(Exception):
    """A message for players on other nodes could not be sent (the cluster's Redis does not
    answer)."""


class RelayedWatchers(Protocol):
    """The spectators this node's tables admitted through the relay (their sockets are on
    other nodes: :class:`erren.server.cluster.relay.Relay`)."""

    def watchers_of(self, user_id: int) -> list[Conn]:
        """The account's relayed connections here (each may watch a table of this node)."""
        ...

    def watcher_ids(self) -> list[int]:
        """The accounts with a relayed connection here."""
        ...


class Friends:
    """Presence and delivery for the friends of the players this server serves (see the
    module's docstring); ``cluster``: on a cluster node, its handle on Redis."""

    def __init__(
        self, store: Store, sockets: Sockets, ground: Ground, cluster: Cluster | None = None
    ) -> None:
        self.store = store
        self.sockets = sockets
        self.ground = ground
        self.cluster = cluster
        self._sent: dict[int, Presence] = {}
        """The presence last pushed for each player (nothing is pushed twice)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._order = asyncio.Lock()
        """Presence is worked out, published and pushed one change at a time (a later change
        is never overtaken by an earlier one)."""
        self._reader: asyncio.Task[None] | None = None
        self._pubsub: PubSub | None = None
        self.relayed: RelayedWatchers | None = None
        """On a cluster node: the spectators its tables admitted through the relay."""
        self._guests: set[int] = set()
        """Guests seen here who may still be present (nothing is pushed for them)."""
        self._lost = False
        """A Redis call failed since the last catch-up (:meth:`_caught_up` once it answers)."""
        self._catching: asyncio.Task[Any] | None = None
        self._unsent: list[dict[str, Any]] = []
        """Blocks pushed while Redis failed (sent again by :meth:`_caught_up`)."""
        self.held = HeldInvites(cluster)
        """Invites held for the sockets that were away when they were sent
        (:mod:`erren.server.heldinvites`)."""

    # ------------------------------------------------------------------ presence
    def local(self, user_id: int) -> Presence:
        """The player's presence as this node sees it."""
        table = self.ground.table_of(user_id)
        if table is not None:
            return Presence(PresenceKind.TABLE, table.spec.family, table.spec.id)
        conns = self.sockets.conns(user_id)
        relayed = [] if self.relayed is None else self.relayed.watchers_of(user_id)
        if any(conn.watching is not None for conn in conns + relayed):
            return Presence(PresenceKind.WATCHING)
        if conns:
            return Presence(PresenceKind.LOBBY)
        return OFFLINE

    async def presence_of(self, user_ids: Iterable[int]) -> dict[int, Presence]:
        """The presence of each player (on a cluster node: of all nodes)."""
        ids = list(dict.fromkeys(user_ids))
        found = {u: self.local(u) for u in ids}
        if self.cluster is None or not ids:
            return found
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        try:
            pipe = self.cluster.redis.pipeline(transaction=False)
            for u in ids:
                pipe.hgetall(self._key(u))
            answers = await pipe.execute()
        except RedisError as err:
            self._lost = True
            log.warning("cannot read presence (what this node knows instead): %s", err)
            return found
        now = time.time()
        for u, fields in zip(ids, answers, strict=True):
            said = [found[u]]
            for value in (fields or {}).values():
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    word = json.loads(value)
                    if float(word["until"]) > now:
                        kind, family = PresenceKind(word["state"]), word.get("family")
                        said.append(Presence(kind, family, word.get("table")))
            found[u] = Presence.busiest(said)
        return found

    def moved(self, user_ids: Iterable[int], *, guest: bool = False) -> None:
        """Something that makes presence changed for these players here (a socket opened or
        closed, a seat taken or left, a table watched): publish and push, in the background.
        Nothing for a guest (``guest``, or known as one by his sockets): he has no friends."""
        for user_id in user_ids:
            if guest or self.sockets.guest(user_id):
                self._guests.add(user_id)
            if user_id in self._guests:
                if self.local(user_id) == OFFLINE:
                    self._guests.discard(user_id)
                continue
            self._spawn(self._moved(user_id))

    async def _moved(self, user_id: int) -> None:
        if self.cluster is not None:
            async with self._order:
                await self._publish(user_id, self.local(user_id))
            if await self._broadcast({"presence": user_id}):
                return
        # a single server, or Redis down: the friends served here hear what this node knows
        await self._push_presence(user_id)

    async def _push_presence(self, user_id: int) -> None:
        """Tell the friends served here the player's presence, if it changed."""
        async with self._order:
            await self._push_now(user_id)

    async def _push_now(self, user_id: int) -> None:
        now = (await self.presence_of([user_id]))[user_id]
        if self._sent.get(user_id, OFFLINE) == now:
            return
        if now == OFFLINE:
            self._sent.pop(user_id, None)
        else:
            self._sent[user_id] = now
        friends = [f for f in await self.store.social.friend_ids(user_id) if self.sockets.count(f)]
        self._local_send(friends, {"type": "presence", "user": user_id, **now.to_json()})

    # ------------------------------------------------------------------ delivery
    def _local_send(self, user_ids: Iterable[int], message: dict[str, Any]) -> None:
        for user_id in user_ids:
            for conn in self.sockets.conns(user_id):
                conn.send(message)

    async def deliver(
        self, user_ids: Iterable[int], message: dict[str, Any], *, needed: bool = False
    ) -> None:
        """Put ``message`` into every open socket of these accounts, on any node; ``needed``:
        raise :class:`UndeliveredError` when the other nodes could not be reached (else a
        notice that may be lost: logged)."""
        ids = sorted(set(user_ids))
        if self.cluster is None:
            self._local_send(ids, message)
        elif not await self._broadcast({"to": ids, "message": message}) and needed:
            raise UndeliveredError("the cluster's Redis does not answer")

    def invite_watch(self, to: int, invite: dict[str, Any]) -> Callable[[Table], None]:
        """What tells ``to`` that the table of ``invite`` (the ``invite`` message he was sent)
        no longer waits for him (:meth:`Table.watch_guest`): its held invite is let go, and
        his sockets hear ``{"type": "invite-over", "from", "name", "invite", "seated"}``,
        ``seated`` when he took the seat himself (his other pages take the toast away), else
        the table closed or someone else sat there."""

        def over(table: Table) -> None:
            seated = table.seat_of(to) is not None
            self._spawn(self._invite_over(to, invite, seated=seated))

        return over

    async def _invite_over(self, to: int, invite: dict[str, Any], *, seated: bool) -> None:
        code = str(invite["invite"])
        await self.held.drop(to, code)
        keep = ("from", "name", "invite")
        message = {"type": "invite-over", **{k: invite[k] for k in keep}, "seated": seated}
        await self.deliver([to], message)

    async def reachable(self) -> bool:
        """Whether a message for the other nodes can be sent now (always on a single
        server; on a cluster node, whether Redis answers within a second)."""
        if self.cluster is None:
            return True
        if await self.cluster.healthy(timeout=1.0):
            return True
        self._lost = True
        return False

    async def block_changed(self, a: int, b: int, *, on: bool) -> None:
        """A block between ``a`` and ``b`` was made (``on``) or lifted: every node's quick
        match and the chat of the table seating both hear it (here at once)."""
        self.ground.block_changed(a, b, on=on)
        if self.cluster is not None:
            push = {"block": [a, b], "on": on, "from": self.cluster.node_id}
            if not await self._broadcast(push):
                self._unsent.append(push)  # sent again once Redis answers

    # ------------------------------------------------------------------ the cluster
    def _key(self, user_id: int) -> str:
        assert self.cluster is not None
        return f"{self.cluster.prefix}presence:{user_id}"

    def _channel(self) -> str:
        assert self.cluster is not None
        return f"{self.cluster.prefix}friends"

    async def _publish(self, user_id: int, presence: Presence) -> None:
        await self._publish_all({user_id: presence})

    async def _publish_all(self, presences: dict[int, Presence]) -> None:
        """This node's word on each player's presence, in one round trip (a pipeline: the
        refresh of every player served here takes one connection, not one each)."""
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        cluster = self.cluster
        assert cluster is not None
        if not presences:
            return
        until = time.time() + EXPIRES_S
        pipe = cluster.redis.pipeline(transaction=False)
        for user_id, presence in presences.items():
            key = self._key(user_id)
            if presence == OFFLINE:
                pipe.hdel(key, cluster.node_id)
                continue
            pipe.hset(key, cluster.node_id, json.dumps({**presence.to_json(), "until": until}))
            pipe.expire(key, int(EXPIRES_S * 2))
        try:
            await pipe.execute()
        except RedisError as err:
            self._lost = True
            log.warning("cannot publish presence: %s", err)

    async def _broadcast(self, payload: dict[str, Any]) -> bool:
        """Publish ``payload`` to every node's friends; ``False`` when Redis failed."""
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        assert self.cluster is not None
        try:
            await self.cluster.redis.publish(self._channel(), json.dumps(payload))
        except RedisError as err:
            self._lost = True
            log.warning("cannot reach the other nodes' friends: %s", err)
            return False
        return True

    async def start(self) -> None:
        """On a cluster node: read the channel every node writes, and refresh presence."""
        if self.cluster is None:
            return
        self._pubsub = self.cluster.blocking.pubsub(ignore_subscribe_messages=True)
        self._reader = asyncio.create_task(self._read(), name="friends")

    async def _read(self) -> None:
        from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

        assert self._pubsub is not None
        refreshed = time.monotonic()
        while True:
            try:
                if not self._pubsub.subscribed:  # at first, and after Redis came back
                    await self._pubsub.subscribe(self._channel())
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, RuntimeError) as err:
                self._lost = True
                log.warning("cannot read the friends channel: %s", err)
                await asyncio.sleep(1.0)
                continue
            if self._lost and (self._catching is None or self._catching.done()):
                self._catching = self._spawn(self._caught_up())  # one at a time
            if message is not None:
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    self._take(json.loads(message["data"]))
            if time.monotonic() - refreshed > REFRESH_S:
                refreshed = time.monotonic()
                served = {user_id: self.local(user_id) for user_id in self._served()}
                self._spawn(self._publish_all(served))

    def _take(self, payload: dict[str, Any]) -> None:
        """One message of the friends channel."""
        if "to" in payload:
            self._local_send([int(u) for u in payload["to"]], payload["message"])
        elif "presence" in payload:
            self._spawn(self._push_presence(int(payload["presence"])))
        elif "block" in payload and payload.get("from") != self._node():  # not done here yet
            a, b = (int(u) for u in payload["block"])
            self.ground.block_changed(a, b, on=bool(payload["on"]))

    def _node(self) -> str | None:
        return None if self.cluster is None else self.cluster.node_id

    def _served(self) -> list[int]:
        """The registered players this node has a word on (sockets, seats, relayed
        spectators)."""
        relayed = [] if self.relayed is None else self.relayed.watcher_ids()
        users = [*self.sockets.users(), *self.ground.by_user, *relayed]
        return [u for u in dict.fromkeys(users) if u not in self._guests]

    async def _caught_up(self) -> None:
        """Redis answers again: publish this node's players' presence anew (the other nodes
        push it), push to its players their friends' presence (changes this node could not
        hear), and let the tables read their blocks again.  Nothing while Redis does not
        answer a ``PING`` (a stalled Redis lets the channel's reads time out quietly)."""
        assert self.cluster is not None
        if not await self.cluster.healthy(timeout=1.0):
            return
        self._lost = False
        served = self._served()
        for user_id in served:
            async with self._order:
                await self._publish(user_id, self.local(user_id))
            await self._broadcast({"presence": user_id})
        friends: set[int] = set()
        for user_id in self.sockets.users():
            if user_id not in self._guests:
                friends.update(await self.store.social.friend_ids(user_id))
        for friend in sorted(friends):
            await self._push_presence(friend)
        unsent, self._unsent = self._unsent, []
        for push in unsent:
            if not await self._broadcast(push):
                self._unsent.append(push)
        self.ground.blocks_unsure()

    async def close(self) -> None:
        """Stop reading; withdraw this node's word on the presence of its players."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        pushes = list(self._tasks)
        for task in pushes:
            task.cancel()
        # awaited before the store closes: a push cut off inside a database call would
        # otherwise be left waiting on a connection that is gone
        await asyncio.gather(*pushes, return_exceptions=True)
        if self.cluster is not None:
            from redis.exceptions import RedisError  # noqa: PLC0415  (a cluster node)

            for user_id in self._served():
                with contextlib.suppress(RedisError):
                    await self.cluster.redis.hdel(self._key(user_id), self.cluster.node_id)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    async def settled(self) -> None:
        """Wait until the presence work under way (and any it starts) is done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _spawn(self, work: Any) -> asyncio.Task[Any] | None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop: nothing to tell
            work.close()
            return None
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        """A background push ended: a failure is logged (presence catches up at the next
        change), never raised."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cannot tell friends: %s", task.exception())
