"""A table's spectators (issue #29, point 3): the public stream of its hand, delayed.

:class:`PublicStream` is the hand as anyone may see it: its events numbered as the seats'
(``n = 0`` the ``start``, engine event ``k`` is ``n = k + 1``, then the ``settlement``), each
through :func:`~erren.engine.public.public_event`, and the public state after each step
(:func:`~erren.engine.public.observe_public`: rivers, melds with concealed kongs face down,
hand sizes, flowers, the wall count, 报听/托管, whose turn, the timer; never a concealed or
drawn tile, a legal move, a hint or a timer's deadline).  A watcher sees it ``delay`` events
behind the hand (the newest step at least ``delay`` events old:
``TableConfig.watch_delay_events`` at bean-room tables, 0 elsewhere), so that he cannot coach a
player in real time.  The settlement is shown at once with every event before it: the hand is
over and its hands are revealed (as the public replay shows them), so nothing hidden is early.

:class:`Watchers` holds a table's spectators' connections (at most ``limit``), tells the seats
and the watchers how many watch (``{"type": "watchers", "count"}``, no names) and sends each
watcher what he has not seen yet (``events``), or a ``snapshot`` (``seat: null``) when he
comes (back) without a usable event number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from erren.engine import State
from erren.engine.public import observe_public, public_event
from erren.server.protocol import error_json, event_json, observation_json
from erren.server.table.commands import Unwatch, Watch
from erren.server.table.seats import Conn, Seating
from erren.server.table.series import Series
from erren.server.table.spec import TableConfig, TableSpec

__all__ = ["SETTLEMENT_PUBLIC", "PublicStream", "Watchers"]

SETTLEMENT_PUBLIC = ("n", "kind", "game", "result", "hands", "ready", "stake", "beans")
"""The settlement's fields a watcher receives (not the seats' record, ranks or campaign)."""


@dataclass
class PublicStream:
    """The current hand's public events and states, released ``delay`` events behind."""

    delay: int
    events: list[dict[str, Any]] = field(default_factory=list)
    """The public events by ``n`` (index 0: the ``start``)."""
    steps: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """After each step of the hand: its last event number and the public state (from the
    released one on: the states before it are dropped, so a table keeps a few)."""
    end: dict[str, Any] | None = None
    """The public settlement, once the hand is over."""

    def new_hand(self, start: dict[str, Any], state: State) -> None:
        """A hand begins with its ``start`` event (its ``commitment`` is public)."""
        self.events = [dict(start)]
        self.steps = []
        self.end = None
        self.step(state)

    def step(self, state: State) -> None:
        """The hand moved: its new events and its public state (the timer with its kind and
        length but no deadline: a watcher is told what the waiting seat is told)."""
        for event in state.events[len(self.events) - 1 :]:
            self.events.append(event_json(public_event(event), event.seq + 1))
        self.steps.append((state.event_count, observation_json(observe_public(state))))
        # a state before the released one is never shown again: only the last few are kept
        released = self.released
        keep = next((i for i, (n, _) in enumerate(self.steps) if n == released), 0)
        del self.steps[:keep]

    def finish(self, end: dict[str, Any], state: State) -> None:
        """The hand is settled: its last events, final state and public settlement."""
        self.step(state)
        self.end = {k: end[k] for k in SETTLEMENT_PUBLIC if k in end}

    @property
    def released(self) -> int:
        """The last event number a watcher may see now (-1: nothing yet)."""
        end = self.end
        if end is not None:
            number: int = end["n"]
            return number
        if not self.steps:
            return -1
        head = self.steps[-1][0]
        for last_n, _ in reversed(self.steps):
            if last_n <= head - self.delay:
                return int(last_n)
        return -1

    def _state_at(self, n: int) -> dict[str, Any] | None:
        """The public state of the last step up to event ``n``."""
        if self.end is not None:
            return self.steps[-1][1]
        found: dict[str, Any] | None = None
        for last_n, state in reversed(self.steps):
            if last_n <= n:
                found = state
                break
        return found

    def message_since(self, since: int, table: str, game: int | None) -> dict[str, Any] | None:
        """The ``events`` message of what a watcher who saw up to ``since`` may see now
        (``None``: nothing new)."""
        upto = self.released
        if upto <= since or upto < 0:
            return None
        events = self.events[max(since + 1, 0) : upto + 1]
        if self.end is not None:
            events.append(self.end)
        state = self._state_at(upto)
        return {"type": "events", "table": table, "game": game, "events": events, "state": state}

    def snapshot(self, info: dict[str, Any], game: int | None) -> dict[str, Any]:
        """What a watcher (``seat: null``) is shown of the hand as released now."""
        message: dict[str, Any] = {"type": "snapshot", "table": info, "seat": None}
        upto = self.released
        if upto >= 0 and self.events:
            message.update(
                game=game,
                start=self.events[0],
                state=self._state_at(upto),
                last_n=upto,
                end=self.end,
            )
        return message


