"""The seats of a table: who sits there (a player's connections, or a computer player) and
each connection's outbox."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erren.bots import Bot, Level, find_bot, level_bot
from erren.bots.levels import bot_level
from erren.server.clock import Timer
from erren.server.protocol import dumps

if TYPE_CHECKING:
    from erren.engine import Family
    from erren.server.table.actor import Table

__all__ = [
    "OUTBOX_LIMIT",
    "Conn",
    "Seat",
    "Seating",
    "make_bot_seat",
    "make_level_seat",
    "set_level",
]

log = logging.getLogger("erren.server.table")


OUTBOX_LIMIT = 256
"""Messages a connection may have waiting; a client that falls further behind is dropped."""


class Conn:
    """One WebSocket connection's outbox, drained by its own writer task: the table never
    waits for a slow client."""

    def __init__(self, user_id: int, name: str) -> None:
        self.user_id = user_id
        self.name = name
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.table: Table | None = None
        self.seat = -1
        self.watching: Table | None = None
        """The table this connection watches as a spectator (:mod:`.watchers`), if any."""
        self.close_code = 1000

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a slow connection of user %s", self.user_id)
            self.close(1013)
            return
        self.queue.put_nowait(text)

    def abort(self, message: dict[str, Any], code: int) -> None:
        """Drop what is waiting, send ``message`` and close with ``code``."""
        if self.closed:
            return
        while not self.queue.empty():
            self.queue.get_nowait()
        self.send(message)
        self.close(code)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass
class Seat:
    user_id: int | None
    name: str
    bot_name: str | None = None
    bot: Bot | None = None
    level: Level | None = None
    """The computer's level (入门, 普通, 高手, 大师), sent to the clients, which name the seat
    by it in the player's language."""
    conns: set[Conn] = field(default_factory=set)
    ready: bool = False
    grace: Timer | None = None
    trustee_by_disconnect: bool = False
    toggles: int = 0
    """托管 switches by the player himself during the current hand."""
    back_since_restore: bool = True
    """The player joined since the table was restored after a restart (a hand nobody came
    back to is called off, not charged as an escape)."""

    @property
    def online(self) -> bool:
        return self.bot is not None or bool(self.conns)

    @property
    def shown_level(self) -> str | None:
        """The level a computer seat is shown by (its own, or its bot's: ``efficiency`` is
        ``normal``); ``None`` for a player or a bot no level uses."""
        if self.level is not None:
            return self.level.value
        found = None if self.bot_name is None else bot_level(self.bot_name)
        return None if found is None else found.value


class Seating:
    """A table's seats: who sits where, and sending to the connections at them."""

    def __init__(self, seats: list[Seat]) -> None:
        self.seats = seats

    @property
    def full(self) -> bool:
        return all(s.user_id is not None or s.bot is not None for s in self.seats)

    @property
    def awaiting_restore(self) -> bool:
        """The hand was restored after a restart and a player has not come back yet: its
        timers wait (nothing is played for anyone), and the grace period calls it off."""
        return any(s.bot is None and not s.back_since_restore for s in self.seats)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def bind_bots(self, ruleset: Family) -> None:
        """Teach the computer seats the table's rules (again after they change)."""
        for seat in self.seats:
            if seat.bot is not None:
                seat.bot.bind(ruleset)

    def new_hand(self) -> None:
        """A hand is dealt: nobody is ready for the next one, and 托管 switches count anew."""
        for seat in self.seats:
            seat.ready = False
            seat.toggles = 0

    def hand_over(self) -> None:
        """A hand is settled: the computer seats are ready for the next one at once."""
        for seat in self.seats:
            seat.ready = seat.bot is not None

    def to_json(self) -> list[dict[str, Any]]:
        """The seats as a table's ``info`` shows them."""
        return [
            {
                "name": s.name,
                "bot": s.bot_name,
                "level": s.shown_level,
                "online": s.online,
                "ready": s.ready,
            }
            for s in self.seats
        ]

    def send(self, seat: int, message: dict[str, Any]) -> None:
        conns = self.seats[seat].conns
        if conns:
            text = dumps(message)
            for conn in list(conns):
                conn.send_text(text)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = dumps(message)
        for seat in self.seats:
            for conn in list(seat.conns):
                conn.send_text(text)

    def send_off(self, message_of: Callable[[int], dict[str, Any]]) -> None:
        """Send each seat its last message (``message_of(seat)``) and detach every connection
        from the table."""
        for seat_no, seat in enumerate(self.seats):
            text = dumps(message_of(seat_no))
            for conn in list(seat.conns):
                conn.send_text(text)
                conn.table, conn.seat = None, -1
            seat.conns.clear()


def make_bot_seat(name: str, bot: str, seed: int | None) -> Seat:
    """A computer seat played by the bot registered as ``bot`` (the table binds it to its
    rules)."""
    return Seat(user_id=None, name=name, bot_name=bot, bot=find_bot(bot, seed=seed))


def make_level_seat(level: Level, seed: int | None) -> Seat:
    """A computer seat played at ``level``, named ``Computer (Strong)`` (the table binds its
    bot to its rules)."""
    bot = level_bot(level, seed=seed)
    return Seat(user_id=None, name=level.computer("en"), bot_name=bot.name, bot=bot, level=level)


def set_level(seat: Seat, level: Level, seed: int | None) -> bool:
    """Make the computer at ``seat`` play ``level`` from now on; whether it changed."""
    if seat.level is level and seat.bot is not None:
        return False
    replacement = make_level_seat(level, seed)
    seat.name, seat.bot_name, seat.bot, seat.level = (
        replacement.name,
        replacement.bot_name,
        replacement.bot,
        level,
    )
    return True
