"""The lobby's ground: its state, and what every kind of table needs — one seat
per account, tables made, added and closed, the rooms' entry limits.  The :class:`Ground` is
held, not inherited, by the lobby's parts (quick match, the families' desks, the
:class:`~erren.server.lobby.Lobby` itself), and it holds the :class:`Node`: how this server
holds its tables — :class:`Alone`, or as one node of a cluster
(:class:`erren.server.cluster.node.ClusterNode`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import string
from collections.abc import Callable, Coroutine, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from erren.bots import Level
from erren.engine import family_names, find_family
from erren.server.clock import Clock
from erren.server.friends import StoreBlocks
from erren.server.journal import Journal
from erren.server.lobbyerrors import LobbyError, seated_error, waiting_error
from erren.server.matchrule import Skills, StoreSkills, Window
from erren.server.pairing import Queues, RecentPairs
from erren.server.rooms import RoomTier, find_room_tier
from erren.server.table import (
    Seat,
    Table,
    TableConfig,
    TableKind,
    TableRules,
    TableSpec,
    TableView,
    make_bot_seat,
    make_level_seat,
)

if TYPE_CHECKING:
    from erren.server.extension import LobbyDesk
    from erren.server.metrics import Metrics
    from erren.server.store import Store, User

__all__ = ["INVITE_ALPHABET", "Alone", "Ground", "Node"]

log = logging.getLogger("erren.server.lobby")

INVITE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO") + "23456789"


class Node(Protocol):
    """How this server holds its tables: :class:`Alone` (it owns every table it makes), or as
    one node of a cluster (:class:`erren.server.cluster.node.ClusterNode`: leases, one seat per
    account cluster-wide, invite codes any node can use, the takeover of a dead node's
    tables)."""

    def check_free(self, user: User) -> None:
        """Refuse a seat request of ``user`` that the node knows is held elsewhere."""
        ...

    async def new_invite(self, table_id: str) -> str:
        """The invite code of the new private table ``table_id``."""
        ...

    async def own(self, table: Table) -> None:
        """Make this server the owner of ``table`` before it starts (a refused owning raises
        :class:`LobbyError`)."""
        ...

    def made(self, table: Table) -> None:
        """``table`` was just made (not yet owned or started)."""
        ...

    def closed(self, table: Table) -> None:
        """``table`` closed (after the ground forgot it)."""
        ...

    async def join_invite(self, user: User, code: str) -> tuple[TableView, int]:
        """Seat ``user`` at the private table of ``code``."""
        ...

    async def invite_open(self, code: str) -> bool:
        """Whether the private table of ``code`` is open with a free seat, as far as this
        node can tell (another node's table: its code is still claimed)."""
        ...

    async def restore(self) -> int:
        """Rebuild the unfinished tables at startup; how many."""
        ...

    async def shutdown(self) -> None: ...


class Ground:
    """The lobby's state and the helpers every kind of table uses: one seat per account
    (:meth:`reserve`), making, adding and closing tables, the rooms' entry limits.
    ``wall``: the clock of the quick-match presence timers (real seconds unless a test
    injects its own: :mod:`erren.server.quickmatch`).  :attr:`node` is set by the lobby."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        config: TableConfig,
        rng: random.Random | None = None,
        wall: Clock | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.config = config
        self.rng = rng
        self.journal = Journal(store, window=config.commit_window_s)
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, str] = {}
        self.by_user: dict[int, str] = {}
        self.wall = wall or Clock()
        """Real time, for the presence timers of quick match (an away player's grace, the
        show-up of a new pairing): not scaled, since a reload takes what it takes."""
        self.queues = Queues(
            RecentPairs(clock, config.repeat_hold_s), wall=self.wall, grace_s=config.queue_grace_s
        )
        """The quick-match queues of the rooms, the pairing rule (with its block list) and
        the rule against repeat pairings."""
        self.skills: Skills = StoreSkills(store)
        """Where quick match reads a player's skill (his rating's ``mu`` in the family)."""
        self.pending: set[int] = set()
        """Accounts with a seat request in progress (between the check and the seat): one
        account holds at most one seat anywhere, so a second request waits for nothing and is
        refused at once."""
        self.held: dict[int, str] = {}
        """Accounts whose unfinished game's table failed: not freed into new tables until the
        game is restored (after a restart) or called off."""
        self.desks: tuple[LobbyDesk, ...] = ()
        """The families' desks (:mod:`erren.server.extension`), set by the lobby: a restored
        table of a family's own kind gets its rules from them (:meth:`rebuilt`)."""
        self.metrics: Metrics | None = None
        """The app's metrics (each new table counts its actions and hands there)."""
        self.chores: set[asyncio.Task[Any]] = set()
        self.node: Node = Alone(self)
        self.blocks = StoreBlocks(store)
        """Quick match's block list (the pairing rule's :class:`~.matchrule.Blocks`)."""
        window = Window(longest_s=config.match_any_after_s)
        self.queues.rule = replace(self.queues.rule, window=window, blocks=self.blocks)
        self.on_moved: Callable[[Iterable[int]], None] | None = None
        """Told the accounts that took or left a seat here (their friends see it)."""

    def moved(self, user_ids: Iterable[int | None]) -> None:
        """These accounts took or left a seat here (presence: :mod:`erren.server.friends`)."""
        if self.on_moved is not None:
            self.on_moved([u for u in user_ids if u is not None])

    # ------------------------------------------------------------------ helpers
    def new_id(self) -> str:
        if self.rng is not None:
            return f"t{self.rng.getrandbits(48):012x}"
        return "t" + secrets.token_hex(6)

    def invite_waits(self, code: str) -> bool | None:
        """Whether this lobby's private table of ``code`` waits for its guest (``False``: it
        is full or closed; ``None``: no table here has that code)."""
        table = self.tables.get(self.invites.get(code.strip().upper(), ""))
        if table is None:
            return None
        return not (table.closed or table.full or table.seats[1].user_id is not None)

    def draw_invite(self) -> str:
        """A six-letter code no table of this lobby has."""
        while True:
            if self.rng is not None:
                code = "".join(self.rng.choice(INVITE_ALPHABET) for _ in range(6))
            else:
                code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(6))
            if code not in self.invites:
                return code

    def chore(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background (awaited at :meth:`finish_chores`)."""
        task = asyncio.get_running_loop().create_task(work)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def finish_chores(self) -> None:
        for task in list(self.chores):
            await asyncio.gather(task, return_exceptions=True)

    def block_changed(self, a: int, b: int, *, on: bool) -> None:
        """A block between ``a`` and ``b`` was made (``on``) or lifted: quick match's blocks
        here, and the chat of the table of this node that seats both, hear it."""
        self.blocks.changed(a, b, blocked=on)
        table = self.table_of(a)
        if table is not None and table is self.table_of(b):
            table.chatter.blocked(a, b, on=on)

    def blocks_unsure(self) -> None:
        """Blocks may have changed unheard: every table reads its own again at its next
        chat message."""
        for table in self.tables.values():
            table.chatter.unsure()

    def table_of(self, user_id: int) -> Table | None:
        table_id = self.by_user.get(user_id)
        table = self.tables.get(table_id) if table_id else None
        if table is None or table.closed:
            return None
        return table

    def check_free(self, user: User) -> None:
        table = self.table_of(user.id)
        if table is not None:
            raise seated_error(table.spec.id)
        if user.id in self.held:
            raise LobbyError(
                409,
                f"your unfinished game at table {self.held[user.id]} is kept until it is "
                "restored or called off",
                "game-kept",
                self.held[user.id],
            )
        if user.id in self.pending:
            raise LobbyError(409, "another request of yours is being seated", "seat-pending")
        room = self.queues.waiting_in(user.id)
        if room is not None and not self.queues.yield_away(user.id):  # an away wait yields
            raise waiting_error(room)
        self.node.check_free(user)

    @contextlib.contextmanager
    def reserve(self, user: User) -> Iterator[None]:
        """Hold the account's one seat while a request is served: the check and the
        reservation happen with no ``await`` between them, so two concurrent requests of one
        account (any rooms, any kind of table) can never both be seated."""
        self.check_free(user)
        self.pending.add(user.id)
        try:
            yield
        finally:
            self.pending.discard(user.id)

    # ------------------------------------------------------------------ tables
    def make(self, spec: TableSpec, seats: list[Seat], rules: TableRules | None = None) -> Table:
        """A new table (not yet owned, added or started)."""
        table = Table(
            spec,
            seats,
            self.store,
            clock=self.clock,
            config=self.config,
            rng=self.rng,
            on_close=self.closed,
            journal=self.journal,
            rules=rules,
        )
        if self.metrics is not None:
            table.meter = self.metrics.family(spec.family)
        self.node.made(table)
        return table

    async def open(self, table: Table) -> Table:
        """Own ``table``, add it and start it."""
        await self.node.own(table)
        self.add(table)
        table.start()
        return table

    def add(self, table: Table) -> Table:
        self.tables[table.spec.id] = table
        spec = table.spec
        log.info(
            "table opened: %s, %s",
            spec.kind,
            spec.family,
            extra={"table": spec.id, "game": table.game_id},
        )
        for seat in table.seats:
            if seat.user_id is not None:
                self.by_user[seat.user_id] = table.spec.id
        if table.spec.invite:
            self.invites[table.spec.invite] = table.spec.id
        self.moved(seat.user_id for seat in table.seats)
        return table

    def closed(self, table: Table) -> None:
        log.info(
            "table closed: %s",
            table.close_code,
            extra={"table": table.spec.id, "game": table.game_id},
        )
        if table.kept:  # its unfinished game waits in the store for the next start
            for seat in table.seats:
                if seat.user_id is not None:
                    self.held[seat.user_id] = table.spec.id
        self.tables.pop(table.spec.id, None)
        if table.spec.invite:
            self.invites.pop(table.spec.invite, None)
        for seat in table.seats:
            if seat.user_id is not None and self.by_user.get(seat.user_id) == table.spec.id:
                del self.by_user[seat.user_id]
        self.moved([*(seat.user_id for seat in table.seats), *table.watchers.sent_off])
        self.node.closed(table)

    def rebuilt(self, meta: dict[str, Any], users: list[int | None]) -> Table:
        """The table a stored game's ``meta`` describes, with ``users`` in its seats (nothing
        played yet: :meth:`Table.restore` or :meth:`Table.restore_between_hands` next)."""
        info = meta["table"]
        room = find_room_tier(info["room"]) if info.get("room") else None
        spec = TableSpec(
            info["id"],
            TableKind(info["kind"]),
            info["family"],
            dict(info["options"]),
            room=room,
            invite=info.get("invite"),
            bot=info.get("bot"),
            level=info.get("level"),
        )
        names = meta.get("names", ["", ""])
        bots = meta.get("bots", [None, None])
        levels = meta.get("levels", [None, None])
        seats: list[Seat] = []
        for i, user_id in enumerate(users):
            if levels[i]:
                seats.append(make_level_seat(Level(levels[i]), None))
            elif bots[i]:
                seats.append(make_bot_seat(names[i], bots[i], None))
            else:
                seats.append(Seat(user_id, names[i]))
        rules = next(
            (r for d in self.desks if (r := d.restored_rules(spec, users)) is not None), None
        )
        return self.make(spec, seats, rules)

    def restored(self, game: Any) -> Table:
        """The table of the unfinished stored ``game``, its hand replayed."""
        meta: dict[str, Any] = dict(game.options)
        table = self.rebuilt(meta, list(game.seats))
        table.restore(game.id, meta, int(game.seed), str(game.salt), list(game.actions))
        return table

    # ------------------------------------------------------------------ requests
    @staticmethod
    def family(family: str, options: dict[str, Any]) -> dict[str, Any]:
        if family not in family_names():
            raise LobbyError(
                404,
                f"no family {family!r}; known: {', '.join(family_names())}",
                "no-family",
                params={"family": family[:40]},
            )
        try:
            return find_family(family, options).options_dict()
        except (ValueError, TypeError) as err:
            raise LobbyError(
                422, f"bad options for {family}: {err}", "bad-options", params={"family": family}
            ) from None

    @staticmethod
    def room(room_id: str) -> RoomTier:
        try:
            return find_room_tier(room_id)
        except KeyError as err:
            raise LobbyError(
                404, str(err.args[0]), "no-room", params={"room": room_id[:40]}
            ) from None

    async def check_invited(self, table: Table, user_id: int) -> None:
        """Refuse a player the private ``table`` may not seat: at a bean table a guest (403
        ``account-needed``) or a balance outside the room's limits; at any, a player with a
        block between him and the table's host (403 ``friend-blocked``)."""
        room = table.spec.room
        if room is not None:
            user = await self.store.accounts.user(user_id)
            if user is None or user.is_guest:
                raise LobbyError(
                    403,
                    "bean rooms need a registered account; guests play practice tables",
                    "account-needed",
                )
            await self.admit(user, room)
        host = table.seats[0].user_id
        if host is not None and await self.store.social.is_blocked(host, user_id):
            raise LobbyError(403, "you cannot join this player's table", "friend-blocked")

    async def admit(self, user: User, room: RoomTier) -> None:
        """Refuse a balance the room does not admit (§6.4)."""
        balance = await self.store.ledger.balance(user.id)
        if not room.admits(balance):
            raise LobbyError(
                403,
                f"{room.tier.name} admits balances of {room.tier.entry_min}–"
                f"{room.tier.entry_max} beans; you have {balance}",
                "below-entry" if balance < room.tier.entry_min else "above-entry",
                params={
                    "room": room.id,
                    "balance": balance,
                    "entry_min": room.tier.entry_min,
                    "entry_max": room.tier.entry_max,
                },
            )


