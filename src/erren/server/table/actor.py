"""The table's actor: its task takes the commands off the queue one at a time, matches each
and hands the work to the collaborators it holds; the players' own moves (act, 托管, ready,
leave), closing, and the restore after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, assert_never

from erren.engine import Action, ActionKind, Family, Match, State, find_family
from erren.server.clock import Clock
from erren.server.fairness import Commitment, commit
from erren.server.logs import CURRENT_TABLE
from erren.server.protocol import ProtocolError, error_json, parse_action
from erren.server.reviewing import desk_for
from erren.server.table import commands as cmds
from erren.server.table.adviser import Adviser
from erren.server.table.autopilot import Autopilot
from erren.server.table.chatter import Chatter
from erren.server.table.clocks import Clocks
from erren.server.table.finisher import Finisher
from erren.server.table.hands import Hands
from erren.server.table.presence import Presence
from erren.server.table.reporter import Reporter
from erren.server.table.rules import PlainRules, TableRules
from erren.server.table.scribe import Scribe
from erren.server.table.seats import Seat, Seating
from erren.server.table.series import Series
from erren.server.table.spec import CloseCode, TableConfig, TableSpec, with_claim_privacy
from erren.server.table.watchers import Watchers

if TYPE_CHECKING:
    from erren.server.journal import Journal
    from erren.server.metrics import FamilyMetrics
    from erren.server.store import Store

__all__ = ["Table"]

log = logging.getLogger("erren.server.table")


class Table:
    """The actor.  Build it, :meth:`start` it, and :meth:`submit` commands.

    It holds its collaborators: the :class:`~.seats.Seating` (seats, connections), the
    :class:`~.series.Series` (rules, match, current hand), the :class:`~.clocks.Clocks`, the
    :class:`~.scribe.Scribe` (durable writes), the :class:`~.hands.Hands` (deal, apply),
    the :class:`~.finisher.Finisher` (settlement, call-off), the :class:`~.presence.Presence`
    (join, gone, grace), the :class:`~.autopilot.Autopilot` (timeouts, computer moves), the
    :class:`~.adviser.Adviser` (advice, review) and the table's own :class:`~.rules.TableRules`
    (:class:`~.rules.PlainRules`, or a campaign's)."""

    def __init__(
        self,
        spec: TableSpec,
        seats: list[Seat],
        store: Store,
        *,
        clock: Clock,
        config: TableConfig,
        rng: random.Random | None = None,
        on_close: Callable[[Table], None] | None = None,
        journal: Journal | None = None,
        rules: TableRules | None = None,
    ) -> None:
        self.spec = spec
        self.config = config
        self.rng = rng
        self.rules: TableRules = rules or PlainRules()
        self.on_close = on_close
        self._guest_watchers: list[Callable[[Table], None]] = []
        """Called once the table no longer waits for a player in its second seat
        (:meth:`watch_guest`)."""
        self.on_idle: Callable[[Table], Awaitable[None]] | None = None
        """Awaited when a hand has been settled and the table waits for the next, before the
        players hear of it (a cluster node records it, so that another node can pick the table
        up if this one dies); it never raises."""
        self.queue: asyncio.Queue[cmds.Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.close_reason = ""
        self.close_code: CloseCode | None = None
        self.kept = False
        """The failed table's unfinished game is still in the store (restored at the next
        start): its players are not freed into new tables meanwhile."""
        self.seating = Seating(seats)
        ruleset = with_claim_privacy(find_family(spec.family, spec.options))
        self.seating.bind_bots(ruleset)
        match = Match(ruleset, seed=rng.getrandbits(64) if rng is not None else None)
        self.series = Series(ruleset, match)
        self.clocks = Clocks(clock, config, self.submit)
        self.scribe = Scribe(
            store,
            journal,
            table_id=spec.id,
            retry_max_s=config.store_retry_max_s,
            tell=self.seating.broadcast,
        )
        self.watchers = Watchers.of(spec, self.seating, config)
        self.reporter = Reporter(spec.id, self.seating, self.series, self.clocks, self.watchers)
        self.finisher = Finisher(
            spec,
            self.seating,
            self.series,
            self.scribe,
            self.rules,
            new_player_hands=config.new_player_hands,
            review_hands=config.review_hands,
        )
        self.hands = Hands(
            self,
            spec,
            self.seating,
            self.series,
            clocks=self.clocks,
            scribe=self.scribe,
            finisher=self.finisher,
            reporter=self.reporter,
            rules=self.rules,
            rng=rng,
        )
        self.presence = Presence(
            self,
            self.seating,
            self.series,
            clocks=self.clocks,
            hands=self.hands,
            reporter=self.reporter,
        )
        self.autopilot = Autopilot(self.seating, self.series, self.clocks, self.hands)
        self.adviser = Adviser(spec.id, self.series, rng, lambda: desk_for(store))
        self.chatter = Chatter(spec.id, self.seating, clock, store.social.blocks_among)

    # ------------------------------------------------------------------ what it shows
    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def ruleset(self) -> Family:
        """The rules of the current (or next) hand."""
        return self.series.ruleset

    @property
    def state(self) -> State | None:
        """The current (or last) hand's engine state."""
        return self.series.state

    @property
    def game_id(self) -> int | None:
        return self.series.game_id

    @property
    def running(self) -> bool:
        """A hand is in progress (from the deal to its settlement)."""
        return self.series.running

    @property
    def dealer(self) -> int:
        """The dealer of the current (or next) hand."""
        return self.series.match.dealer

    @property
    def full(self) -> bool:
        return self.seating.full

    @property
    def fence(self) -> int | None:
        """The lease token this node holds for the table (a cluster node; ``None`` on a single
        server): every write of its games carries it (:mod:`erren.server.cluster.leases`)."""
        return self.scribe.fence

    @fence.setter
    def fence(self, token: int | None) -> None:
        self.scribe.fence = token

    @property
    def store_failures(self) -> int:
        """Failed database writes in a row (0: the store is fine)."""
        return self.scribe.failures

    @property
    def meter(self) -> FamilyMetrics | None:
        """Where the table counts its actions, latencies and hands (the lobby sets it)."""
        return self.scribe.meter

    @meter.setter
    def meter(self, meter: FamilyMetrics | None) -> None:
        self.scribe.meter = self.finisher.meter = meter

    def seat_of(self, user_id: int) -> int | None:
        return self.seating.seat_of(user_id)

    def watch_guest(self, watcher: Callable[[Table], None]) -> None:
        """Call ``watcher`` once the table no longer waits for a player in its second seat:
        someone sat there, or it closed (at once if it already has; an invite's end,
        :func:`erren.server.routes.friends.invite`)."""
        if self.closed or self.seats[1].user_id is not None:
            watcher(self)
        else:
            self._guest_watchers.append(watcher)

    def guest_settled(self) -> None:
        """The table no longer waits for its guest: tell the watchers (:meth:`watch_guest`)."""
        watchers, self._guest_watchers = self._guest_watchers, []
        for watcher in watchers:
            watcher(self)

    def info(self) -> dict[str, Any]:
        return {
            **self.spec.to_json(),
            "seats": self.seating.to_json(),
            "hand": self.series.number,
            "game": self.series.game_id,
            "running": self.series.running,
            "closed": self.closed,
        }

    # ------------------------------------------------------------------ the actor
    def submit(self, command: cmds.Command) -> None:
        if not self.closed:
            self.queue.put_nowait(command)

    def submit_sit(self, seat: int, user_id: int, name: str) -> None:
        self.submit(cmds.Sit(seat, user_id, name))

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.spec.id}")
        self._touch()

    async def stop(self) -> None:
        """Cancel the actor (server shutdown): unfinished hands stay in the store."""
        self.clocks.cancel_all(self.seating)
        self.adviser.stop()
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
        series = self.series
        if series.running and series.state is not None and series.game_id is not None:
            try:
                await self.finisher.call_off("the table failed")
            except Exception:
                log.exception("table %s: the failed hand is kept for a restart", self.spec.id)
                self.kept = True
        self.close(CloseCode.CALLED_OFF, "the table failed; the hand is called off and nobody pays")

    async def _handle(self, command: cmds.Command) -> None:
        match command:
            case cmds.Act():
                self._touch()
                await self._act(command)
            case cmds.Timeout():
                await self.autopilot.timeout(command)
            case cmds.BotMove():
                await self.autopilot.bot_move(command)
            case cmds.Join():
                self._touch()
                await self.presence.join(command, self)
                self.watchers.greet(command.conn)
            case cmds.Gone():
                self.presence.gone(command)
            case cmds.SetTrustee():
                self._touch()
                await self._trustee(command)
            case cmds.Ready():
                self._touch()
                await self._ready(command)
            case cmds.Leave():
                await self._leave(command.conn.seat)
            case cmds.Resync():
                self.reporter.snapshot(command.conn, self.info())
            case cmds.Sit():
                self.presence.sit(command)
            case cmds.GraceOver():
                await self.presence.grace_over(command.seat)
            case cmds.ReadyOver():
                self._ready_over(command.hand)
            case cmds.IdleOver():
                self._idle_over(command.stamp)
            case cmds.WindowPass():
                await self.autopilot.window_passed(command)
            case cmds.Advise():
                await self.adviser.advise(command.conn)
            case cmds.Review():
                self.adviser.review(command.conn)
            case cmds.Watch() | cmds.Unwatch():  # a spectator is not a player: no touch
                self.watchers.handle(command, self.info())
            case cmds.Chat():  # never the game's business: no touch, no timer, no record
                await self.chatter.say(command)
            case cmds.Deal():
                if not self.running and not self.closed:
                    self._touch()  # a stake is the player's doing: the table is not idle
                    await self.hands.deal_planned(command.plan)
            case cmds.Abandon():
                await self._abandon(command)
            case _:
                assert_never(command)

    # ------------------------------------------------------------------ players' moves
    async def _act(self, cmd: cmds.Act) -> None:
        conn = cmd.conn
        state = self.series.state
        if state is None or not self.running:
            conn.send(error_json("no-hand", "no hand is being played at this table"))
            return
        try:
            action = parse_action(cmd.text, conn.seat)
        except ProtocolError as err:
            conn.send(error_json(err.code, err.message))
            return
        if cmd.n is not None and cmd.n != state.event_count:
            conn.send(
                error_json(
                    "stale",
                    f"you acted on event {cmd.n} but the hand is at event {state.event_count}; "
                    "nothing was done (resync or read the newer events)",
                    last_n=state.event_count,
                    params={"last_n": state.event_count},
                )
            )
            return
        if self.seats[conn.seat].trustee_by_disconnect:
            self.seats[conn.seat].trustee_by_disconnect = False
        if self.clocks.hold_pass(state, action):
            return
        done = len(state.history)
        await self.hands.apply(action, conn)
        meter = self.meter
        if meter is not None and cmd.received and len(state.history) > done:
            meter.latency.observe(time.perf_counter() - cmd.received)

    async def _trustee(self, cmd: cmds.SetTrustee) -> None:
        state = self.series.state
        if not self.running or state is None:
            cmd.conn.send(error_json("no-hand", "托管 applies to a running hand"))
            return
        seat = cmd.conn.seat
        info = self.seats[seat]
        info.trustee_by_disconnect = False
        if state.trustee[seat] == cmd.on:
            return
        limit = self.config.trustee_toggles
        if info.toggles >= limit:
            cmd.conn.send(
                error_json(
                    "trustee-limit",
                    f"托管 may be switched at most {limit} times per hand; it stays "
                    f"{'on' if state.trustee[seat] else 'off'} until the hand ends",
                    params={"limit": limit},
                )
            )
            return
        info.toggles += 1
        await self.hands.system(Action.trustee(seat, cmd.on))

    async def _ready(self, cmd: cmds.Ready) -> None:
        if self.running:
            cmd.conn.send(error_json("hand-running", "the hand is still being played"))
            return
        self.seats[cmd.conn.seat].ready = True
        self.seating.broadcast({"type": "ready", "seat": cmd.conn.seat})
        await self.hands.maybe_start()

    async def _leave(self, seat: int) -> None:
        if self.running:
            await self.hands.system(Action.make(ActionKind.ESCAPE, seat))
        else:
            self.close(
                CloseCode.LEFT, f"{self.seats[seat].name} left the table", params={"seat": seat}
            )

    async def _abandon(self, cmd: cmds.Abandon) -> None:
        if self.running:
            await self.hands.system(Action.make(ActionKind.ESCAPE, cmd.seat))
        self.close(CloseCode.LEFT, cmd.reason, params={"seat": cmd.seat})

    # ------------------------------------------------------------------ between hands
    def _touch(self) -> None:
        """A player did something: the table is not idle."""
        if not self.closed:
            self.clocks.touch()

    def _ready_over(self, hand: int) -> None:
        if self.closed or self.running or hand != self.series.number:
            return
        late = [i for i, s in enumerate(self.seats) if not s.ready]
        if late:
            names = ", ".join(self.seats[i].name for i in late)
            self.close(
                CloseCode.NOT_READY,
                f"{names} did not get ready for the next hand",
                params={"seats": late},
            )

    def _idle_over(self, stamp: int) -> None:
        if self.closed or stamp != self.clocks.idle_stamp:
            return
        if self.running:  # the hand's own timers bring it to its end
            self._touch()
            return
        minutes = self.config.idle_timeout_s / 60
        self.close(
            CloseCode.IDLE,
            f"nobody played at this table for {minutes:g} minutes; it is closed",
            params={"seconds": self.config.idle_timeout_s},
        )

    async def now_idle(self) -> None:
        """A hand was settled and the table waits for the next: :attr:`on_idle`."""
        if self.on_idle is not None:
            await self.on_idle(self)

    # ------------------------------------------------------------------ closing
    def close(
        self,
        code: CloseCode,
        reason: str,
        *,
        params: dict[str, Any] | None = None,
        personal: dict[int, dict[str, Any]] | None = None,
        after: bool = False,
    ) -> None:
        """Close the table (after the last events went out when ``after``) and tell both
        seats why: ``{"type": "closed", "table", "code", "reason", "params"}``; ``personal``
        gives a seat its own code, reason and params (a balance only its owner may hear)."""
        if self.closed:
            return
        self.clocks.cancel_all(self.seating)
        self.closed = True
        self.close_reason = reason
        self.close_code = code

        def message_of(seat: int) -> dict[str, Any]:
            message: dict[str, Any] = {
                "type": "closed",
                "table": self.spec.id,
                "code": code.value,
                "reason": reason,
                "params": dict(params or {}),
            }
            if personal is not None and seat in personal:
                message.update(personal[seat])
            return message

        def tell() -> None:
            self.seating.send_off(message_of)
            self.watchers.send_off(message_of(-1))
            self.guest_settled()
            if self.on_close is not None:
                self.on_close(self)

        if after:
            asyncio.get_running_loop().call_soon(tell)
        else:
            tell()

    async def call_off(self, why: str) -> None:
        """Call the running hand off (no result, nobody pays) and close the table with code
        ``called-off``."""
        await self.hands.call_off(why)

    # ------------------------------------------------------------------ restore
    def restore_between_hands(self, meta: dict[str, Any]) -> None:
        """Pick up a table that had no hand under way (another node's, which died): waiting
        for its players as before; ``meta`` is :meth:`idle_meta` (hand 0: none played yet)."""
        self.series.pick_up(meta)

    def idle_meta(self) -> dict[str, Any]:
        """What another node needs to pick this table up while no hand is under way (before
        the first deal, between hands): the stored game's meta, with the hand last played
        and the match as it stands for the next one, and the seats' accounts."""
        return {
            **self.hands.meta(),
            "seats": [s.user_id for s in self.seats],
            "game": self.series.game_id,
        }

    def restore(
        self, game_id: int, meta: dict[str, Any], seed: int, salt: str, actions: list[str]
    ) -> None:
        """Rebuild the hand of an unfinished stored game (after a restart) by replaying it."""
        self.hands.restore(game_id, meta, Commitment(seed, salt, commit(seed, salt)), actions)

    async def resume(self) -> None:
        """Play on after :meth:`restore`: finish a hand that ended before the crash, or run
        its timers."""
        await self.hands.resume()
