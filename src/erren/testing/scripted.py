"""Hands played to a chosen end over the real app: a rigged generator, a line of play found with
the engine alone, and clients that play its decisions.

A test that needs a particular hand — a drawn one with one seat ready, a win holding wilds —
finds with the engine a seed and a line of play (two seeded bots, each steered by a
:data:`Chooser`) that ends the way it wants (:func:`find_line`), and records each decision by
(seat, event number).  The app under test (uvicorn on loopback, in the test's process:
:func:`serving`) is made to deal that seed — :class:`RiggedRandom`: the hand seeds a generator
hands out are the only 63-bit draws the lobby makes — and WebSocket clients play the recorded
decisions (:func:`play_scripted`).  :class:`Backstage` runs it on an event loop of its own thread,
for a test whose thread belongs to Playwright's sync API (the browser tests).

It needs the ``server`` extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import uvicorn

from erren.bots import find_bot
from erren.engine import Action, ActionKind, HandResult, Observation, State, find_family
from erren.engine.actions import verbs
from erren.server.app import create_app
from erren.server.appstate import app_state
from erren.server.client import PlayerClient, table_passes
from erren.server.clock import Clock
from erren.server.edge import KEEP_ALIVE_S
from erren.server.lobby import Lobby
from erren.server.store import Passwords, Store
from erren.server.table import TableConfig

__all__ = [
    "WINS",
    "Backstage",
    "Chooser",
    "Line",
    "RiggedRandom",
    "Served",
    "efficiency",
    "find_line",
    "free_port",
    "passive",
    "play_line",
    "play_scripted",
    "read_until",
    "serving",
]

T = TypeVar("T")

WINS = frozenset(k for k in verbs() if k.is_win)
"""The moves that end a hand with a win, in every family."""

Chooser = Callable[[State, Observation, Sequence[Action]], Action]
"""A seat's choice among its legal moves (it may look at the whole state: it is the test's
search, not a player)."""


class RiggedRandom(random.Random):
    """A generator whose 63-bit draws (the hand seeds of :func:`~erren.server.fairness.draw_seed`)
    come from :attr:`seeds` while any are queued; everything else is an ordinary seeded
    generator."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seeds: list[int] = []

    def getrandbits(self, k: int, /) -> int:
        if k == 63 and self.seeds:
            return self.seeds.pop(0)
        return super().getrandbits(k)


@dataclass(frozen=True)
class Line:
    """A seed and the decisions that play it to ``result``."""

    seed: int
    dealer: int
    decisions: dict[tuple[int, int], str]
    result: HandResult


def efficiency(seed: int, *, wins: bool = True) -> Chooser:
    """The efficiency bot (seeded); with ``wins`` off it never wins and never declares 报听
    (whose wins are automatic), so that its hand stays ready to the end of a drawn hand."""
    bot = find_bot("efficiency", seed=seed)

    def choose(state: State, view: Observation, legal: Sequence[Action]) -> Action:
        calm = legal
        if not wins:
            calm = [a for a in legal if a.kind not in WINS and a.kind is not ActionKind.TING]
        return bot.choose(view, calm or legal)

    return choose


def passive(state: State, view: Observation, legal: Sequence[Action]) -> Action:
    """A player who wants a drawn hand: no win, no claim, the drawn tile thrown back."""
    calm = [a for a in legal if a.kind not in WINS]
    for kind in (ActionKind.PASS, ActionKind.DISCARD):
        chosen = [a for a in calm if a.kind is kind]
        if kind is ActionKind.DISCARD and view.last_drawn is not None:
            chosen = [a for a in chosen if a.tile == view.last_drawn] or chosen
        if chosen:
            return chosen[0]
    return calm[0] if calm else legal[0]


def play_line(
    family: str,
    options: tuple[tuple[str, Any], ...],
    seed: int,
    dealer: int,
    choosers: tuple[Chooser, Chooser],
) -> tuple[Line, State]:
    """Play ``seed`` with a chooser per seat, recording each decision; the line and the hand's
    final state."""
    state = State.new(find_family(family, dict(options)), seed=seed, dealer=dealer)
    decisions: dict[tuple[int, int], str] = {}
    while not state.is_terminal:
        seat = state.current_player()
        view = state.observe(seat)
        action = choosers[seat](state, view, view.legal_actions)
        decisions[(seat, view.event_seq)] = str(action).split(":", 1)[1]
        state.apply(action)
    assert state.result is not None
    return Line(seed, dealer, decisions, state.result), state


