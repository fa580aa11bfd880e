"""The lobby: rooms, quick match, private tables by invite code, tables against the computer,
and the tables restored after a restart.

A player sits at one open table at a time.  Quick match pairs a player with the oldest player
waiting in the same room (family and tier) whose balance the room admits (§6.4), but not with an
opponent it paired him with within the last two minutes (:mod:`erren.server.pairing`); the
request waits until an opponent comes or ``wait_s`` passes.  A private table is score-only
(§6.3: private tables play for points, not beans) and is joined with its six-letter invite code.
A table against the computer puts a bot in seat 1 at once and is score-only too.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import string
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from erren.bots import Level, bot_names, parse_level
from erren.bots.levels import DEFAULT_LEVEL
from erren.campaign import HUMAN, Run, StakeError, Status, stage_level
from erren.campaign import table as ctable
from erren.engine import find_ruleset, ruleset_names
from erren.server.campaign import Campaigns, CampaignTable, campaign_json
from erren.server.clock import Clock
from erren.server.journal import Journal
from erren.server.pairing import Queues, RecentPairs, Waiter
from erren.server.rooms import RoomTier, find_room_tier
from erren.server.table import (
    Seat,
    Table,
    TableBase,
    TableConfig,
    TableSpec,
    TableView,
    make_bot_seat,
    make_level_seat,
    quick_spec,
)

if TYPE_CHECKING:
    from erren.server.metrics import Metrics
    from erren.server.store import Store, User

__all__ = ["Lobby", "LobbyError", "no_opponent", "seated_error", "waiting_error"]

log = logging.getLogger("erren.server.lobby")

_INVITE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO") + "23456789"


class LobbyError(Exception):
    """A lobby request that cannot be served: ``status`` is the HTTP status to answer with,
    ``code`` a stable name of the problem, ``table`` the table concerned (if any), ``params``
    what the client needs to say it in the player's language (docs/protocol.md, "Codes")."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str,
        table: str | None = None,
        *,
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.table = table
        self.params: dict[str, str | int] = params or {}


def seated_error(table: str) -> LobbyError:
    """409 ``seated``: the account already sits at ``table`` (one seat per account)."""
    return LobbyError(409, f"you are already seated at table {table}", "seated", table)


def no_opponent(wait_s: float) -> LobbyError:
    """408 ``no-opponent``: nobody was paired with the player within ``wait_s`` seconds."""
    return LobbyError(
        408,
        f"no opponent came within {wait_s:g} s; try again",
        "no-opponent",
        params={"seconds": round(wait_s)},
    )


def waiting_error(room: str) -> LobbyError:
    """409 ``waiting``: the account already waits for a quick match in ``room``."""
    return LobbyError(409, f"you are already waiting for a quick match in {room}", "waiting")


