"""The state every table keeps (its seats, the current hand, the timers' handles) and what
every part of it uses: sending to the seats, writing durably, going idle, closing."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from erren.bots import Bot, find_bot
from erren.engine import Match, Ruleset, State, find_ruleset
from erren.server.clock import Clock, Timer
from erren.server.durable import durably
from erren.server.fairness import Commitment
from erren.server.protocol import dumps, error_json, event_json, observation_json
from erren.server.table.commands import Command, IdleOver, Sit
from erren.server.table.seats import Conn, Seat
from erren.server.table.spec import TableConfig, TableSpec, with_claim_privacy

if TYPE_CHECKING:
    from erren.server.journal import Journal
    from erren.server.metrics import FamilyMetrics
    from erren.server.store import Store

__all__ = ["TableBase"]

log = logging.getLogger("erren.server.table")

T = TypeVar("T")

_IDLE_SLACK_S = 0.001
"""A timer may ring this much before the idle deadline (the loop's clock resolution)."""


class TableBase:
    """A table's state and its plumbing; :class:`~erren.server.table.Table` is the actor."""

    def __init__(
        self,
        spec: TableSpec,
        seats: list[Seat],
        store: Store,
        *,
        clock: Clock,
        config: TableConfig,
        rng: random.Random | None = None,
        on_close: Callable[[TableBase], None] | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.spec = spec
        self.seats = seats
        self.store = store
        self.journal = journal
        self.fence: int | None = None
        """The lease token this node holds for the table (a cluster node; ``None`` on a single
        server): every write of its games carries it (:mod:`erren.server.cluster.leases`)."""
        self.clock = clock
        self.config = config
        self.rng = rng
        self.on_close = on_close
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.close_reason = ""
        self.close_code = ""
        self.ruleset: Ruleset = with_claim_privacy(find_ruleset(spec.family, spec.options))
        self.bind_bots()
        # the current (or last) hand
        self.state: State | None = None
        self.game_id: int | None = None
        self.hand_no = 0
        self.fair: Commitment | None = None
        self.start_event: dict[str, Any] = {}
        self.end_event: dict[str, Any] | None = None
        self.match = Match(self.ruleset, seed=rng.getrandbits(64) if rng is not None else None)
        """The series of hands at this table: dealer, 连庄 streak and round wind (§1.2, §1.3)."""
        self._timer: Timer | None = None
        self._timer_seconds = 0.0
        self._ready_timer: Timer | None = None
        self._persisted = 0
        self._idle: Timer | None = None
        self._idle_stamp = 0
        self._idle_due = 0.0
        """When (loop time) the table is idle unless someone plays first."""
        self._window_at: float | None = None
        """When (loop time) the running claim window opened, at tables where a human decides."""
        self._window_pass: Timer | None = None
        self._reviewing: set[asyncio.Task[None]] = set()
        """Reviews being worked out (the actor does not wait for them: the table plays on)."""
        self.store_failures = 0
        """Failed database writes in a row (0: the store is fine)."""
        self._expert: Bot | None = None
        self._advice: dict[tuple[int, int, int], tuple[str, dict[str, Any]]] = {}
        """The last advice given: ``(seat, actions applied) -> (action, reason)``."""
        self._reviews: dict[tuple[int, int], dict[str, Any]] = {}
        """The last quick review given: ``(game, seat) -> its message body``."""

    def adviser(self) -> Bot:
        """The ``expert`` that answers the players' ``advice`` requests, bound to the rules."""
        if self._expert is None:
            self._expert = find_bot("expert", seed=self.rng.getrandbits(32) if self.rng else None)
        self._expert.bind(self.ruleset)
        return self._expert

    def bind_bots(self) -> None:
        """Teach the computer seats the table's rules (again after they change)."""
        for seat in self.seats:
            if seat.bot is not None:
                seat.bot.bind(self.ruleset)

    # ------------------------------------------------------------------ plumbing
    def submit(self, command: Command) -> None:
        if not self.closed:
            self.queue.put_nowait(command)

    def submit_sit(self, seat: int, user_id: int, name: str) -> None:
        self.submit(Sit(seat, user_id, name))

    @property
    def running(self) -> bool:
        """A hand is in progress (from the deal to its settlement)."""
        return self.state is not None and self.end_event is None

    @property
    def dealer(self) -> int:
        """The dealer of the current (or next) hand."""
        return self.match.dealer

    @property
    def full(self) -> bool:
        return all(s.user_id is not None or s.bot is not None for s in self.seats)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    meter: FamilyMetrics | None = None
    """Where the table counts its actions, latencies and hands (the lobby sets it)."""

    on_idle: Callable[[TableBase], Awaitable[None]] | None = None
    """Awaited when a hand has been settled and the table waits for the next, before the
    players hear of it (a cluster node records it, so that another node can pick the table up
    if this one dies); it never raises."""

    kept = False
    """The failed table's unfinished game is still in the store (restored at the next start):
    its players are not freed into new tables meanwhile."""

    async def _durably(self, write: Callable[[], Awaitable[T]]) -> T:
        """Run a database write until it succeeds (:func:`~erren.server.durable.durably`): the
        table keeps its state meanwhile and the players are told (``store-retrying``, then
        ``store-ok``)."""
        return await durably(
            write,
            failing=self._store_failing,
            recovered=self._store_recovered,
            max_pause=self.config.store_retry_max_s,
        )

    def _store_failing(self, err: BaseException) -> None:
        self.store_failures += 1
        log.warning("table %s: database write failed, retrying: %s", self.spec.id, err)
        self._broadcast(
            error_json(
                "store-retrying",
                "the game's record cannot be written right now; the server retries and "
                "nothing is lost (the hand waits meanwhile)",
            )
        )

    def _store_recovered(self, failures: int) -> None:
        self.store_failures = 0
        self._broadcast({"type": "store-ok", "code": "store-ok"})

    def _cancel_timers(self) -> None:
        timers = (self._timer, self._ready_timer, self._idle, self._window_pass)
        for timer in (*timers, *(s.grace for s in self.seats)):
            if timer is not None:
                timer.cancel()
        self._idle = None  # a later touch sets a new one

    @property
    def awaiting_restore(self) -> bool:
        """The hand was restored after a restart and a player has not come back yet: its
        timers wait (nothing is played for anyone), and the grace period calls it off."""
        return any(s.bot is None and not s.back_since_restore for s in self.seats)

    # ------------------------------------------------------------------ idle tables
    def _touch(self) -> None:
        """A player did something: the idle timer starts again.  Every move touches the table,
        so the timer is not replaced each time (a cancelled timer stays in the event loop's
        heap, and a thousand tables' moves would keep it full of them): the new deadline is
        noted, and a timer that rings before it waits again for the rest (:meth:`_idle_ring`)."""
        if self.closed:
            return
        self._idle_stamp += 1
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
        self.submit(IdleOver(self._idle_stamp))

    def _idle_over(self, stamp: int) -> None:
        if self.closed or stamp != self._idle_stamp:
            return
        if self.running:  # the hand's own timers bring it to its end
            self._touch()
            return
        minutes = self.config.idle_timeout_s / 60
        self._close(
            "idle",
            f"nobody played at this table for {minutes:g} minutes; it is closed",
            params={"seconds": self.config.idle_timeout_s},
        )

    # ------------------------------------------------------------------ messages
    def info(self) -> dict[str, Any]:
        return {
            **self.spec.to_json(),
            "seats": [
                {
                    "name": s.name,
                    "bot": s.bot_name,
                    "level": s.shown_level,
                    "online": s.online,
                    "ready": s.ready,
                }
                for s in self.seats
            ],
            "hand": self.hand_no,
            "game": self.game_id,
            "running": self.running,
            "closed": self.closed,
        }

    def _send_seat(self, seat: int, message: dict[str, Any]) -> None:
        conns = self.seats[seat].conns
        if conns:
            text = dumps(message)
            for conn in list(conns):
                conn.send_text(text)

    def _broadcast(self, message: dict[str, Any]) -> None:
        text = dumps(message)
        for seat in self.seats:
            for conn in list(seat.conns):
                conn.send_text(text)

    def _state_json(self, seat: int) -> dict[str, Any] | None:
        state = self.state
        if state is None:
            return None
        obs = state.observe(seat)
        deadline = seconds = None
        if obs.timer is not None and obs.timer.player == seat and self._timer is not None:
            # only the seat that decides hears its deadline (鸣牌保护: the discarder sees the
            # same thing whether or not the opponent had a choice)
            deadline, seconds = self._timer.deadline, self._timer_seconds
        return observation_json(obs, deadline=deadline, seconds=seconds, hints=True)

    def _events_for(self, seat: int, since: int) -> list[dict[str, Any]]:
        """The numbered events after ``since`` as ``seat`` may see them."""
        assert self.state is not None
        out: list[dict[str, Any]] = []
        if since < 0:
            out.append(self.start_event)
        start = max(since, 0)
        out.extend(event_json(e, e.seq + 1) for e in self.state.events_since(seat, start))
        if self.end_event is not None and since < self.end_event["n"]:
            out.append(self.end_event)
        return out

    def _send_events(self, seat: int, since: int) -> None:
        if not self.seats[seat].conns or self.state is None:
            return
        self._send_seat(
            seat,
            {
                "type": "events",
                "table": self.spec.id,
                "game": self.game_id,
                "events": self._events_for(seat, since),
                "state": self._state_json(seat),
            },
        )

    def _snapshot(self, conn: Conn) -> None:
        seat = conn.seat
        message: dict[str, Any] = {"type": "snapshot", "table": self.info(), "seat": seat}
        if self.state is not None:
            message.update(
                game=self.game_id,
                start=self.start_event,
                state=self._state_json(seat),
                last_n=self.state.event_count,
                end=self.end_event,
            )
            if self.end_event is not None:
                message["last_n"] = self.end_event["n"]
        conn.send(message)

    def _error(self, conn: Conn, code: str, message: str, **extra: Any) -> None:
        conn.send(error_json(code, message, **extra))

    # ------------------------------------------------------------------ closing
    def _close(
        self,
        code: str,
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
        self._cancel_timers()
        self.closed = True
        self.close_reason = reason
        self.close_code = code

        def tell() -> None:
            for seat_no, seat in enumerate(self.seats):
                message: dict[str, Any] = {
                    "type": "closed",
                    "table": self.spec.id,
                    "code": code,
                    "reason": reason,
                    "params": dict(params or {}),
                }
                if personal is not None and seat_no in personal:
                    message.update(personal[seat_no])
                text = dumps(message)
                for conn in list(seat.conns):
                    conn.send_text(text)
                    conn.table, conn.seat = None, -1
                seat.conns.clear()
            if self.on_close is not None:
                self.on_close(self)

        if after:
            asyncio.get_running_loop().call_soon(tell)
        else:
            tell()
