"""The table's actor: its task takes the commands off the queue one at a time and dispatches
them; the players' own commands (join, act, ready, leave) and the restore after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from erren.bots.hints import reason
from erren.bots.levels import Level, level_bot
from erren.engine import Action, ActionKind, Match, Record, replay
from erren.server import work
from erren.server.fairness import Commitment, commit
from erren.server.logs import CURRENT_TABLE
from erren.server.protocol import ProtocolError, action_text, parse_action
from erren.server.review import review, review_json
from erren.server.table.commands import (
    Act,
    Advise,
    BotMove,
    Command,
    Gone,
    GraceOver,
    IdleOver,
    Join,
    Leave,
    Ready,
    ReadyOver,
    Resync,
    Review,
    SetTrustee,
    Sit,
    Timeout,
    WindowPass,
)
from erren.server.table.seats import Conn
from erren.server.table.spec import match_at
from erren.server.table.timers import Timers
from erren.server.work import Work
from erren.tiles import Tile

__all__ = ["Table"]

log = logging.getLogger("erren.server.table")


class Table(Timers):
    """The actor.  Build it, :meth:`start` it, and :meth:`submit` commands."""

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.spec.id}")
        self._touch()

    async def stop(self) -> None:
        """Cancel the actor (server shutdown): unfinished hands stay in the store."""
        self._cancel_timers()
        for task in list(self._reviewing):
            task.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        CURRENT_TABLE.set(self)  # this task's log lines (and its timers' and threads') name it
        while not self.closed:
            command = await self.queue.get()
            try:
                await self._handle(command)
            except Exception:
                log.exception("table %s failed on %r", self.spec.id, command)
                await self._fault()
                return

    async def _fault(self) -> None:
        """An unexpected failure: the hand in play (if any) is called off — nobody is charged
        for the server's fault — and the table closes."""
        if self.running and self.state is not None and self.game_id is not None:
            try:
                await self._call_off_record("the table failed")
            except Exception:
                log.exception("table %s: the failed hand is kept for a restart", self.spec.id)
                self.kept = True
        self._close("called-off", "the table failed; the hand is called off and nobody pays")

    async def _handle(self, command: Command) -> None:
        if isinstance(command, (Join, Act, SetTrustee, Ready)):
            self._touch()
        if isinstance(command, Act):
            await self._act(command)
        elif isinstance(command, Timeout):
            await self._timeout(command)
        elif isinstance(command, BotMove):
            await self._bot_move(command)
        elif isinstance(command, Join):
            await self._join(command)
        elif isinstance(command, Gone):
            await self._gone(command)
        elif isinstance(command, SetTrustee):
            await self._trustee(command)
        elif isinstance(command, Ready):
            await self._ready(command)
        elif isinstance(command, Leave):
            await self._leave(command)
        elif isinstance(command, Resync):
            self._snapshot(command.conn)
        elif isinstance(command, Sit):
            seat = self.seats[command.seat]
            seat.user_id, seat.name = command.user_id, command.name
            self._broadcast({"type": "table", "table": self.info()})
        elif isinstance(command, GraceOver):
            await self._grace_over(command.seat)
        elif isinstance(command, ReadyOver):
            self._ready_over(command.hand)
        elif isinstance(command, IdleOver):
            self._idle_over(command.stamp)
        elif isinstance(command, WindowPass):
            await self._window_passed(command)
        elif isinstance(command, Advise):
            await self._advise(command.conn)
        elif isinstance(command, Review):
            await self._review(command.conn)

    # ------------------------------------------------------------------ players' commands
    async def _join(self, cmd: Join) -> None:
        conn, seat = cmd.conn, cmd.seat
        if conn.closed:
            return
        info = self.seats[seat]
        for older in [c for c in info.conns if c is not conn]:
            # a second tab of the same account takes the seat over (the contract: 4409)
            info.conns.discard(older)
            older.table, older.seat = None, -1
            older.abort(
                {
                    "type": "replaced",
                    "code": "replaced",
                    "table": self.spec.id,
                    "message": "this seat was opened in another window or tab (已在别处打开)",
                    "params": {},
                },
                4409,
            )
        was_online = info.online
        paused = self.awaiting_restore
        info.conns.add(conn)
        info.back_since_restore = True
        conn.table, conn.seat = self, seat
        if paused and not self.awaiting_restore and self.running:
            self._arm()  # everyone is back after the restart: the timers run again
        if info.grace is not None:
            info.grace.cancel()
            info.grace = None
        state = self.state
        conn.send({"type": "joined", "table": self.info(), "seat": seat})
        last = -2
        if state is not None:
            last = self.end_event["n"] if self.end_event is not None else state.event_count
        since = cmd.since
        if (
            state is not None
            and cmd.game == self.game_id
            and since is not None
            and -1 <= since <= last
        ):
            conn.send(
                {
                    "type": "events",
                    "table": self.spec.id,
                    "game": self.game_id,
                    "events": self._events_for(seat, since),
                    "state": self._state_json(seat),
                }
            )
        else:
            self._snapshot(conn)
        if not was_online:
            self._broadcast({"type": "presence", "seat": seat, "online": True})
        # 托管 switched on while he was away stays on until he switches it off (§2.9)
        if state is None and not self.running:
            info.ready = True
            await self._maybe_start()

    async def _gone(self, cmd: Gone) -> None:
        conn = cmd.conn
        seat_no = conn.seat
        if seat_no < 0:
            return
        seat = self.seats[seat_no]
        if conn not in seat.conns:
            return  # replaced by a newer connection, or already gone
        seat.conns.discard(conn)
        if seat.online:
            return
        self._broadcast({"type": "presence", "seat": seat_no, "online": False})
        # Nothing is played for him now: the decision he faces keeps its own timer (§2.10);
        # 托管 starts at the first timeout while he is away (:meth:`_timeout`).
        if seat.grace is None and not self.closed:
            seat.grace = self._grace_timer(seat_no)

    async def _act(self, cmd: Act) -> None:
        conn = cmd.conn
        state = self.state
        if state is None or not self.running:
            self._error(conn, "no-hand", "no hand is being played at this table")
            return
        try:
            action = parse_action(cmd.text, conn.seat)
        except ProtocolError as err:
            self._error(conn, err.code, err.message)
            return
        if cmd.n is not None and cmd.n != state.event_count:
            self._error(
                conn,
                "stale",
                f"you acted on event {cmd.n} but the hand is at event {state.event_count}; "
                "nothing was done (resync or read the newer events)",
                last_n=state.event_count,
                params={"last_n": state.event_count},
            )
            return
        if self.seats[conn.seat].trustee_by_disconnect:
            self.seats[conn.seat].trustee_by_disconnect = False
        if self._hold_pass(action):
            return
        done = len(state.history)
        await self._apply(action, conn)
        meter = self.meter
        if meter is not None and cmd.received and len(state.history) > done:
            meter.latency.observe(time.perf_counter() - cmd.received)

    async def _advise(self, conn: Conn) -> None:
        """``{"type": "advice", "n", "action", "reason"}`` to ``conn`` alone: the ``expert``'s
        move for his seat at event ``n``, chosen from his observation and nothing else
        (``action`` is ``null`` when he has no decision to make), and why in a short phrase,
        ``{"code", "params"}`` (:func:`erren.bots.hints.reason`, from the same observation).
        One expert decision per event and seat: a second request at the same event is answered
        from the first."""
        state, seat = self.state, conn.seat
        if state is None or not self.running or seat < 0 or state.actor != seat:
            n = None if state is None else state.event_count
            conn.send({"type": "advice", "n": n, "action": None, "reason": None})
            return
        n = state.event_count
        key = (self.game_id or 0, seat, len(state.history))  # this hand's decision
        given = self._advice.get(key)
        if given is None:
            obs = state.observe(seat)
            if not obs.legal_actions:
                conn.send({"type": "advice", "n": n, "action": None, "reason": None})
                return
            adviser = self.adviser()
            try:
                action = await work.run(Work.ADVICE, adviser.choose, obs, obs.legal_actions)
            except work.BusyError as err:
                self._error(conn, "busy", str(err), params={"work": err.work.value})
                return
            if self.state is not state or key[2] != len(state.history):
                # the hand moved on
                conn.send({"type": "advice", "n": n, "action": None, "reason": None})
                return
            why = reason(obs, action)
            given = (action_text(action), {"code": why.code, "params": why.params})
            self._advice = {key: given}
        conn.send({"type": "advice", "n": n, "action": given[0], "reason": given[1]})

    async def _review(self, conn: Conn) -> None:
        """``{"type": "review", "game", ...}`` to ``conn`` alone, once the hand is over: what
        the computer (高手) would have done at his own decisions, the costliest first
        (:mod:`erren.server.review`; each decision from his observation at that moment).
        Worked out in the review's own worker (:mod:`erren.server.work`) on request, kept for
        a second request; refused while a hand runs or before the first one."""
        state, seat, game = self.state, conn.seat, self.game_id
        if state is None or self.running or seat < 0 or game is None:
            self._error(conn, "no-review", "the review is ready once a hand is over")
            return
        key = (game, seat)
        body = self._reviews.get(key)
        if body is not None:
            conn.send({"type": "review", "game": game, **body})
            return
        # worked out beside the actor: a review takes seconds on a busy machine, and the
        # table's other messages (the opponent's, the next hand's) must not wait for it
        worker = self._work_out_review(conn, key, state.record())
        task = asyncio.create_task(worker, name=f"review {self.spec.id} {game}:{seat}")
        self._reviewing.add(task)
        task.add_done_callback(self._reviewing.discard)

    async def _work_out_review(self, conn: Conn, key: tuple[int, int], record: Record) -> None:
        """Review ``record`` for the seat of ``key`` (game, seat), keep it, send it to ``conn``."""
        game, seat = key
        bot = level_bot(Level.STRONG, seed=game, ruleset=self.ruleset)
        try:
            decisions, count = await work.run(Work.REVIEW, review, record, seat, bot)
        except work.BusyError as err:
            self._error(conn, "busy", str(err), params={"work": err.work.value})
            return
        except ValueError as err:  # the kernel or the bot could not read a position
            log.warning("table %s: no review of game %s: %s", self.spec.id, game, err)
            self._error(conn, "no-review", "this hand cannot be reviewed")
            return
        body = review_json(decisions, count)
        if self.game_id == game:  # not yet replaced by the next hand's
            self._reviews = {key: body}
        conn.send({"type": "review", "game": game, **body})

    async def _leave(self, cmd: Leave) -> None:
        seat = cmd.conn.seat
        if self.running:
            await self._system(Action.make(ActionKind.ESCAPE, seat))
        else:
            self._close("left", f"{self.seats[seat].name} left the table", params={"seat": seat})

    async def _ready(self, cmd: Ready) -> None:
        if self.running:
            self._error(cmd.conn, "hand-running", "the hand is still being played")
            return
        self.seats[cmd.conn.seat].ready = True
        self._broadcast({"type": "ready", "seat": cmd.conn.seat})
        await self._maybe_start()

    # ------------------------------------------------------------------ restore
    def _pick_up(self, meta: dict[str, Any]) -> Match:
        """The hand number and the match (dealer, streak, round wind) as ``meta`` keeps them
        (:meth:`_meta`)."""
        self.hand_no = int(meta.get("hand", 1))
        dealer = int(meta.get("dealer", 0))
        self.match = match_at(
            self.ruleset,
            dealer=dealer,
            streak=int(meta.get("streak", 0)),
            round_wind=Tile(int(meta.get("round_wind", Tile.EAST))),
            first_dealer=int(meta.get("first_dealer", dealer)),
        )
        return self.match

    def restore_between_hands(self, meta: dict[str, Any]) -> None:
        """Pick up a table that had no hand under way (another node's, which died): waiting
        for its players as before; ``meta`` is :meth:`idle_meta` (hand 0: none played yet)."""
        self._pick_up(meta)

    def idle_meta(self) -> dict[str, Any]:
        """What another node needs to pick this table up while no hand is under way (before
        the first deal, between hands): the stored game's meta, with the hand last played
        and the match as it stands for the next one, and the seats' accounts."""
        return {
            **self._meta(),
            "seats": [s.user_id for s in self.seats],
            "game": self.game_id,
        }

    def restore(
        self, game_id: int, meta: dict[str, Any], seed: int, salt: str, actions: list[str]
    ) -> None:
        """Rebuild the hand of an unfinished stored game (after a restart) by replaying it."""
        match = self._pick_up(meta)
        record = Record(
            ruleset=self.ruleset.name,
            options=self.ruleset.options_dict(),
            seed=seed,
            dealer=match.dealer,
            round_wind=match.round_wind,
            actions=tuple(actions),
            streak=match.streak if self.ruleset.uses_streak else 0,
        )
        state = replay(record)
        self._begin(state, game_id, Commitment(seed, salt, commit(seed, salt)))
        self._persisted = len(actions)
        for seat_no, seat in enumerate(self.seats):
            if seat.bot is None:
                # a player who does not come back within the grace period has the hand
                # called off (the restart was the server's fault, not his)
                seat.back_since_restore = False
                seat.grace = self._grace_timer(seat_no)

    async def resume(self) -> None:
        """Play on after :meth:`restore`: finish a hand that ended before the crash, or run
        its timers."""
        state = self.state
        assert state is not None
        if state.is_terminal:
            await self._durably(self._finish_hand)
        else:
            self._arm()
