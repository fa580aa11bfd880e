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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erren.bots import Bot, find_bot
from erren.engine import Action, ActionKind, Ruleset, State, find_ruleset
from erren.engine.state import Phase
from erren.errors import IllegalActionError
from erren.server.clock import Clock, Timer
from erren.server.fairness import Commitment, commit
from erren.server.protocol import (
    ProtocolError,
    dumps,
    error_json,
    event_json,
    observation_json,
    parse_action,
    result_json,
)
from erren.server.rooms import RoomTier
from erren.server.settlement import to_beans

if TYPE_CHECKING:
    from erren.server.journal import Journal
    from erren.server.store import Store

__all__ = ["Conn", "Table", "TableConfig", "TableSpec"]

log = logging.getLogger("erren.server.table")

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


Command = (
    Join | Gone | Act | SetTrustee | Ready | Leave | Resync | Sit | Timeout | BotMove | GraceOver
) | ReadyOver


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
        self.ruleset: Ruleset = find_ruleset(spec.family, spec.options)
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

    # ------------------------------------------------------------------ plumbing
    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.spec.id}")

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
                log.exception("table %s failed on %r; closing it", self.spec.id, command)
                self._close("the table failed; its record is kept and it will be restored")
                return

    async def stop(self) -> None:
        """Cancel the actor (server shutdown): unfinished hands stay in the store."""
        self._cancel_timers()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _handle(self, command: Command) -> None:
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
        if obs.timer is not None and self._timer is not None:
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
        info = self.seats[seat]
        was_online = info.online
        info.conns.add(conn)
        conn.table, conn.seat = self, seat
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
        if self.running and info.trustee_by_disconnect:
            info.trustee_by_disconnect = False
            await self._system(Action.trustee(seat, False))
        if state is None and not self.running:
            info.ready = True
            await self._maybe_start()

    async def _gone(self, cmd: Gone) -> None:
        conn = cmd.conn
        seat_no = conn.seat
        if seat_no < 0:
            return
        seat = self.seats[seat_no]
        seat.conns.discard(conn)
        if seat.online:
            return
        self._broadcast({"type": "presence", "seat": seat_no, "online": False})
        if self.running and self.state is not None and not self.state.trustee[seat_no]:
            seat.trustee_by_disconnect = True
            await self._system(Action.trustee(seat_no, True))
        if seat.grace is None and not self.closed:
            seat.grace = self._grace_timer(seat_no)

    def _grace_timer(self, seat_no: int) -> Timer:
        return self.clock.call_later(self.config.grace_s, lambda: self.submit(GraceOver(seat_no)))

    async def _grace_over(self, seat_no: int) -> None:
        seat = self.seats[seat_no]
        seat.grace = None
        if seat.online or self.closed:
            return
        if self.running:
            await self._system(Action.make(ActionKind.ESCAPE, seat_no))
        else:
            self._close(f"{seat.name} left the table")

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
        await self._apply(action, conn)

    async def _trustee(self, cmd: SetTrustee) -> None:
        if not self.running or self.state is None:
            self._error(cmd.conn, "no-hand", "托管 applies to a running hand")
            return
        seat = cmd.conn.seat
        self.seats[seat].trustee_by_disconnect = False
        if self.state.trustee[seat] == cmd.on:
            return
        await self._system(Action.trustee(seat, cmd.on))

    async def _leave(self, cmd: Leave) -> None:
        seat = cmd.conn.seat
        if self.running:
            await self._system(Action.make(ActionKind.ESCAPE, seat))
        else:
            self._close(f"{self.seats[seat].name} left the table")

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
        late = [s.name for s in self.seats if not s.ready]
        if late:
            self._close(f"{', '.join(late)} did not get ready for the next hand")

    async def _timeout(self, cmd: Timeout) -> None:
        state = self.state
        if state is None or not self.running or cmd.version != len(state.history):
            return
        if state.actor != cmd.seat:
            return
        await self._system(Action.make(ActionKind.TIMEOUT, cmd.seat))

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
        if self.journal is not None:
            await self.journal.append(rows)
        else:
            refused = [e for e in await self.store.append_actions(rows) if e is not None]
            if refused:
                raise refused[0]
        self._persisted = len(history)

    async def _after_change(self, before: int) -> None:
        state = self.state
        assert state is not None
        if state.is_terminal:
            await self._finish_hand()
        else:
            self._arm()
        for seat in (0, 1):
            self._send_events(seat, before)

    def _arm(self) -> None:
        """The running timer: a bot's move, or the turn/claim timer of the player to act."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        state = self.state
        if state is None or state.is_terminal or state.actor < 0:
            return
        actor = state.actor
        version = len(state.history)
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

    def _cancel_timers(self) -> None:
        for timer in (self._timer, self._ready_timer, *(s.grace for s in self.seats)):
            if timer is not None:
                timer.cancel()

    async def _maybe_start(self) -> None:
        if self.closed or self.running or not self.full:
            return
        if not all(s.ready or s.bot is not None for s in self.seats):
            return
        room = self.spec.room
        if room is not None and self.state is not None:
            for seat in self.seats:
                if seat.user_id is None:
                    continue
                balance = await self.store.balance(seat.user_id)
                if not room.admits(balance):
                    self._close(
                        f"{seat.name}'s balance of {balance} beans is outside the room's "
                        f"limits ({room.tier.entry_min}–{room.tier.entry_max}); not an escape"
                    )
                    return
        await self._start_hand()

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
        game_id = await self.store.create_game(
            self.ruleset.name,
            self._meta(),
            seats=(self.seats[0].user_id, self.seats[1].user_id),
            seed=fair.seed,
            salt=fair.salt,
            room=self.spec.room.id if self.spec.room is not None else self.spec.kind,
        )
        self._begin(state, game_id, fair)
        await self._persist()
        await self._after_change(-1)

    def _begin(self, state: State, game_id: int, fair: Commitment) -> None:
        for seat in self.seats:
            seat.ready = False
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
            "result": result_json(result, wild=state.observe(0).wild),
            "stake": None if self.spec.room is None else self.spec.room.stake,
            "beans": beans,
            "record": record,
        }
        if result.kind == "abort":
            self._close(f"seat {result.loser} escaped; the match is over", after=True)
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

    def _close(self, reason: str, *, after: bool = False) -> None:
        """Close the table (after the last events went out when ``after``)."""
        if self.closed:
            return
        self._cancel_timers()
        self.closed = True
        self.close_reason = reason

        def tell() -> None:
            self._broadcast({"type": "closed", "table": self.spec.id, "reason": reason})
            for seat in self.seats:
                for conn in seat.conns:
                    conn.table, conn.seat = None, -1
                seat.conns.clear()
            if self.on_close is not None:
                self.on_close(self)

        if after:
            asyncio.get_running_loop().call_soon(tell)
        else:
            tell()

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
                seat.grace = self._grace_timer(seat_no)

    async def resume(self) -> None:
        """Play on after :meth:`restore`: finish a hand that ended before the crash, or run
        its timers."""
        state = self.state
        assert state is not None
        if state.is_terminal:
            await self._finish_hand()
        else:
            self._arm()


def make_bot_seat(name: str, bot: str, seed: int | None) -> Seat:
    return Seat(user_id=None, name=name, bot_name=bot, bot=find_bot(bot, seed=seed))