class Alone:
    """A single server: it owns every table it makes, its invite codes are its own, and it
    restores every unfinished game of the store at startup."""

    def __init__(self, ground: Ground) -> None:
        self.ground = ground

    def check_free(self, user: User) -> None:
        return

    async def new_invite(self, table_id: str) -> str:
        return self.ground.draw_invite()

    async def own(self, table: Table) -> None:
        return

    def made(self, table: Table) -> None:
        return

    def closed(self, table: Table) -> None:
        return

    async def invite_open(self, code: str) -> bool:
        return self.ground.invite_waits(code) is True

    async def join_invite(self, user: User, code: str) -> tuple[TableView, int]:
        ground = self.ground
        table_id = ground.invites.get(code.strip().upper())
        table = ground.tables.get(table_id) if table_id else None
        if table is None or table.closed:
            raise LobbyError(404, f"no open table has the invite code {code!r}", "no-invite")
        seat = table.seat_of(user.id)
        if seat is not None:
            return table, seat
        await ground.check_invited(table, user.id)
        with ground.reserve(user):
            if table.closed or table.seats[1].user_id is not None or table.full:
                raise LobbyError(409, "that table is full", "table-full")
            table.seats[1].user_id = user.id  # reserve now; the actor announces it
            table.submit_sit(1, user.id, user.name)
            ground.by_user[user.id] = table.spec.id
        ground.moved([user.id])
        return table, 1

    async def restore(self) -> int:
        """Rebuild every unfinished table from the store; returns how many."""
        ground = self.ground
        count = 0
        for game in await ground.store.games.unfinished():
            try:
                table = ground.restored(game)
                await table.resume()
            except Exception:
                log.exception("cannot restore game %s", getattr(game, "id", "?"))
                continue
            ground.add(table)
            table.start()
            count += 1
        return count

    async def shutdown(self) -> None:
        return
