"""What happens at a table when nobody acts, or a computer does: a decision's timer ran out
(the engine's ``timeout``; a player away is put in 托管 then, §2.10), a computer player's move,
and the pass of a claim window applied when the 鸣牌保护 pause is over."""

from __future__ import annotations

from erren.engine import Action, ActionKind
from erren.server import work
from erren.server.table.clocks import Clocks
from erren.server.table.commands import BotMove, Timeout, WindowPass
from erren.server.table.hands import Hands
from erren.server.table.seats import Seating
from erren.server.table.series import Series
from erren.server.work import Work

__all__ = ["Autopilot"]


class Autopilot:
    """Plays what the timers and the computer seats decide at one table."""

    def __init__(self, seating: Seating, series: Series, clocks: Clocks, hands: Hands) -> None:
        self.seating = seating
        self.series = series
        self.clocks = clocks
        self.hands = hands

    def _current(self, version: int) -> bool:
        """Whether a hand runs and nothing was played since ``version`` (a timer's command)."""
        state = self.series.state
        return state is not None and self.series.running and version == len(state.history)

    async def timeout(self, cmd: Timeout) -> None:
        state = self.series.state
        if state is None or not self._current(cmd.version) or state.actor != cmd.seat:
            return
        await self.hands.system(Action.make(ActionKind.TIMEOUT, cmd.seat))
        seat = self.seating.seats[cmd.seat]
        state = self.series.state
        if (
            not seat.online
            and self.series.running
            and state is not None
            and not state.trustee[cmd.seat]
        ):
            # away when his own timer ran out: from now on he is in 托管 (§2.10)
            seat.trustee_by_disconnect = True
            await self.hands.system(Action.trustee(cmd.seat, True))

    async def bot_move(self, cmd: BotMove) -> None:
        state = self.series.state
        bot = self.seating.seats[cmd.seat].bot
        if state is None or bot is None or not self._current(cmd.version):
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
            if self.series.state is not state or not self._current(cmd.version):
                return
        await self.hands.apply(action, None)

    async def window_passed(self, cmd: WindowPass) -> None:
        self.clocks.window_passed()
        state = self.series.state
        if state is None or not self._current(cmd.version):
            return
        action = Action.make(ActionKind.PASS, cmd.seat)
        if state.actor != cmd.seat or action not in state.legal_actions(cmd.seat):
            return
        await self.hands.apply(action, None)
