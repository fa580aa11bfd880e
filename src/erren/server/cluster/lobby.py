"""A cluster node's quick match, through the shared queues (:mod:`.matching`).

The node whose player finds an opponent makes the table; the opponent's node answers with the
table's id and seat 0 (a :class:`RemoteTable`); a player held back from a recent opponent
(:mod:`erren.server.pairing`), or waiting for a window to widen (:mod:`erren.server.matchrule`),
is paired by his own node once the hold ends or the window admits (that node makes the table,
he sits in seat 1); a player whose request's client went is away in Redis, paired with
nobody, and resumes on any node (:mod:`erren.server.quickmatch`, :mod:`.away`); the owner of a
new table dissolves a pairing whose player does not come, putting the other back at the front
of the shared queue.  An account waits in one queue, or sits at one table, in the whole
cluster: a second seat or wait, on any node, is refused with the single server's 409
``seated``/``waiting``.  The rest of what a cluster node does differently — leases, the
takeover — is its :class:`~.node.ClusterNode`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from erren.server.cluster.away import AwayPlayers
from erren.server.cluster.matching import (
    Again,
    Away,
    Cancelled,
    Found,
    Joined,
    Outcome,
    Place,
    PlaceKind,
)
from erren.server.lobbybase import Ground
from erren.server.lobbyerrors import (
    LobbyError,
    no_opponent,
    search_lost,
    seated_error,
    waiting_error,
)
from erren.server.pairing import ClientGoneError, Search
from erren.server.quickmatch import QuickTables
from erren.server.table import TableSpec, TableView, quick_spec

if TYPE_CHECKING:
    from erren.server.cluster import Cluster
    from erren.server.store import User

__all__ = ["RemoteTable", "SharedQuickMatch", "Waiting", "place_error"]

log = logging.getLogger("erren.server.cluster")


@dataclass(frozen=True)
class RemoteTable:
    """A quick-match table another node made: what the waiting player's answer shows."""

    spec: TableSpec
    names: tuple[str, str]

    def info(self) -> dict[str, Any]:
        seat = {"bot": None, "level": None, "online": False, "ready": False}
        return {
            **self.spec.to_json(),
            "seats": [{"name": name, **seat} for name in self.names],
            "hand": 0,
            "game": None,
            "running": False,
            "closed": False,
        }


def place_error(place: Place) -> LobbyError:
    """The refusal of a second seat or wait: 409 ``seated`` (with the table) or ``waiting``,
    as a single server answers."""
    if place.kind is PlaceKind.WAITING:
        return waiting_error(place.where)
    return seated_error(place.where)


@dataclass(frozen=True)
class Waiting:
    """A player of this node waiting in a shared queue: his room, and a future that stops the
    wait when the node shuts down (a player's cancel reaches the wait through Redis)."""

    room: str
    stop: asyncio.Future[None]


class SharedQuickMatch:
    """A cluster node's :class:`~erren.server.quickmatch.Matchmaker`.  ``waits``: this node's
    players waiting in a shared queue (the node refuses them another seat); ``unavailable``:
    the answer to a Redis failure."""

    def __init__(
        self,
        ground: Ground,
        cluster: Cluster,
        tables: QuickTables,
        *,
        away: AwayPlayers,
        waits: dict[int, Waiting],
        unavailable: Callable[[str, RedisError], LobbyError],
    ) -> None:
        self.ground = ground
        self.matching = cluster.matching
        self.tables = tables
        self.away = away
        self.waits = waits
        self.unavailable = unavailable

    async def quick_match(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        *,
        resume: bool = False,
        gone: asyncio.Future[None] | None = None,
    ) -> tuple[TableView, int]:
        try:
            return await self._quick_match(user, room_id, wait_s, resume, gone)
        except RedisError as err:
            raise self.unavailable("quick match", err) from None

    async def _quick_match(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        resume: bool,
        gone: asyncio.Future[None] | None,
    ) -> tuple[TableView, int]:
        ground = self.ground
        room = ground.room(room_id)
        with ground.reserve(user):
            await ground.admit(user, room)
            skill = await ground.skills.skill(user.id, room.family)
            barred = ground.queues.rule.blocks.barred(user.id)
            table_id = ground.new_id()
            joined = await self.matching.join(
                user.id,
                user.name,
                room.id,
                table_id,
                wait_s,
                resume=resume,
                skill=skill,
                barred=barred,
            )
            if joined.kind is Outcome.SEATED:
                raise seated_error(joined.where)
            if joined.kind is Outcome.WAITING:
                raise waiting_error(joined.where)
            if joined.kind is Outcome.LOST:
                raise search_lost(room.id)
            if joined.opponent is not None:
                other = joined.opponent
                table = await self.tables.make(room, other.user_id, other.name, user, table_id)
                return table, 1
            stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.waits[user.id] = Waiting(room.id, stop)  # the queue holds the seat
        try:
            found = await self._wait(user, room.id, wait_s, stop, joined, barred=barred, gone=gone)
            if isinstance(found, Joined):  # held back, then paired by this node: seat 1
                assert found.opponent is not None
                other = found.opponent
                table = await self.tables.make(room, other.user_id, other.name, user, found.where)
                return table, 1
        finally:
            self.waits.pop(user.id, None)
        if found is None:
            raise no_opponent(wait_s)
        local = ground.tables.get(found.table_id)
        if local is not None:
            return local, 0
        names = (user.name, found.opponent.name)
        return RemoteTable(quick_spec(found.table_id, room), names), 0

    async def _wait(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        stop: asyncio.Future[None],
        queued: Joined,
        *,
        barred: frozenset[int],
        gone: asyncio.Future[None] | None,
    ) -> Found | Joined | None:
        again = None
        if queued.held_s is not None:  # a chance comes (a hold ends, a window widens): try again
            again = Again(user.name, self.ground.new_id, queued.held_s, barred)
        waiting = asyncio.ensure_future(self.matching.wait(user.id, room_id, wait_s, again, gone))
        either: set[asyncio.Future[Any]] = {waiting, stop}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():  # the node stops: the player leaves the queue
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiting
            raise LobbyError(409, "the quick match was cancelled", "cancelled")
        found = waiting.result()
        match found:
            case Cancelled():  # by the player, from this node or another
                raise LobbyError(409, "the quick match was cancelled", "cancelled")
            case Away():  # his client went: his place is kept for the grace
                self.away.grace(user.id, room_id, found.token)
                raise ClientGoneError
        return found

    async def search_of(self, user_id: int) -> Search | None:
        try:
            found = await self.matching.search_of(user_id)
        except RedisError as err:
            raise self.unavailable("reading a search", err) from None
        return None if found is None else Search(found.room, found.away)

    async def cancel_quick(self, user_id: int) -> bool:
        """Cancel the player's wait wherever it runs (:meth:`Matching.cancel`: his node's
        request answers 409 ``cancelled``); 409 ``seated`` when a pairing came first (the
        match stands), ``False`` when he waits nowhere."""
        try:
            done = await self.matching.cancel(user_id)
        except RedisError as err:
            raise self.unavailable("cancelling a quick match", err) from None
        if done.kind is Outcome.SEATED:
            raise LobbyError(
                409,
                f"too late: an opponent was paired first; you are seated at table {done.where}",
                "seated",
                done.where,
            )
        return done.kind is Outcome.CANCELLED
