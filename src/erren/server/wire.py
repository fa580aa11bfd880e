"""The server's messages of the JSON protocol (``docs/protocol.md``): engine values as JSON.

The ``*_json`` helpers build each message from engine values and :func:`dumps` writes it; a
player only ever receives :func:`observation_json` of *his* observation and events as
:meth:`~erren.engine.Event.seen_by` returns them for him.  The ``*_from_json`` readers turn
them back (the bots' client, the replays).  :mod:`erren.server.protocol` reads the client's
messages and re-exports these names.
"""

from __future__ import annotations

import json
from dataclasses import fields
from functools import lru_cache
from typing import Any

from erren.bots.hints import hand_waits, ready_hints
from erren.engine import Action, Event, HandResult, Observation
from erren.engine.codec import decode, encode
from erren.engine.observation import Timer
from erren.melds import Meld, MeldKind
from erren.notation import parse_tile
from erren.server.chat import Phrase, Said
from erren.tiles import Tile

_TEXT: tuple[str, ...] = tuple(str(Tile(i)) for i in range(len(Tile)))
"""Each tile's notation by value (``str(Tile)`` is slow, and a message holds many tiles)."""

__all__ = [
    "action_text",
    "chat_json",
    "dumps",
    "error_json",
    "event_from_json",
    "event_json",
    "fan_tiles",
    "hints_json",
    "meld_from_json",
    "meld_json",
    "observation_from_json",
    "observation_json",
    "observation_wire_names",
    "result_json",
]


def _dumps_json(message: dict[str, Any]) -> str:
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate: escaped, the text stays sendable
        return json.dumps(message, separators=(",", ":"))
    return text


def _dumps_orjson(message: dict[str, Any]) -> str:
    try:
        return _orjson.dumps(message).decode()  # type: ignore[no-any-return, unused-ignore]
    except TypeError:  # what orjson does not take (integers over 64 bits, lone surrogates)
        return _dumps_json(message)


try:  # orjson, when installed, encodes a message ten times faster; the text is the same
    import orjson as _orjson  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - depends on the environment
    dumps = _dumps_json
else:  # pragma: no cover
    dumps = _dumps_orjson
dumps.__doc__ = "A server message as compact JSON text (UTF-8, no ASCII escapes)."


def error_json(
    code: str, message: str, params: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    """A refused message: a stable ``code``, an English ``message`` (for logs and programs),
    ``params`` (a flat dict the client renders the code with in the player's language; ``{}``
    when the code says it all) and extra fields."""
    return {"type": "error", "code": code, "message": message, "params": params or {}, **extra}


def chat_json(seat: int, said: Said) -> dict[str, Any]:
    """A quick-chat message as both seats hear it: the sender's seat and the id of a closed
    list (``phrase`` or ``sticker``), nothing else (:mod:`erren.server.chat`)."""
    field = "phrase" if isinstance(said, Phrase) else "sticker"
    return {"type": "chat", "seat": seat, field: said.value}


def action_text(action: Action) -> str:
    """An action without its seat (``discard:5m``); cached, every message lists the legal
    actions.  The cache is keyed by the object (the engine interns its actions, and hashing
    an :class:`Action` hashes its enum fields in Python, which costs more than the lookup
    saves); an entry keeps its action alive, so an ``id`` is never reused while it is
    cached."""
    found = _ACTION_TEXT.get(id(action))
    if found is not None and found[0] is action:
        return found[1]
    text = str(action).split(":", 1)[1]
    if len(_ACTION_TEXT) >= _ACTION_TEXT_MAX:
        _ACTION_TEXT.clear()
    _ACTION_TEXT[id(action)] = (action, text)
    return text


_ACTION_TEXT: dict[int, tuple[Action, str]] = {}
_ACTION_TEXT_MAX = 8192
"""Interned actions number a few thousand (kind × seat × tile); the parsed ones that are not
interned are dropped with the rest when the cache is full."""


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    text = _TEXT
    return [text[t] for t in tiles]


def _tile(tile: Tile | None) -> str | None:
    return None if tile is None else _TEXT[tile]


def event_json(event: Event, n: int) -> dict[str, Any]:
    """An engine event (already filtered for the viewer) as event number ``n``: its ``kind``,
    ``player``, ``tile``/``tiles`` (left out when empty), ``private``/``auto`` (only when true)
    and ``data`` (:data:`~erren.engine.events.EVENT_DATA`)."""
    out: dict[str, Any] = {"n": n, "kind": event.kind._value_, "player": event.player}
    if event.tile is not None:
        out["tile"] = _TEXT[event.tile]
    if event.tiles:
        out["tiles"] = _tiles(event.tiles)
    if event.private:
        out["private"] = True
    if event.auto:
        out["auto"] = True
    out["data"] = encode(event.data)
    return out


def event_from_json(data: dict[str, Any]) -> Event:
    """The :class:`~erren.engine.Event` of :func:`event_json` (``seq`` is ``n - 1``)."""
    return decode(Event, {**data, "seq": int(data["n"]) - 1})


@lru_cache(maxsize=4096)
def meld_json(meld: Meld) -> dict[str, Any]:
    """A meld: ``kind`` (chi, peng, ming_gang, jia_gang, an_gang), its physical ``tiles``, the
    ``claimed`` tile, and ``text`` in the shared notation.  Cached (melds are immutable and
    every message shows them): the answer is shared, never change it."""
    return {
        "kind": meld.kind.value,
        "tiles": _tiles(meld.tiles),
        "claimed": _tile(meld.claimed),
        "text": str(meld),
    }


def _tile_tuple(items: list[str]) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in items)


