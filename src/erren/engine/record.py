"""Hand records: ruleset + options + seed + actions, as compact JSON; replays are exact.

The format is documented in ``docs/records.md``.  Example::

    {"format": "erren-hand", "version": 1, "ruleset": "guobiao-2p",
     "options": {"fan_table": "2p", "suit": "m", ...}, "seed": 7, "dealer": 0,
     "round_wind": "1z", "actions": ["c:shuffle:3m7z...", "c:dice:2,5", "0:discard:7z", ...],
     "result": "seat 1 wins by discard: ..."}

Chance actions carry their outcome, so a replay needs neither the seed nor the generator; the
seed is kept to say where the outcomes came from.  ``result`` is informative only: a replay
recomputes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from erren.engine.actions import CHANCE, Action
from erren.engine.registry import find_family
from erren.errors import NotationError
from erren.notation import parse_tile
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["FORMAT", "VERSION", "Record", "replay", "replay_moves"]

FORMAT = "erren-hand"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Record:
    ruleset: str
    options: dict[str, Any]
    seed: int | None
    dealer: int
    round_wind: Tile
    actions: tuple[str, ...]
    result: str | None = None
    streak: int = 0
    """The dealer streak (kept, as ``"streak"``, only when not 0)."""

    @classmethod
    def of(cls, state: State) -> Record:
        return cls(
            ruleset=state.ruleset.name,
            options=state.ruleset.options_dict(),
            seed=state.seed,
            dealer=state.dealer,
            round_wind=state.round_wind,
            actions=tuple(str(a) for a in state.history),
            result=None if state.result is None else str(state.result),
            streak=state.streak,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "options": self.options,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": str(self.round_wind),
        }
        if self.streak:
            out["streak"] = self.streak
        out["actions"] = list(self.actions)
        if self.result is not None:
            out["result"] = self.result
        return out

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        if data.get("format") != FORMAT:
            raise NotationError(f"not an erren hand record (format {data.get('format')!r})")
        if data.get("version") != VERSION:
            raise NotationError(f"unsupported record version {data.get('version')!r}")
        try:
            return cls(
                ruleset=str(data["ruleset"]),
                options=dict(data.get("options", {})),
                seed=data.get("seed"),
                dealer=int(data.get("dealer", 0)),
                round_wind=parse_tile(str(data.get("round_wind", "1z"))),
                actions=tuple(str(a) for a in data["actions"]),
                result=data.get("result"),
                streak=int(data.get("streak", 0)),
            )
        except KeyError as missing:
            raise NotationError(f"record without {missing}") from None

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise NotationError(f"record is not JSON: {err}") from None
        if not isinstance(data, dict):
            raise NotationError("a record is a JSON object")
        return cls.from_dict(data)


def replay(record: Record | str, *, upto: int | None = None) -> State:
    """The state after applying the record's actions (the first ``upto`` of them)."""
    if isinstance(record, str):
        record = Record.from_json(record)
    state = _initial(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for text in actions:
        state.apply_recorded(Action.parse(text))
    return state


def replay_moves(record: Record | str) -> Iterator[tuple[State, Action | None]]:
    """The record move by move: the state after the opening chance actions (with move
    ``None``), then after each player's or the system's action with the chance actions that
    follow it (a draw's shuffle, an arcade event roll) folded in.  Every step yields the same
    :class:`State`, updated in place."""
    if isinstance(record, str):
        record = Record.from_json(record)
    state = _initial(record)
    actions = [Action.parse(text) for text in record.actions]
    i = 0
    while i < len(actions) and actions[i].player == CHANCE:
        state.apply_recorded(actions[i])
        i += 1
    yield state, None
    while i < len(actions):
        move = actions[i]
        state.apply_recorded(move)
        i += 1
        while i < len(actions) and actions[i].player == CHANCE:
            state.apply_recorded(actions[i])
            i += 1
        yield state, move


def _initial(record: Record) -> State:
    """The record's hand before its first action: ruleset, dealer, round wind, dealer streak."""
    from erren.engine.state import State  # noqa: PLC0415

    ruleset = find_family(record.ruleset, record.options)
    state = State(ruleset, dealer=record.dealer, round_wind=record.round_wind, streak=record.streak)
    state.seed = record.seed
    return state
