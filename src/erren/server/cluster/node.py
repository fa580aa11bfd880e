"""How a cluster node holds its tables: the :class:`~erren.server.lobbybase.Node` of a lobby
started with ``--redis``.

* every table it makes is owned through a lease (:mod:`.leases`) whose fencing token every
  write of the table's games carries, and its human players are seated cluster-wide
  (``seat:{user}``, :mod:`.matching`): an account sits at one table or waits in one queue in
  the whole cluster, and a second seat or wait, on any node, is refused with the single
  server's 409 ``seated``/``waiting``;
* a table waiting for a deal is recorded (:mod:`.idle`) so that another node can pick it up;
* its private tables' invite codes work on any node (:mod:`.invites`), and its quick match goes
  through the shared queues (:class:`~.lobby.SharedQuickMatch`);
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
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from erren.server.cluster.away import AwayPlayers
from erren.server.cluster.idle import IdleTables
from erren.server.cluster.invites import ClusterInvites
from erren.server.cluster.lobby import SharedQuickMatch, Waiting, place_error
from erren.server.lobbybase import Ground
from erren.server.lobbyerrors import LobbyError, waiting_error
from erren.server.quickmatch import QuickTables
from erren.server.table import CloseCode, Table, TableKind, TableView

if TYPE_CHECKING:
    from erren.server.cluster import Cluster
    from erren.server.cluster.relay import Relay
    from erren.server.store import User

__all__ = ["ClusterNode"]

log = logging.getLogger("erren.server.cluster")


def _kept_waiting(table: Table) -> bool:
    """Whether a table waiting for a deal is kept for another node to pick up: every table but
    a campaign's (its player goes back to the campaign screen after each hand)."""
    return table.spec.kind is not TableKind.CAMPAIGN


def _ended(task: asyncio.Task[None]) -> None:
    """The takeover loop ends only when the node stops; anything else is a bug, said loudly."""
    if not task.cancelled():
        log.error("the takeover loop ended: %r", task)


