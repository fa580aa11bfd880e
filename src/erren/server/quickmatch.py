"""Quick match, and the rule that nobody is seated with a player who is gone.

Quick match pairs a player whose balance the room admits (§6.4) with the player waiting in
the same room (family and tier) whose rating is closest to his, within a window that widens
with the wait (:mod:`erren.server.matchrule`: anyone after 20 s), never with a blocked player
nor with an opponent it paired him with within the last two minutes
(:mod:`erren.server.pairing`); the request waits until an opponent comes or ``wait_s``
passes.  A player's skill is read from the store when he asks (``Ground.skills``).

**Gone while waiting.**  The waiting request holds the player's place.  When its client closes
the connection (the tab closed or reloaded; the browser client also drops its request while the
page is hidden) the route learns it (:func:`client_gone`) and the player is *away*: nobody is
paired with him, and he keeps his place for ``TableConfig.queue_grace_s`` wall-clock seconds
(default 5).  A request of his for the same room within them resumes the wait in that place
(``resume``: only that — 404 ``search-lost`` when no search of his is kept, so a client can say
so); past them he has left the queue.  Any other seat request of his ends an away wait at once.

**Gone after the pairing.**  Both players of a new quick match must join its table within
``TableConfig.show_up_s`` wall-clock seconds (default 8).  If, by then, no hand was dealt and a
player has not joined (or left again), the pairing is dissolved: the players at the table are
put back at the **front** of the room's queue (away, until their clients ask again, which the
browser client does at once), then the table closes with code ``no-show`` (``params``: the
room, the absent ``seats``, the ``seconds``).  No hand was dealt, so no bean moves.  The repeat
rule still holds the two apart.  Both timers run on the lobby's wall clock
(:attr:`~erren.server.lobbybase.Ground.wall`), which a test injects.

The lobby holds a :class:`Matchmaker`: :class:`QuickMatch` on a single server, or a cluster
node's :class:`erren.server.cluster.lobby.SharedQuickMatch` (the shared queues,
:mod:`erren.server.cluster.matching`); both make their tables through the :class:`QuickTables`,
which watch the players come, and put a dissolved pairing's players back through a
:class:`Requeue` (:class:`QueueRequeue` here, a node's away players in a cluster).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Protocol

from erren.server.clock import Timer
from erren.server.lobbybase import Ground
from erren.server.lobbyerrors import (
    LobbyError,
    no_opponent,
    search_lost,
    seated_error,
    waiting_error,
)
from erren.server.pairing import ClientGoneError, Queues, Search, Waiter
from erren.server.rooms import RoomTier
from erren.server.table import CloseCode, Seat, Table, TableView, quick_spec

if TYPE_CHECKING:
    from starlette.types import Receive

    from erren.server.store import User

__all__ = [
    "ClientGoneError",
    "Matchmaker",
    "QueueRequeue",
    "QuickMatch",
    "QuickTables",
    "Requeue",
    "absent_seats",
    "client_gone",
    "close_no_show",
]

log = logging.getLogger("erren.server.lobby")


@contextlib.asynccontextmanager
async def client_gone(receive: Receive) -> AsyncIterator[asyncio.Future[None]]:
    """A future done when the HTTP client of the request being served closes its connection
    (ASGI's ``http.disconnect``; the request's body must have been read)."""
    loop = asyncio.get_running_loop()
    gone: asyncio.Future[None] = loop.create_future()

    async def listen() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                if not gone.done():
                    gone.set_result(None)
                return

    listener = loop.create_task(listen(), name="client-gone")
    try:
        yield gone
    finally:
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener
        gone.cancel()


def absent_seats(table: Table) -> list[int] | None:
    """The seats of players who are not at ``table`` now, while it waits for its first deal;
    ``None`` when there is nothing to dissolve: the table closed, a hand was dealt, or every
    player joined (the deal is on its way)."""
    if table.closed or table.state is not None:
        return None
    players = [i for i, s in enumerate(table.seats) if s.user_id is not None and s.bot is None]
    if all(table.seats[i].ready for i in players):
        return None
    return [i for i in players if not table.seats[i].online]


def close_no_show(table: Table, room: RoomTier, absent: list[int], seconds: float) -> None:
    """Close a table whose pairing is dissolved (code ``no-show``; the players present are
    told, and were put back at the front of ``room``'s queue)."""
    table.close(
        CloseCode.NO_SHOW,
        f"your opponent did not come to the table within {seconds:g} s: the match is "
        "dissolved, nobody pays, and you are back at the front of the queue",
        params={"room": room.id, "seats": absent, "seconds": round(seconds)},
    )


class Matchmaker(Protocol):
    """The lobby's quick match: :class:`QuickMatch`, or a cluster node's shared queues."""

    async def quick_match(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        *,
        resume: bool = False,
        gone: asyncio.Future[None] | None = None,
    ) -> tuple[TableView, int]: ...

    async def cancel_quick(self, user_id: int) -> bool: ...

    async def search_of(self, user_id: int) -> Search | None: ...


class Requeue(Protocol):
    """How the players of a dissolved pairing go back to the front of their room's queue."""

    async def requeue(self, room_id: str, table_id: str, players: list[Seat]) -> dict[int, str]:
        """Put ``players`` (at ``table_id``, which closes next) back at the front of the room's
        queue, away until they ask again; the accounts put back (with their away tokens, on a
        cluster node)."""
        ...

    async def unrequeue(self, room_id: str, table_id: str, requeued: dict[int, str]) -> None:
        """Undo :meth:`requeue`: the pairing stands after all."""
        ...


class QueueRequeue:
    """A single server's :class:`Requeue`: its own queues."""

    def __init__(self, queues: Queues) -> None:
        self.queues = queues

    async def requeue(self, room_id: str, table_id: str, players: list[Seat]) -> dict[int, str]:
        for seat in reversed(players):
            assert seat.user_id is not None
            waiter = self.queues.add(room_id, seat.user_id, seat.name, front=True, skill=None)
            self.queues.step_away(room_id, waiter)
        return {s.user_id: "" for s in players if s.user_id is not None}

    async def unrequeue(self, room_id: str, table_id: str, requeued: dict[int, str]) -> None:
        for user_id in requeued:
            self.queues.yield_away(user_id)


class QuickTables:
    """The tables of quick matches: made with the player who waited in seat 0, and watched
    until both players come (or the pairing is dissolved)."""

    def __init__(self, ground: Ground, requeue: Requeue) -> None:
        self.ground = ground
        self.requeue = requeue
        self._show_ups: dict[str, Timer] = {}
        """The show-up timers of the new quick-match tables, by table id."""

    async def make(
        self, room: RoomTier, first_id: int, first_name: str, user: User, table_id: str = ""
    ) -> Table:
        """The table of a quick match: the player who waited (``first_*``) in seat 0; both
        must join it within the show-up time."""
        spec = quick_spec(table_id or self.ground.new_id(), room)
        seats = [Seat(first_id, first_name), Seat(user.id, user.name)]
        table = await self.ground.open(self.ground.make(spec, seats))
        self.watch(table, room)
        return table

    def watch(self, table: Table, room: RoomTier) -> None:
        """Dissolve ``table``'s pairing if a player is not there at the show-up time."""
        ground = self.ground
        self._show_ups[table.spec.id] = ground.wall.call_later(
            ground.config.show_up_s, lambda: ground.chore(self._show_up(table, room))
        )

    async def _show_up(self, table: Table, room: RoomTier) -> None:
        """The show-up time of ``table`` is over: dissolve its pairing if a player is not
        there (his opponent is put back at the front of the queue first, so that his client,
        told by the close, finds his place), unless the hand is dealt meanwhile."""
        self._show_ups.pop(table.spec.id, None)
        absent = absent_seats(table)
        if not absent:
            return
        present = [
            s for i, s in enumerate(table.seats) if s.user_id is not None and i not in absent
        ]
        requeued = await self.requeue.requeue(room.id, table.spec.id, present)
        absent = absent_seats(table)
        if not absent:  # the late player came while the others were queued: play on
            await self.requeue.unrequeue(room.id, table.spec.id, requeued)
            return
        log.info(
            "quick match dissolved: seat(s) %s did not come to the table",
            absent,
            extra={"table": table.spec.id},
        )
        close_no_show(table, room, absent, self.ground.config.show_up_s)
        await table.stop()

    def stop(self) -> None:
        for timer in self._show_ups.values():
            timer.cancel()
        self._show_ups.clear()


class QuickMatch:
    """A single server's quick match: the rooms' queues and the presence of the players in
    them (:class:`~erren.server.pairing.Queues`)."""

    def __init__(self, ground: Ground, tables: QuickTables) -> None:
        self.ground = ground
        self.queues = ground.queues
        self.tables = tables

    async def quick_match(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        *,
        resume: bool = False,
        gone: asyncio.Future[None] | None = None,
    ) -> tuple[TableView, int]:
        """A seat at a quick-match table of the room: paired at once under the rule with a
        player waiting, or when one comes (or a window widens) within ``wait_s``.  His away
        wait in the room, if any, is resumed in its place (``resume``: only that, else 404
        ``search-lost``).  :class:`ClientGoneError` once ``gone`` is done (he is away)."""
        ground = self.ground
        room = ground.room(room_id)
        waiter = self.queues.resume(room.id, user.id)
        if waiter is not None:
            # passed over while he was away
            other = self.queues.partner(room.id, user.id, waiter.skill, waiter.since)
            if other is not None:
                return await self._pair_now(room, waiter, other, user), 1
        else:
            if resume:
                self._refuse_resume(user, room)
            with ground.reserve(user):
                await ground.admit(user, room)
                skill = await ground.skills.skill(user.id, room.family)
                other = self.queues.partner(room.id, user.id, skill)
                if other is not None:
                    return await self._pair(room, other, user), 1
                # it holds the seat now
                waiter = self.queues.add(room.id, user.id, user.name, skill=skill)

        async def rematch(waiter: Waiter) -> Table | None:
            """A hold with a recent opponent waiting ended, or a window widened: pair him now
            under the rule, if he still waits."""
            other = self.queues.partner(room.id, user.id, waiter.skill, waiter.since)
            return None if other is None else await self._pair_now(room, waiter, other, user)

        try:
            return await self.queues.wait(room.id, waiter, wait_s, rematch, gone)
        except TimeoutError:
            raise no_opponent(wait_s) from None

    def _refuse_resume(self, user: User, room: RoomTier) -> None:
        """Why a search cannot be resumed: 409 ``seated`` (he sits at a table: paired before
        he went away), ``waiting`` (a request of his waits now) or ``seat-pending``; else 404
        ``search-lost``."""
        table = self.ground.table_of(user.id)
        if table is not None:
            raise seated_error(table.spec.id)
        search = self.queues.search(user.id)
        if search is not None and not search.away:
            raise waiting_error(search.room)
        if user.id in self.ground.pending:
            raise LobbyError(409, "another request of yours is being seated", "seat-pending")
        raise search_lost(room.id)

    async def _pair_now(self, room: RoomTier, waiter: Waiter, other: Waiter, user: User) -> Table:
        """``user``, who waits (``waiter``), is paired with ``other`` now: he leaves the queue
        and holds his seat as a request again while the table is made."""
        self.queues.drop(room.id, waiter)
        waiter.future.cancel()
        self.ground.pending.add(user.id)
        try:
            return await self._pair(room, other, user)
        finally:
            self.ground.pending.discard(user.id)

    async def _pair(self, room: RoomTier, other: Waiter, user: User) -> Table:
        """Seat ``other`` (who waited: seat 0) and ``user`` at a new table of ``room``."""
        self.queues.recent.paired(other.user_id, user.id)
        table = await self.tables.make(room, other.user_id, other.name, user)
        other.future.set_result((table, 0))
        return table

    async def cancel_quick(self, user_id: int) -> bool:
        """Take the user out of every quick-match queue: his waiting request answers 409
        ``cancelled`` and no opponent is paired with him.  ``False`` if he was not waiting."""
        return self.queues.cancel(
            user_id, LobbyError(409, "the quick match was cancelled", "cancelled")
        )

    async def search_of(self, user_id: int) -> Search | None:
        """Where the account's quick-match search is, and whether it is away (``None``: it
        searches nowhere)."""
        return self.queues.search(user_id)
