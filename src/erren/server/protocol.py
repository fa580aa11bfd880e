"""The JSON protocol shared by the browser and bots (documented in ``docs/protocol.md``).

Client messages are JSON objects with a ``type``; :func:`parse_client` turns the text of one
WebSocket message into a typed message or raises :class:`ProtocolError` with a code and a
message the client can show.  Server messages are built by the ``*_json`` helpers of
:mod:`erren.server.wire` from engine values (re-exported here, so that one import serves a
connection's both directions); a player only ever receives :func:`observation_json` of *his*
observation and events as :meth:`~erren.engine.Event.seen_by` returns them for him.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from erren.engine import Action
from erren.engine.actions import ActionKind
from erren.errors import NotationError
from erren.jsontext import JSONProblem, JSONTextError, read_json
from erren.server.chat import Phrase, Said, Sticker
from erren.server.wire import (
    action_text,
    dumps,
    error_json,
    event_from_json,
    event_json,
    fan_tiles,
    hints_json,
    meld_from_json,
    meld_json,
    observation_from_json,
    observation_json,
    observation_wire_names,
    result_json,
)

__all__ = [
    "MAX_MESSAGE_BYTES",
    "Act",
    "Advice",
    "Auth",
    "Chat",
    "ClientMessage",
    "Join",
    "Leave",
    "Ping",
    "ProtocolError",
    "Ready",
    "Resync",
    "Review",
    "Trustee",
    "Unwatch",
    "Watch",
    "action_text",
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
    "parse_client",
    "result_json",
]

MAX_MESSAGE_BYTES = 4096
"""The largest client message accepted; a longer one is refused (the connection stays)."""


class ProtocolError(Exception):
    """A refused client message: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


# ---------------------------------------------------------------------------- client messages
@dataclass(frozen=True, slots=True)
class Auth:
    """The first message of a connection: the session token (never in the URL, never
    logged)."""

    token: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Join:
    """Sit at (or come back to) ``table``; ``since``: the last event number seen of ``game``."""

    table: str
    game: int | None = None
    since: int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """Play ``action`` (``discard:5m``; the seat prefix is optional and must be one's own);
    ``n``: the number of events seen of the current hand (a stale number is refused)."""

    action: str
    n: int | None = None


@dataclass(frozen=True, slots=True)
class Trustee:
    on: bool


@dataclass(frozen=True, slots=True)
class Ready:
    pass


@dataclass(frozen=True, slots=True)
class Leave:
    pass


@dataclass(frozen=True, slots=True)
class Resync:
    pass


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Advice:
    """Ask what the ``expert`` would play now, from one's own observation alone (the web
    client's hint)."""


@dataclass(frozen=True, slots=True)
class Review:
    """Ask, once the hand is over, what the computer would have discarded at one's own
    decisions (the settlement's quick review)."""


@dataclass(frozen=True, slots=True)
class Chat:
    """Say a quick-chat phrase or show a sticker at one's table: exactly one of the two, an id
    of the closed lists :class:`~erren.server.chat.Phrase` / :class:`~erren.server.chat.Sticker`
    (``null`` for the other is accepted, which is how a cluster node relays it)."""

    phrase: Phrase | None = None
    sticker: Sticker | None = None

    @property
    def said(self) -> Said:
        said = self.phrase if self.phrase is not None else self.sticker
        assert said is not None  # parse_chat gives exactly one
        return said


@dataclass(frozen=True, slots=True)
class Watch:
    """Watch ``table`` as a spectator (its public view, delayed at a bean-room table); ``game``
    and ``since``: the last event number seen of that hand, to come back as a player does."""

    table: str
    game: int | None = None
    since: int | None = None


@dataclass(frozen=True, slots=True)
class Unwatch:
    """Stop watching the table one watches."""


ClientMessage = (
    Auth
    | Join
    | Act
    | Trustee
    | Ready
    | Leave
    | Resync
    | Ping
    | Advice
    | Review
    | Chat
    | Watch
    | Unwatch
)

