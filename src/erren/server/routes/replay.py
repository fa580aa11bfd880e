"""Frames of a finished hand for the replay viewer: the state after every move, both hands open.

A frame is one player's observation (:func:`erren.server.protocol.observation_json` of seat 0)
widened to both seats: ``hands`` holds both concealed hands, ``melds`` both players' melds with
their concealed kongs, plus the move that led there (``action``) and the events it produced.
Chance actions (shuffle, dice, an arcade event roll) are folded into the move before them
(:func:`erren.engine.record.replay_moves`).

A posted record is anyone's input: it may hold no more actions than a real hand of its family
can (:func:`max_actions`), and :func:`replayed` is what the server's replay process runs (the
frames as gzip-compressed JSON, or why not), so the work never touches the event loop.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from typing import Any

from erren.engine import Record, State, find_family, observe
from erren.engine.record import replay_moves
from erren.errors import ErrenError, IllegalActionError
from erren.server.protocol import event_json, meld_json, observation_json, result_json
from erren.server.table.spec import TableConfig

__all__ = ["Replayed", "frames", "max_actions", "replayed"]

_TOGGLES = TableConfig().trustee_toggles
"""How often a seat may switch 托管 in a hand (the table's rule)."""


def max_actions(record: Record) -> int:
    """The most actions a real hand of the record's family (and options) can hold: each tile
    of the wall is discarded at most once, each discard is answered at most once (a pass or a
    claim) and at most once more declared on (a kong, 报听, a gift of the exchange...), each
    seat switches 托管 at most
    :data:`_TOGGLES` times, and a handful of chance actions (shuffle, dice, seeds)."""
    return 3 * len(find_family(record.ruleset, record.options).tiles) + 2 * _TOGGLES + 16


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
    out["wins"] = []
    out["timer"] = None
    out["action"] = action
    out["events"] = events
    return out


def frames(data: dict[str, Any]) -> dict[str, Any]:
    """``{"ruleset", "seats", "levels", "frames": [...], "result"}`` for a record dict
    (``seats``: the players' names, ``None`` when the record has none; ``levels``: a computer
    seat's level, for the client to name it in the player's language)."""
    record = Record.from_dict(data)
    most = max_actions(record)
    if len(record.actions) > most:
        raise ValueError(
            f"{len(record.actions)} actions; a {record.ruleset} hand holds at most {most}"
        )
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


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the replay process answers: the frames as gzip-compressed JSON (``body``), or why
    the record does not replay (``refusal``, and the rule an illegal move broke)."""

    body: bytes | None
    refusal: str = ""
    rule: str | None = None


def replayed(data: dict[str, Any]) -> Replayed:
    """:func:`frames` of a posted record, compressed; an unreadable or illegal record becomes
    a refusal (an exception would have to cross the process boundary)."""
    try:
        out = frames(data)
    except IllegalActionError as err:
        return Replayed(None, f"not a replayable record: {err}", err.rule)
    except (ErrenError, ValueError, KeyError, TypeError, AttributeError) as err:
        return Replayed(None, f"not a replayable record: {err}")
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    return Replayed(gzip.compress(text.encode("utf-8"), compresslevel=6))