def meld_from_json(data: dict[str, Any]) -> Meld:
    claimed = data.get("claimed")
    return Meld(
        MeldKind(data["kind"]),
        _tile_tuple(data["tiles"]),
        None if claimed is None else parse_tile(claimed),
    )


def fan_tiles(result: HandResult) -> list[list[dict[str, Any]]] | None:
    """For each row of ``result.detail`` (:class:`~erren.scoring.detail.FamilyScore`), the
    tiles of the shown ``result.hand`` it came from, as groups (``[{"tiles": [...], "meld": i
    or None}, ...]``): the row's tiles outside the declared melds as one group, then each
    declared meld it includes.  A tile the shown hand does not hold (an arcade flower, set
    aside before the hand is shown) is left out.  ``None`` when the detail is not available."""
    detail = result.detail
    hand = result.hand
    if detail is None or hand is None:
        return None
    shown = [*hand.concealed, *hand.flowers]
    if hand.winning is not None:
        shown.append(hand.winning)
    out: list[list[dict[str, Any]]] = []
    for row in detail.rows:
        rest = list(row.tiles)
        melds: list[dict[str, Any]] = []
        for i in row.melds:
            meld = hand.melds[i]
            for tile in meld.tiles:
                if tile in rest:
                    rest.remove(tile)
            melds.append({"tiles": _tiles(tuple(meld.tiles)), "meld": i})
        free = list(shown)
        loose = []
        for tile in rest:
            if tile in free:
                free.remove(tile)
                loose.append(tile)
        group = [{"tiles": _tiles(tuple(loose)), "meld": None}] if loose else []
        out.append(group + melds)
    return out if len(out) == len(result.fans) else None


def result_json(result: HandResult | None) -> dict[str, Any] | None:
    """A hand's result: who won how, the ``fans`` rows and ``fan_total`` as before, ``points``
    and ``deltas`` (points), and the family's score through one interface: ``rows`` (name in
    Chinese and English, value, count, tiles, melds, the row's ``id`` in its family's table),
    ``steps``, ``total`` and its ``unit``."""
    if result is None:
        return None
    detail = result.detail
    return {
        "kind": result.kind,
        "winner": result.winner,
        "loser": result.loser,
        "how": result.how,
        "hand": None if result.hand is None else str(result.hand),
        "fans": [[name, value, count] for name, value, count in result.fans],
        "fan_total": result.fan_total,
        "points": result.points,
        "deltas": list(result.deltas),
        "text": str(result),
        "fan_tiles": fan_tiles(result),
        "rows": None
        if detail is None
        else [
            {
                "zh": row.name_zh,
                "en": row.name_en,
                "value": row.value,
                "count": row.count,
                "tiles": _tiles(row.tiles),
                "melds": list(row.melds),
                "id": row.id,
            }
            for row in detail.rows
        ],
        "steps": None
        if detail is None
        else [{"zh": step.zh, "en": step.en} for step in detail.steps],
        "total": None if detail is None else detail.total,
        "unit": None
        if detail is None
        else {
            "zh": detail.unit.zh,
            "en": detail.unit.en,
            "caption": {"zh": detail.unit.caption[0], "en": detail.unit.caption[1]},
        },
    }


_RENAMED = {"legal_actions": "legal", "event_seq": "last_n"}
"""Observation fields whose wire name differs (kept from the first protocol version)."""


def observation_wire_names() -> dict[str, str]:
    """Observation field → its JSON name, for the fields named differently on the wire."""
    return dict(_RENAMED)


def hints_json(obs: Observation) -> dict[str, Any]:
    """The ready hints of ``obs`` (:mod:`erren.bots.hints`, from the observation alone):
    ``discards`` maps each tile the player may throw now that leaves him ready to its waits,
    ``[[tile, unseen copies], ...]``; ``waits`` lists those of the hand he holds between turns
    when it is ready (else ``null``)."""
    ready = ready_hints(obs)
    held = hand_waits(obs)
    return {
        "discards": {_TEXT[t]: [[_TEXT[w], n] for w, n in ws] for t, ws in ready.items()},
        "waits": None if held is None else [[_TEXT[w], n] for w, n in held],
    }


