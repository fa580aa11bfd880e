"""A table's timers: the decision timer (a player's turn or claim, a computer's move, a
pass-only window), the 鸣牌保护 pause of a claim window, the wait for ready, the idle table and
each away player's grace.  A timer that rings puts a command on the table's queue; the actor
decides what it means (the timers hold no game state)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from enum import StrEnum

from erren.engine import Action, ActionKind, Family, Observation, State
from erren.engine.state import Phase
from erren.server.clock import Clock, Timer
from erren.server.table.commands import (
    BotMove,
    Command,
    GraceOver,
    IdleOver,
    ReadyOver,
    Timeout,
    WindowPass,
)
from erren.server.table.seats import Seating
from erren.server.table.spec import TableConfig

__all__ = ["Clocks", "TimerKind", "pass_only"]

_IDLE_SLACK_S = 0.001
"""A timer may ring this much before the idle deadline (the loop's clock resolution)."""


class TimerKind(StrEnum):
    """What the running decision timer waits for (``turn`` and ``claim`` are the wire values
    of an observation's timer)."""

    TURN = "turn"
    """A player's turn after his draw (the family's turn timer)."""
    CLAIM = "claim"
    """A player's answer to a tile, or a turn in 报听 (the family's claim timer)."""
    COMPUTER = "computer"
    """A computer player's thinking time."""
    WINDOW = "window"
    """A window whose only move is pass, passed by the table after the 鸣牌保护 pause."""


def pass_only(state: State, seat: int) -> bool:
    """Whether pass is the only move of ``seat``, the seat to act."""
    legal = state.legal_actions(seat)
    return len(legal) == 1 and legal[0].kind is ActionKind.PASS


class Clocks:
    """Every timer of one table; ``submit`` puts what a timer rings with on its queue."""

    def __init__(
        self, clock: Clock, config: TableConfig, submit: Callable[[Command], None]
    ) -> None:
        self.clock = clock
        self.config = config
        self.submit = submit
        self.decision: Timer | None = None
        """The running decision timer (:attr:`kind`, :attr:`seconds` long in real time)."""
        self.kind: TimerKind | None = None
        self.seconds = 0.0
        self.ready: Timer | None = None
        """The wait for both players to be ready for the next hand."""
        self.idle_stamp = 0
        """Counts the players' doings: an :class:`IdleOver` of an older stamp is stale."""
        self._idle: Timer | None = None
        self._idle_due = 0.0
        """When (loop time) the table is idle unless someone plays first."""
        self._window_at: float | None = None
        """When (loop time) the running claim window opened, at tables where a human decides."""
        self._window_pass: Timer | None = None

    # ------------------------------------------------------------------ the decision
    def arm(self, state: State | None, seating: Seating, ruleset: Family) -> None:
        """Run the timer of the decision now due: a bot's move, a pass-only window's pass, or
        the turn/claim timer of the player to act (none while a restored hand waits for its
        players)."""
        self._stop_decision()
        if self._window_pass is not None:
            self._window_pass.cancel()
            self._window_pass = None
        self._window_at = None
        if state is None or state.is_terminal or state.actor < 0:
            return
        if seating.awaiting_restore:
            return  # restored after a restart: nothing moves until everyone is back
        actor = state.actor
        version = len(state.history)
        human = seating.seats[actor].bot is None
        only_pass = human and pass_only(state, actor)
        if human and (state.in_window or only_pass):
            # 鸣牌保护: a human answers a tile (a discard, a 加杠, a family's post-draw tile);
            # the window lasts at least the minimum pause, choice or not.  A decision whose
            # only move is pass (such a window, or one a family opens for every seat in turn,
            # as xiamen's 三金倒/抢金 window, R-2.3) is no decision: the table passes it then
            self._window_at = asyncio.get_running_loop().time()
            if only_pass:
                pause = self.config.claim_min_pause_s
                self._start(
                    TimerKind.WINDOW, pause, self.clock.real(pause), WindowPass(actor, version)
                )
                return
        if not human:
            delay = self.config.bot_delay_s
            self._start(TimerKind.COMPUTER, delay, delay, BotMove(actor, version))
            return
        kind = (
            TimerKind.CLAIM
            if state.phase is not Phase.TURN or state.ting[actor]
            else TimerKind.TURN
        )
        seconds = (
            self.config.claim_timeout_s or ruleset.claim_timeout_s
            if kind is TimerKind.CLAIM
            else self.config.turn_timeout_s or ruleset.turn_timeout_s
        )
        self._start(kind, seconds, self.clock.real(seconds), Timeout(actor, version))

    def _start(self, kind: TimerKind, game_s: float, shown_s: float, rings: Command) -> None:
        self.kind, self.seconds = kind, shown_s
        self.decision = self.clock.call_later(game_s, lambda: self.submit(rings))

    def _stop_decision(self) -> None:
        if self.decision is not None:
            self.decision.cancel()
            self.decision = None

    def hand_over(self) -> None:
        """The hand ended: no decision is due."""
        self._stop_decision()

    def deadline_for(self, obs: Observation) -> tuple[float | None, float | None]:
        """The deadline (wall seconds) and length of the observing seat's own decision, or
        ``None``s: only the seat that decides hears its deadline (鸣牌保护: the discarder sees
        the same thing whether or not the opponent had a choice)."""
        timer = obs.timer
        if timer is not None and timer.player == obs.player and self.decision is not None:
            return self.decision.deadline, self.seconds
        return None, None

    # ------------------------------------------------------------------ 鸣牌保护
    def hold_pass(self, state: State | None, action: Action) -> bool:
        """鸣牌保护: a pass sent before the window's minimum pause is over is applied when it
        is over (a quick pass must not tell the discarder that there was a choice)."""
        if (
            self._window_at is None
            or action.kind is not ActionKind.PASS
            or state is None
            or action.player != state.actor
            or action not in state.legal_actions(action.player)
        ):
            return False
        left = self._window_at + self.clock.real(self.config.claim_min_pause_s)
        left -= asyncio.get_running_loop().time()
        if left <= 0:
            return False
        if self._window_pass is not None:
            self._window_pass.cancel()
        rings = WindowPass(action.player, len(state.history))
        self._window_pass = self.clock.call_later(
            left / self.clock.scale, lambda: self.submit(rings)
        )
        return True

    def window_passed(self) -> None:
        """The held pass rang (:class:`WindowPass`)."""
        self._window_pass = None

    # ------------------------------------------------------------------ between hands
    def wait_ready(self, hand: int) -> None:
        """Give the players of ``hand``, just settled, the ready timeout for the next."""
        self.ready = self.clock.call_later(
            self.config.ready_timeout_s, lambda: self.submit(ReadyOver(hand))
        )

    def stop_ready(self) -> None:
        if self.ready is not None:
            self.ready.cancel()
            self.ready = None

    def grace(self, seat: int) -> Timer:
        """The grace period of the player at ``seat``, who went away."""
        return self.clock.call_later(self.config.grace_s, lambda: self.submit(GraceOver(seat)))

    # ------------------------------------------------------------------ idle tables
    def touch(self) -> None:
        """A player did something: the idle timer starts again.  Every move touches the table,
        so the timer is not replaced each time (a cancelled timer stays in the event loop's
        heap, and a thousand tables' moves would keep it full of them): the new deadline is
        noted, and a timer that rings before it waits again for the rest (:meth:`_idle_ring`)."""
        self.idle_stamp += 1
        timeout = self.config.idle_timeout_s
        self._idle_due = asyncio.get_running_loop().time() + self.clock.real(timeout)
        if self._idle is None:
            self._idle = self.clock.call_later(timeout, self._idle_ring)

    def _idle_ring(self) -> None:
        """The idle timer rang: nobody has played since its deadline (``IdleOver``), or wait
        for the deadline the last move set."""
        left = self._idle_due - asyncio.get_running_loop().time()
        if left > _IDLE_SLACK_S:
            self._idle = self.clock.call_later(left / self.clock.scale, self._idle_ring)
            return
        self._idle = None
        self.submit(IdleOver(self.idle_stamp))

    # ------------------------------------------------------------------ closing
    def cancel_all(self, seating: Seating) -> None:
        """Stop every timer of the table (it closes, or the server stops)."""
        timers = (self.decision, self.ready, self._idle, self._window_pass)
        for timer in (*timers, *(s.grace for s in seating.seats)):
            if timer is not None:
                timer.cancel()
        self._idle = None  # a later touch sets a new one
