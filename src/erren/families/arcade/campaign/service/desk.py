"""The lobby's campaign desk (the arcade family's :class:`~erren.server.extension.LobbyDesk`):
a user's run of the arcade campaign (stage mode, arcade §3) and his campaign table — start a
run, stake and deal its next hand, abandon it, and the rules of a campaign table restored after
a restart.  The run's rules are :mod:`erren.families.arcade.campaign`'s, the table's are
:class:`~erren.families.arcade.campaign.service.runs.CampaignRules`."""

from __future__ import annotations

import contextlib
import secrets
from typing import TYPE_CHECKING, Any

from erren.families.arcade.campaign import HUMAN, Run, StakeError, Status, stage_level
from erren.families.arcade.campaign import table as ctable
from erren.families.arcade.campaign.service.runs import (
    CampaignRules,
    Campaigns,
    abandon,
    campaign_json,
    deal_hand,
    is_campaign,
)
from erren.server.lobbybase import Ground
from erren.server.lobbyerrors import LobbyError
from erren.server.table import Seat, Table, TableKind, TableSpec, make_level_seat

if TYPE_CHECKING:
    from collections.abc import Sequence

    from erren.families.arcade.campaign import StageFeatures
    from erren.server.store import User
    from erren.server.table import TableRules

__all__ = ["CampaignDesk"]


class CampaignDesk:
    """The campaigns of the lobby's users (one lock per user keeps a route and the table's
    settlement from interleaving: :class:`~erren.families.arcade.campaign.service.runs.
    Campaigns`)."""

    def __init__(self, ground: Ground) -> None:
        self.ground = ground
        self.campaigns = Campaigns(ground.store)

    def restored_rules(self, spec: TableSpec, users: Sequence[int | None]) -> TableRules | None:
        """The rules of a restored campaign table (the player's run); ``None`` for any other."""
        if spec.kind is not TableKind.CAMPAIGN:
            return None
        return CampaignRules.of_seats(self.campaigns, users)

    def table_of(self, user_id: int) -> Table | None:
        """The user's campaign table, if he sits at one."""
        table = self.ground.table_of(user_id)
        return table if table is not None and is_campaign(table) else None

    async def campaign(self, user: User) -> dict[str, Any] | None:
        """The user's campaign as the client shows it (``None``: no run).  A hand in play
        whose table is gone (it cannot be replayed) is called off: its stake goes back."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is None:
                return None
            run, last = loaded
            table = self.table_of(user.id)
            if run.status is Status.IN_HAND and table is None:
                run.void_hand("its table was lost")
                await self.campaigns.save(user.id, run, last)
            return campaign_json(run, last, None if table is None else table.spec.id)

    async def start(self, user: User) -> dict[str, Any]:
        """A new run (409 while one is unfinished: continue or abandon it)."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is not None and not loaded[0].over:
                raise LobbyError(
                    409,
                    "a campaign is unfinished: continue it or abandon it",
                    "campaign-unfinished",
                )
            rng = self.ground.rng
            seed = rng.getrandbits(63) if rng is not None else secrets.randbits(63)
            run = Run.new(seed)
            await self.campaigns.save(user.id, run, None)
            return campaign_json(run, None, None)

    async def hand(self, user: User, multiplier: int) -> tuple[Table, dict[str, Any]]:
        """Take the stake and deal the run's next hand at the user's campaign table."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is None:
                raise LobbyError(404, "no campaign: start one", "no-campaign")
            run, last = loaded
            table = self.table_of(user.id)
            if table is not None and table.running:
                raise LobbyError(409, "a hand is being played", "hand-running")
            if run.status is not Status.READY:
                raise LobbyError(
                    409,
                    f"no hand can start: the run is {run.status.value}",
                    "campaign-over",
                    params={"status": run.status.value},
                )
            with self.ground.reserve(user) if table is None else contextlib.nullcontext():
                try:
                    start = run.start_hand(multiplier)
                except StakeError as err:
                    raise LobbyError(422, str(err), "bad-stake") from None
                new = table is None  # the seat before the stake: a refused seat takes none
                if table is None:
                    table = await self._new_table(user, start.features)
                try:
                    await self.campaigns.save(user.id, run, last)
                except BaseException:
                    if new:
                        abandon(table)
                    raise
            deal_hand(table, start)
            return table, campaign_json(run, last, table.spec.id)

    async def _new_table(self, user: User, features: StageFeatures) -> Table:
        ground = self.ground
        options = ctable.ruleset(features, human=HUMAN).options_dict()
        spec = TableSpec(ground.new_id(), TableKind.CAMPAIGN, ctable.RULESET, options)
        level = stage_level(features.stage)  # the level is the seat's, not the spec's
        seed = ground.rng.getrandbits(32) if ground.rng is not None else None
        seats = [Seat(user.id, user.name), make_level_seat(level, seed)]
        rules = CampaignRules(self.campaigns, user.id)
        return await ground.open(ground.make(spec, seats, rules))

    async def abandon(self, user: User) -> dict[str, Any]:
        """End the run (R3.11: leaving ends it; the bankroll is the score) and its table."""
        async with self.campaigns.lock(user.id):
            loaded = await self.campaigns.load(user.id)
            if loaded is None:
                raise LobbyError(404, "no campaign to abandon", "no-campaign")
            run = loaded[0]
            await self.campaigns.store.games.delete_campaign(user.id)
            table = self.table_of(user.id)
        if table is not None:
            abandon(table)
        return {"bankroll": run.bankroll, "stage": run.stage, "status": run.status.value}
