"""The lobby of a cluster node: quick match through the shared queues, one owner per table.

:class:`ClusterLobby` is the :class:`~erren.server.lobby.Lobby` with three differences:

* every table it makes is owned through a lease (:mod:`.leases`) whose fencing token every
  write of the table's games carries, and its human players are seated cluster-wide
  (``seat:{user}``, :mod:`.matching`): an account sits at one table or waits in one queue in
  the whole cluster, and a second seat or wait, on any node, is refused with the single
  server's 409 ``seated``/``waiting``;
* quick match goes through the shared queues (:mod:`.matching`): the node whose player finds
  an opponent makes the table; the opponent's node answers with the table's id and seat 0; a
  player held back from a recent opponent (:mod:`erren.server.pairing`) is paired by his own
  node once the hold ends (that node makes the table, he sits in seat 1); a player whose
  request's client went is away in Redis, paired with nobody, and resumes on any node
  (:mod:`erren.server.quickmatch`, :mod:`.away`); the owner of a new table dissolves a pairing
  whose player does not come, putting the other back at the front of the shared queue;
* at startup, and every half lease after, it restores the unfinished games whose table nobody
  holds (a dead node's, a stopped node's), claiming each game with its new token before
  reading it: the takeover after a node's death.

A lost lease (Redis lost it, or the node was paused past it and another node took the table)
stops the table at once without writing anything; the fence refuses whatever was in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from erren.server.cluster.away import AwayPlayers
from erren.server.cluster.idle import IdleTables
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
from erren.server.lobby import (
    Lobby,
    LobbyError,
    no_opponent,
    search_lost,
    seated_error,
    waiting_error,
)
from erren.server.pairing import ClientGoneError, Search
from erren.server.rooms import RoomTier
from erren.server.table import Seat, Table, TableBase, TableSpec, TableView, quick_spec

if TYPE_CHECKING:
    from erren.server.cluster import Cluster
    from erren.server.store import Store, User

__all__ = ["ClusterLobby", "RemoteTable"]

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
class _Waiting:
    """A player of this node waiting in a shared queue: his room, and a future that stops the
    wait when the node shuts down (a player's cancel reaches the wait through Redis)."""

    room: str
    stop: asyncio.Future[None]


def _kept_waiting(table: TableBase) -> bool:
    """Whether a table waiting for a deal is kept for another node to pick up: every table but
    a campaign's (its player goes back to the campaign screen after each hand)."""
    return table.spec.kind != "campaign"


def _ended(task: asyncio.Task[None]) -> None:
    """The takeover loop ends only when the node stops; anything else is a bug, said loudly."""
    if not task.cancelled():
        log.error("the takeover loop ended: %r", task)


class ClusterLobby(Lobby):
    def __init__(self, store: Store, cluster: Cluster, **kwargs: Any) -> None:
        super().__init__(store, **kwargs)
        self.cluster = cluster
        self.remote_waits: dict[int, _Waiting] = {}
        """The players of this node waiting in a shared queue."""
        cluster.matching.repeat_ms = round(self.clock.real(self.config.repeat_hold_s) * 1000)
        cluster.matching.now = self.clock.now
        cluster.matching.grace_ms = round(self.config.queue_grace_s * 1000)  # wall seconds
        self.lost: set[str] = set()
        """Tables whose lease this node lost: stopped, their seats left to the new owner."""
        self.away = AwayPlayers(
            cluster.matching, self.wall, self.config.queue_grace_s, chore=self._chore
        )
        """This node's away players in the shared queues."""
        self._adopter: asyncio.Task[None] | None = None
        self.idle = IdleTables(cluster.redis, cluster.prefix)
        """The tables of the cluster waiting for a deal (:mod:`~.idle`)."""

    # ------------------------------------------------------------------ ownership
    async def _own(self, table: Table) -> None:
        try:
            await self._take(table)
        except RedisError as err:  # no new table while Redis does not answer
            raise self._unavailable("opening a table", err) from None
        await self._now_idle(table)  # no hand yet: another node can pick it up

    def _table(self, spec: TableSpec, seats: list[Seat], cls: type[Table] = Table) -> Table:
        table = super()._table(spec, seats, cls)
        if _kept_waiting(table):
            table.on_idle = self._now_idle
        return table

    async def _now_idle(self, table: TableBase) -> None:
        """The table waits for a deal: its description goes to :attr:`idle` (a Redis error is
        logged: the table plays on, only not picked up if this node dies meanwhile)."""
        if not isinstance(table, Table) or not _kept_waiting(table):
            return
        try:
            await self.idle.put(table.spec.id, table.idle_meta())
        except RedisError as err:
            log.warning("cannot record table %s as waiting: %s", table.spec.id, err)

    async def _take(self, table: Table) -> None:
        leases, matching = self.cluster.leases, self.cluster.matching
        table_id = table.spec.id
        token = await leases.acquire(table_id)
        if token is None:  # a table id drawn twice: never seen, but refused cleanly
            raise RuntimeError(f"table id {table_id} drawn twice")
        users = [s.user_id for s in table.seats if s.user_id is not None]
        taken: list[int] = []
        for user_id in users:
            elsewhere = await matching.take_seat(user_id, table_id)
            if elsewhere is not None:
                await matching.free_seats(table_id, taken)
                await leases.release(table_id, token)
                raise place_error(elsewhere)
            taken.append(user_id)
        table.fence = token
        leases.keep(table_id, token, self._lease_lost, self._seats_of(users))

    def _seats_of(self, users: list[int]) -> tuple[list[str], int]:
        matching = self.cluster.matching
        return [matching.seat_key(u) for u in users], matching.seat_ms

    def _lease_lost(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        self.lost.add(table_id)
        if not table.running and _kept_waiting(table):  # a Redis restart forgot it
            self._chore(self._put_back(table))
        table.kept = True  # its game is the new owner's: nothing more is written here
        self._chore(table.stop())
        table._close("moved", "this table is played on another server now; reconnect")

    def _closed(self, table: TableBase) -> None:
        table_id = table.spec.id
        lost = table_id in self.lost
        super()._closed(table)
        users = [s.user_id for s in table.seats if s.user_id is not None]
        if lost:
            self.lost.discard(table_id)
            for user_id in users:  # the game goes on elsewhere: not held here
                if self.held.get(user_id) == table_id:
                    del self.held[user_id]
            return
        token = self.cluster.leases.held.get(table_id)
        if token is not None:  # a kept game's seats stay: the node that restores it needs them
            self._chore(self._let_go(table_id, token, [] if table.kept else users))

    async def _put_back(self, table: Table) -> None:
        try:
            if await self.idle.put_back(table.spec.id, table.idle_meta()):
                log.warning("table %s is waiting to be picked up again", table.spec.id)
        except RedisError as err:
            log.warning("cannot record table %s as waiting: %s", table.spec.id, err)

    async def _let_go(self, table_id: str, token: int, users: list[int]) -> None:
        await self.idle.drop(table_id)  # before the lease: nobody may pick the table up
        await self.cluster.matching.free_seats(table_id, users)
        await self.cluster.leases.release(table_id, token)

    # ------------------------------------------------------------------ quick match
    def _check_free(self, user: User) -> None:
        """This node's own requests and waits (the cluster's are refused by Redis, atomically,
        when the seat or the wait is taken: :mod:`.matching`)."""
        super()._check_free(user)
        waiting = self.remote_waits.get(user.id)
        if waiting is not None:
            raise waiting_error(waiting.room)

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
            raise self._unavailable("quick match", err) from None

    def _unavailable(self, what: str, err: RedisError) -> LobbyError:
        """Redis failed a matchmaking call: counted (``erren_redis_errors_total``), and the
        player answered 503 ``cluster-unavailable``."""
        log.warning("%s failed on Redis: %s", what, err)
        if self.metrics is not None:
            self.metrics.redis_error()
        return LobbyError(
            503,
            "matchmaking is unavailable right now (the cluster's Redis does not answer); "
            "try again later",
            "cluster-unavailable",
        )

    async def _quick_match(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        resume: bool,
        gone: asyncio.Future[None] | None,
    ) -> tuple[TableView, int]:
        room = self._room(room_id)
        matching = self.cluster.matching
        with self._reserve(user):
            await self._admit(user, room)
            table_id = self._new_id()
            joined = await matching.join(
                user.id, user.name, room.id, table_id, wait_s, resume=resume
            )
            if joined.kind is Outcome.SEATED:
                raise seated_error(joined.where)
            if joined.kind is Outcome.WAITING:
                raise waiting_error(joined.where)
            if joined.kind is Outcome.LOST:
                raise search_lost(room.id)
            if joined.opponent is not None:
                other = joined.opponent
                table = await self._quick_table(room, other.user_id, other.name, user, table_id)
                return table, 1
            stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.remote_waits[user.id] = _Waiting(room.id, stop)  # the queue holds the seat
        try:
            found = await self._wait(user, room.id, wait_s, stop, joined, gone=gone)
            if isinstance(found, Joined):  # held back, then paired by this node: seat 1
                assert found.opponent is not None
                other = found.opponent
                table = await self._quick_table(room, other.user_id, other.name, user, found.where)
                return table, 1
        finally:
            self.remote_waits.pop(user.id, None)
        if found is None:
            raise no_opponent(wait_s)
        local = self.tables.get(found.table_id)
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
        gone: asyncio.Future[None] | None,
    ) -> Found | Joined | None:
        again = None
        if queued.held_s is not None:  # a recent opponent waits: try again when his hold ends
            again = Again(user.name, self._new_id, queued.held_s)
        matching = self.cluster.matching
        waiting = asyncio.ensure_future(matching.wait(user.id, room_id, wait_s, again, gone))
        either: set[asyncio.Future[Any]] = {waiting, stop}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():  # the node stops: the player leaves the queue
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiting
            raise LobbyError(409, "the quick match was cancelled", "cancelled")
        found = waiting.result()
        if isinstance(found, Cancelled):  # by the player, from this node or another
            raise LobbyError(409, "the quick match was cancelled", "cancelled")
        if isinstance(found, Away):  # his client went: his place is kept for the grace
            self.away.grace(user.id, room_id, found.token)
            raise ClientGoneError
        return found

    async def search_of(self, user_id: int) -> Search | None:
        try:
            found = await self.cluster.matching.search_of(user_id)
        except RedisError as err:
            raise self._unavailable("reading a search", err) from None
        return None if found is None else Search(found.room, found.away)

    async def _requeue(self, room: RoomTier, table: Table, players: list[Seat]) -> dict[int, str]:
        return await self.away.requeue(room.id, table.spec.id, players)

    async def _unrequeue(self, room: RoomTier, table: Table, requeued: dict[int, str]) -> None:
        await self.away.unrequeue(room.id, table.spec.id, requeued)

    async def cancel_quick(self, user_id: int) -> bool:
        """Cancel the player's wait wherever it runs (:meth:`Matching.cancel`: his node's
        request answers 409 ``cancelled``); 409 ``seated`` when a pairing came first (the
        match stands), ``False`` when he waits nowhere."""
        try:
            done = await self.cluster.matching.cancel(user_id)
        except RedisError as err:
            raise self._unavailable("cancelling a quick match", err) from None
        if done.kind is Outcome.SEATED:
            raise LobbyError(
                409,
                f"too late: an opponent was paired first; you are seated at table {done.where}",
                "seated",
                done.where,
            )
        return done.kind is Outcome.CANCELLED

    # ------------------------------------------------------------------ restart, takeover
    async def restore(self) -> int:
        """Adopt the tables nobody holds (:meth:`adopt`), then keep looking for such tables
        every half lease: those of a node that died or stopped."""
        count = await self.adopt()
        self._adopter = asyncio.get_running_loop().create_task(self._adopting(), name="adopt")
        self._adopter.add_done_callback(_ended)
        return count

    async def _adopting(self) -> None:
        every = self.cluster.leases.lease_ms / 2000
        while True:
            await asyncio.sleep(every)
            try:  # a scan that hangs (a lock, a lost answer) is cut short and tried again
                adopted = await asyncio.wait_for(self.adopt(), timeout=4 * every)
            except Exception as err:  # Redis or the database away: try again later
                log.warning("cannot look for tables to take over: %r", err)
                if isinstance(err, RedisError) and self.metrics is not None:
                    self.metrics.redis_error()
                continue
            if adopted:
                log.warning("took over %d table(s) nobody held", adopted)

    async def adopt(self) -> int:
        """Restore every unfinished game whose table no node holds, and every table waiting
        for a deal (:attr:`idle`) that no node holds; returns how many tables."""
        unfinished = await self.store.unfinished_tables()
        listed = [(g, t) for g, t in unfinished if t not in self.tables]
        free = await self.cluster.leases.free([t for _, t in listed])
        count = 0
        for game_id, table_id in listed:
            if table_id in free and await self._adopt(game_id, table_id):
                count += 1
        playing = {t for _, t in unfinished}
        waiting = {
            t: meta
            for t, meta in (await self.idle.entries()).items()
            if t not in self.tables and t not in playing
        }
        free = await self.cluster.leases.free(list(waiting))
        for table_id, meta in waiting.items():
            if table_id in free and await self._adopt_waiting(table_id, meta):
                count += 1
        return count

    async def _adopt_waiting(self, table_id: str, meta: dict[str, Any]) -> bool:
        """Pick up a table that was waiting for a deal when its node died: its lease (above
        the fence of its last game), its players' seats — unless one of them sits at another
        table by now: then it is dropped — and the table, waiting for them as before."""
        leases, matching = self.cluster.leases, self.cluster.matching
        last = meta.get("game")
        fence = (await self.store.fence_of(int(last)) or 0) if last is not None else 0
        token = await leases.acquire(table_id, floor=fence)
        if token is None:
            return False  # another node was quicker
        seats: list[int | None] = [None if u is None else int(u) for u in meta["seats"]]
        users = [u for u in seats if u is not None]
        taken: list[int] = []
        for user_id in users:
            if await matching.take_seat(user_id, table_id) is not None:  # he went on
                log.info("table %s is not picked up: a player sits elsewhere", table_id)
                await self._let_go(table_id, token, taken)
                return False
            taken.append(user_id)
        try:
            table = self._rebuilt(meta, seats)
            table.restore_between_hands(meta)
        except Exception:
            log.exception("cannot pick up table %s", table_id)
            await self._let_go(table_id, token, taken)
            return False
        table.fence = token
        leases.keep(table_id, token, self._lease_lost, self._seats_of(users))
        self._add(table)
        table.start()
        room = table.spec.room
        if table.spec.kind == "quick" and room is not None and table.game_id is None:
            self._watch_show_up(table, room)  # never dealt: its players must still come
        await self._republish(table)
        return True

    async def _republish(self, table: Table) -> None:
        """Publish what else the cluster must know of a picked-up table (invite codes:
        :class:`~erren.server.cluster.invites.InvitingLobby`)."""

    async def _adopt(self, game_id: int, table_id: str) -> bool:
        """Take the table's lease, claim the game with the token, then read it (so nothing an
        older owner wrote is missed, and nothing it writes later is accepted) and restore."""
        leases = self.cluster.leases
        fence = await self.store.fence_of(game_id) or 0
        token = await leases.acquire(table_id, floor=fence)
        if token is None:
            return False  # another node was quicker
        try:
            await self.store.claim_game(game_id, token)
            game = await self.store.get_game(game_id, reveal=True)
            if game is None or game.finished:
                await leases.release(table_id, token)
                return False
            table = self._restored(game)
            table.fence = token
            await table.resume()
        except Exception:
            log.exception("cannot restore game %s", game_id)
            await leases.release(table_id, token)
            return False
        users = [s.user_id for s in table.seats if s.user_id is not None]
        for user_id in users:  # his game goes on here, wherever he went meanwhile
            elsewhere = await self.cluster.matching.take_seat(user_id, table_id)
            if elsewhere is not None:
                log.warning("restored table %s: player %s is at %s", table_id, user_id, elsewhere)
            if self.held.get(user_id) == table_id:
                del self.held[user_id]
        leases.keep(table_id, token, self._lease_lost, self._seats_of(users))
        self._add(table)
        table.start()
        return True

    async def shutdown(self) -> None:
        if self._adopter is not None:
            self._adopter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._adopter
        for waiting in self.remote_waits.values():
            if not waiting.stop.done():
                waiting.stop.set_result(None)
        self.away.close()
        await super().shutdown()
        await self._finish_chores()
