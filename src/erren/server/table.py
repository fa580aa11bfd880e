"""One table: an asyncio task that owns the game and processes typed commands in order.

lila's round actor, for mahjong: the WebSocket handlers, the timers and the bots never touch the
:class:`~erren.engine.State`; they put commands (:class:`Join`, :class:`Act`, :class:`Timeout`,
...) on the table's queue and the table's task applies them one at a time.  For every action:

1. the engine validates and applies it (an illegal one is answered with an error, nothing
   changes);
2. the action is written to the store — durable before anyone hears of it: the table waits for
   the commit of a batch that includes it (group commit, :class:`~erren.server.journal.Journal`);
3. the new events go out, each numbered and filtered for its seat (``Event.seen_by``), with
   the seat's :func:`~erren.engine.observe` view.

A hand's events are numbered from 0: ``n = 0`` is the table's ``start`` event (the seed
commitment), engine event ``k`` is ``n = k + 1``, and the ``settlement`` event (result, revealed
seed, beans) follows the engine's ``end``.  A client coming back sends the last ``n`` it saw and
gets what it missed, or a snapshot of its observation.

Presence, timers and 托管 on disconnect are the table's business, not the engine's: the engine
only receives the system actions ``timeout``, ``trustee:on|off`` and ``escape``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from erren.bots import Bot, find_bot
from erren.engine import Action, ActionKind, Ruleset, State, find_ruleset
from erren.engine.state import Phase
from erren.errors import IllegalActionError
from erren.server.clock import Clock, Timer
from erren.server.durable import durably
from erren.server.fairness import Commitment, commit
from erren.server.protocol import (
    ProtocolError,
    dumps,
    error_json,
    event_json,
    observation_json,
    parse_action,
    result_json,
    wild_of,
)
from erren.server.rooms import RoomTier, rooms_admitting
from erren.server.settlement import to_beans

if TYPE_CHECKING:
    from erren.server.journal import Journal
    from erren.server.store import Store

__all__ = ["Conn", "Table", "TableConfig", "TableSpec"]

log = logging.getLogger("erren.server.table")

T = TypeVar("T")

OUTBOX_LIMIT = 256
"""Messages a connection may have waiting; a client that falls further behind is dropped."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Server settings of the table runtime (times in game seconds, scaled by the clock)."""

    grace_s: float = 60.0
    """How long a disconnected player may stay away during a hand before it is an escape."""
    ready_timeout_s: float = 60.0
    """How long a finished hand waits for both players to be ready before the table closes."""
    bot_delay_s: float = 1.0
    """A computer player's thinking time."""
    turn_timeout_s: float | None = None
    """Override the family's turn timer (``None``: the ruleset's, 20 s)."""
    claim_timeout_s: float | None = None
    commit_window_s: float = 0.002
    """Group commit: how long the journal gathers actions before it writes them in one
    transaction (:class:`~erren.server.journal.Journal`)."""
    claim_min_pause_s: float = 0.8
    """鸣牌保护 (guobiao-2p §2.4): the next draw never comes sooner than this after a discard
    (or a 加杠) whose claim window a human decides; a window with only pass in it is passed by
    the system exactly then, so the discarder cannot tell whether the opponent had a choice."""
    idle_timeout_s: float = 600.0
    """A table at which no player did anything for this long, outside a running hand (an
    invite nobody used, a finished hand nobody readies), closes with code ``idle``."""
    trustee_toggles: int = 10
    """How many times a player may switch 托管 on or off himself during one hand."""
    store_retry_max_s: float = 5.0
    """The longest wait (real seconds) between two tries of a failed database write."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a table is: ``kind`` ``quick`` (a bean room), ``private`` or ``computer``."""

    id: str
    kind: str
    family: str
    options: dict[str, Any]
    room: RoomTier | None = None
    invite: str | None = None
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "family": self.family,
            "options": self.options,
            "room": None if self.room is None else self.room.id,
            "invite": self.invite,
            "bot": self.bot,
        }


