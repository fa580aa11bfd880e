"""The end of a hand at a table: its beans (a bean room's point deltas at the room's stake,
limited by the payer's balance), its ratings, its record with the seed revealed and its
``settlement`` event — or, for a hand called off, a record with no result and no beans."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from erren.engine.result import ResultKind
from erren.server.protocol import result_json
from erren.server.ranks import move_json
from erren.server.reveal import hands_json, ready_json
from erren.server.reviewlater import later_for
from erren.server.settlement import escape_pays, to_beans
from erren.server.store import SettledHand
from erren.server.table.rules import TableRules
from erren.server.table.scribe import Scribe
from erren.server.table.seats import Seating
from erren.server.table.series import Series
from erren.server.table.spec import TableKind, TableSpec

if TYPE_CHECKING:
    from erren.server.metrics import FamilyMetrics
    from erren.server.store import Store, Transfer

__all__ = ["Finisher"]

log = logging.getLogger("erren.server.table")


class Finisher:
    """Settles the hands of one table (lila's finisher)."""

    def __init__(
        self,
        spec: TableSpec,
        seating: Seating,
        series: Series,
        scribe: Scribe,
        rules: TableRules,
        *,
        new_player_hands: int,
        review_hands: bool = False,
    ) -> None:
        self.spec = spec
        self.seating = seating
        self.series = series
        self.scribe = scribe
        self.store: Store = scribe.store
        self.rules = rules
        self.new_player_hands = new_player_hands
        self.review_hands = review_hands
        """Review each settled hand for its registered players (:mod:`erren.server.reviewlater`)."""
        self.meter: FamilyMetrics | None = None
        """Where the settled hands are counted."""

    async def settle(self) -> None:
        """Settle the finished hand once (beans and ratings, only while this node holds the
        table), store its record, and make its ``settlement`` event; the match moves on to
        the next dealer, streak and round wind."""
        series = self.series
        state = series.state
        assert state is not None and state.result is not None and series.game_id is not None
        result = state.result
        transfers, beans = await self._transfers()
        await self.store.profiles.settle_hand(self._settled(), transfers, fence=self.scribe.fence)
        record = series.record_json(self.spec.id, self.seating.seats)
        record["outcome"] = {
            "hand": series.number,
            "kind": result.kind,
            "winner": result.winner,
            "loser": result.loser,
            "how": result.how,
            "points": result.points,
            "deltas": list(result.deltas),
            "beans": beans,
        }
        summary = f"hand {series.number} at {self.spec.id}: {result}"
        if any(beans):
            summary += f"; beans {beans[0]:+d}/{beans[1]:+d}"
        await self.store.games.finish(series.game_id, record, summary, fence=self.scribe.fence)
        self._review_later(series.game_id)
        series.end_event = {
            "n": state.event_count + 1,
            "kind": "settlement",
            "game": series.game_id,
            "result": result_json(result),
            "hands": hands_json(state),  # public once the hand is over (erren.server.reveal)
            "ready": ready_json(state),
            "stake": None if self.spec.room is None else self.spec.room.stake,
            "beans": beans,
            "ranked": self.ranked,
            "ranks": await self._rank_moves(),
            "record": record,
        }
        series.match.finish_hand(state)  # the next dealer, streak and round wind
        if self.meter is not None:
            self.meter.hands.inc()
        log.info("hand %d settled: %s", series.number, result.kind)

    def _review_later(self, game: int) -> None:
        """Hand the settled hand to the unasked reviews (:mod:`erren.server.reviewlater`) for
        each player's seat (not a computer's; the guests are left out there), unless it ended by
        an escape; never waits."""
        state = self.series.state
        assert state is not None and state.result is not None
        if not self.review_hands or state.result.kind is ResultKind.ABORT:
            return
        players = [
            (i, seat.user_id)
            for i, seat in enumerate(self.seating.seats)
            if seat.user_id is not None and seat.bot is None
        ]
        if players:
            later_for(self.store).keep(game, state.record().to_dict(), players)

    @property
    def ranked(self) -> bool:
        """Whether the table's hands count for rank and rating: a quick match's in a bean room
        only.  A friend's private bean table (opened by invite) moves beans but never ranks:
        invites bypass quick match's rule against pairing the same two accounts again and
        again, so two friends could otherwise lift a rank by dumping hands to each other."""
        return self.spec.room is not None and self.spec.kind is TableKind.QUICK

    async def _rank_moves(self) -> list[dict[str, object] | None]:
        """Each seat's rank move by the settled hand (:func:`erren.server.ranks.move_json`),
        ``None`` for a seat it did not move (a guest, the computer, who stayed after an
        escape, any seat off the bean rooms or at a friend's private bean table)."""
        seats = [seat.user_id for seat in self.seating.seats]
        if not self.ranked or self.series.game_id is None:
            return [None, None]
        moves = {m.user_id: m for m in await self.store.ranks.moves_of(self.series.game_id)}
        return [
            None
            if user is None or (m := moves.get(user)) is None
            else move_json(m.step_before, m.points_before, m.step_after, m.points_after, m.change)
            for user in seats
        ]

    def _settled(self) -> SettledHand:
        """The finished hand as the store keeps it; rated (the hidden matchmaking rating) and
        ranked (the room's tier: its ranks move) only when the table is :attr:`ranked`, a quick
        match in a bean room — the store rates registered players only, so a hand against the
        computer is not rated either.  A friend's table moves neither: two friends could
        otherwise sink a rating to be paired with weaker players."""
        series = self.series
        state = series.state
        assert state is not None and state.result is not None and series.game_id is not None
        result = state.result
        seats = (self.seating.seats[0].user_id, self.seating.seats[1].user_id)
        return SettledHand(
            game_id=series.game_id,
            ruleset=series.ruleset.name,
            seats=seats,
            kind=result.kind,
            winner=result.winner,
            loser=result.loser,
            how=result.how,
            fan_total=result.fan_total,
            points=result.points,
            deltas=result.deltas,
            rated=self.ranked and None not in seats,
            tier=self.spec.room.tier.id if self.ranked and self.spec.room is not None else None,
        )

    async def _transfers(self) -> tuple[list[Transfer], list[int]]:
        """The bean transfers of the finished hand (bean rooms only) and each seat's beans: the
        hand's point deltas at the room's stake, limited by the payer's balance — converted
        once, by :func:`erren.server.settlement.to_beans`, as for every family; nothing for a new
        account's escape (:func:`erren.server.settlement.escape_pays`)."""
        from erren.server.store import Transfer  # noqa: PLC0415

        state = self.series.state
        assert state is not None and state.result is not None
        room = self.spec.room
        first, second = self.seating.seats[0].user_id, self.seating.seats[1].user_id
        if room is None or first is None or second is None:
            return [], [0, 0]
        ids = (first, second)
        balances = (await self.store.ledger.balance(first), await self.store.ledger.balance(second))
        move = to_beans(state.result.deltas, room.stake, balances)
        if move.payer is None or move.payee is None or move.paid <= 0:
            return [], [0, 0]
        if state.result.kind is ResultKind.ABORT and not escape_pays(
            await self.store.profiles.complete_hands(ids[move.payer]), self.new_player_hands
        ):
            return [], [0, 0]  # a new account's escape moves no bean (settlement.escape_pays)
        game = self.series.game_id
        reason = f"{self.series.ruleset.name} {room.tier.id} game {game}: {state.result.kind}"
        beans = list(move.deltas())
        return [Transfer(ids[move.payer], ids[move.payee], move.paid, reason)], beans

    # ------------------------------------------------------------------ called off
    def called_off_json(self, why: str) -> dict[str, Any]:
        """The record a called-off hand is stored with (``called_off``: why; no result), as
        the table's rules keep it."""
        record = self.series.record_json(self.spec.id, self.seating.seats)
        record["called_off"] = why
        return self.rules.called_off(record)

    async def call_off(self, why: str) -> None:
        """Finish the stored game as called off: no result, no beans, the seed revealed."""
        series = self.series
        assert series.state is not None and series.game_id is not None
        record = self.called_off_json(why)
        summary = f"hand {series.number} at {self.spec.id}: called off ({why}); no beans moved"
        game_id = series.game_id
        await self.scribe.durably(
            lambda: self.store.games.finish(game_id, record, summary, fence=self.scribe.fence)
        )
