"""Who is at a table: a connection taking its seat (and hearing what it missed), a connection
gone, the grace period of a player away, the lobby seating an invited player.  Presence is the
table's business, not the engine's: a player away keeps his decision's own timer, and only a
grace period that ends turns into an escape (or, after a restart, a hand called off)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine import Action, ActionKind
from erren.server.table.clocks import Clocks
from erren.server.table.commands import Gone, Join, Sit
from erren.server.table.hands import Hands
from erren.server.table.host import Host
from erren.server.table.reporter import Reporter
from erren.server.table.seats import Seating
from erren.server.table.series import Series
from erren.server.table.spec import CloseCode

if TYPE_CHECKING:
    from erren.server.table.actor import Table

__all__ = ["Presence"]


class Presence:
    """The players' comings and goings at one table."""

    def __init__(
        self,
        host: Host,
        seating: Seating,
        series: Series,
        *,
        clocks: Clocks,
        hands: Hands,
        reporter: Reporter,
    ) -> None:
        self.host = host
        self.seating = seating
        self.series = series
        self.clocks = clocks
        self.hands = hands
        self.reporter = reporter

    async def join(self, cmd: Join, table: Table) -> None:
        """``cmd.conn`` takes its seat at ``table``: a second tab of the account replaces the
        first, the timers of a restored hand run again once everyone is back, and the
        connection hears the events after ``cmd.since`` (or a snapshot); the first join deals
        the first hand."""
        conn, seat = cmd.conn, cmd.seat
        if conn.closed:
            return
        info = self.seating.seats[seat]
        table_id = self.reporter.table_id
        for older in [c for c in info.conns if c is not conn]:
            # a second tab of the same account takes the seat over (the contract: 4409)
            info.conns.discard(older)
            older.table, older.seat = None, -1
            older.abort(
                {
                    "type": "replaced",
                    "code": "replaced",
                    "table": table_id,
                    "message": "this seat was opened in another window or tab (已在别处打开)",
                    "params": {},
                },
                4409,
            )
        was_online = info.online
        paused = self.seating.awaiting_restore
        info.conns.add(conn)
        info.back_since_restore = True
        conn.table, conn.seat = table, seat
        if paused and not self.seating.awaiting_restore and self.series.running:
            # everyone is back after the restart: the timers run again
            self.clocks.arm(self.series.state, self.seating, self.series.ruleset)
        if info.grace is not None:
            info.grace.cancel()
            info.grace = None
        state = self.series.state
        conn.send({"type": "joined", "table": self.host.info(), "seat": seat})
        since = cmd.since
        if (
            state is not None
            and cmd.game == self.series.game_id
            and since is not None
            and -1 <= since <= self.series.last_n
        ):
            conn.send(self.reporter.events_json(seat, since))
        else:
            self.reporter.snapshot(conn, self.host.info())
        if not was_online:
            self.seating.broadcast({"type": "presence", "seat": seat, "online": True})
        # 托管 switched on while he was away stays on until he switches it off (§2.9)
        if state is None and not self.series.running:
            info.ready = True
            await self.hands.maybe_start()

    def gone(self, cmd: Gone) -> None:
        """A connection dropped: when it was his last, the seat is away and his grace runs.
        Nothing is played for him now: the decision he faces keeps its own timer (§2.10);
        托管 starts at the first timeout while he is away."""
        conn = cmd.conn
        seat_no = conn.seat
        if seat_no < 0:
            return
        seat = self.seating.seats[seat_no]
        if conn not in seat.conns:
            return  # replaced by a newer connection, or already gone
        seat.conns.discard(conn)
        if seat.online:
            return
        self.seating.broadcast({"type": "presence", "seat": seat_no, "online": False})
        if seat.grace is None and not self.host.closed:
            seat.grace = self.clocks.grace(seat_no)

    async def grace_over(self, seat_no: int) -> None:
        """The player at ``seat_no`` did not come back within the grace period: an escape from
        the running hand (the hand called off after a restart nobody came back to), else he
        left the table."""
        seat = self.seating.seats[seat_no]
        seat.grace = None
        if seat.online or self.host.closed:
            return
        if self.series.running and not seat.back_since_restore:
            await self.hands.call_off(f"{seat.name} did not come back after the server restarted")
        elif self.series.running:
            await self.hands.system(Action.make(ActionKind.ESCAPE, seat_no))
        else:
            self.host.close(CloseCode.LEFT, f"{seat.name} left the table", params={"seat": seat_no})

    def sit(self, cmd: Sit) -> None:
        """The lobby seated an invited player: everyone sees the table anew."""
        seat = self.seating.seats[cmd.seat]
        seat.user_id, seat.name = cmd.user_id, cmd.name
        self.seating.broadcast({"type": "table", "table": self.host.info()})
        self.host.guest_settled()
