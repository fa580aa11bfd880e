"""A table's hands: dealing one (its game stored with the seed's commitment), applying and
storing each action before its events go out, and settling it (beans, the record, the match's
next dealer) or calling it off."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from functools import partial
from typing import Any

from erren.engine import Action, State
from erren.errors import IllegalActionError
from erren.server.fairness import Commitment
from erren.server.protocol import action_text, result_json
from erren.server.reveal import hands_json, ready_json
from erren.server.rooms import RoomTier, rooms_admitting
from erren.server.settlement import escape_pays, to_beans
from erren.server.store import SettledHand
from erren.server.table.base import TableBase
from erren.server.table.commands import ReadyOver
from erren.server.table.seats import Conn

__all__ = ["Hands"]

log = logging.getLogger("erren.server.table")


class Hands(TableBase, ABC):
    """The hand's life at a table, from the deal to the settlement."""

    @abstractmethod
    def _arm(self) -> None:
        """Run the timer of the decision now due (:class:`~erren.server.table.timers.Timers`)."""

    # ------------------------------------------------------------------ the deal
    async def _maybe_start(self) -> None:
        if self.closed or self.running or not self.full:
            return
        if not all(s.ready or s.bot is not None for s in self.seats):
            return
        room = self.spec.room
        if room is not None and self.state is not None:
            outside: dict[int, int] = {}
            for seat_no, seat in enumerate(self.seats):
                if seat.user_id is None:
                    continue
                balance = await self._durably(partial(self.store.balance, seat.user_id))
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
                    "code": "opponent-below-entry",
                    "reason": "your opponent can no longer play in this room; the table "
                    "closes (nobody escaped)",
                    "params": {"room": room.id},
                }
                continue
            rooms = [r.id for r in rooms_admitting(room.family, balance)]
            low = balance < tier.entry_min
            personal[seat_no] = {
                "code": "below-entry" if low else "above-entry",
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
        self._close(
            "below-entry", "a balance left the room's limits", personal=personal, after=True
        )

    def _meta(self) -> dict[str, Any]:
        """What the store keeps beside the ruleset options to restore the table."""
        return {
            "rules": self.ruleset.options_dict(),
            "table": self.spec.to_json(),
            "names": [s.name for s in self.seats],
            "bots": [s.bot_name for s in self.seats],
            "levels": [None if s.level is None else s.level.value for s in self.seats],
            "hand": self.hand_no,
            "dealer": self.match.dealer,
            "streak": self.match.streak,
            "round_wind": int(self.match.round_wind),
            "first_dealer": self.match.first_dealer,
        }

    async def _start_hand(self) -> None:
        if self._ready_timer is not None:
            self._ready_timer.cancel()
            self._ready_timer = None
        self.hand_no += 1
        fair = Commitment.draw(self.rng)
        state = self.match.new_hand(seed=fair.seed)
        room = self.spec.room.id if self.spec.room is not None else self.spec.kind
        await self._deal(state, fair, room)

    async def _deal(self, state: State, fair: Commitment, room: str) -> None:
        """Store the new hand's game (retrying a failed write), begin it and send its first
        events."""
        meta = self._meta()
        game_id = await self._durably(
            lambda: self.store.create_game(
                self.ruleset.name,
                meta,
                seats=(self.seats[0].user_id, self.seats[1].user_id),
                seed=fair.seed,
                salt=fair.salt,
                room=room,
                fence=self.fence or 0,
            )
        )
        self._begin(state, game_id, fair)
        await self._persist()
        await self._after_change(-1)

    def _begin(self, state: State, game_id: int, fair: Commitment) -> None:
        for seat in self.seats:
            seat.ready = False
            seat.toggles = 0
        self.state, self.game_id, self.fair = state, game_id, fair
        self.end_event = None
        self._advice = {}  # the hint of the last hand's decision is no hint for this one
        self._persisted = 0
        self.start_event = {
            "n": 0,
            "kind": "start",
            "game": game_id,
            "hand": self.hand_no,
            "dealer": state.dealer,
            "round_wind": str(state.round_wind),
            "streak": state.streak,
            "commitment": fair.commitment,
            "seats": [s.name for s in self.seats],
        }

    # ------------------------------------------------------------------ the game
    async def _system(self, action: Action) -> None:
        await self._apply(action, None, system=True)

    async def _apply(self, action: Action, conn: Conn | None, *, system: bool = False) -> None:
        state = self.state
        assert state is not None
        before = state.event_count
        try:
            if system:
                state.apply_system(action)
            else:
                state.apply(action)
        except IllegalActionError as err:
            if conn is not None:
                self._error(
                    conn,
                    err.rule,
                    err.message,
                    action=str(action),
                    params={"action": action_text(action), "rule": err.rule},
                )
            else:
                log.warning("table %s: %s refused: %s", self.spec.id, action, err)
            return
        await self._persist()
        await self._after_change(before)

    async def _persist(self) -> None:
        """Write the actions not yet in the store, in order, and wait for their commit (before
        any event goes out).  Through the journal the commit is shared with other tables."""
        state = self.state
        assert state is not None and self.game_id is not None
        history = state.history
        if self._persisted >= len(history):
            return
        game_id, first = self.game_id, self._persisted
        rows = [(game_id, seq, str(history[seq])) for seq in range(first, len(history))]
        journal, fence = self.journal, self.fence

        async def write() -> None:
            if journal is not None:
                await journal.append(rows, fence)
                return
            fences = None if fence is None else {game_id: fence}
            refused = [e for e in await self.store.append_actions(rows, fences) if e is not None]
            if refused:
                raise refused[0]

        await self._durably(write)  # an action is stored once (by seq), however often tried
        self._persisted = len(history)
        if self.meter is not None:
            self.meter.actions.inc(len(rows))

    async def _after_change(self, before: int) -> None:
        state = self.state
        assert state is not None
        if state.is_terminal:
            await self._durably(self._finish_hand)
        else:
            self._arm()
        for seat in (0, 1):
            self._send_events(seat, before)

    # ------------------------------------------------------------------ the end
    def record_json(self) -> dict[str, Any]:
        """The hand's record with the seed revealed (``erren verify`` reads it)."""
        assert self.state is not None and self.fair is not None
        data = self.state.record().to_dict()
        data["seed"] = self.fair.seed
        data["fairness"] = {"commitment": self.fair.commitment, "salt": self.fair.salt}
        data["game"] = self.game_id
        data["table"] = self.spec.id
        data["seats"] = [s.name for s in self.seats]
        data["levels"] = [s.shown_level for s in self.seats]
        return data

    async def _finish_hand(self) -> None:
        state = self.state
        assert state is not None and state.result is not None and self.game_id is not None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        result = state.result
        transfers, beans = await self._transfers()
        # beans + ratings, once, and only while this node holds the table
        await self.store.settle_hand(self._settled(), transfers, fence=self.fence)
        record = self.record_json()
        record["outcome"] = {
            "hand": self.hand_no,
            "kind": result.kind,
            "winner": result.winner,
            "loser": result.loser,
            "how": result.how,
            "points": result.points,
            "deltas": list(result.deltas),
            "beans": beans,
        }
        summary = f"hand {self.hand_no} at {self.spec.id}: {result}"
        if any(beans):
            summary += f"; beans {beans[0]:+d}/{beans[1]:+d}"
        await self.store.finish_game(self.game_id, record, summary, fence=self.fence)
        self.end_event = {
            "n": state.event_count + 1,
            "kind": "settlement",
            "game": self.game_id,
            "result": result_json(result),
            "hands": hands_json(state),  # public once the hand is over (erren.server.reveal)
            "ready": ready_json(state),
            "stake": None if self.spec.room is None else self.spec.room.stake,
            "beans": beans,
            "record": record,
        }
        self.match.finish_hand(state)  # the next dealer, streak and round wind
        if self.meter is not None:
            self.meter.hands.inc()
        log.info("hand %d settled: %s", self.hand_no, result.kind)
        if result.kind == "abort":
            escaper = result.loser if result.loser is not None else -1
            self._close(
                "escaped",
                f"{self.seats[escaper].name} left the running hand (an escape); the match is over",
                params={"seat": escaper},
                after=True,
            )
            return
        for seat in self.seats:
            seat.ready = seat.bot is not None
        if self.on_idle is not None:
            await self.on_idle(self)
        hand = self.hand_no
        self._ready_timer = self.clock.call_later(
            self.config.ready_timeout_s, lambda: self.submit(ReadyOver(hand))
        )

    def _settled(self) -> SettledHand:
        """The finished hand as the store keeps it; rated in a bean room between two people
        (the store rates registered players only; a hand against the computer is not rated)."""
        state = self.state
        assert state is not None and state.result is not None and self.game_id is not None
        result = state.result
        seats = (self.seats[0].user_id, self.seats[1].user_id)
        return SettledHand(
            game_id=self.game_id,
            ruleset=self.ruleset.name,
            seats=seats,
            kind=result.kind,
            winner=result.winner,
            loser=result.loser,
            how=result.how,
            fan_total=result.fan_total,
            points=result.points,
            deltas=result.deltas,
            rated=self.spec.room is not None and None not in seats,
        )

    async def _transfers(self) -> tuple[list[Any], list[int]]:
        """The bean transfers of the finished hand (bean rooms only) and each seat's beans: the
        hand's point deltas at the room's stake, limited by the payer's balance — converted
        once, by :func:`erren.server.settlement.to_beans`, as for every family; nothing for a new
        account's escape (:func:`erren.server.settlement.escape_pays`)."""
        from erren.server.store import Transfer  # noqa: PLC0415

        state = self.state
        assert state is not None and state.result is not None
        room = self.spec.room
        first, second = self.seats[0].user_id, self.seats[1].user_id
        if room is None or first is None or second is None:
            return [], [0, 0]
        ids = (first, second)
        balances = (await self.store.balance(first), await self.store.balance(second))
        move = to_beans(state.result.deltas, room.stake, balances)
        if move.payer is None or move.payee is None or move.paid <= 0:
            return [], [0, 0]
        if state.result.kind == "abort" and not escape_pays(
            await self.store.complete_hands(ids[move.payer]), self.config.new_player_hands
        ):
            return [], [0, 0]  # a new account's escape moves no bean (settlement.escape_pays)
        reason = f"{self.ruleset.name} {room.tier.id} game {self.game_id}: {state.result.kind}"
        beans = list(move.deltas())
        return [Transfer(ids[move.payer], ids[move.payee], move.paid, reason)], beans

    async def _call_off_record(self, why: str) -> None:
        """Finish the stored game as called off: no result, no beans, the seed revealed."""
        assert self.state is not None and self.game_id is not None
        record = self.called_off_json(why)
        summary = f"hand {self.hand_no} at {self.spec.id}: called off ({why}); no beans moved"
        game_id = self.game_id
        await self._durably(
            lambda: self.store.finish_game(game_id, record, summary, fence=self.fence)
        )

    def called_off_json(self, why: str) -> dict[str, Any]:
        """The record a called-off hand is stored with (``called_off``: why; no result)."""
        record = self.record_json()
        record["called_off"] = why
        return record

    async def call_off(self, why: str) -> None:
        """Call the running hand off (no result, nobody pays: a fault of the server is never
        charged to a player) and close the table with code ``called-off``."""
        if self.running:
            await self._call_off_record(why)
        self._close("called-off", f"the hand is called off: {why}; no beans moved")
