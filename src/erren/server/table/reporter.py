"""What a seat hears of the hand: its numbered events since a point, its observation (with
its own deadline), or a snapshot of everything — each built from that seat's observation."""

from __future__ import annotations

from typing import Any

from erren.server.protocol import observation_json
from erren.server.table.clocks import Clocks
from erren.server.table.seats import Conn, Seating
from erren.server.table.series import Series
from erren.server.table.watchers import Watchers

__all__ = ["Reporter"]


class Reporter:
    """Tells the seats of one table about its hand."""

    def __init__(
        self, table_id: str, seating: Seating, series: Series, clocks: Clocks, watchers: Watchers
    ) -> None:
        self.table_id = table_id
        self.seating = seating
        self.series = series
        self.clocks = clocks
        self.watchers = watchers
        """The table's spectators, told of each move after the seats (:meth:`send_all`)."""

    def state_json(self, seat: int) -> dict[str, Any] | None:
        """``seat``'s observation of the current hand, with its deadline if it decides."""
        state = self.series.state
        if state is None:
            return None
        obs = state.observe(seat)
        deadline, seconds = self.clocks.deadline_for(obs)
        return observation_json(obs, deadline=deadline, seconds=seconds, hints=True)

    def events_json(self, seat: int, since: int) -> dict[str, Any]:
        """The ``events`` message of the events after ``since`` as ``seat`` may see them."""
        return {
            "type": "events",
            "table": self.table_id,
            "game": self.series.game_id,
            "events": self.series.events_for(seat, since),
            "state": self.state_json(seat),
        }

    def send_all(self, since: int) -> None:
        """Each seat's events after ``since``; then the spectators' public stream moves."""
        for seat in (0, 1):
            self.send_events(seat, since)
        self.watchers.follow(self.series)

    def send_events(self, seat: int, since: int) -> None:
        if not self.seating.seats[seat].conns or self.series.state is None:
            return
        self.seating.send(seat, self.events_json(seat, since))

    def snapshot(self, conn: Conn, info: dict[str, Any]) -> None:
        """Everything ``conn``'s seat may know of the table (``info``) and its hand."""
        seat = conn.seat
        series = self.series
        message: dict[str, Any] = {"type": "snapshot", "table": info, "seat": seat}
        if series.state is not None:
            message.update(
                game=series.game_id,
                start=series.start_event,
                state=self.state_json(seat),
                last_n=series.state.event_count,
                end=series.end_event,
            )
            if series.end_event is not None:
                message["last_n"] = series.end_event["n"]
        conn.send(message)
