"""The lobby: rooms, quick match, private tables by invite code, tables against the computer,
and the tables restored after a restart.

A player sits at one open table at a time (:mod:`erren.server.lobbybase`).  Quick match
(:mod:`erren.server.quickmatch`) pairs a player with the oldest player waiting in the same room
whom he may meet, and never with a player who is gone: an away player keeps his place a few
seconds, paired with nobody, and a pairing whose players do not both come to the table is
dissolved.  A private table is score-only (§6.3: private tables play for points, not beans) and
is joined with its six-letter invite code.  A table against the computer puts a bot in seat 1
at once and is score-only too.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from erren.bots import Level, bot_names, parse_level
from erren.bots.levels import DEFAULT_LEVEL
from erren.families.arcade.campaign import HUMAN, Run, StakeError, Status, stage_level
from erren.families.arcade.campaign import table as ctable
from erren.server.campaign import CampaignTable, campaign_json
from erren.server.lobbybase import (
    INVITE_ALPHABET,
    LobbyError,
    no_opponent,
    search_lost,
    seated_error,
    waiting_error,
)
from erren.server.quickmatch import QuickMatch
from erren.server.rooms import find_room_tier
from erren.server.table import (
    Seat,
    Table,
    TableSpec,
    TableView,
    make_bot_seat,
    make_level_seat,
)

if TYPE_CHECKING:
    from erren.server.store import User

__all__ = [
    "Lobby",
    "LobbyError",
    "no_opponent",
    "search_lost",
    "seated_error",
    "waiting_error",
]

log = logging.getLogger("erren.server.lobby")

_INVITE_ALPHABET = INVITE_ALPHABET
"""The letters of invite codes (kept under its old name)."""


class Lobby(QuickMatch):
    """The lobby of a single server (a cluster node's: :mod:`erren.server.cluster.lobby`)."""

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
        self._stop_show_ups()
        for table in list(self.tables.values()):
            await table.stop()
        await self._finish_chores()
        await self.journal.close()
