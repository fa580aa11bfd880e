"""Played hands with a chosen outcome, for the exact-bean tests (tests/server/test_beans_exact.py).

A hand's outcome is steered, not guessed: the test finds, with the engine alone, a seed and a
line of play (two seeded bots) that ends the way it wants — self-drawn, on a discard, a robbed
kong, a drawn hand — and records every decision by (seat, event number).  The server under test
is then made to deal that seed (:class:`RiggedRandom`: the hand seeds a generator hands out are
the only 63-bit draws the lobby makes), and two WebSocket clients play the recorded decisions.
What the ledger then shows is compared with beans computed from the spec's formula.  The rigged
app, the line and the scripted clients are :mod:`erren.testing.scripted`'s (the browser tests use
them too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from erren.bots import find_bot
from erren.engine import Action, ActionKind, HandResult, Observation, State, find_family
from erren.engine.result import ResultKind
from erren.engine.state import Phase
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.testing.scripted import (
    Line,
    RiggedRandom,
    Served,
    free_port,
    play_scripted,
    read_until,
    serving,
)

__all__ = [
    "OUTCOMES",
    "Line",
    "RiggedRandom",
    "Served",
    "find_line",
    "free_port",
    "play_line",
    "play_scripted",
    "read_until",
    "serving",
]

OUTCOMES = ("zimo", "discard", "robbing", "draw")
"""How a played hand ends; an escape is played by leaving instead."""


def _ends(result: HandResult, outcome: str) -> bool:
    if outcome == "draw":
        return result.kind is ResultKind.DRAW
    return result.kind is ResultKind.WIN and result.how == outcome


_WINS = frozenset({ActionKind.HU, ActionKind.ZIMO, XiamenVerb.WIN})
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
    state = State.new(find_family(family, dict(options)), seed=seed, dealer=dealer)
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