def observation_json(
    obs: Observation,
    *,
    deadline: float | None = None,
    seconds: float | None = None,
    hints: bool = False,
) -> dict[str, Any]:
    """One player's observation, every field through the generic codec (the family's under
    ``view``, tagged by ``view.family``); ``legal`` lists the actions without the seat and
    ``wins`` those of them that win the hand (:attr:`~erren.engine.actions.AnyActionKind.is_win`),
    ``timer.deadline`` is the Unix time at which the running timer fires (the table knows it,
    the engine does not); with ``hints``, ``hints`` holds :func:`hints_json` (the table sends
    them to the players; replays and bots go without).

    The table sends one to each seat after every move, so the core fields are written out
    here by hand (:func:`_core_json`) rather than walked by the codec: the same JSON, in the
    same order, at half the cost (``tests/server/test_protocol_fast.py`` holds the two
    equal)."""
    out = _core_json(obs) if _FAST else _generic_json(obs)
    timer = out["timer"]
    if timer is not None:
        if seconds is not None:
            timer["seconds"] = seconds
        if deadline is not None:
            timer["deadline"] = round(deadline, 3)
    if hints:
        out["hints"] = hints_json(obs)
    return out


def _generic_json(obs: Observation) -> dict[str, Any]:
    """:func:`observation_json`'s fields through the generic codec (the reference)."""
    out: dict[str, Any] = {}
    for name in _OBSERVATION_FIELDS:
        value = getattr(obs, name)
        if name == "legal_actions":
            out["legal"] = [action_text(a) for a in value]
            out["wins"] = [action_text(a) for a in value if a.kind.is_win]
        elif name == "result":
            out["result"] = result_json(obs.result)
        elif name == "melds":
            out["melds"] = [
                [meld_json(m) for m in obs.melds[0]],
                [meld_json(m) for m in obs.melds[1]],
            ]
        else:
            out[_RENAMED.get(name, name)] = encode(value)
    return out


def _core_json(obs: Observation) -> dict[str, Any]:
    """:func:`_generic_json` written out for the fields of :class:`Observation` (tiles as
    their notation, tuples as lists, the timer as an object); ``view`` still goes through
    the codec (each family has its own)."""
    text = _TEXT
    timer = obs.timer
    pending, last = obs.pending, obs.last_drawn
    discards, flowers, melds = obs.discards, obs.flowers, obs.melds
    return {
        "player": obs.player,
        "dealer": obs.dealer,
        "round_wind": text[obs.round_wind],
        "phase": obs.phase,
        "to_act": obs.to_act,
        "origin": obs.origin,
        "pending": None if pending is None else text[pending],
        "hand": [text[t] for t in obs.hand],
        "last_drawn": None if last is None else text[last],
        "melds": [[meld_json(m) for m in melds[0]], [meld_json(m) for m in melds[1]]],
        "hidden_kongs": list(obs.hidden_kongs),
        "discards": [[text[t] for t in discards[0]], [text[t] for t in discards[1]]],
        "claimed": [list(obs.claimed[0]), list(obs.claimed[1])],
        "flowers": [[text[t] for t in flowers[0]], [text[t] for t in flowers[1]]],
        "concealed_count": list(obs.concealed_count),
        "wall_count": obs.wall_count,
        "ting": list(obs.ting),
        "trustee": list(obs.trustee),
        "dice": list(obs.dice),
        "legal": [action_text(a) for a in obs.legal_actions],
        "wins": [action_text(a) for a in obs.legal_actions if a.kind.is_win],
        "timer": None
        if timer is None
        else {"player": timer.player, "kind": timer.kind, "seconds": timer.seconds},
        "last_n": obs.event_seq,
        "result": result_json(obs.result),
        "view": encode(obs.view),
        "streak": obs.streak,
        "ting_at": list(obs.ting_at),
    }


_OBSERVATION_FIELDS = tuple(f.name for f in fields(Observation))
_CORE_NAMES = (
    "player dealer round_wind phase to_act origin pending hand last_drawn melds hidden_kongs "
    "discards claimed flowers concealed_count wall_count ting trustee dice legal_actions timer "
    "event_seq result view streak ting_at"
)
_CORE_FIELDS = tuple(_CORE_NAMES.split())
_FAST = _CORE_FIELDS == _OBSERVATION_FIELDS and tuple(f.name for f in fields(Timer)) == (
    "player",
    "kind",
    "seconds",
)
"""The hand-written fields are the observation's (a new field falls back to the codec, which
sends it, until :func:`_core_json` learns it)."""


def observation_from_json(data: dict[str, Any]) -> Observation:
    """Rebuild the :class:`~erren.engine.Observation` of :func:`observation_json`, every
    field (``result`` is left out: a bot decides only while the hand runs)."""
    player = int(data["player"])
    wire = {
        name: data[_RENAMED.get(name, name)] for name in _OBSERVATION_FIELDS if name != "ting_at"
    }
    wire["ting_at"] = data.get("ting_at", [-1, -1])  # absent from a server before it
    wire["legal_actions"] = [f"{player}:{a}" for a in data["legal"]]
    wire["result"] = None
    return decode(Observation, wire)
