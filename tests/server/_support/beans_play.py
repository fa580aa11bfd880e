"""Played hands with a chosen outcome, for the exact-bean tests (tests/server/test_beans_exact.py).

A hand's outcome is steered, not guessed: the test finds, with the engine alone, a seed and a
line of play (two seeded bots) that ends the way it wants — self-drawn, on a discard, a robbed
kong, a drawn hand — and records every decision by (seat, event number).  The server under test
is then made to deal that seed (:class:`RiggedRandom`: the hand seeds a generator hands out are
the only 63-bit draws the lobby makes), and two WebSocket clients play the recorded decisions.
What the ledger then shows is compared with beans computed from the spec's formula.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import uvicorn

from erren.bots import find_bot
from erren.engine import Action, ActionKind, HandResult, Observation, State, find_ruleset
from erren.engine.state import Phase
from erren.server.app import create_app
from erren.server.client import PlayerClient, table_passes
from erren.server.clock import Clock
from erren.server.store import Passwords, Store
from erren.server.table import TableConfig

OUTCOMES = ("zimo", "discard", "robbing", "draw")
"""How a played hand ends; an escape is played by leaving instead."""


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


def _ends(result: HandResult, outcome: str) -> bool:
    if outcome == "draw":
        return result.kind == "draw"
    return result.kind == "win" and result.how == outcome


_WINS = frozenset({ActionKind.HU, ActionKind.ZIMO, ActionKind.WIN})
_PASSIVE = (ActionKind.PASS, ActionKind.DISCARD)


def _passive(view: Observation, legal: Sequence[Action]) -> Action | None:
    """A player who wants a drawn hand: no win, no claim, the drawn tile thrown back."""
    calm = [a for a in legal if a.kind not in _WINS]
    for kind in _PASSIVE:
        chosen = [a for a in calm if a.kind is kind]
        if kind is ActionKind.DISCARD and view.last_drawn is not None:
            chosen = [a for a in chosen if a.tile == view.last_drawn] or chosen
        if chosen:
            return chosen[0]
    return calm[0] if calm else None


def _robbed(state: State, legal: Sequence[Action]) -> Action | None:
    """A 加杠 that the opponent can rob, if one is legal (the line looks at both hands: it is
    the test's search, not a player)."""
    for action in legal:
        if action.kind is ActionKind.JIA_GANG:
            trial = state.clone()
            trial.apply(action)
            if not trial.is_terminal and any(
                a.kind in _WINS for a in trial.legal_actions(1 - action.player)
            ):
                return action
    return None


def _rob_only(state: State, legal: Sequence[Action]) -> Sequence[Action]:
    """Waiting for a kong to rob: every other win and every 报听 (whose wins are automatic) is
    left out, so the hand goes on with both players ready."""
    if state.phase is Phase.ROB:
        return legal
    kept = [a for a in legal if a.kind not in _WINS and a.kind is not ActionKind.TING]
    return kept or legal


def play_line(
    family: str,
    options: tuple[tuple[str, Any], ...],
    seed: int,
    dealer: int,
    bots: int,
    *,
    style: str = "efficiency",
) -> Line:
    """Play ``seed`` with two efficiency bots seeded from ``bots``, recording each decision;
    ``style`` ``draw`` plays for a drawn hand, ``robbing`` for a robbed kong (every pung is
    taken, and a 加杠 is declared when the opponent can rob it)."""
    state = State.new(find_ruleset(family, dict(options)), seed=seed, dealer=dealer)
    players = (find_bot("efficiency", seed=bots), find_bot("efficiency", seed=bots + 1))
    decisions: dict[tuple[int, int], str] = {}
    while not state.is_terminal:
        seat = state.current_player()
        view = state.observe(seat)
        legal: Sequence[Action] = view.legal_actions
        action: Action | None = None
        if style == "draw":
            action = _passive(view, legal)
        elif style == "robbing":
            legal = _rob_only(state, legal)
            action = _robbed(state, legal) or next(
                (a for a in legal if a.kind in (*_WINS, ActionKind.PENG)), None
            )
        if action is None:
            action = players[seat].choose(view, legal)
        decisions[(seat, view.event_seq)] = str(action).split(":", 1)[1]
        state.apply(action)
    assert state.result is not None
    return Line(seed, dealer, decisions, state.result)


@cache
def find_line(
    family: str,
    options: tuple[tuple[str, Any], ...],
    outcome: str,
    dealer: int,
    *,
    least_points: int = 0,
    most_points: int | None = None,
    tries: int = 20_000,
) -> Line:
    """The first seed (from a fixed sequence) whose bot play ends in ``outcome`` worth
    ``least_points`` to ``most_points`` to the winner."""
    rng = random.Random(f"{family}:{outcome}:{dealer}:{least_points}:{most_points}")
    for _ in range(tries):
        line = play_line(
            family,
            options,
            rng.getrandbits(63),
            dealer,
            rng.getrandbits(32),
            style=outcome if outcome in ("draw", "robbing") else "efficiency",
        )
        worth = max(line.result.deltas)
        if (
            _ends(line.result, outcome)
            and worth >= least_points
            and (most_points is None or worth <= most_points)
        ):
            return line
    raise AssertionError(f"no {family} hand ending in {outcome} found in {tries} seeds")


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
    def lobby(self) -> Any:
        return self.app.state.holder["lobby"]


@contextlib.asynccontextmanager
async def serving(database: str, *, new_player_hands: int = 0) -> AsyncIterator[Served]:
    """The real app on uvicorn on loopback over ``database``, with a rigged generator; timers
    long enough (10 minutes) never to fire while the clients answer at once or a line is being
    searched for (the search runs on the server's event loop), and no 鸣牌保护 pause (the
    table passes a pass-only window at once: the beans are the point here; the pause has tests
    of its own in ``test_trust_runtime.py``).  Every account counts as seasoned unless
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
        repeat_hold_s=0.0,  # the same two accounts quick-match hand after hand here
    )
    app = create_app(store, rng=rng, clock=Clock(0.01), config=config)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
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
