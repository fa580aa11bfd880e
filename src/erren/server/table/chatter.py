"""The table's quick chat: a seated player's phrase or sticker goes to both seats, at most one
per seat every :data:`~erren.server.chat.CHAT_INTERVAL_S` game seconds on the table's clock,
and never between two players one of whom blocks the other.

Chat never touches the game: the actor hands a :class:`~.commands.Chat` here without marking
the table busy (the idle timer, the decision timer and 托管 are as they were), nothing is
written to the store, and no event is numbered for it, so the record and its replay are the
same with or without chat.  A message from a connection that is not (or no longer) at a seat
of this table is dropped without an answer.

**Blocks.**  The table's node checks them (it is the one writer, wherever the players'
sockets are: a relayed player's chat is checked here too).  It reads the blocks between its
seated players from the store at the first chat message (``blocks``; again once a player is
seated), and keeps them: a block made or lifted later is pushed to the table
(:meth:`Chatter.blocked`, from every node's :class:`~erren.server.friends.Friends`), which
reads them again at the next message.  So a chat line costs no database read, and a block
pushed while the store is read still counts.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable

from erren.server.chat import CHAT_INTERVAL_S, ChatLimit, retry_ms
from erren.server.clock import Clock
from erren.server.table.commands import Chat
from erren.server.table.seats import Seating
from erren.server.wire import chat_json, error_json

__all__ = ["BlocksAmong", "Chatter"]

log = logging.getLogger("erren.server.table")

BlocksAmong = Callable[[Iterable[int]], Awaitable[set[frozenset[int]]]]
"""The pairs of these accounts with a block between them, either way
(``store.social.blocks_among``)."""


class Chatter:
    """Passes a table's chat on to its seats, holding each seat to the rate limit and
    stopping it between two players with a block between them."""

    def __init__(
        self, table_id: str, seating: Seating, clock: Clock, blocks: BlocksAmong | None = None
    ) -> None:
        self.table_id = table_id
        self.seating = seating
        self.clock = clock
        self.limit = ChatLimit(len(seating.seats), clock.real(CHAT_INTERVAL_S))
        self.blocks = blocks
        self.hushed: set[frozenset[int]] = set()
        """The pairs of accounts between whom chat stops (as last read, and pushed since)."""
        self._told = 1
        """Pushes counted (1: nothing read yet); the blocks are read again while it differs
        from :attr:`_read`."""
        self._read = 0
        self._read_for: tuple[int, ...] = ()
        """The seated accounts the blocks were last read for."""

    def blocked(self, a: int, b: int, *, on: bool) -> None:
        """A block between ``a`` and ``b`` was made (``on``) or lifted: a new one counts at
        once; either way the blocks are read again at the next message (the other may block
        too, or a read under way may predate it)."""
        if on:
            self.hushed.add(frozenset((a, b)))
        else:
            self.hushed.discard(frozenset((a, b)))
        self.unsure()

    def unsure(self) -> None:
        """The blocks may have changed unheard (a push lost while Redis failed): read them
        again at the next message."""
        self._told += 1

    async def _known(self) -> None:
        """Read the blocks between the seated players when something changed since the last
        read (a failed read is logged and tried again at the next message)."""
        if self.blocks is None:
            return
        while True:
            told = self._told
            users = tuple(s.user_id for s in self.seating.seats if s.user_id is not None)
            if (told, users) == (self._read, self._read_for):  # no push, no new player
                return
            try:
                found = await self.blocks(users)
            except Exception as err:  # the store failed: chat as last known, read next time
                log.warning("table %s: cannot read the blocks: %s", self.table_id, err)
                return
            if told == self._told:
                self.hushed, self._read, self._read_for = set(found), told, users

    def _barred(self, seat: int) -> bool:
        me = self.seating.seats[seat].user_id
        if me is None or not self.hushed:
            return False
        others = [s.user_id for i, s in enumerate(self.seating.seats) if i != seat]
        return any(frozenset((me, o)) in self.hushed for o in others if o is not None)

    async def say(self, cmd: Chat) -> None:
        """Send ``cmd``'s phrase or sticker to both seats, or refuse it as too soon
        (``chat-too-fast``, ``params.retry_ms``: the real milliseconds left) or as between
        players with a block between them (``chat-blocked``, to the speaker only)."""
        conn, seats = cmd.conn, self.seating.seats
        seat = conn.seat
        if not 0 <= seat < len(seats) or conn not in seats[seat].conns:
            return  # not seated here (any more): dropped, not an error
        await self._known()
        if self._barred(seat):
            conn.send(error_json("chat-blocked", "chat is off between you and the other player"))
            return
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
