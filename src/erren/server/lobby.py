"""The lobby: rooms, quick match, private tables by invite code, tables against the computer,
and the tables restored after a restart.

The :class:`Lobby` holds its parts: the :class:`~erren.server.lobbybase.Ground` (tables, one
seat per account: a player sits at one open table at a time), the
:class:`~erren.server.lobbybase.Node` (how this server holds its tables: alone, or as a cluster
node), a :class:`~erren.server.quickmatch.Matchmaker` and the families' desks (each
family's :class:`~erren.server.extension.LobbyDesk`: arcade's campaign).  Quick match
(:mod:`erren.server.quickmatch`) pairs a player with the oldest player waiting in the same room
whom he may meet, and never with a player who is gone: an away player keeps his place a few
seconds, paired with nobody, and a pairing whose players do not both come to the table is
dissolved.  A private table is score-only (§6.3: private tables play for points, not beans) and
is joined with its six-letter invite code.  A table against the computer puts a bot in seat 1
at once and is score-only too.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any, TypeVar

from erren.bots import Level, bot_names, parse_level
from erren.bots.levels import DEFAULT_LEVEL
from erren.engine import find_family
from erren.server.clock import Clock
from erren.server.extension import LobbyDesk, server_extensions
from erren.server.lobbybase import INVITE_ALPHABET, Ground, Node
from erren.server.lobbyerrors import (
    LobbyError,
    no_opponent,
    search_lost,
    seated_error,
    waiting_error,
)
from erren.server.quickmatch import Matchmaker, QueueRequeue, QuickMatch, QuickTables
from erren.server.table import (
    Seat,
    Table,
    TableConfig,
    TableKind,
    TableSpec,
    TableView,
    make_bot_seat,
    make_level_seat,
)

if TYPE_CHECKING:
    import asyncio

    from erren.server.cluster import Cluster
    from erren.server.cluster.node import ClusterNode
    from erren.server.journal import Journal
    from erren.server.metrics import Metrics
    from erren.server.pairing import Queues, Search
    from erren.server.store import Store, User

__all__ = [
    "Lobby",
    "LobbyError",
    "no_opponent",
    "search_lost",
    "seated_error",
    "waiting_error",
]

log = logging.getLogger("erren.server.lobby")

D = TypeVar("D", bound=LobbyDesk)

ACCOUNT_NEEDED = "bean rooms need a registered account; guests play practice tables"

_INVITE_ALPHABET = INVITE_ALPHABET
"""The letters of invite codes (kept under its old name)."""


class Lobby:
    """The lobby of a single server, or of a cluster node when ``cluster`` is given (its node
    is then a :class:`~erren.server.cluster.node.ClusterNode`, :attr:`cluster_node`)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        config: TableConfig,
        rng: random.Random | None = None,
        wall: Clock | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        ground = Ground(store, clock=clock, config=config, rng=rng, wall=wall)
        self.ground = ground
        self.cluster = cluster
        self.cluster_node: ClusterNode | None = None
        self.quick_tables: QuickTables
        self.quick: Matchmaker
        if cluster is None:
            self.quick_tables = QuickTables(ground, QueueRequeue(ground.queues))
            self.quick = QuickMatch(ground, self.quick_tables)
        else:  # only a cluster node imports redis
            from erren.server.cluster.node import ClusterNode  # noqa: PLC0415

            self.cluster_node = node = ClusterNode(ground, cluster)
            ground.node = node
            self.quick_tables, self.quick = node.quick_tables, node.quick
        ground.desks = tuple(extension.desk(ground) for extension in server_extensions())

    # ------------------------------------------------------------------ its state
    @property
    def node(self) -> Node:
        return self.ground.node

    @property
    def store(self) -> Store:
        return self.ground.store

    @property
    def config(self) -> TableConfig:
        return self.ground.config

    @property
    def journal(self) -> Journal:
        return self.ground.journal

    @property
    def tables(self) -> dict[str, Table]:
        return self.ground.tables

    @property
    def invites(self) -> dict[str, str]:
        return self.ground.invites

    @property
    def queues(self) -> Queues:
        return self.ground.queues

    @property
    def metrics(self) -> Metrics | None:
        return self.ground.metrics

    @metrics.setter
    def metrics(self, metrics: Metrics | None) -> None:
        self.ground.metrics = metrics

    @property
    def _chores(self) -> set[asyncio.Task[Any]]:
        return self.ground.chores

    def _closed(self, table: Table) -> None:
        """``table`` closed (its ``on_close``)."""
        self.ground.closed(table)

    def table_of(self, user_id: int) -> Table | None:
        return self.ground.table_of(user_id)

    # ------------------------------------------------------------------ quick match
    async def quick_match(
        self,
        user: User,
        room_id: str,
        wait_s: float,
        *,
        resume: bool = False,
        gone: asyncio.Future[None] | None = None,
    ) -> tuple[TableView, int]:
        """A seat at a quick-match table of the room (:mod:`erren.server.quickmatch`), never
        with an account blocked either way (his block list is read now)."""
        if not user.is_guest:
            await self.ground.blocks.load(user.id)
        return await self.quick.quick_match(user, room_id, wait_s, resume=resume, gone=gone)

    async def cancel_quick(self, user_id: int) -> bool:
        return await self.quick.cancel_quick(user_id)

    async def search_of(self, user_id: int) -> Search | None:
        return await self.quick.search_of(user_id)

    # ------------------------------------------------------------------ private tables
    async def private_table(
        self, user: User, family: str, options: dict[str, Any], room_id: str | None = None
    ) -> Table:
        """A private table joined by its invite code: score-only, or with ``room_id`` a bean
        table of that room (its stake, entry limits and escape rules; registered players only,
        each admitted by the room as in quick match)."""
        ground = self.ground
        room = None if room_id is None else ground.room(room_id)
        if room is not None:
            if user.is_guest:
                raise LobbyError(403, ACCOUNT_NEEDED, "account-needed")
            await ground.admit(user, room)
        with ground.reserve(user):
            if room is not None:
                family = room.family
                resolved = find_family(family, room.options).options_dict()
            else:
                resolved = ground.family(family, options)
            table_id = ground.new_id()
            code = await ground.node.new_invite(table_id)
            spec = TableSpec(table_id, TableKind.PRIVATE, family, resolved, room=room, invite=code)
            table = ground.make(spec, [Seat(user.id, user.name), Seat(None, "")])
            await ground.node.own(table)
            ground.add(table)
        table.start()
        return table

    async def invite_open(self, code: str) -> bool:
        """Whether the private table of ``code`` still waits for its guest (on a cluster
        node: another node's table while its code is claimed)."""
        return await self.ground.node.invite_open(code)

    async def join_invite(self, user: User, code: str) -> tuple[TableView, int]:
        """Seat ``user`` at the private table of ``code`` (on any node); at a bean table only
        a registered player the room admits, and never one with a block between him and the
        table's host."""
        return await self.ground.node.join_invite(user, code)

    async def vs_computer(
        self,
        user: User,
        family: str,
        options: dict[str, Any],
        bot: str | None = None,
        *,
        level: str | None = None,
    ) -> Table:
        """A table against the computer playing ``level`` (default 普通), or the bot named
        ``bot`` (not both)."""
        if bot is not None and level is not None:
            raise LobbyError(
                422,
                "choose the computer by its level or by a bot's name, not both",
                "level-and-bot",
            )
        chosen: Level | None = None
        if bot is None:
            try:
                chosen = parse_level(level) if level is not None else DEFAULT_LEVEL
            except ValueError as err:
                raise LobbyError(
                    404, str(err), "no-level", params={"level": str(level)[:40]}
                ) from None
        ground = self.ground
        with ground.reserve(user):
            if bot is not None and bot not in bot_names():
                raise LobbyError(
                    404,
                    f"no bot {bot!r}; known: {', '.join(bot_names())}",
                    "no-bot",
                    params={"bot": bot[:40]},
                )
            resolved = ground.family(family, options)
            seed = ground.rng.getrandbits(32) if ground.rng is not None else None
            kind = TableKind.COMPUTER
            if chosen is not None:
                spec = TableSpec(ground.new_id(), kind, family, resolved, level=chosen.value)
                computer = make_level_seat(chosen, seed)
            else:
                assert bot is not None
                spec = TableSpec(ground.new_id(), kind, family, resolved, bot=bot)
                computer = make_bot_seat(f"{bot} (computer)", bot, seed)
            table = ground.make(spec, [Seat(user.id, user.name), computer])
            await ground.node.own(table)
            ground.add(table)
        table.start()
        return table

    # ------------------------------------------------------------------ the families' desks
    def desk(self, kind: type[D]) -> D:
        """The lobby's desk of type ``kind`` (a family's: its routes find theirs by it)."""
        for desk in self.ground.desks:
            if isinstance(desk, kind):
                return desk
        raise LookupError(f"no {kind.__name__} in this lobby")

    # ------------------------------------------------------------------ start and stop
    async def restore(self) -> int:
        """Rebuild the unfinished tables (a cluster node: those nobody holds, and from then
        on those of nodes that die); returns how many."""
        return await self.ground.node.restore()

    async def shutdown(self) -> None:
        ground = self.ground
        await ground.node.shutdown()
        ground.queues.close()
        self.quick_tables.stop()
        for table in list(ground.tables.values()):
            await table.stop()
        await ground.finish_chores()
        await ground.journal.close()
        await ground.finish_chores()