class ClusterNode:
    """One node of a cluster, as its lobby's :class:`~erren.server.lobbybase.Node`; it holds
    the node's quick match (:attr:`quick`, :attr:`quick_tables`) and invite codes
    (:attr:`invites`)."""

    def __init__(self, ground: Ground, cluster: Cluster) -> None:
        self.ground = ground
        self.cluster = cluster
        config = ground.config
        cluster.matching.repeat_ms = round(ground.clock.real(config.repeat_hold_s) * 1000)
        cluster.matching.now = ground.clock.now
        cluster.matching.grace_ms = round(config.queue_grace_s * 1000)  # wall seconds
        cluster.matching.rule = ground.queues.rule  # the pairing rule's window
        self.waits: dict[int, Waiting] = {}
        """The players of this node waiting in a shared queue."""
        self.lost: set[str] = set()
        """Tables whose lease this node lost: stopped, their seats left to the new owner."""
        self.away = AwayPlayers(
            cluster.matching, ground.wall, config.queue_grace_s, chore=ground.chore
        )
        """This node's away players in the shared queues."""
        self.idle = IdleTables(cluster.redis, cluster.prefix)
        """The tables of the cluster waiting for a deal (:mod:`~.idle`)."""
        self.invites = ClusterInvites(ground, self)
        self.quick_tables = QuickTables(ground, self.away)
        self.quick = SharedQuickMatch(
            ground,
            cluster,
            self.quick_tables,
            away=self.away,
            waits=self.waits,
            unavailable=self.unavailable,
        )
        self._adopter: asyncio.Task[None] | None = None

    @property
    def relay(self) -> Relay | None:
        """How this node asks the others (set once the relay runs)."""
        return self.invites.relay

    @relay.setter
    def relay(self, relay: Relay | None) -> None:
        self.invites.relay = relay

    async def answer(self, question: dict[str, Any]) -> dict[str, Any]:
        """Another node's question (:attr:`Relay.answering`)."""
        return await self.invites.answer(question)

    def unavailable(self, what: str, err: RedisError) -> LobbyError:
        """Redis failed a matchmaking call: counted (``erren_redis_errors_total``), and the
        player answered 503 ``cluster-unavailable``."""
        log.warning("%s failed on Redis: %s", what, err)
        if self.ground.metrics is not None:
            self.ground.metrics.redis_error()
        return LobbyError(
            503,
            "matchmaking is unavailable right now (the cluster's Redis does not answer); "
            "try again later",
            "cluster-unavailable",
        )

    # ------------------------------------------------------------------ the lobby's node
    def check_free(self, user: User) -> None:
        """This node's own waits (the cluster's are refused by Redis, atomically, when the
        seat or the wait is taken: :mod:`.matching`)."""
        waiting = self.waits.get(user.id)
        if waiting is not None:
            raise waiting_error(waiting.room)

    async def new_invite(self, table_id: str) -> str:
        return await self.invites.claim(table_id)

    async def join_invite(self, user: User, code: str) -> tuple[TableView, int]:
        return await self.invites.join_invite(user, code)

    async def invite_open(self, code: str) -> bool:
        return await self.invites.is_open(code)

    async def own(self, table: Table) -> None:
        """Take the table's lease and seat its players cluster-wide; a private table whose
        owning is refused (its player is seated or waits elsewhere) gives its invite code
        back at once."""
        try:
            try:
                await self._take(table)
            except RedisError as err:  # no new table while Redis does not answer
                raise self.unavailable("opening a table", err) from None
        except LobbyError:
            if table.spec.invite is not None:
                await self.invites.withdraw(table.spec.invite, table.spec.id)
            raise
        await self.now_idle(table)  # no hand yet: another node can pick it up

    def made(self, table: Table) -> None:
        if _kept_waiting(table):
            table.on_idle = self.now_idle

    async def now_idle(self, table: Table) -> None:
        """The table waits for a deal: its description goes to :attr:`idle` (a Redis error is
        logged: the table plays on, only not picked up if this node dies meanwhile)."""
        if not _kept_waiting(table):
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
        leases.keep(table_id, token, self.lease_lost, self.seats_of(users))

    def seats_of(self, users: list[int]) -> tuple[list[str], int]:
        """The keys of ``users``' cluster-wide seats, renewed with a table's lease."""
        matching = self.cluster.matching
        return [matching.seat_key(u) for u in users], matching.seat_ms

    def lease_lost(self, table_id: str) -> None:
        table = self.ground.tables.get(table_id)
        if table is None:
            return
        self.lost.add(table_id)
        if not table.running and _kept_waiting(table):  # a Redis restart forgot it
            self.ground.chore(self._put_back(table))
        table.kept = True  # its game is the new owner's: nothing more is written here
        self.ground.chore(table.stop())
        table.close(CloseCode.MOVED, "this table is played on another server now; reconnect")

    def closed(self, table: Table) -> None:
        table_id = table.spec.id
        users = [s.user_id for s in table.seats if s.user_id is not None]
        code = table.spec.invite
        if table_id in self.lost:
            self.lost.discard(table_id)
            for user_id in users:  # the game goes on elsewhere: not held here
                if self.ground.held.get(user_id) == table_id:
                    del self.ground.held[user_id]
        else:
            token = self.cluster.leases.held.get(table_id)
            if token is not None:  # a kept game's seats stay: the node restoring it needs them
                self.ground.chore(self.let_go(table_id, token, [] if table.kept else users))
        if code is not None:
            self.ground.chore(self.invites.withdraw(code, table_id))

    async def _put_back(self, table: Table) -> None:
        try:
            if await self.idle.put_back(table.spec.id, table.idle_meta()):
                log.warning("table %s is waiting to be picked up again", table.spec.id)
        except RedisError as err:
            log.warning("cannot record table %s as waiting: %s", table.spec.id, err)

    async def let_go(self, table_id: str, token: int, users: list[int]) -> None:
        await self.idle.drop(table_id)  # before the lease: nobody may pick the table up
        await self.cluster.matching.free_seats(table_id, users)
        await self.cluster.leases.release(table_id, token)

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
                if isinstance(err, RedisError) and self.ground.metrics is not None:
                    self.ground.metrics.redis_error()
                continue
            if adopted:
                log.warning("took over %d table(s) nobody held", adopted)

    async def adopt(self) -> int:
        """Restore every unfinished game whose table no node holds, and every table waiting
        for a deal (:attr:`idle`) that no node holds; returns how many tables."""
        tables = self.ground.tables
        unfinished = await self.ground.store.games.unfinished_tables()
        listed = [(g, t) for g, t in unfinished if t not in tables]
        free = await self.cluster.leases.free([t for _, t in listed])
        count = 0
        for game_id, table_id in listed:
            if table_id in free and await self._adopt(game_id, table_id):
                count += 1
        playing = {t for _, t in unfinished}
        waiting = {
            t: meta
            for t, meta in (await self.idle.entries()).items()
            if t not in tables and t not in playing
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
        fence = (await self.ground.store.games.fence_of(int(last)) or 0) if last is not None else 0
        token = await leases.acquire(table_id, floor=fence)
        if token is None:
            return False  # another node was quicker
        seats: list[int | None] = [None if u is None else int(u) for u in meta["seats"]]
        users = [u for u in seats if u is not None]
        taken: list[int] = []
        for user_id in users:
            if await matching.take_seat(user_id, table_id) is not None:  # he went on
                log.info("table %s is not picked up: a player sits elsewhere", table_id)
                await self.let_go(table_id, token, taken)
                return False
            taken.append(user_id)
        try:
            table = self.ground.rebuilt(meta, seats)
            table.restore_between_hands(meta)
        except Exception:
            log.exception("cannot pick up table %s", table_id)
            await self.let_go(table_id, token, taken)
            return False
        table.fence = token
        leases.keep(table_id, token, self.lease_lost, self.seats_of(users))
        self.ground.add(table)
        table.start()
        room = table.spec.room
        if table.spec.kind is TableKind.QUICK and room is not None and table.game_id is None:
            self.quick_tables.watch(table, room)  # never dealt: its players must still come
        await self.invites.republish(table)
        return True

    async def _adopt(self, game_id: int, table_id: str) -> bool:
        """Take the table's lease, claim the game with the token, then read it (so nothing an
        older owner wrote is missed, and nothing it writes later is accepted) and restore."""
        leases, store = self.cluster.leases, self.ground.store
        fence = await store.games.fence_of(game_id) or 0
        token = await leases.acquire(table_id, floor=fence)
        if token is None:
            return False  # another node was quicker
        try:
            await store.games.claim(game_id, token)
            game = await store.games.get(game_id, reveal=True)
            if game is None or game.finished:
                await leases.release(table_id, token)
                return False
            table = self.ground.restored(game)
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
            if self.ground.held.get(user_id) == table_id:
                del self.ground.held[user_id]
        leases.keep(table_id, token, self.lease_lost, self.seats_of(users))
        self.ground.add(table)
        table.start()
        return True

    async def shutdown(self) -> None:
        if self._adopter is not None:
            self._adopter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._adopter
        for waiting in self.waits.values():
            if not waiting.stop.done():
                waiting.stop.set_result(None)
        self.away.close()
