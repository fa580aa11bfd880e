"""The commands a table's actor processes, one at a time: from the players' connections
(:class:`Join`, :class:`Act`, ...), the lobby (:class:`Sit`) and the table's own timers
(:class:`Timeout`, :class:`BotMove`, ...)."""

from __future__ import annotations

from dataclasses import dataclass

from erren.server.table.seats import Conn

__all__ = [
    "Act",
    "Advise",
    "BotMove",
    "Command",
    "Gone",
    "GraceOver",
    "IdleOver",
    "Join",
    "Leave",
    "Ready",
    "ReadyOver",
    "Resync",
    "Review",
    "SetTrustee",
    "Sit",
    "Timeout",
    "WindowPass",
]


@dataclass(frozen=True, slots=True)
class Join:
    conn: Conn
    seat: int
    game: int | None
    since: int | None


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


Command = (
    Join | Gone | Act | SetTrustee | Ready | Leave | Resync | Sit | Timeout | BotMove | GraceOver
) | (ReadyOver | IdleOver | WindowPass | Advise | Review)
