"""A table's hands from the deal to the settlement: dealing one (its game stored with the
seed's commitment) when every seat is ready or when the table's rules plan it, applying each
action and storing it before its events go out, and handing a finished hand to the
:class:`~erren.server.table.finisher.Finisher`."""

from __future__ import annotations

import logging
import random
from functools import partial
from typing import Any

from erren.engine import Action, Record, State, replay
from erren.engine.result import ResultKind
from erren.errors import IllegalActionError
from erren.server.fairness import Commitment
from erren.server.protocol import action_text, error_json
from erren.server.rooms import RoomTier, rooms_admitting
from erren.server.table.clocks import Clocks
from erren.server.table.finisher import Finisher
from erren.server.table.host import Host
from erren.server.table.reporter import Reporter
from erren.server.table.rules import HandPlan, TableRules
from erren.server.table.scribe import Scribe
from erren.server.table.seats import Conn, Seating, set_level
from erren.server.table.series import Series
from erren.server.table.spec import CloseCode, TableSpec, match_at, with_claim_privacy

__all__ = ["Hands"]

log = logging.getLogger("erren.server.table")


class Hands:
    """Deals and plays the hands of one table."""

    def __init__(
        self,
        host: Host,
        spec: TableSpec,
        seating: Seating,
        series: Series,
        *,
        clocks: Clocks,
        scribe: Scribe,
        finisher: Finisher,
        reporter: Reporter,
        rules: TableRules,
        rng: random.Random | None,
    ) -> None:
        self.host = host
        self.spec = spec
        self.seating = seating
        self.series = series
        self.clocks = clocks
        self.scribe = scribe
        self.finisher = finisher
        self.reporter = reporter
        self.rules = rules
        self.rng = rng

    # ------------------------------------------------------------------ the deal
    async def maybe_start(self) -> None:
        """Deal the next hand if every seat is taken and ready (and the table's rules deal on
        ready), unless a balance left a bean room's limits since the last hand."""
        seats = self.seating.seats
        if self.host.closed or self.series.running or not self.seating.full:
            return
        if not self.rules.deals_on_ready or not all(s.ready or s.bot is not None for s in seats):
            return
        room = self.spec.room
        if room is not None and self.series.state is not None:
            outside: dict[int, int] = {}
            for seat_no, seat in enumerate(seats):
                if seat.user_id is None:
                    continue
                balance = await self.scribe.durably(
                    partial(self.scribe.store.ledger.balance, seat.user_id)
                )
                if not room.admits(balance):
                    outside[seat_no] = balance
            if outside:
                self._close_outside(room, outside)
                return
        await self._start_hand()

    def _close_outside(self, room: RoomTier, outside: dict[int, int]) -> None:
        """Close a bean table at which a balance left the room's limits (§6.4; not an escape):
        the seat concerned hears his balance and the rooms of the family he can still enter;
        the other seat only that his opponent cannot go on."""
        tier = room.tier
        personal: dict[int, dict[str, Any]] = {}
        for seat_no in (0, 1):
            balance = outside.get(seat_no)
            if balance is None:
                personal[seat_no] = {
                    "code": CloseCode.OPPONENT_BELOW_ENTRY.value,
                    "reason": "your opponent can no longer play in this room; the table "
                    "closes (nobody escaped)",
                    "params": {"room": room.id},
                }
                continue
            rooms = [r.id for r in rooms_admitting(room.family, balance)]
            low = balance < tier.entry_min
            code = CloseCode.BELOW_ENTRY if low else CloseCode.ABOVE_ENTRY
            personal[seat_no] = {
                "code": code.value,
                "reason": f"your balance of {balance} beans is "
                f"{'below' if low else 'above'} the room's limits "
                f"({tier.entry_min}–{tier.entry_max}); the table closes (not an escape)",
                "params": {
                    "room": room.id,
                    "entry_min": tier.entry_min,
                    "entry_max": tier.entry_max,
                    "balance": balance,
                    "rooms": rooms,
                },
            }
        self.host.close(
            CloseCode.BELOW_ENTRY,
            "a balance left the room's limits",
            personal=personal,
            after=True,
        )

    async def _start_hand(self) -> None:
        self.clocks.stop_ready()
        self.series.number += 1
        fair = Commitment.draw(self.rng)
        state = self.series.match.new_hand(seed=fair.seed)
        await self._deal(state, fair)

    async def deal_planned(self, plan: HandPlan) -> None:
        """Deal the hand the table's rules planned: its rules (with 鸣牌保护 on), its dealer and
        number, the computers' levels, and its seed, committed."""
        series = self.series
        series.ruleset = with_claim_privacy(plan.ruleset)
        for seat_no, level in plan.levels:
            seed = self.rng.getrandbits(32) if self.rng is not None else None
            if set_level(self.seating.seats[seat_no], level, seed):
                self.seating.broadcast({"type": "table", "table": self.host.info()})
        self.seating.bind_bots(series.ruleset)
        series.match = match_at(series.ruleset, dealer=plan.dealer)
        series.number = plan.hand
        state = series.match.new_hand(seed=plan.fair.seed)
        await self._deal(state, plan.fair)

    def meta(self) -> dict[str, Any]:
        """What the store keeps beside a game of this table to restore it."""
        table = self.rules.table_json(self.spec.to_json(), self.series.ruleset)
        return self.series.meta(table, self.seating.seats)

    async def _deal(self, state: State, fair: Commitment) -> None:
        """Store the new hand's game (retrying a failed write), begin it and send its first
        events."""
        series, seats = self.series, self.seating.seats
        meta = self.meta()
        game_id = await self.scribe.durably(
            lambda: self.scribe.store.games.create(
                series.ruleset.name,
                meta,
                seats=(seats[0].user_id, seats[1].user_id),
                seed=fair.seed,
                salt=fair.salt,
                room=self.spec.room_name,
                fence=self.scribe.fence or 0,
            )
        )
        self.begin(state, game_id, fair)
        await self.scribe.persist(series)
        await self.after_change(-1)

    def begin(self, state: State, game_id: int, fair: Commitment) -> None:
        """The hand ``state``, stored as ``game_id``, is the table's current hand."""
        self.seating.new_hand()
        self.series.begin(state, game_id, fair, [s.name for s in self.seating.seats])

    def restore(
        self, game_id: int, meta: dict[str, Any], fair: Commitment, actions: list[str]
    ) -> None:
        """Rebuild the hand of the unfinished stored game ``game_id`` (after a restart) by
        replaying its ``actions``; its players have the grace period to come back."""
        match = self.series.pick_up(meta)
        ruleset = self.series.ruleset
        record = Record(
            ruleset=ruleset.name,
            options=ruleset.options_dict(),
            seed=fair.seed,
            dealer=match.dealer,
            round_wind=match.round_wind,
            actions=tuple(actions),
            streak=match.streak if ruleset.uses_streak else 0,
        )
        self.begin(replay(record), game_id, fair)
        self.series.persisted = len(actions)
        for seat_no, seat in enumerate(self.seating.seats):
            if seat.bot is None:
                # a player who does not come back within the grace period has the hand
                # called off (the restart was the server's fault, not his)
                seat.back_since_restore = False
                seat.grace = self.clocks.grace(seat_no)

    async def resume(self) -> None:
        """Play on after :meth:`restore`: finish a hand that ended before the crash, or run
        its timers."""
        state = self.series.state
        assert state is not None
        if state.is_terminal:
            await self.scribe.durably(self.finish)
        else:
            self.clocks.arm(state, self.seating, self.series.ruleset)

    # ------------------------------------------------------------------ the game
    async def system(self, action: Action) -> None:
        """Apply a system action (``timeout``, ``trustee``, ``escape``)."""
        await self.apply(action, None, system=True)

    async def apply(self, action: Action, conn: Conn | None, *, system: bool = False) -> None:
        """Apply ``action`` (an illegal one is answered to ``conn`` and changes nothing), store
        it, and tell both seats."""
        state = self.series.state
        assert state is not None
        before = state.event_count
        try:
            if system:
                state.apply_system(action)
            else:
                state.apply(action)
        except IllegalActionError as err:
            if conn is not None:
                conn.send(
                    error_json(
                        err.rule,
                        err.message,
                        action=str(action),
                        params={"action": action_text(action), "rule": err.rule},
                    )
                )
            else:
                log.warning("table %s: %s refused: %s", self.spec.id, action, err)
            return
        await self.scribe.persist(self.series)
        await self.after_change(before)

    async def after_change(self, before: int) -> None:
        """Settle a finished hand, or run the next decision's timer; then send both seats the
        events after ``before``."""
        state = self.series.state
        assert state is not None
        if state.is_terminal:
            await self.scribe.durably(self.finish)
        else:
            self.clocks.arm(state, self.seating, self.series.ruleset)
        self.reporter.send_all(before)

    # ------------------------------------------------------------------ the end
    async def finish(self) -> None:
        """Settle the finished hand; then the match is over after an escape, or the table
        waits for the next hand (for both players' ready, or for the rules to plan it)."""
        state = self.series.state
        assert state is not None and state.result is not None
        self.clocks.hand_over()
        await self.finisher.settle()
        if state.result.kind is ResultKind.ABORT:
            escaper = state.result.loser if state.result.loser is not None else -1
            self.host.close(
                CloseCode.ESCAPED,
                f"{self.seating.seats[escaper].name} left the running hand (an escape); "
                "the match is over",
                params={"seat": escaper},
                after=True,
            )
        else:
            self.seating.hand_over()
            await self.host.now_idle()
            if self.rules.deals_on_ready:
                self.clocks.wait_ready(self.series.number)
        end = self.series.end_event
        assert end is not None
        end.update(await self.rules.settled(state, self.spec.id))

    async def call_off(self, why: str) -> None:
        """Call the running hand off (no result, nobody pays: a fault of the server is never
        charged to a player) and close the table with code ``called-off``."""
        if self.series.running:
            await self.finisher.call_off(why)
        self.host.close(CloseCode.CALLED_OFF, f"the hand is called off: {why}; no beans moved")
