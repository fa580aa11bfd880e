"""The arcade campaign (stage mode, arcade §3) on the server: one run per user, kept in the
store as versioned JSON, and a campaign table where the user plays the computer.

The rules are :mod:`erren.families.arcade.campaign`'s: :class:`~erren.families.arcade.campaign.Run`
takes the stake
(:meth:`~erren.families.arcade.campaign.Run.start_hand`) and books each hand
(:meth:`~erren.families.arcade.campaign.Run.settle`); :mod:`erren.families.arcade.campaign.table`
gives each stage's engine
options and reads a finished hand as an :class:`~erren.families.arcade.campaign.Outcome`.  This
module only
stores the run, starts the hand the run describes at the user's table, and settles the run when
the hand ends (the settlement event carries the run and the payout explained line by line).

Stored JSON (``campaigns.state``)::

    {"format": "erren-arcade-campaign", "version": 1, "run": {...Run.to_dict()...},
     "last": {...the last hand's settlement...} or null}
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from erren.engine import Action, ActionKind
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
from erren.server.table import Table, match_at, set_level, with_claim_privacy

if TYPE_CHECKING:
    from erren.server.store import Store

__all__ = ["CampaignTable", "Campaigns", "campaign_json", "settlement_json"]


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


class CampaignTable(Table):
    """A table against the computer whose hands are a run's hands: each starts only when the
    run has taken the stake (:meth:`begin_hand`), with the stage's options, seed and dealer;
    when one ends the run is settled and stored."""

    campaigns: Campaigns | None = None
    user_id: int = 0

    def begin_hand(self, start: HandStart) -> None:
        """Deal ``start``'s hand (called on the table's loop; the actor starts it in order)."""
        self.submit(_Begin(start))  # type: ignore[arg-type]

    def abandon(self) -> None:
        """The run was abandoned: an unfinished hand is escaped, and the table closes."""
        self.submit(_Abandon())  # type: ignore[arg-type]

    async def _handle(self, command: Any) -> None:
        if isinstance(command, _Abandon):
            if self.running:
                await self._system(Action.make(ActionKind.ESCAPE, HUMAN))
            self._close("left", "the campaign was abandoned", params={"seat": HUMAN})
            return
        if isinstance(command, _Begin):
            if self.running or self.closed:
                return
            self._touch()  # a stake is the player's doing: the table is not idle
            await self._start_campaign_hand(command.start)
            return
        await super()._handle(command)

    async def _maybe_start(self) -> None:
        """A campaign hand starts only from a stake (never from ``ready``)."""

    async def _start_campaign_hand(self, start: HandStart) -> None:
        self.ruleset = with_claim_privacy(ctable.ruleset(start.features, human=HUMAN))
        # the computer grows stronger from stage to stage (campaign.STAGE_LEVELS)
        seed = self.rng.getrandbits(32) if self.rng is not None else None
        if set_level(self.seats[COMPUTER], stage_level(start.stage), seed):
            self._broadcast({"type": "table", "table": self.info()})
        self.bind_bots()
        self.match = match_at(self.ruleset, dealer=start.dealer)  # the run picks the dealer
        self.hand_no = start.hand
        salt = secrets.token_hex(16)
        fair = Commitment(start.seed, salt, commit(start.seed, salt))
        # ctable.new_hand's deal, with 鸣牌保护 on
        state = self.match.new_hand(seed=start.seed)
        await self._deal(state, fair, "campaign")

    def called_off_json(self, why: str) -> dict[str, Any]:
        """A called-off campaign hand keeps its wall secret (no seed, no actions: the shuffle
        is among them): the run deals the same hand again, its stake returned
        (:meth:`~erren.families.arcade.campaign.Run.void_hand`)."""
        record = super().called_off_json(why)
        for secret in ("seed", "fairness", "actions"):
            record.pop(secret, None)
        return record

    def _meta(self) -> dict[str, Any]:
        meta = super()._meta()
        meta["table"] = {**meta["table"], "options": self.ruleset.options_dict()}
        return meta

    async def _finish_hand(self) -> None:
        await super()._finish_hand()
        if self._ready_timer is not None:  # the next hand waits for a stake, not for ready
            self._ready_timer.cancel()
            self._ready_timer = None
        state = self.state
        assert state is not None and state.result is not None and self.end_event is not None
        if state.result.kind == "abort":  # the player left mid-hand: the stake is lost
            outcome = Outcome.computer_win() if state.result.loser == HUMAN else Outcome.draw()
        else:
            outcome = ctable.outcome_of(state, human=HUMAN)
        if self.campaigns is not None:
            self.end_event["campaign"] = await self.campaigns.settle(self.user_id, outcome, self)


class _Abandon:
    __slots__ = ()


class _Begin:
    __slots__ = ("start",)

    def __init__(self, start: HandStart) -> None:
        self.start = start


class Campaigns:
    """The runs of every user: load, store, start, settle, abandon.  One lock per user keeps a
    route and the table's settlement from interleaving."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault(user_id, asyncio.Lock())

    async def load(self, user_id: int) -> tuple[Run, dict[str, Any] | None] | None:
        data = await self.store.get_campaign(user_id)
        if data is None:
            return None
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            return None
        try:
            return Run.from_dict(data["run"]), data.get("last")
        except (KeyError, TypeError, ValueError):
            return None

    async def save(self, user_id: int, run: Run, last: dict[str, Any] | None) -> None:
        await self.store.put_campaign(
            user_id, {"format": FORMAT, "version": VERSION, "run": run.to_dict(), "last": last}
        )

    async def settle(self, user_id: int, outcome: Outcome, table: Table) -> dict[str, Any] | None:
        """Book the hand that just ended at ``table``; the campaign as the client shows it."""
        async with self.lock(user_id):
            loaded = await self.load(user_id)
            if loaded is None:
                return None
            run, _last = loaded
            if run.status is not Status.IN_HAND:
                return campaign_json(run, _last, table.spec.id)
            settlement = run.settle(outcome)
            last = settlement_json(settlement)
            await self.save(user_id, run, last)
            return campaign_json(run, last, table.spec.id)