class Conn:
    """One WebSocket connection's outbox, drained by its own writer task: the table never
    waits for a slow client."""

    def __init__(self, user_id: int, name: str) -> None:
        self.user_id = user_id
        self.name = name
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.table: Table | None = None
        self.seat = -1
        self.close_code = 1000

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a slow connection of user %s", self.user_id)
            self.close(1013)
            return
        self.queue.put_nowait(text)

    def abort(self, message: dict[str, Any], code: int) -> None:
        """Drop what is waiting, send ``message`` and close with ``code``."""
        if self.closed:
            return
        while not self.queue.empty():
            self.queue.get_nowait()
        self.send(message)
        self.close(code)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass
class Seat:
    user_id: int | None
    name: str
    bot_name: str | None = None
    bot: Bot | None = None
    conns: set[Conn] = field(default_factory=set)
    ready: bool = False
    grace: Timer | None = None
    trustee_by_disconnect: bool = False
    toggles: int = 0
    """托管 switches by the player himself during the current hand."""
    back_since_restore: bool = True
    """The player joined since the table was restored after a restart (a hand nobody came
    back to is called off, not charged as an escape)."""

    @property
    def online(self) -> bool:
        return self.bot is not None or bool(self.conns)


# ---------------------------------------------------------------------------- commands
@dataclass(frozen=True, slots=True)
class Join:
    conn: Conn
    seat: int
    game: int | None
    since: int | None


@dataclass(frozen=True, slots=True)
class Gone:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Act:
    conn: Conn
    text: str
    n: int | None


@dataclass(frozen=True, slots=True)
class SetTrustee:
    conn: Conn
    on: bool


@dataclass(frozen=True, slots=True)
class Ready:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Leave:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Resync:
    conn: Conn


@dataclass(frozen=True, slots=True)
class Sit:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Timeout:
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class BotMove:
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class GraceOver:
    seat: int


@dataclass(frozen=True, slots=True)
class ReadyOver:
    hand: int


@dataclass(frozen=True, slots=True)
class IdleOver:
    stamp: int


@dataclass(frozen=True, slots=True)
class WindowPass:
    """The pass of a claim window, applied when the window's minimum pause is over."""

    seat: int
    version: int


Command = (
    Join | Gone | Act | SetTrustee | Ready | Leave | Resync | Sit | Timeout | BotMove | GraceOver
) | (ReadyOver | IdleOver | WindowPass)

WINDOWS = frozenset({Phase.CLAIM, Phase.ROB, Phase.LAST_DRAW, Phase.HAIDI})
"""Phases in which one seat answers a tile; with ``claim_privacy`` they open whether or not he
has a choice (pass alone), and the server keeps them open for the minimum pause."""


