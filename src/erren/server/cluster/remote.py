"""What the relay carries between nodes, and the owner's stand-in for a player connected to
another node.

Every node reads one Redis stream, its inbox ``{prefix}node:{node}:in``.  An entry is a flat
map of strings, ``c`` naming the *link* it belongs to: one connection of one node playing at
one table of another node, ``NODE:EPOCH:N`` (the player's node, that node's epoch — a random
word drawn at each start, so a restarted node's links are never confused with the last run's
— and a number).  The player's node sends the owner

* ``{"c", "m": CLIENT_MESSAGE}`` — a client message as JSON text (``join`` also carries
  ``u``, the account's id, and ``nm``, its name);
* ``{"c", "g": ""}`` — the connection left (its socket closed, or it joined another table).

The owner sends the player's node

* ``{"c", "t": TEXT}`` — a server message for that connection, the very text the table
  rendered for the seat (its own observation only), relayed unchanged;
* ``{"c", "x": CODE}`` (``t`` too, sometimes: sent first) — close the connection's socket with
  WebSocket close code ``CODE`` (``replaced``: 4409; the relay failed: 1011).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Protocol

from erren.server import protocol
from erren.server.protocol import dumps
from erren.server.table import Conn

__all__ = [
    "CLOSE_RELAY",
    "RelayConn",
    "Sender",
    "client_text",
    "inbox_key",
    "link_node",
    "moved_json",
    "relay_failed_json",
]

CLOSE_RELAY = 1011
"""Close code of a socket whose relay to the table's node failed: the client reconnects (to
any node) and resumes by event number."""

_TYPES: dict[type[Any], str] = {
    protocol.Join: "join",
    protocol.Act: "act",
    protocol.Trustee: "trustee",
    protocol.Ready: "ready",
    protocol.Leave: "leave",
    protocol.Resync: "resync",
    protocol.Advice: "advice",
    protocol.Review: "review",
    protocol.Chat: "chat",
    protocol.Watch: "watch",
    protocol.Unwatch: "unwatch",
}


def client_text(msg: protocol.ClientMessage) -> str:
    """A parsed client message as JSON text again (what the owner node parses)."""
    return json.dumps({"type": _TYPES[type(msg)], **asdict(msg)}, separators=(",", ":"))


def inbox_key(prefix: str, node: str) -> str:
    """The stream a node reads."""
    return f"{prefix}node:{node}:in"


def link_node(key: str) -> tuple[str, str]:
    """The player's node and its epoch, from a link's key ``NODE:EPOCH:N``."""
    node, epoch, _ = key.rsplit(":", 2)
    return node, epoch


def moved_json(table: str) -> dict[str, Any]:
    """What the table's ``closed`` says when its lease is lost (``ClusterNode.lease_lost``):
    what a relayed player hears when the table's node died or handed the table on."""
    return {
        "type": "closed",
        "table": table,
        "code": "moved",
        "reason": "this table is played on another server now; reconnect",
        "params": {},
    }


def relay_failed_json() -> dict[str, Any]:
    return protocol.error_json(
        "relay-unavailable",
        "the server that plays your table cannot be reached right now (the cluster's Redis "
        "failed); reconnect and the hand goes on",
    )


class Sender(Protocol):
    """Where a :class:`RelayConn` puts what it sends (the relay's writer, in order)."""

    def put(self, stream: str, fields: dict[str, str]) -> None: ...

    def forget(self, key: str) -> None:
        """The owner closed the relayed connection ``key``."""
        ...


class RelayConn(Conn):
    """The owner node's stand-in for a connection of another node: what the table sends it
    goes, as text, into that node's inbox (one ``XADD``), in order."""

    def __init__(self, user_id: int, name: str, key: str, stream: str, sender: Sender) -> None:
        super().__init__(user_id, name)
        self.key = key
        self.stream = stream
        self.sender = sender

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.sender.put(self.stream, {"c": self.key, "t": text})

    def abort(self, message: dict[str, Any], code: int) -> None:
        if self.closed:
            return
        self.closed, self.close_code = True, code
        self.sender.put(self.stream, {"c": self.key, "t": dumps(message), "x": str(code)})
        self.sender.forget(self.key)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed, self.close_code = True, code
            self.sender.put(self.stream, {"c": self.key, "x": str(code)})
            self.sender.forget(self.key)

    def drop(self) -> None:
        """The player's node says the connection is gone (or died): nothing more is sent."""
        self.closed = True