class Lobby:
    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        config: TableConfig,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.config = config
        self.rng = rng
        self.journal = Journal(store, window=config.commit_window_s)
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, str] = {}
        self.by_user: dict[int, str] = {}
        self.queues = Queues(RecentPairs(clock, config.repeat_hold_s))
        """The quick-match queues of the rooms, and the rule against repeat pairings."""
        self.pending: set[int] = set()
        """Accounts with a seat request in progress (between the check and the seat): one
        account holds at most one seat anywhere, so a second request waits for nothing and is
        refused at once."""
        self.held: dict[int, str] = {}
        """Accounts whose unfinished game's table failed: not freed into new tables until the
        game is restored (after a restart) or called off."""
        self.campaigns = Campaigns(store)
        self.metrics: Metrics | None = None
        """The app's metrics (each new table counts its actions and hands there)."""

    # ------------------------------------------------------------------ helpers
    def _new_id(self) -> str:
        if self.rng is not None:
            return f"t{self.rng.getrandbits(48):012x}"
        return "t" + secrets.token_hex(6)

    def _invite(self) -> str:
        while True:
            if self.rng is not None:
                code = "".join(self.rng.choice(_INVITE_ALPHABET) for _ in range(6))
            else:
                code = "".join(secrets.choice(_INVITE_ALPHABET) for _ in range(6))
            if code not in self.invites:
                return code

    async def _new_invite(self, table_id: str) -> str:
        """The invite code of the new private table ``table_id``: unique among this lobby's
        tables (a cluster node's lobby makes it unique in the whole cluster)."""
        return self._invite()

    def table_of(self, user_id: int) -> Table | None:
        table_id = self.by_user.get(user_id)
        table = self.tables.get(table_id) if table_id else None
        if table is None or table.closed:
            return None
        return table

    def _check_free(self, user: User) -> None:
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
        if room is not None:
            raise waiting_error(room)

    @contextlib.contextmanager
    def _reserve(self, user: User) -> Iterator[None]:
        """Hold the account's one seat while a request is served: the check and the
        reservation happen with no ``await`` between them, so two concurrent requests of one
        account (any rooms, any kind of table) can never both be seated."""
        self._check_free(user)
        self.pending.add(user.id)
        try:
            yield
        finally:
            self.pending.discard(user.id)

    def _add(self, table: Table) -> Table:
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
        return table

    def _closed(self, table: TableBase) -> None:
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

    def _table(self, spec: TableSpec, seats: list[Seat], cls: type[Table] = Table) -> Table:
        table = cls(
            spec,
            seats,
            self.store,
            clock=self.clock,
            config=self.config,
            rng=self.rng,
            on_close=self._closed,
            journal=self.journal,
        )
        if self.metrics is not None:
            table.meter = self.metrics.family(spec.family)
        return table

    @staticmethod
    def _family(family: str, options: dict[str, Any]) -> dict[str, Any]:
        if family not in ruleset_names():
            raise LobbyError(
                404,
                f"no family {family!r}; known: {', '.join(ruleset_names())}",
                "no-family",
                params={"family": family[:40]},
            )
        try:
            return find_ruleset(family, options).options_dict()
        except (ValueError, TypeError) as err:
            raise LobbyError(
                422, f"bad options for {family}: {err}", "bad-options", params={"family": family}
            ) from None

    # ------------------------------------------------------------------ requests
    async def _own(self, table: Table) -> None:
        """Make this server the table's owner before it starts (a cluster node takes its lease
        and seats its players cluster-wide: :class:`erren.server.cluster.lobby.ClusterLobby`);
        a single server owns every table it makes."""

    @staticmethod
    def _room(room_id: str) -> RoomTier:
        try:
            return find_room_tier(room_id)
        except KeyError as err:
            raise LobbyError(
                404, str(err.args[0]), "no-room", params={"room": room_id[:40]}
            ) from None

    async def _admit(self, user: User, room: RoomTier) -> None:
        """Refuse a balance the room does not admit (§6.4)."""
        balance = await self.store.balance(user.id)
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

    async def quick_match(self, user: User, room_id: str, wait_s: float) -> tuple[TableView, int]:
        room = self._room(room_id)
        with self._reserve(user):
            await self._admit(user, room)
            other = self.queues.partner(room.id, user.id)
            if other is not None:
                return await self._pair(room, other, user), 1
            waiter = self.queues.add(room.id, user.id, user.name)  # it holds the seat from here

        async def rematch(waiter: Waiter) -> Table | None:
            """The hold with a recent opponent waiting ended: pair him now, if he still waits
            (the waiter leaves the queue and holds his seat as a request again)."""
            other = self.queues.partner(room.id, user.id)
            if other is None:
                return None
            self.queues.drop(room.id, waiter)
            waiter.future.cancel()
            self.pending.add(user.id)
            try:
                return await self._pair(room, other, user)
            finally:
                self.pending.discard(user.id)

        try:
            return await self.queues.wait(room.id, waiter, wait_s, rematch)
        except TimeoutError:
            raise no_opponent(wait_s) from None

    async def _pair(self, room: RoomTier, other: Waiter, user: User) -> Table:
        """Seat ``other`` (who waited: seat 0) and ``user`` at a new table of ``room``."""
        self.queues.recent.paired(other.user_id, user.id)
        table = await self._quick_table(room, other.user_id, other.name, user)
        other.future.set_result((table, 0))
        return table

    async def cancel_quick(self, user_id: int) -> bool:
        """Take the user out of every quick-match queue: his waiting request answers 409
        ``cancelled`` and no opponent is paired with him.  ``False`` if he was not waiting
        (a cluster node answers 409 ``seated`` instead when a pairing came first)."""
        return self.queues.cancel(
            user_id, LobbyError(409, "the quick match was cancelled", "cancelled")
        )

    async def _quick_table(
        self, room: RoomTier, first_id: int, first_name: str, user: User, table_id: str = ""
    ) -> Table:
        """The table of a quick match: the player who waited (``first_*``) in seat 0."""
        spec = quick_spec(table_id or self._new_id(), room)
        seats = [Seat(first_id, first_name), Seat(user.id, user.name)]
        table = self._table(spec, seats)
        await self._own(table)
        self._add(table)
        table.start()
        return table

    async def private_table(self, user: User, family: str, options: dict[str, Any]) -> Table:
        with self._reserve(user):
            resolved = self._family(family, options)
            table_id = self._new_id()
            code = await self._new_invite(table_id)
            spec = TableSpec(table_id, "private", family, resolved, invite=code)
            table = self._table(spec, [Seat(user.id, user.name), Seat(None, "")])
            await self._own(table)
            self._add(table)
        table.start()
        return table

    async def join_invite(self, user: User, code: str) -> tuple[TableView, int]:
        table_id = self.invites.get(code.strip().upper())
        table = self.tables.get(table_id) if table_id else None
        if table is None or table.closed:
            raise LobbyError(404, f"no open table has the invite code {code!r}", "no-invite")
        seat = table.seat_of(user.id)
        if seat is not None:
            return table, seat
        with self._reserve(user):
            if table.seats[1].user_id is not None or table.full:
                raise LobbyError(409, "that table is full", "table-full")
            table.seats[1].user_id = user.id  # reserve now; the actor announces it
            table.submit_sit(1, user.id, user.name)
            self.by_user[user.id] = table.spec.id
        return table, 1

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
        with self._reserve(user):
            if bot is not None and bot not in bot_names():
                raise LobbyError(
                    404,
                    f"no bot {bot!r}; known: {', '.join(bot_names())}",
                    "no-bot",
                    params={"bot": bot[:40]},
                )
            resolved = self._family(family, options)
            seed = self.rng.getrandbits(32) if self.rng is not None else None
            if chosen is not None:
                spec = TableSpec(
                    self._new_id(), "computer", family, resolved, bot=None, level=chosen.value
                )
                computer = make_level_seat(chosen, seed)
            else:
                assert bot is not None
                spec = TableSpec(self._new_id(), "computer", family, resolved, bot=bot)
                computer = make_bot_seat(f"{bot} (computer)", bot, seed)
            seats = [Seat(user.id, user.name), computer]
            table = self._table(spec, seats)
            await self._own(table)
            self._add(table)
        table.start()
        return table

    # ------------------------------------------------------------------ the arcade campaign
    def campaign_table(self, user_id: int) -> CampaignTable | None:
        table = self.table_of(user_id)
        return table if isinstance(table, CampaignTable) else None

    async def campaign(self, user: User) -> dict[str, Any] | None:
        """The user's campaign as the client shows it (``None``: no run).  A hand in play
        whose table is gone (it cannot be replayed) is called off: its stake goes back."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is None:
                return None
            run, last = loaded
            table = self.campaign_table(user.id)
            if run.status is Status.IN_HAND and table is None:
                run.void_hand("its table was lost")
                await self.campaigns.save(user.id, run, last)
            return campaign_json(run, last, None if table is None else table.spec.id)

    async def campaign_start(self, user: User) -> dict[str, Any]:
        """A new run (409 while one is unfinished: continue or abandon it)."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is not None and not loaded[0].over:
                raise LobbyError(
                    409,
                    "a campaign is unfinished: continue it or abandon it",
                    "campaign-unfinished",
                )
            seed = self.rng.getrandbits(63) if self.rng is not None else secrets.randbits(63)
            run = Run.new(seed)
            await self.campaigns.save(user.id, run, None)
            return campaign_json(run, None, None)

    async def campaign_hand(self, user: User, multiplier: int) -> tuple[Table, dict[str, Any]]:
        """Take the stake and deal the run's next hand at the user's campaign table."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is None:
                raise LobbyError(404, "no campaign: start one", "no-campaign")
            run, last = loaded
            table = self.campaign_table(user.id)
            if table is not None and table.running:
                raise LobbyError(409, "a hand is being played", "hand-running")
            if run.status is not Status.READY:
                raise LobbyError(
                    409,
                    f"no hand can start: the run is {run.status.value}",
                    "campaign-over",
                    params={"status": run.status.value},
                )
            with self._reserve(user) if table is None else contextlib.nullcontext():
                try:
                    start = run.start_hand(multiplier)
                except StakeError as err:
                    raise LobbyError(422, str(err), "bad-stake") from None
                new = table is None  # the seat before the stake: a refused seat takes none
                if table is None:
                    table = await self._new_campaign_table(user, start.features)
                try:
                    await self.campaigns.save(user.id, run, last)
                except BaseException:
                    if new:
                        table.abandon()
                    raise
            table.begin_hand(start)
            return table, campaign_json(run, last, table.spec.id)

    async def _new_campaign_table(self, user: User, features: Any) -> CampaignTable:
        options = ctable.ruleset(features, human=HUMAN).options_dict()
        spec = TableSpec(self._new_id(), "campaign", ctable.RULESET, options)  # level: the seat's
        level = stage_level(features.stage)
        seed = self.rng.getrandbits(32) if self.rng is not None else None
        seats = [Seat(user.id, user.name), make_level_seat(level, seed)]
        table = self._table(spec, seats, CampaignTable)
        assert isinstance(table, CampaignTable)
        table.campaigns, table.user_id = self.campaigns, user.id
        await self._own(table)
        self._add(table)
        table.start()
        return table

    async def campaign_abandon(self, user: User) -> dict[str, Any]:
        """End the run (R3.11: leaving ends it; the bankroll is the score) and its table."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is None:
                raise LobbyError(404, "no campaign to abandon", "no-campaign")
            run = loaded[0]
            await self.campaigns.store.delete_campaign(user.id)
            table = self.campaign_table(user.id)
        if table is not None:
            table.abandon()
        return {"bankroll": run.bankroll, "stage": run.stage, "status": run.status.value}

    # ------------------------------------------------------------------ restart
    async def restore(self) -> int:
        """Rebuild every unfinished table from the store; returns how many."""
        count = 0
        for game in await self.store.unfinished_games():
            try:
                table = self._restored(game)
                await table.resume()
            except Exception:
                log.exception("cannot restore game %s", getattr(game, "id", "?"))
                continue
            self._add(table)
            table.start()
            count += 1
        return count

    def _restored(self, game: Any) -> Table:
        meta: dict[str, Any] = dict(game.options)
        table = self._rebuilt(meta, list(game.seats))
        table.restore(game.id, meta, int(game.seed), str(game.salt), list(game.actions))
        return table

    def _rebuilt(self, meta: dict[str, Any], users: list[int | None]) -> Table:
        """The table a stored game's ``meta`` describes, with ``users`` in its seats (nothing
        played yet: :meth:`Table.restore` or :meth:`Table.restore_between_hands` next)."""
        info = meta["table"]
        room = find_room_tier(info["room"]) if info.get("room") else None
        spec = TableSpec(
            info["id"],
            info["kind"],
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
        if spec.kind == "campaign":
            table = self._table(spec, seats, CampaignTable)
            assert isinstance(table, CampaignTable)
            table.campaigns, table.user_id = self.campaigns, int(users[HUMAN] or 0)
            return table
        return self._table(spec, seats)

    async def shutdown(self) -> None:
        self.queues.close()
        for table in list(self.tables.values()):
            await table.stop()
        await self.journal.close()