def with_claim_privacy(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` with 鸣牌保护 on (every claim window opened, pass-only ones too), when the
    engine's options have ``claim_privacy``; otherwise ``ruleset`` itself."""
    options = ruleset.options_dict()
    if "claim_privacy" not in options or options["claim_privacy"]:
        return ruleset
    return find_ruleset(ruleset.name, {**options, "claim_privacy": True})


# ---------------------------------------------------------------------------- the table
class Table:
    """The actor.  Build it, :meth:`start` it, and :meth:`submit` commands."""

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
    ) -> None:
        self.spec = spec
        self.seats = seats
        self.store = store
        self.journal = journal
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
        # the current (or last) hand
        self.state: State | None = None
        self.game_id: int | None = None
        self.hand_no = 0
        self.fair: Commitment | None = None
        self.start_event: dict[str, Any] = {}
        self.end_event: dict[str, Any] | None = None
        table_rng = random.Random(rng.getrandbits(64) if rng is not None else None)
        self.dealer = self.ruleset.first_dealer(table_rng, 0)
        self.streak = 0
        self.round_wind = 27  # East
        self._timer: Timer | None = None
        self._timer_seconds = 0.0
        self._ready_timer: Timer | None = None
        self._persisted = 0
        self._idle: Timer | None = None
        self._idle_stamp = 0
        self._window_at: float | None = None
        """When (loop time) the running claim window opened, at tables where a human decides."""
        self._window_pass: Timer | None = None
        self.store_failures = 0
        """Failed database writes in a row (0: the store is fine)."""

    # ------------------------------------------------------------------ plumbing
    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.spec.id}")
        self._touch()

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
    def full(self) -> bool:
        return all(s.user_id is not None or s.bot is not None for s in self.seats)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    async def _run(self) -> None:
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

    async def stop(self) -> None:
        """Cancel the actor (server shutdown): unfinished hands stay in the store."""
        self._cancel_timers()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

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

    # ------------------------------------------------------------------ idle tables
    def _touch(self) -> None:
        """A player did something: the idle timer starts again."""
        if self.closed:
            return
        if self._idle is not None:
            self._idle.cancel()
        self._idle_stamp += 1
        stamp = self._idle_stamp
        self._idle = self.clock.call_later(
            self.config.idle_timeout_s, lambda: self.submit(IdleOver(stamp))
        )

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
                {"name": s.name, "bot": s.bot_name, "online": s.online, "ready": s.ready}
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
        return observation_json(obs, deadline=deadline, seconds=seconds)

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

    # ------------------------------------------------------------------ commands
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
            )
            return
        if self.seats[conn.seat].trustee_by_disconnect:
            self.seats[conn.seat].trustee_by_disconnect = False
        if self._hold_pass(action):
            return
        await self._apply(action, conn)

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
        action = bot.pick(legal) if bot.blind else bot.choose(state.observe(cmd.seat), legal)
        await self._apply(action, None)

    # ------------------------------------------------------------------ the game
    async def _system(self, action: Action) -> None:
        await self._apply(action, None, system=True)

    async def _apply(self, action: Action, conn: Conn | None, *, system: bool = False) -> None:
        state = self.state
        assert state is not None
        before = state.event_count
        try:
            if system:
                state.apply_system(action)
            else:
                state.apply(action)
        except IllegalActionError as err:
            if conn is not None:
                self._error(conn, err.rule, err.message, action=str(action))
            else:
                log.warning("table %s: %s refused: %s", self.spec.id, action, err)
            return
        await self._persist()
        await self._after_change(before)

    async def _persist(self) -> None:
        """Write the actions not yet in the store, in order, and wait for their commit (before
        any event goes out).  Through the journal the commit is shared with other tables."""
        state = self.state
        assert state is not None and self.game_id is not None
        history = state.history
        if self._persisted >= len(history):
            return
        game_id, first = self.game_id, self._persisted
        rows = [(game_id, seq, str(history[seq])) for seq in range(first, len(history))]
        journal = self.journal

        async def write() -> None:
            if journal is not None:
                await journal.append(rows)
                return
            refused = [e for e in await self.store.append_actions(rows) if e is not None]
            if refused:
                raise refused[0]

        await self._durably(write)  # an action is stored once (by seq), however often tried
        self._persisted = len(history)

    async def _after_change(self, before: int) -> None:
        state = self.state
        assert state is not None
        if state.is_terminal:
            await self._durably(self._finish_hand)
        else:
            self._arm()
        for seat in (0, 1):
            self._send_events(seat, before)

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
        if state.phase in WINDOWS and self.seats[actor].bot is None:
            # 鸣牌保护: a human answers a tile (a discard, a 加杠, a family's post-draw tile);
            # the window lasts at least the minimum pause, choice or not
            self._window_at = asyncio.get_running_loop().time()
            legal = state.legal_actions(actor)
            if len(legal) == 1 and legal[0].kind is ActionKind.PASS:
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

    @property
    def awaiting_restore(self) -> bool:
        """The hand was restored after a restart and a player has not come back yet: its
        timers wait (nothing is played for anyone), and the grace period calls it off."""
        return any(s.bot is None and not s.back_since_restore for s in self.seats)

    def _cancel_timers(self) -> None:
        timers = (self._timer, self._ready_timer, self._idle, self._window_pass)
        for timer in (*timers, *(s.grace for s in self.seats)):
            if timer is not None:
                timer.cancel()

    async def _maybe_start(self) -> None:
        if self.closed or self.running or not self.full:
            return
        if not all(s.ready or s.bot is not None for s in self.seats):
            return
        room = self.spec.room
        if room is not None and self.state is not None:
            outside: dict[int, int] = {}
            for seat_no, seat in enumerate(self.seats):
                if seat.user_id is None:
                    continue
                balance = await self._durably(partial(self.store.balance, seat.user_id))
                if not room.admits(balance):
                    outside[seat_no] = balance
            if outside:
                self._close_outside(room, outside)
                return
        await self._start_hand()

    def _close_outside(self, room: RoomTier, outside: dict[int, int]) -> None:
        """Close a bean table at which a balance left the room's limits (§6.4; not an escape):
        the seat concerned hears his balance and the rooms of the family he can still enter;
        the other seat only that his opponent cannot go on."""
        tier = room.tier
        personal: dict[int, dict[str, Any]] = {}
        for seat_no in (0, 1):
            balance = outside.get(seat_no)
            if balance is None:
                personal[seat_no] = {
                    "code": "opponent-below-entry",
                    "reason": "your opponent can no longer play in this room; the table "
                    "closes (nobody escaped)",
                    "params": {"room": room.id},
                }
                continue
            rooms = [r.id for r in rooms_admitting(room.family, balance)]
            low = balance < tier.entry_min
            personal[seat_no] = {
                "code": "below-entry" if low else "above-entry",
                "reason": f"your balance of {balance} beans is "
                f"{'below' if low else 'above'} the room's limits "
                f"({tier.entry_min}–{tier.entry_max}); the table closes (not an escape)",
                "params": {
                    "room": room.id,
                    "entry_min": tier.entry_min,
                    "entry_max": tier.entry_max,
                    "balance": balance,
                    "rooms": rooms,
                },
            }
        self._close(
            "below-entry", "a balance left the room's limits", personal=personal, after=True
        )

    def _meta(self) -> dict[str, Any]:
        """What the store keeps beside the ruleset options to restore the table."""
        return {
            "rules": self.ruleset.options_dict(),
            "table": self.spec.to_json(),
            "names": [s.name for s in self.seats],
            "bots": [s.bot_name for s in self.seats],
            "hand": self.hand_no,
            "dealer": self.dealer,
            "streak": self.streak,
            "round_wind": self.round_wind,
        }

    async def _start_hand(self) -> None:
        if self._ready_timer is not None:
            self._ready_timer.cancel()
            self._ready_timer = None
        self.hand_no += 1
        fair = Commitment.draw(self.rng)
        state = State.new(
            self.ruleset,
            seed=fair.seed,
            dealer=self.dealer,
            round_wind=self.round_wind,
            streak=self.streak if self.ruleset.uses_streak else 0,
        )
        room = self.spec.room.id if self.spec.room is not None else self.spec.kind
        await self._deal(state, fair, room)

    async def _deal(self, state: State, fair: Commitment, room: str) -> None:
        """Store the new hand's game (retrying a failed write), begin it and send its first
        events."""
        meta = self._meta()
        game_id = await self._durably(
            lambda: self.store.create_game(
                self.ruleset.name,
                meta,
                seats=(self.seats[0].user_id, self.seats[1].user_id),
                seed=fair.seed,
                salt=fair.salt,
                room=room,
            )
        )
        self._begin(state, game_id, fair)
        await self._persist()
        await self._after_change(-1)

    def _begin(self, state: State, game_id: int, fair: Commitment) -> None:
        for seat in self.seats:
            seat.ready = False
            seat.toggles = 0
        self.state, self.game_id, self.fair = state, game_id, fair
        self.end_event = None
        self._persisted = 0
        self.start_event = {
            "n": 0,
            "kind": "start",
            "game": game_id,
            "hand": self.hand_no,
            "dealer": state.dealer,
            "round_wind": str(state.round_wind),
            "streak": state.streak,
            "commitment": fair.commitment,
            "seats": [s.name for s in self.seats],
        }

    def record_json(self) -> dict[str, Any]:
        """The hand's record with the seed revealed (``erren verify`` reads it)."""
        assert self.state is not None and self.fair is not None
        data = self.state.record().to_dict()
        data["seed"] = self.fair.seed
        data["fairness"] = {"commitment": self.fair.commitment, "salt": self.fair.salt}
        data["game"] = self.game_id
        data["table"] = self.spec.id
        data["seats"] = [s.name for s in self.seats]
        return data

    async def _finish_hand(self) -> None:
        state = self.state
        assert state is not None and state.result is not None and self.game_id is not None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        result = state.result
        transfers, beans = await self._transfers()
        if transfers:
            await self.store.settle(f"game:{self.game_id}", transfers)
        record = self.record_json()
        summary = f"hand {self.hand_no} at {self.spec.id}: {result}"
        if any(beans):
            summary += f"; beans {beans[0]:+d}/{beans[1]:+d}"
        await self.store.finish_game(self.game_id, record, summary)
        self.end_event = {
            "n": state.event_count + 1,
            "kind": "settlement",
            "game": self.game_id,
            "result": result_json(result, wild=wild_of(state.observe(0))),
            "stake": None if self.spec.room is None else self.spec.room.stake,
            "beans": beans,
            "record": record,
        }
        if result.kind == "abort":
            escaper = result.loser if result.loser is not None else -1
            self._close(
                "escaped",
                f"{self.seats[escaper].name} left the running hand (an escape); the match is over",
                params={"seat": escaper},
                after=True,
            )
            return
        self.dealer, self.streak = self.ruleset.next_dealer(self.dealer, self.streak, result)
        for seat in self.seats:
            seat.ready = seat.bot is not None
        hand = self.hand_no
        self._ready_timer = self.clock.call_later(
            self.config.ready_timeout_s, lambda: self.submit(ReadyOver(hand))
        )

    async def _transfers(self) -> tuple[list[Any], list[int]]:
        """The bean transfers of the finished hand (bean rooms only) and each seat's beans: the
        hand's point deltas at the room's stake, limited by the payer's balance — converted
        once, by :func:`erren.server.settlement.to_beans`, as for every family."""
        from erren.server.store import Transfer  # noqa: PLC0415

        state = self.state
        assert state is not None and state.result is not None
        room = self.spec.room
        first, second = self.seats[0].user_id, self.seats[1].user_id
        if room is None or first is None or second is None:
            return [], [0, 0]
        ids = (first, second)
        balances = (await self.store.balance(first), await self.store.balance(second))
        move = to_beans(state.result.deltas, room.stake, balances)
        if move.payer is None or move.payee is None or move.paid <= 0:
            return [], [0, 0]
        reason = f"{self.ruleset.name} {room.tier.id} game {self.game_id}: {state.result.kind}"
        beans = list(move.deltas())
        return [Transfer(ids[move.payer], ids[move.payee], move.paid, reason)], beans

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

    async def _call_off_record(self, why: str) -> None:
        """Finish the stored game as called off: no result, no beans, the seed revealed."""
        assert self.state is not None and self.game_id is not None
        record = self.called_off_json(why)
        summary = f"hand {self.hand_no} at {self.spec.id}: called off ({why}); no beans moved"
        game_id = self.game_id
        await self._durably(lambda: self.store.finish_game(game_id, record, summary))

    def called_off_json(self, why: str) -> dict[str, Any]:
        """The record a called-off hand is stored with (``called_off``: why; no result)."""
        record = self.record_json()
        record["called_off"] = why
        return record

    async def call_off(self, why: str) -> None:
        """Call the running hand off (no result, nobody pays: a fault of the server is never
        charged to a player) and close the table with code ``called-off``."""
        if self.running:
            await self._call_off_record(why)
        self._close("called-off", f"the hand is called off: {why}; no beans moved")

    # ------------------------------------------------------------------ restore
    def restore(
        self, game_id: int, meta: dict[str, Any], seed: int, salt: str, actions: list[str]
    ) -> None:
        """Rebuild the hand of an unfinished stored game (after a restart) by replaying it."""
        self.hand_no = int(meta.get("hand", 1))
        self.dealer = int(meta.get("dealer", 0))
        self.streak = int(meta.get("streak", 0))
        self.round_wind = int(meta.get("round_wind", 27))
        state = State(
            self.ruleset,
            dealer=self.dealer,
            round_wind=self.round_wind,
            streak=self.streak if self.ruleset.uses_streak else 0,
        )
        state.seed = seed
        for text in actions:
            state.apply_recorded(Action.parse(text))
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


def make_bot_seat(name: str, bot: str, seed: int | None) -> Seat:
    return Seat(user_id=None, name=name, bot_name=bot, bot=find_bot(bot, seed=seed))
