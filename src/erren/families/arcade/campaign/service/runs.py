"""The arcade campaign (stage mode, arcade §3) on the server: one run per user, kept in the
store as versioned JSON, and the rules given to the campaign table where the user plays the
computer (:class:`CampaignRules`).

The rules are the campaign model's: :class:`~erren.families.arcade.campaign.Run` takes the
stake (:meth:`~erren.families.arcade.campaign.Run.start_hand`) and books each hand
(:meth:`~erren.families.arcade.campaign.Run.settle`);
:mod:`erren.families.arcade.campaign.table` gives each stage's engine options and reads a
finished hand as an :class:`~erren.families.arcade.campaign.Outcome`.  This module only stores
the run, starts the hand the run describes at the user's table, and settles the run when the
hand ends (the settlement event carries the run and the payout explained line by line).

Stored JSON (``campaigns.state``)::

    {"format": "erren-arcade-campaign", "version": 1, "run": {...Run.to_dict()...},
     "last": {...the last hand's settlement...} or null}
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from erren.bots.levels import Level
from erren.engine.result import ResultKind
from erren.families.arcade.bot.stage import STAGE_STYLE
from erren.families.arcade.campaign import (
    COMPUTER,
    HUMAN,
    HandStart,
    Outcome,
    Run,
    Settlement,
    Status,
    stage_level,
)
from erren.families.arcade.campaign import table as ctable
from erren.families.arcade.campaign.save import FORMAT, VERSION
from erren.server.fairness import Commitment, commit
from erren.server.table import Abandon, Deal, HandPlan, Table, TableKind

if TYPE_CHECKING:
    from collections.abc import Sequence

    from erren.engine import Family, State
    from erren.server.store import Store

__all__ = [
    "CampaignRules",
    "Campaigns",
    "abandon",
    "campaign_json",
    "deal_hand",
    "is_campaign",
    "settlement_json",
]


def settlement_json(settlement: Settlement) -> dict[str, Any]:
    """A settled hand: every figure and the explanation, one line each (English, from the
    model), for the payout screen."""
    start = settlement.start
    return {
        "hand": start.hand,
        "stage": start.stage,
        "stage_hand": start.stage_hand,
        "multiplier": start.multiplier,
        "stake": start.stake,
        "outcome": settlement.outcome.kind.value,
        "fan": settlement.outcome.fan,
        "yakuman": settlement.outcome.yakuman,
        "base": settlement.base,
        "bonus": settlement.bonus,
        "payout": settlement.payout,
        "stake_returned": settlement.stake_returned,
        "bankroll_before": start.bankroll_before,
        "bankroll": settlement.bankroll,
        "gain": settlement.gain,
        "purse_before": settlement.purse_before,
        "purse": settlement.purse,
        "streak_before": settlement.streak_before,
        "streak": settlement.streak,
        "cleared": settlement.cleared,
        "next_stage": settlement.next_stage,
        "status": settlement.status.value,
        "lines": settlement.lines(),
    }


def _hand_in_play(start: HandStart) -> dict[str, Any]:
    """The hand being played as the player may see it: everything but its seed, from which
    the computer's tiles and every next draw could be rebuilt (the seed is revealed with the
    hand's record at its settlement, as at every table)."""
    out = start.to_dict()
    out.pop("seed", None)
    return out


def _style(level: Level) -> dict[str, str]:
    """How this stage's computer plays, in both languages (the campaign screen's line)."""
    words = STAGE_STYLE[level]
    return {"zh": words.zh, "en": words.en}


def campaign_json(run: Run, last: dict[str, Any] | None, table: str | None) -> dict[str, Any]:
    """What the client shows: the run's figures, the stake choice, the last hand, the table."""
    p = run.params
    return {
        "status": run.status.value,
        "stage": run.stage,
        "stages": len(p.purses),
        "bankroll": run.bankroll,
        "purse": run.purse,
        "stage_purse": p.purse(run.stage),
        "level": stage_level(run.stage).value,
        "style": _style(stage_level(run.stage)),
        "dealer": run.dealer,
        "streak": run.streak,
        "streak_length": p.streak_length,
        "multiplier": run.default_multiplier(),
        "max_multiplier": run.affordable(),
        "stake_unit": p.stake_unit,
        "hands": run.hands,
        "stage_hands": run.stage_hands,
        "best_payout": run.best_payout,
        "current": None if run.current is None else _hand_in_play(run.current),
        "last": last,
        "table": table,
    }