_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "auth": {"token": (str,)},
    "join": {"table": (str,), "game": (int, type(None)), "since": (int, type(None))},
    "act": {"action": (str,), "n": (int, type(None))},
    "trustee": {"on": (bool,)},
    "ready": {},
    "leave": {},
    "resync": {},
    "ping": {},
    "advice": {},
    "review": {},
    "chat": {"phrase": (str, type(None)), "sticker": (str, type(None))},
    "watch": {"table": (str,), "game": (int, type(None)), "since": (int, type(None))},
    "unwatch": {},
}
_REQUIRED = {
    "auth": ("token",),
    "join": ("table",),
    "act": ("action",),
    "trustee": ("on",),
    "watch": ("table",),
}
INT_MAX = 2**63 - 1
"""The largest game id or event number (a signed 64-bit integer, as the database keeps it)."""
_RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("join", "game"): (1, INT_MAX),
    ("join", "since"): (-1, INT_MAX),
    ("watch", "game"): (1, INT_MAX),
    ("watch", "since"): (-1, INT_MAX),
    ("act", "n"): (-1, INT_MAX),
}
_JSON_TYPE = {
    str: "a string",
    int: "an integer",
    bool: "true or false",
    float: "a number",
    list: "an array",
    dict: "an object",
    type(None): "null",
}


def _no_constant(name: str) -> Any:
    raise ProtocolError("bad-json", f"{name} is not a JSON number (JSON has no NaN or Infinity)")


def _decode(text: str | bytes) -> Any:
    try:
        return read_json(text, parse_constant=_no_constant)
    except JSONTextError as err:
        if err.problem is JSONProblem.TOO_DEEP:
            raise ProtocolError(
                "too-deep", "the JSON is nested too deeply; a message is one flat object"
            ) from None
        raise ProtocolError("bad-json", f"not valid JSON: {err.detail}") from None