def find_line(
    family: str,
    options: tuple[tuple[str, Any], ...],
    dealer: int,
    choosers: Callable[[int], tuple[Chooser, Chooser]],
    accept: Callable[[State], bool],
    *,
    key: str,
    tries: int = 5_000,
) -> tuple[Line, State]:
    """The first seed (from a sequence fixed by ``key``) whose play by ``choosers(bots seed)``
    ends in a state ``accept`` takes."""
    rng = random.Random(f"{family}:{dealer}:{key}")
    for _ in range(tries):
        seed, bots = rng.getrandbits(63), rng.getrandbits(32)
        line, state = play_line(family, options, seed, dealer, choosers(bots))
        if accept(state):
            return line, state
    raise AssertionError(f"no {family} hand for {key!r} found in {tries} seeds")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    url: str
    app: Any
    store: Store
    rng: RiggedRandom

    @property
    def lobby(self) -> Lobby:
        return app_state(self.app).lobby


@contextlib.asynccontextmanager
async def serving(database: str, *, new_player_hands: int = 0) -> AsyncIterator[Served]:
    """The real app on uvicorn on loopback over ``database``, with a rigged generator; timers
    long enough (10 minutes) never to fire while the clients answer at once or a line is being
    searched for (the search runs on the server's event loop), and no 鸣牌保护 pause (the
    table passes a pass-only window at once; the pause has tests of its own in
    ``tests/server/test_trust_runtime.py``).  Every account counts as seasoned unless
    ``new_player_hands`` says otherwise (a new account's escape moves no bean)."""
    store = await Store.open(database, passwords=Passwords.fast())
    rng = RiggedRandom(7)
    config = TableConfig(  # game seconds, × 0.01
        grace_s=60_000.0,
        ready_timeout_s=60_000.0,
        turn_timeout_s=60_000.0,
        claim_timeout_s=60_000.0,
        idle_timeout_s=60_000.0,
        claim_min_pause_s=0.0,
        new_player_hands=new_player_hands,
        repeat_hold_s=0.0,  # the same two accounts quick-match hand after hand here,
        match_any_after_s=0.0,  # their ratings drifting apart as they go
        show_up_s=600.0,  # wall seconds: a loaded machine never dissolves a pairing here
    )
    app = create_app(store, rng=rng, clock=Clock(0.01), config=config)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="on",
            timeout_keep_alive=KEEP_ALIVE_S,
        )
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield Served(f"http://127.0.0.1:{port}", app, store, rng)
    finally:
        server.should_exit = True
        await task
        await store.close()


async def play_scripted(
    client: PlayerClient,
    table: str,
    decisions: dict[tuple[int, int], str],
    *,
    leave_at_first_turn: bool = False,
    timeout: float = 60.0,
) -> dict[str, Any]:
    """Join ``table`` and answer every decision from ``decisions``; returns the settlement."""
    if client.ws is None:
        await client.connect()
    await client.join(table)
    done: set[int] = set()
    while True:
        message = await client.recv(timeout)
        kind = message.get("type")
        if kind == "events":
            for event in message["events"]:
                if event["kind"] == "settlement":
                    return dict(event)
        if kind == "closed":
            raise AssertionError(f"the table closed before the settlement: {message}")
        if kind == "error" and message.get("code") != "stale":
            raise AssertionError(f"the server refused a move of the recorded line: {message}")
        state = client.state
        if kind not in ("events", "snapshot") or state is None or not client.my_turn():
            continue
        n = int(state["last_n"])
        if n in done:
            continue
        done.add(n)
        if leave_at_first_turn:
            await client.send({"type": "leave"})
            continue
        key = (client.seat, n)
        if table_passes(state):
            continue  # the table passes at the 鸣牌保护 pause (§2.4)
        if key not in decisions:
            legal = state.get("legal") or []
            raise AssertionError(f"the hand left the recorded line at {key}: legal {legal}")
        await client.act(decisions[key])


async def read_until(
    client: PlayerClient, pred: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message = await client.recv(max(left, 0.01))
        if pred(message):
            return message


class Backstage:
    """:func:`serving` on an event loop of its own thread, for a caller whose thread has none
    to spare (Playwright's sync API keeps the main thread's): :meth:`call` runs a coroutine
    there and returns its result; :attr:`app` is the app served.  A context manager: closing
    stops the server and the loop."""

    def __init__(self, database: str, *, new_player_hands: int = 0) -> None:
        self.database = database
        self.new_player_hands = new_player_hands
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._stack = contextlib.AsyncExitStack()
        self._served: Served | None = None

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        """Run ``coro`` on the backstage loop and wait at most ``timeout`` s for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _open(self) -> Served:
        return await self._stack.enter_async_context(
            serving(self.database, new_player_hands=self.new_player_hands)
        )

    @property
    def app(self) -> Served:
        """The app being served (once entered)."""
        if self._served is None:
            raise RuntimeError("the backstage is not open: use it in a with statement")
        return self._served

    def __enter__(self) -> Backstage:
        self.thread.start()
        try:
            self._served = self.call(self._open())
        except BaseException:
            self._stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.call(self._stack.aclose())
        finally:
            self._stop()

    def _stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()