class CampaignRules:
    """The rules a campaign table is given (:class:`~erren.server.table.TableRules`): its
    hands are the run's hands, each dealt only when the run has taken the stake
    (:func:`deal_hand`, with the stage's options, seed and dealer), never by ``ready``; when one
    ends the run is settled and stored, and the settlement event carries it."""

    def __init__(self, campaigns: Campaigns, user_id: int) -> None:
        self.campaigns = campaigns
        self.user_id = user_id

    @classmethod
    def of_seats(cls, campaigns: Campaigns, users: Sequence[int | None]) -> CampaignRules:
        """The rules of a campaign table whose seats hold ``users`` (the player's run)."""
        return cls(campaigns, int(users[HUMAN] or 0))

    @property
    def deals_on_ready(self) -> bool:
        return False  # a campaign hand starts only from a stake

    def table_json(self, table: dict[str, Any], ruleset: Family) -> dict[str, Any]:
        """The table with the options of the stage being played (restored with them)."""
        return {**table, "options": ruleset.options_dict()}

    def called_off(self, record: dict[str, Any]) -> dict[str, Any]:
        """A called-off campaign hand keeps its wall secret (no seed, no actions: the shuffle
        is among them): the run deals the same hand again, its stake returned
        (:meth:`~erren.families.arcade.campaign.Run.void_hand`)."""
        for secret in ("seed", "fairness", "actions"):
            record.pop(secret, None)
        return record

    async def settled(self, state: State, table_id: str) -> dict[str, Any]:
        """Book the hand in the run: ``{"campaign": the campaign as the client shows it}``."""
        result = state.result
        assert result is not None
        if result.kind is ResultKind.ABORT:  # the player left mid-hand: the stake is lost
            outcome = Outcome.computer_win() if result.loser == HUMAN else Outcome.draw()
        else:
            outcome = ctable.outcome_of(state, human=HUMAN)
        return {"campaign": await self.campaigns.settle(self.user_id, outcome, table_id)}


def is_campaign(table: Table) -> bool:
    return table.spec.kind is TableKind.CAMPAIGN


def deal_hand(table: Table, start: HandStart) -> None:
    """Deal ``start``'s hand at ``table`` (on the table's loop; the actor deals it in order):
    the stage's rules, the run's seed (committed) and dealer, the stage's computer
    (:data:`~erren.families.arcade.campaign.STAGE_LEVELS`)."""
    salt = secrets.token_hex(16)
    plan = HandPlan(
        ruleset=ctable.ruleset(start.features, human=HUMAN),
        fair=Commitment(start.seed, salt, commit(start.seed, salt)),
        dealer=start.dealer,
        hand=start.hand,
        levels=((COMPUTER, stage_level(start.stage)),),
    )
    table.submit(Deal(plan))


def abandon(table: Table) -> None:
    """The run was abandoned: an unfinished hand is escaped, and the table closes."""
    table.submit(Abandon(HUMAN, "the campaign was abandoned"))


class Campaigns:
    """The runs of every user: load, store, start, settle, abandon.  One lock per user keeps a
    route and the table's settlement from interleaving."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault(user_id, asyncio.Lock())

    async def load(self, user_id: int) -> tuple[Run, dict[str, Any] | None] | None:
        data = await self.store.games.campaign(user_id)
        if data is None:
            return None
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            return None
        try:
            return Run.from_dict(data["run"]), data.get("last")
        except (KeyError, TypeError, ValueError):
            return None

    async def save(self, user_id: int, run: Run, last: dict[str, Any] | None) -> None:
        await self.store.games.put_campaign(
            user_id, {"format": FORMAT, "version": VERSION, "run": run.to_dict(), "last": last}
        )

    async def settle(self, user_id: int, outcome: Outcome, table: str) -> dict[str, Any] | None:
        """Book the hand that just ended at ``table``; the campaign as the client shows it."""
        async with self.lock(user_id):
            loaded = await self.load(user_id)
            if loaded is None:
                return None
            run, _last = loaded
            if run.status is not Status.IN_HAND:
                return campaign_json(run, _last, table)
            settlement = run.settle(outcome)
            last = settlement_json(settlement)
            await self.save(user_id, run, last)
            return campaign_json(run, last, table)
