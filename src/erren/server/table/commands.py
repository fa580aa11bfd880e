"""The commands a table's actor processes, one at a time: from the players' connections
(:class:`Join`, :class:`Act`, ...), the lobby (:class:`Sit`, and :class:`Deal` and
:class:`Abandon` for a table whose rules deal its hands) and the table's own timers
(:class:`Timeout`, :class:`BotMove`, ...).  :data:`Command` is their union, which the actor
matches exhaustively."""

from __future__ import annotations

from dataclasses import dataclass

from erren.server.chat import Said
from erren.server.table.rules import HandPlan
from erren.server.table.seats import Conn

__all__ = [
    "Abandon",
    "Act",
    "Advise",
    "BotMove",
    "Chat",
    "Command",
    "Deal",
    "Gone",
    "GraceOver",
    "IdleOver",
    "Join",
    "Leave",
    "OwnerCommand",
    "PlayerCommand",
    "Ready",
    "ReadyOver",
    "Resync",
    "Review",
    "SetTrustee",
    "Sit",
    "Timeout",
    "TimerCommand",
    "Unwatch",
    "Watch",
    "WatcherCommand",
    "WindowPass",
]


@dataclass(frozen=True, slots=True)
class Join:
    conn: Conn
    seat: int
    game: int | None
    since: int | None


@dataclass(frozen=True, slots=True)
class Watch:
    """``conn`` watches the table as a spectator, admitted by :mod:`erren.server.watching`;
    ``since``: the last event number he saw of ``game`` (a spectator coming back)."""

    conn: Conn
    game: int | None
    since: int | None


@dataclass(frozen=True, slots=True)
class Unwatch:
    """``conn`` stops watching (``unwatch``, a closed socket, a table joined elsewhere)."""

    conn: Conn


@dataclass(frozen=True, slots=True)
class Gone:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Act:
    conn: Conn
    text: str
    n: int | None
    received: float = 0.0
    """When the message was read off the socket (:func:`time.perf_counter`; 0: unknown)."""


@dataclass(frozen=True, slots=True)
class SetTrustee:
    conn: Conn
    on: bool


@dataclass(frozen=True, slots=True)
class Ready:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Leave:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Resync:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Advise:
    """The player at ``conn`` asks for the expert's advice on his decision."""

    conn: Conn


@dataclass(frozen=True, slots=True)
class Review:
    """The player at ``conn`` asks for the quick review of the hand that just ended."""

    conn: Conn


@dataclass(frozen=True, slots=True)
class Chat:
    """The player at ``conn`` says a quick-chat phrase or shows a sticker (never the game's
    business: :mod:`.chatter`)."""

    conn: Conn
    said: Said


@dataclass(frozen=True, slots=True)
class Sit:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Timeout:
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class BotMove:
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class GraceOver:
    seat: int


@dataclass(frozen=True, slots=True)
class ReadyOver:
    hand: int


@dataclass(frozen=True, slots=True)
class IdleOver:
    stamp: int


@dataclass(frozen=True, slots=True)
class WindowPass:
    """The pass of a claim window, applied when the window's minimum pause is over."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the hand the table's rules planned (the campaign's, once its run took the stake)."""

    plan: HandPlan


@dataclass(frozen=True, slots=True)
class Abandon:
    """The player at ``seat`` ends the table (a campaign abandoned): a running hand is his
    escape, and the table closes with code ``left`` and ``reason``."""

    seat: int
    reason: str


PlayerCommand = Join | Gone | Act | SetTrustee | Ready | Leave | Resync | Advise | Review | Chat
"""What a player's connection asks of the table."""
WatcherCommand = Watch | Unwatch
"""What a spectator's connection asks of the table."""
TimerCommand = Timeout | BotMove | GraceOver | ReadyOver | IdleOver | WindowPass
"""What the table's own timers ring with."""
OwnerCommand = Sit | Deal | Abandon
"""What the lobby (the table's owner) asks of it."""
Command = PlayerCommand | WatcherCommand | TimerCommand | OwnerCommand
