"""A table's timers and 托管: the turn and claim timers, a computer player's move, the grace
period of a player away, the 鸣牌保护 claim window and the wait for ready."""

from __future__ import annotations

import asyncio

from erren.engine import Action, ActionKind
from erren.engine.state import Phase
from erren.server import work
from erren.server.clock import Timer
from erren.server.table.commands import BotMove, GraceOver, SetTrustee, Timeout, WindowPass
from erren.server.table.hands import Hands
from erren.server.work import Work

__all__ = ["Timers"]


class Timers(Hands):
    """What happens at a table when nobody (or a computer) acts."""

    def _arm(self) -> None:
        """The running timer: a bot's move, or the turn/claim timer of the player to act."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._window_pass is not None:
            self._window_pass.cancel()
            self._window_pass = None
        self._window_at = None
        state = self.state
        if state is None or state.is_terminal or state.actor < 0:
            return
        if self.awaiting_restore:
            return  # restored after a restart: nothing moves until everyone is back
        actor = state.actor
        version = len(state.history)
        if self.seats[actor].bot is None and (state.in_window or self._pass_only(actor)):
            # 鸣牌保护: a human answers a tile (a discard, a 加杠, a family's post-draw tile);
            # the window lasts at least the minimum pause, choice or not.  A decision whose
            # only move is pass (such a window, or one a family opens for every seat in turn,
            # as xiamen's 三金倒/抢金 window, R-2.3) is no decision: the table passes it then
            self._window_at = asyncio.get_running_loop().time()
            if self._pass_only(actor):
                pause = self.config.claim_min_pause_s
                self._timer_seconds = self.clock.real(pause)
                self._timer = self.clock.call_later(
                    pause, lambda: self.submit(WindowPass(actor, version))
                )
                return
        if self.seats[actor].bot is not None:
            self._timer = self.clock.call_later(
                self.config.bot_delay_s, lambda: self.submit(BotMove(actor, version))
            )
            self._timer_seconds = self.config.bot_delay_s
            return
        claim = state.phase is not Phase.TURN or state.ting[actor]
        seconds = (
            self.config.claim_timeout_s or self.ruleset.claim_timeout_s
            if claim
            else self.config.turn_timeout_s or self.ruleset.turn_timeout_s
        )
        self._timer_seconds = self.clock.real(seconds)
        self._timer = self.clock.call_later(seconds, lambda: self.submit(Timeout(actor, version)))

    def _pass_only(self, seat: int) -> bool:
        """Whether pass is the only move of ``seat``, the seat to act."""
        assert self.state is not None
        legal = self.state.legal_actions(seat)
        return len(legal) == 1 and legal[0].kind is ActionKind.PASS

    async def _timeout(self, cmd: Timeout) -> None:
        state = self.state
        if state is None or not self.running or cmd.version != len(state.history):
            return
        if state.actor != cmd.seat:
            return
        await self._system(Action.make(ActionKind.TIMEOUT, cmd.seat))
        seat = self.seats[cmd.seat]
        if (
            not seat.online
            and self.running
            and self.state is not None
            and not self.state.trustee[cmd.seat]
        ):
            # away when his own timer ran out: from now on he is in 托管 (§2.10)
            seat.trustee_by_disconnect = True
            await self._system(Action.trustee(cmd.seat, True))

    async def _bot_move(self, cmd: BotMove) -> None:
        state = self.state
        bot = self.seats[cmd.seat].bot
        if state is None or not self.running or bot is None or cmd.version != len(state.history):
            return
        legal = state.legal_actions(cmd.seat)
        if not legal:
            return
        if bot.blind:
            action = bot.pick(legal)
        elif not bot.deliberate:
            action = bot.choose(state.observe(cmd.seat), legal)
        else:
            # a decision may take the expert's whole budget (150 ms): it runs in the
            # computer's own threads (erren.server.work), so the other tables play on; this
            # table's actor waits for it, which keeps its commands in order (the bot decides
            # from the observation, a copy)
            action = await work.run(Work.COMPUTER, bot.choose, state.observe(cmd.seat), legal)
            if self.state is not state or not self.running or cmd.version != len(state.history):
                return
        await self._apply(action, None)

    async def _trustee(self, cmd: SetTrustee) -> None:
        if not self.running or self.state is None:
            self._error(cmd.conn, "no-hand", "托管 applies to a running hand")
            return
        seat = cmd.conn.seat
        info = self.seats[seat]
        info.trustee_by_disconnect = False
        if self.state.trustee[seat] == cmd.on:
            return
        limit = self.config.trustee_toggles
        if info.toggles >= limit:
            self._error(
                cmd.conn,
                "trustee-limit",
                f"托管 may be switched at most {limit} times per hand; it stays "
                f"{'on' if self.state.trustee[seat] else 'off'} until the hand ends",
                params={"limit": limit},
            )
            return
        info.toggles += 1
        await self._system(Action.trustee(seat, cmd.on))

    # ------------------------------------------------------------------ presence
    def _grace_timer(self, seat_no: int) -> Timer:
        return self.clock.call_later(self.config.grace_s, lambda: self.submit(GraceOver(seat_no)))

    async def _grace_over(self, seat_no: int) -> None:
        seat = self.seats[seat_no]
        seat.grace = None
        if seat.online or self.closed:
            return
        if self.running and not seat.back_since_restore:
            await self.call_off(f"{seat.name} did not come back after the server restarted")
        elif self.running:
            await self._system(Action.make(ActionKind.ESCAPE, seat_no))
        else:
            self._close("left", f"{seat.name} left the table", params={"seat": seat_no})

    def _ready_over(self, hand: int) -> None:
        if self.closed or self.running or hand != self.hand_no:
            return
        late = [i for i, s in enumerate(self.seats) if not s.ready]
        if late:
            names = ", ".join(self.seats[i].name for i in late)
            self._close(
                "not-ready",
                f"{names} did not get ready for the next hand",
                params={"seats": late},
            )

    # ------------------------------------------------------------------ 鸣牌保护
    def _hold_pass(self, action: Action) -> bool:
        """鸣牌保护: a pass sent before the window's minimum pause is over is applied when it
        is over (a quick pass must not tell the discarder that there was a choice)."""
        state = self.state
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
        self._schedule_window_pass(action.player, left)
        return True

    def _schedule_window_pass(self, seat: int, real_delay: float) -> None:
        assert self.state is not None
        if self._window_pass is not None:
            self._window_pass.cancel()
        version = len(self.state.history)
        self._window_pass = self.clock.call_later(
            real_delay / self.clock.scale, lambda: self.submit(WindowPass(seat, version))
        )

    async def _window_passed(self, cmd: WindowPass) -> None:
        self._window_pass = None
        state = self.state
        if state is None or not self.running or cmd.version != len(state.history):
            return
        action = Action.make(ActionKind.PASS, cmd.seat)
        if state.actor != cmd.seat or action not in state.legal_actions(cmd.seat):
            return
        await self._apply(action, None)
