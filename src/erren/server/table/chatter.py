"""The table's quick chat: a seated player's phrase or sticker goes to both seats, at most one
per seat every :data:`~erren.server.chat.CHAT_INTERVAL_S` game seconds on the table's clock.

Chat never touches the game: the actor hands a :class:`~.commands.Chat` here without marking
the table busy (the idle timer, the decision timer and 托管 are as they were), nothing is
written to the store, and no event is numbered for it, so the record and its replay are the
same with or without chat.  A message from a connection that is not (or no longer) at a seat
of this table is dropped without an answer.
"""

from __future__ import annotations

import logging

from erren.server.chat import CHAT_INTERVAL_S, ChatLimit, retry_ms
from erren.server.clock import Clock
from erren.server.table.commands import Chat
from erren.server.table.seats import Seating
from erren.server.wire import chat_json, error_json

__all__ = ["Chatter"]

log = logging.getLogger("erren.server.table")


class Chatter:
    """Passes a table's chat on to its seats, holding each seat to the rate limit."""

    def __init__(self, table_id: str, seating: Seating, clock: Clock) -> None:
        self.table_id = table_id
        self.seating = seating
        self.clock = clock
        self.limit = ChatLimit(len(seating.seats), clock.real(CHAT_INTERVAL_S))

    def say(self, cmd: Chat) -> None:
        """Send ``cmd``'s phrase or sticker to both seats, or refuse it as too soon
        (``chat-too-fast``, ``params.retry_ms``: the real milliseconds left)."""
        conn, seats = cmd.conn, self.seating.seats
        seat = conn.seat
        if not 0 <= seat < len(seats) or conn not in seats[seat].conns:
            return  # not seated here (any more): dropped, not an error
        now = self.clock.now()
        wait = self.limit.wait(seat, now)
        if wait > 0:
            ms = retry_ms(wait)
            conn.send(
                error_json(
                    "chat-too-fast",
                    f"one chat message per {CHAT_INTERVAL_S:g} s; wait {ms} ms",
                    params={"retry_ms": ms, "interval_s": CHAT_INTERVAL_S},
                )
            )
            return
        self.limit.spoke(seat, now)
        log.debug("table %s: seat %d says %s", self.table_id, seat, cmd.said.value)
        self.seating.broadcast(chat_json(seat, cmd.said))
