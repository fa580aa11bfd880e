"""Where a connection's parsed message goes: a ``ping`` is answered, a ``join`` seats the
connection at its table, and every other message becomes its table's typed command
(:data:`~erren.server.table.PlayerCommand`).  The socket's reader calls :func:`dispatch`, and so
does a cluster node for the connections other nodes relay to its tables."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import assert_never

from erren.server import protocol
from erren.server.protocol import error_json
from erren.server.table import Act as TAct
from erren.server.table import Advise as TAdvise
from erren.server.table import Chat as TChat
from erren.server.table import Conn, PlayerCommand, Table
from erren.server.table import Gone as TGone
from erren.server.table import Join as TJoin
from erren.server.table import Leave as TLeave
from erren.server.table import Ready as TReady
from erren.server.table import Resync as TResync
from erren.server.table import Review as TReview
from erren.server.table import SetTrustee as TTrustee
from erren.server.watching import elsewhere_json, unwatch

__all__ = ["TableMessage", "dispatch"]


def dispatch(
    msg: protocol.ClientMessage, conn: Conn, user_id: int, tables: Mapping[str, Table]
) -> None:
    """Hand a parsed message of ``conn`` (account ``user_id``) to its table among ``tables``
    (a join finds it there), or answer it.  The socket's reader calls it, and so does a
    cluster node for the connections other nodes relay to its tables."""
    match msg:
        case protocol.Ping():
            conn.send({"type": "pong"})
        case protocol.Auth():
            conn.send(error_json("already-authenticated", "this connection is already logged in"))
        case protocol.Join():
            _join(msg, conn, user_id, tables)
        case protocol.Unwatch():
            unwatch(conn)
        case protocol.Watch():  # the socket and the relay answer it (erren.server.watching)
            conn.send(elsewhere_json(msg.table))
        case _:
            table = conn.table
            if isinstance(msg, protocol.Chat) and (table is None or table.closed):
                return  # chat from no table: dropped, not an error
            if table is None or table.closed:
                conn.send(
                    error_json("no-table", "join a table first ({'type': 'join', 'table': ...})")
                )
                return
            table.submit(_table_command(msg, conn))


def _join(msg: protocol.Join, conn: Conn, user_id: int, tables: Mapping[str, Table]) -> None:
    """``conn`` takes its seat at the table ``msg`` names (leaving the one it was at)."""
    table = tables.get(msg.table)
    seat = table.seat_of(user_id) if table is not None and not table.closed else None
    if table is None or seat is None:
        conn.send(
            error_json(
                "not-seated",
                f"you have no seat at table {msg.table!r}",
                {"table": msg.table[:40]},
            )
        )
        return
    if conn.table is not None and conn.table is not table:
        conn.table.submit(TGone(conn))
    unwatch(conn)  # a player who sits down stops watching
    conn.table, conn.seat = table, seat
    table.submit(TJoin(conn, seat, msg.game, msg.since))


TableMessage = (
    protocol.Act
    | protocol.Trustee
    | protocol.Ready
    | protocol.Leave
    | protocol.Resync
    | protocol.Advice
    | protocol.Review
    | protocol.Chat
)
"""The messages a seated connection sends its table."""


def _table_command(msg: TableMessage, conn: Conn) -> PlayerCommand:
    """The table's command for the message ``msg`` of ``conn``."""
    match msg:
        case protocol.Act():
            return TAct(conn, msg.action, msg.n, time.perf_counter())
        case protocol.Trustee():
            return TTrustee(conn, msg.on)
        case protocol.Ready():
            return TReady(conn)
        case protocol.Leave():
            return TLeave(conn)
        case protocol.Resync():
            return TResync(conn)
        case protocol.Advice():
            return TAdvise(conn)
        case protocol.Review():
            return TReview(conn)
        case protocol.Chat():
            return TChat(conn, msg.said)
        case _:
            assert_never(msg)