class Watchers:
    """One table's spectators: their connections and the last event each was sent."""

    @classmethod
    def of(cls, spec: TableSpec, seating: Seating, config: TableConfig) -> Watchers:
        """A table's spectators: delayed at a bean-room table (``spec.room``), live elsewhere."""
        delay = config.watch_delay_events if spec.room is not None else 0
        return cls(spec.id, seating, delay=delay, limit=config.max_watchers)

    def __init__(self, table_id: str, seating: Seating, *, delay: int, limit: int) -> None:
        self.table_id = table_id
        self.seating = seating
        self.limit = limit
        self.stream = PublicStream(delay)
        self.game: int | None = None
        self.seen: dict[Conn, int] = {}
        """Each watcher's connection and the last event number he was sent."""
        self.sent_off: list[int] = []
        """The accounts that watched when the table closed (their presence changed)."""

    @property
    def delay(self) -> int:
        return self.stream.delay

    def __len__(self) -> int:
        return len(self.seen)

    def add(self, conn: Conn, info: dict[str, Any], game: int | None, since: int | None) -> bool:
        """``conn`` watches (or comes back, having seen up to ``since`` of ``game``): what he
        missed, as the delay allows; ``False`` (refused with ``watch-full``) when the table
        has :attr:`limit` watchers already."""
        if conn not in self.seen and len(self.seen) >= self.limit:
            conn.send(
                error_json(
                    "watch-full",
                    f"this table already has {self.limit} spectators (the limit)",
                    {"limit": self.limit},
                )
            )
            return False
        conn.send(
            {"type": "watching", "table": self.table_id, "delay": self.delay, "limit": self.limit}
        )
        released = self.stream.released
        if since is not None and game is not None and game == self.game and since <= released:
            message = self.stream.message_since(since, self.table_id, self.game)
            if message is not None:
                conn.send(message)
        else:
            conn.send(self.stream.snapshot(info, self.game))
        self.seen[conn] = released
        self.count()
        return True

    def handle(self, cmd: Watch | Unwatch, info: dict[str, Any]) -> None:
        """A spectator comes (admitted up to :attr:`limit`; ``info``: the table's) or goes."""
        conn = cmd.conn
        if isinstance(cmd, Unwatch):
            self.remove(conn)
        elif not self.add(conn, info, cmd.game, cmd.since) and (
            conn.watching is not None and conn.watching.watchers is self
        ):
            conn.watching = None

    def remove(self, conn: Conn) -> None:
        """``conn`` stops watching (it left, closed, or sat down somewhere)."""
        if self.seen.pop(conn, None) is not None:
            self.count()

    def greet(self, conn: Conn) -> None:
        """A player (back) at the table hears how many watch, when anyone does."""
        if self.seen:
            conn.send({"type": "watchers", "count": len(self.seen)})

    def count(self) -> None:
        """Tell the seats and the watchers how many watch (a count, no names)."""
        message = {"type": "watchers", "count": len(self.seen)}
        self.seating.broadcast(message)
        for conn in list(self.seen):
            conn.send(message)

    def follow(self, series: Series) -> None:
        """The table's hand moved (dealt, a step, settled): record it and send each watcher
        what is newly released."""
        state = series.state
        if state is None:
            return
        stream = self.stream
        if series.game_id != self.game or not stream.events:
            self.game = series.game_id
            stream.new_hand(series.start_event, state)
            for conn in self.seen:  # nobody has seen anything of the new hand
                self.seen[conn] = -1
        elif stream.end is None:
            stream.step(state)
        if series.end_event is not None and stream.end is None:
            stream.finish(series.end_event, state)
        self.flush()

    def flush(self) -> None:
        """Send each watcher what is newly released."""
        for conn, since in list(self.seen.items()):
            if conn.closed:
                self.seen.pop(conn, None)
                continue
            message = self.stream.message_since(since, self.table_id, self.game)
            if message is not None:
                conn.send(message)
                self.seen[conn] = self.stream.released

    def send_off(self, message: dict[str, Any]) -> None:
        """The table closed: each watcher hears why and stops watching."""
        self.sent_off = [conn.user_id for conn in self.seen]
        for conn in list(self.seen):
            conn.send(message)
            conn.watching = None
        self.seen.clear()
