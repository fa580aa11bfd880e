"""Frames of a finished hand for the replay viewer: the state after every move, both hands open.

A frame is one player's observation (:func:`erren.server.protocol.observation_json` of seat 0)
widened to both seats: ``hands`` holds both concealed hands, ``melds`` both players' melds with
their concealed kongs, plus the move that led there (``action``) and the events it produced.
Chance actions (shuffle, dice, an arcade event roll) are folded into the move before them
(:func:`erren.engine.record.replay_moves`).
"""

from __future__ import annotations

from typing import Any

from erren.engine import Record, State, observe
from erren.engine.record import replay_moves
from erren.server.protocol import event_json, meld_json, observation_json, result_json

__all__ = ["MAX_ACTIONS", "frames"]

MAX_ACTIONS = 2000
"""A hand has a few hundred actions at most; longer input is refused."""


def _frame(state: State, action: str | None, events: list[dict[str, Any]]) -> dict[str, Any]:
    seen = [observe(state, 0), observe(state, 1)]
    out = observation_json(seen[0])
    out["hands"] = [[str(t) for t in seen[p].hand] for p in (0, 1)]
    out["melds"] = [[meld_json(m) for m in seen[p].melds[p]] for p in (0, 1)]
    out["hidden_kongs"] = [0, 0]
    out["last_drawn"] = None
    actor = state.actor if out["to_act"] is not None else None
    if actor is not None:
        out["last_drawn"] = None if seen[actor].last_drawn is None else str(seen[actor].last_drawn)
    out["legal"] = []
    out["timer"] = None
    out["action"] = action
    out["events"] = events
    return out


def frames(data: dict[str, Any]) -> dict[str, Any]:
    """``{"ruleset", "seats", "levels", "frames": [...], "result"}`` for a record dict
    (``seats``: the players' names, ``None`` when the record has none; ``levels``: a computer
    seat's level, for the client to name it in the player's language)."""
    record = Record.from_dict(data)
    if len(record.actions) > MAX_ACTIONS:
        raise ValueError(f"more than {MAX_ACTIONS} actions")
    out: list[dict[str, Any]] = []
    shown = 0  # events already shown
    state: State | None = None
    for state, move in replay_moves(record):
        fresh = state.events[shown:]
        shown = len(state.events)
        # the replay shows everything: both hands are open, so every event is public here
        events = [event_json(e, e.seq + 1) for e in fresh if e.kind != "shuffle"]
        out.append(_frame(state, None if move is None else str(move), events))
    assert state is not None  # replay_moves yields at least the opening
    seats = data.get("seats")
    levels = data.get("levels")
    return {
        "ruleset": record.ruleset,
        "options": record.options,
        "dealer": record.dealer,
        "seats": seats if isinstance(seats, list) else [None, None],
        "levels": levels if isinstance(levels, list) else [None, None],
        "game": data.get("game"),
        "frames": out,
        "result": result_json(state.result),
    }