def lone_surrogate(data: Any) -> str | None:
    """The first lone surrogate (as ``U+D800``) in the strings of decoded JSON ``data`` (keys
    and values, at any depth), or ``None``.  JSON's ``\\ud800`` escapes can make one; it is
    not Unicode text, so nothing that holds it can be stored, logged as UTF-8 or sent back."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            try:
                value.encode()
            except UnicodeEncodeError as err:
                return f"U+{ord(value[err.start]):04X}"
    return None


def surrogate_message(point: str) -> str:
    """What a ``bad-unicode`` refusal says (the socket's and the HTTP API's)."""
    return (
        f"a string in the message holds a lone surrogate ({point}), which is not Unicode "
        "text; send text as valid UTF-8"
    )


def _check_text(data: Any) -> None:
    point = lone_surrogate(data)
    if point is not None:
        raise ProtocolError("bad-unicode", surrogate_message(point), params={"codepoint": point})


def _check_field(kind: str, name: str, value: Any, allowed: tuple[type, ...]) -> None:
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        wanted = " or ".join(_JSON_TYPE[t] for t in allowed)
        got = _JSON_TYPE.get(type(value), "a value")
        raise ProtocolError(
            "bad-message", f"{kind}.{name} must be {wanted}, not {got}", params={"field": name}
        )
    bounds = _RANGES.get((kind, name))
    if bounds is not None and isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
        raise ProtocolError(
            "out-of-range",
            f"{kind}.{name} must be between {bounds[0]} and {bounds[1]}",
            params={"field": name, "min": bounds[0], "max": bounds[1]},
        )


def parse_client(text: str | bytes) -> ClientMessage:
    """One client message, or :class:`ProtocolError` (``too-large``, ``bad-json`` (not JSON,
    NaN, Infinity), ``too-deep``, ``bad-unicode`` (a lone surrogate in a string),
    ``bad-message`` (not an object, a missing, unknown or
    mistyped field), ``out-of-range`` (a number past 64 bits), ``unknown-type``,
    ``unknown-chat`` (a chat id not on its closed list))."""
    size = len(text) if isinstance(text, bytes) else len(text.encode(errors="surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too-large",
            f"message of {size} bytes; the limit is {MAX_MESSAGE_BYTES}",
            params={"size": size, "limit": MAX_MESSAGE_BYTES},
        )
    data = _decode(text)
    _check_text(data)
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad-message", "a message needs a string 'type'")
    fields = _FIELDS.get(kind)
    if fields is None:
        known = ", ".join(sorted(_FIELDS))
        raise ProtocolError(
            "unknown-type",
            f"unknown message type {kind!r} (known: {known})",
            params={"type": kind[:40]},
        )
    for name in _REQUIRED.get(kind, ()):
        if name not in data:
            raise ProtocolError("bad-message", f"{kind} needs '{name}'", params={"field": name})
    for name, value in data.items():
        if name == "type":
            continue
        allowed = fields.get(name)
        if allowed is None:
            known = ", ".join(fields) or "none besides 'type'"
            raise ProtocolError(
                "bad-message", f"{kind} has no field {name!r} (its fields: {known})"
            )
        _check_field(kind, name, value, allowed)
    if kind == "auth":
        return Auth(data["token"])
    if kind == "join":
        return Join(data["table"], data.get("game"), data.get("since"))
    if kind == "act":
        return Act(data["action"], data.get("n"))
    if kind == "trustee":
        return Trustee(data["on"])
    if kind == "ready":
        return Ready()
    if kind == "leave":
        return Leave()
    if kind == "resync":
        return Resync()
    if kind == "advice":
        return Advice()
    if kind == "review":
        return Review()
    if kind == "chat":
        return _chat(data.get("phrase"), data.get("sticker"))
    if kind == "watch":
        return Watch(data["table"], data.get("game"), data.get("since"))
    if kind == "unwatch":
        return Unwatch()
    return Ping()


def _chat(phrase: str | None, sticker: str | None) -> Chat:
    """A chat message from its two fields: one id of its closed list, the other absent or
    ``null`` (``bad-message``); an id not on the list is ``unknown-chat``."""
    if (phrase is None) == (sticker is None):
        raise ProtocolError(
            "bad-message", "chat needs exactly one of 'phrase' or 'sticker'", {"field": "phrase"}
        )
    if phrase is not None:
        if phrase not in Phrase.__members__.values():
            raise ProtocolError(
                "unknown-chat",
                f"no phrase {phrase[:40]!r} (known: {', '.join(Phrase)})",
                {"field": "phrase"},
            )
        return Chat(phrase=Phrase(phrase))
    assert sticker is not None
    if sticker not in Sticker.__members__.values():
        raise ProtocolError(
            "unknown-chat",
            f"no sticker {sticker[:40]!r} (known: {', '.join(Sticker)})",
            {"field": "sticker"},
        )
    return Chat(sticker=Sticker(sticker))


def parse_action(text: str, seat: int) -> Action:
    """The action ``text`` of ``seat`` (``discard:5m`` or ``0:discard:5m``); chance and system
    actions other than ``timeout``-free ones are refused."""
    parts = text.strip().split(":")
    if parts and parts[0] in ("0", "1", "c"):
        if parts[0] != str(seat):
            raise ProtocolError(
                "not-your-seat", f"you play seat {seat}; {text!r} names another seat"
            )
        parts = parts[1:]
    try:
        action = Action.parse(":".join([str(seat), *parts]))
    except NotationError as err:
        raise ProtocolError("bad-action", f"cannot read the action {text!r}: {err}") from None
    if action.kind.is_system:
        raise ProtocolError(
            "bad-action",
            f"{action.kind.value} is not sent as an action (use the trustee or leave messages)",
        )
    return action


SYSTEM_KINDS = (ActionKind.TIMEOUT, ActionKind.TRUSTEE, ActionKind.ESCAPE)
