"""The table's node side of the relay: other nodes' connections at this node's tables.

A player whose socket is on another node plays (or watches) here through a
:class:`~.remote.RelayConn`, one per link key, made by the first ``join`` or ``watch`` the link
brings (:meth:`Hosted.request`); his later messages are dispatched to the tables as a local
socket's, and what the table renders for him goes back into his node's inbox.  When his node
says the connection is gone, or dies (:meth:`Hosted.nodes_gone`), he leaves as after a dropped
socket.  The relay (:mod:`.relay`) reads the inbox and writes the entries; this module keeps
who is connected, by account and by node, for the friends' presence and for the beat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

from erren.server import protocol
from erren.server.cluster.remote import (
    CLOSE_RELAY,
    RelayConn,
    inbox_key,
    link_node,
    relay_failed_json,
)
from erren.server.dispatch import dispatch
from erren.server.protocol import ProtocolError, dumps, parse_client
from erren.server.table import Conn, Gone, Table
from erren.server.watching import WatchRules, elsewhere_json, unwatch, watch

__all__ = ["Hosted", "closing"]

log = logging.getLogger("erren.server.cluster")


class Hosted:
    """Other nodes' connections at this node's ``tables``, by link key; what they send goes to
    the tables, what the tables send them to ``put`` (the relay's writer, in order)."""

    def __init__(
        self, tables: Mapping[str, Table], prefix: str, put: Callable[[str, dict[str, str]], None]
    ) -> None:
        self.tables = tables
        self.prefix = prefix
        self._put = put
        self.remote: dict[str, RelayConn] = {}
        """Other nodes' connections at this node's tables, by link key."""
        self._from: dict[tuple[str, str], set[str]] = {}
        """The keys of :attr:`remote`, by the node (and its epoch) they come from."""
        self._by_user: dict[int, set[str]] = {}
        """The keys of :attr:`remote`, by account."""
        self._guests: set[int] = set()
        """Relayed spectators known as guests (their ``watch`` said so)."""
        self._watches: set[asyncio.Task[None]] = set()
        self.watch_rules: WatchRules | None = None
        """Who may watch this node's tables (set by the app; ``None``: ``watch-elsewhere``)."""
        self.on_watching: Callable[[int, bool], None] | None = None
        """Told the account (and whether it is a guest's) whose relayed spectator started or
        stopped watching a table here (his friends see him watching)."""

    def put(self, stream: str, fields: dict[str, str]) -> None:
        """Queue an entry for ``stream`` (a :class:`~.remote.Sender`'s)."""
        self._put(stream, fields)

    def forget(self, key: str) -> None:
        """The table closed the relayed connection ``key``."""
        conn = self.remote.pop(key, None)
        if conn is not None:
            self._unindex(key, conn.user_id)

    def watchers_of(self, user_id: int) -> list[Conn]:
        """The account's relayed connections at this node (a spectator's among them)."""
        return [self.remote[k] for k in self._by_user.get(user_id, ()) if k in self.remote]

    def watcher_ids(self) -> list[int]:
        """The accounts with a relayed connection at this node."""
        return list(self._by_user)

    def nodes(self) -> set[str]:
        """The nodes with a connection here (the beat looks whether they live)."""
        return {node for node, _ in self._from}

    def nodes_gone(self, epochs: Mapping[str, object]) -> None:
        """Each connection from a node whose ``alive`` epoch is no longer the one it came with
        (``epochs``: the epochs read, by node) is gone."""
        for (node, epoch), keys in list(self._from.items()):
            if node in epochs and epochs[node] != epoch:
                for key in list(keys):
                    self.gone(key)

    def drop_all(self) -> None:
        """Every relayed connection is gone (this node lost Redis)."""
        for key in list(self.remote):
            self.gone(key)

    def _unindex(self, key: str, user_id: int) -> None:
        mine = self._by_user.get(user_id)
        if mine is not None:
            mine.discard(key)
            if not mine:
                del self._by_user[user_id]
                self._guests.discard(user_id)
        source = link_node(key)
        keys = self._from.get(source)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._from[source]

    def request(self, key: str, fields: dict[str, str]) -> None:
        """A message of the connection ``key`` (its first, a ``join`` or ``watch``, makes the
        connection), answered as a local socket's."""
        try:
            msg = parse_client(fields["m"])
        except ProtocolError as err:  # never sent by a node: said loudly, then ignored
            log.error("relay: a bad message from link %s: %s", key, err)
            return
        conn = self.remote.get(key)
        if conn is None:
            node, epoch = link_node(key)
            stream = inbox_key(self.prefix, node)
            if not isinstance(msg, protocol.Join | protocol.Watch) or "u" not in fields:
                # the link was dropped here (a failed relay): the player reconnects
                self.put(stream, closing(key))
                return
            conn = RelayConn(int(fields["u"]), fields.get("nm", ""), key, stream, self)
            self.remote[key] = conn
            self._by_user.setdefault(conn.user_id, set()).add(key)
            self._from.setdefault((node, epoch), set()).add(key)
        if isinstance(msg, protocol.Watch | protocol.Unwatch):
            self._watch(msg, conn, fields.get("gu") == "1")
            return
        dispatch(msg, conn, conn.user_id, self.tables)

    def _watch(self, msg: protocol.Watch | protocol.Unwatch, conn: RelayConn, guest: bool) -> None:
        """A relayed spectator's message, answered as a local one (:func:`watch`)."""
        rules = self.watch_rules
        if rules is None:
            if isinstance(msg, protocol.Watch):
                conn.send(elsewhere_json(msg.table))
            return
        if guest:
            self._guests.add(conn.user_id)
        task = asyncio.create_task(self._watched(msg, conn, rules, guest))
        self._watches.add(task)
        task.add_done_callback(self._watches.discard)

    async def _watched(
        self,
        msg: protocol.Watch | protocol.Unwatch,
        conn: RelayConn,
        rules: WatchRules,
        guest: bool,
    ) -> None:
        await watch(msg, conn, (conn.user_id, guest), self.tables, rules)
        if self.on_watching is not None:
            self.on_watching(conn.user_id, conn.user_id in self._guests)

    def gone(self, key: str) -> None:
        """The relayed connection closed (or its node died): as after a dropped socket."""
        conn = self.remote.pop(key, None)
        if conn is None:
            return
        guest, watched = conn.user_id in self._guests, conn.watching is not None
        self._unindex(key, conn.user_id)
        conn.drop()
        unwatch(conn)
        if conn.table is not None:
            conn.table.submit(Gone(conn))
        if watched and self.on_watching is not None:
            self.on_watching(conn.user_id, guest)


def closing(key: str) -> dict[str, str]:
    """Tell the player's node to close the link's socket with ``relay-unavailable``."""
    return {"c": key, "t": dumps(relay_failed_json()), "x": str(CLOSE_RELAY)}
