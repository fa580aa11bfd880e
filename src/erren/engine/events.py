"""Events: what happened, numbered, each saying who may see it (lila's numbered events).

The state appends one :class:`Event` per happening (a draw, a discard, a claim, the end...).
``seq`` numbers them from 0 so a client can ask for "events since N".  An event with
``private=True`` shows its ``tile`` and ``tiles`` only to ``player``; :meth:`Event.seen_by`
returns the copy another viewer may receive (the tile blanked, the event still there, so both
players see that a draw happened).  The shuffle is never shown to anyone.

Every event has a :class:`EventKind` and structured ``data``: a small mapping whose keys and
value types are fixed per kind (:data:`EVENT_DATA`) — tiles as notation strings (``"5z"``),
seats and counts as ints, flags as bools.  No client reads prose: the English line of
``str(event)`` (the transcripts' format) and the sentences of :mod:`erren.engine.describe`
are both rendered from ``kind`` and ``data``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, NamedTuple, TypeAlias, TypeVar

from erren.engine.actions import TileWords
from erren.tiles import Tile

__all__ = [
    "EVENT_DATA",
    "AnyEventKind",
    "Event",
    "EventData",
    "EventKind",
    "EventRule",
    "EventValue",
    "ValueWords",
    "check_event_data",
    "event_kinds",
    "event_rule",
    "event_text",
    "register_event_values",
    "register_events",
    "unregister_event_values",
    "unregister_events",
    "value_words",
]

NOBODY = -2
"""``player`` of an event nobody may see in full (the shuffle)."""


class AnyEventKind(StrEnum):
    """What happened: the shared :class:`EventKind` or one of a family's own kinds (an enum of
    its package subclassing this one, registered with :func:`register_events`).  The values are
    the wire names (``kind`` of the event JSON)."""


class EventKind(AnyEventKind):
    """What happens in every family (a family's own kinds are in its package)."""

    SHUFFLE = "shuffle"
    DICE = "dice"
    DEAL = "deal"
    FLOWER = "flower"
    DRAW = "draw"
    DISCARD = "discard"
    TING = "ting"
    CHI = "chi"
    PENG = "peng"
    MING_GANG = "minggang"
    AN_GANG = "angang"
    JIA_GANG = "jiagang"
    PASS = "pass"
    HU = "hu"
    ZIMO = "zimo"
    HUANGZHUANG = "huangzhuang"
    ESCAPE = "escape"
    TRUSTEE = "trustee"
    TIMEOUT = "timeout"
    END = "end"


EventValue: TypeAlias = str | int | bool | tuple[int, ...]
"""One value of an event's ``data``: a tile's notation, a seat or count, a flag, dice."""

EventData: TypeAlias = Mapping[str, EventValue]

NO_DATA: EventData = {}
"""The ``data`` of the kinds that carry none (read-only by its type; a plain mapping, so a
:class:`~erren.engine.State` copies and pickles like any value)."""

Lang: TypeAlias = Literal["zh", "en"]
"""The languages of the words (:mod:`erren.engine.describe`)."""

DataSchema: TypeAlias = Mapping[str, type | tuple[str, ...]]
"""The keys of a kind's ``data`` and their types: ``int``/``str``/``bool``, ``Tile`` for a
tile's notation string, ``tuple`` for a list of ints, or a tuple of the allowed strings (the
shared ones; a family adds its own with :func:`register_event_values`)."""


@dataclass(frozen=True, slots=True)
class ValueWords:
    """The words of one value of an event's closed ``data`` field (a flower set aside during
    ``gold_reveal``, a discard ``why`` ``qiangjin``): what the sentence of
    :mod:`erren.engine.describe` ends with in each language, and the terminal's words."""

    zh: str = ""
    """The end of the Chinese sentence (``"（翻金）"``; empty: nothing)."""
    en: str = ""
    """The end of the English sentence (``" (gold reveal)"``; empty: nothing)."""
    terminal: str | None = None
    """What the terminal's line says of the value (``erren play``; ``None``: the line's usual
    words)."""


NO_WORDS = ValueWords()
"""The words of a value that adds none (an ordinary draw, discard or flower)."""


@dataclass(frozen=True, slots=True)
class EventRule:
    """Everything about one kind of event: its data, its words in both languages, and the
    short English note of the transcripts' line."""

    data: DataSchema
    zh: str
    """The Chinese sentence's template (:mod:`erren.engine.describe`: ``{who}``, ``{tile}``,
    ``{tiles}``, the ``data`` keys and the kind's own :attr:`fields`)."""
    en: str
    """The English sentence's template."""
    note: Callable[[EventData], str] | None = None
    """The short English note of the transcripts' line (``None``: none)."""
    fields: Mapping[str, Callable[[Event, Lang], object]] = field(default_factory=dict)
    """Template fields of this kind made from the event, by language (``"zh"``/``"en"``)."""
    line: Callable[[Event, str, TileWords], str | None] | None = None
    """The terminal's line about the event (the event, who it concerns in words, the
    palette); ``None``: no line."""


_RULES: dict[AnyEventKind, EventRule] = {}
_Kind = TypeVar("_Kind", bound=AnyEventKind)
_DATA: dict[AnyEventKind, DataSchema] = {}
EVENT_DATA: Mapping[AnyEventKind, DataSchema] = _DATA
"""Every registered kind's ``data`` schema (:attr:`EventRule.data`, with the values families
registered for its closed fields: the shared ones first, then the others by name)."""
_VALUES: dict[tuple[AnyEventKind, str], dict[str, ValueWords]] = {}
"""The words of the values of the closed fields, by kind and key (shared and families')."""


def register_events(kinds: type[_Kind], rules: Mapping[_Kind, EventRule]) -> None:
    """Make a family's event kinds known (once, when its package is imported): each member of
    ``kinds`` with its rule; a wire name already taken by another kind is refused."""
    for kind in kinds:
        for known in _RULES:
            if known.value == kind.value and known is not kind:
                raise ValueError(f"the event kind {kind.value!r} is already {known!r}")
        _RULES[kind] = rules[kind]
        _schema(kind)


def unregister_events(kinds: type[AnyEventKind]) -> None:
    """Forget a family's event kinds (a plug-in registered for a while, as the tests do)."""
    for kind in kinds:
        _RULES.pop(kind, None)
        _DATA.pop(kind, None)
        for known in [k for k in _VALUES if k[0] is kind]:
            del _VALUES[known]


def _choices(kind: AnyEventKind, key: str) -> tuple[str, ...]:
    """The values ``kind``'s rule itself allows for ``key``; refuses a key that is no closed
    field of a known kind."""
    rule = _RULES.get(kind)
    allowed = None if rule is None else rule.data.get(key)
    if not isinstance(allowed, tuple):
        raise ValueError(f"the event kind {kind.value!r} has no closed data field {key!r}")
    return allowed


def _schema(kind: AnyEventKind) -> None:
    """Rebuild ``kind``'s :data:`EVENT_DATA` entry: its rule's schema, each closed field's
    shared values followed by the registered others in the order of their names."""
    data = dict(_RULES[kind].data)
    for key, allowed in data.items():
        if isinstance(allowed, tuple):
            more = sorted(set(_VALUES.get((kind, key), ())) - set(allowed))
            data[key] = allowed + tuple(more)
    _DATA[kind] = data


def register_event_values(kind: AnyEventKind, key: str, values: Mapping[str, ValueWords]) -> None:
    """Let ``kind``'s closed ``data`` field ``key`` take ``values`` too, each with its words (a
    family's own ways of a shared event: xiamen's flower set aside during ``gold_reveal``).  A
    key that is no closed field, or a value already registered with other words, is refused."""
    _choices(kind, key)
    known = _VALUES.setdefault((kind, key), {})
    for value, words in values.items():
        if known.get(value, words) != words:
            raise ValueError(f"{kind.value} {key} {value!r} already has other words")
        known[value] = words
    _schema(kind)


def unregister_event_values(kind: AnyEventKind, key: str, values: Iterable[str]) -> None:
    """Forget values of ``kind``'s field ``key`` (a plug-in registered for a while)."""
    known = _VALUES.get((kind, key), {})
    for value in values:
        if value not in _choices(kind, key):
            known.pop(value, None)
    _schema(kind)


def value_words(kind: AnyEventKind, key: str, value: str) -> ValueWords:
    """The words of ``value`` of ``kind``'s field ``key`` (:data:`NO_WORDS`: none)."""
    return _VALUES.get((kind, key), {}).get(value, NO_WORDS)


def check_event_data(kind: AnyEventKind, data: EventData) -> None:
    """Refuse ``data`` that does not fit ``kind``'s schema: a missing or unknown key, or a
    value of a closed field that neither the shared vocabulary nor a loaded family knows."""
    schema = _DATA.get(kind)
    if schema is None:
        raise ValueError(f"unknown event kind {kind.value!r}")
    if set(data) != set(schema):
        raise ValueError(f"{kind.value} data has keys {sorted(data)}, not {sorted(schema)}")
    for key, allowed in schema.items():
        if isinstance(allowed, tuple) and data[key] not in allowed:
            raise ValueError(
                f"{kind.value} data {key!r} is {data[key]!r}, not one of {', '.join(allowed)}"
                " (a family registers its own values with register_event_values)"
            )


def event_rule(kind: AnyEventKind) -> EventRule:
    """The rule of ``kind``."""
    return _RULES[kind]


def event_kinds() -> tuple[AnyEventKind, ...]:
    """Every kind known: the shared ones, then each family's, as the families were loaded."""
    from erren.engine.registry import load_families  # noqa: PLC0415 - the registry imports this

    load_families()
    return tuple(_RULES)


_QUIET = {"during": ("deal", "draw"), "from": ("front",), "why": ("turn",)}
"""Values the English line leaves out (an ordinary flower, draw or discard)."""


def event_text(kind: AnyEventKind, data: EventData) -> str:
    """The short English note of the transcripts' event line (``back``, ``flower 5z``...), as
    the events wrote it when they carried text."""
    note = _RULES[kind].note
    return "" if note is None else note(data)


def _quiet(key: str) -> Callable[[EventData], str]:
    def note(data: EventData) -> str:
        value = str(data[key])
        return "" if value in _QUIET[key] else value.replace("_", " ")

    return note


def _dice(data: EventData) -> str:
    dice = data["dice"]
    return ",".join(str(n) for n in dice) if isinstance(dice, tuple) else str(dice)


def _said(key: str) -> Callable[[EventData], str]:
    return lambda data: str(data[key])


_WHERE = ("deal", "draw")
_DRAW_FROM = ("front", "back")
_DISCARD_WHY = ("turn",)
"""The shared values of the closed fields (a family registers its own ways:
:func:`register_event_values`)."""
_NONE: DataSchema = {}

register_events(
    EventKind,
    {
        EventKind.SHUFFLE: EventRule(
            {"count": int},
            "洗牌（{count} 张）",
            "The wall is shuffled ({count} tiles)",
            note=lambda data: f"{data['count']} tiles",
        ),
        EventKind.DICE: EventRule({"dice": tuple}, "掷骰：{dice}", "Dice: {dice}", note=_dice),
        EventKind.DEAL: EventRule(_NONE, "{who} 起牌 {tiles}", "{who} dealt {tiles}"),
        EventKind.FLOWER: EventRule(
            {"during": _WHERE},
            "{who} 补花 {tile}{during}",
            "{who} set a flower aside: {tile}{during}",
            note=_quiet("during"),
        ),
        EventKind.DRAW: EventRule(
            {"from": _DRAW_FROM},
            "{who} 摸牌 {tile}{source}",
            "{who} drew {tile}{source}",
            note=_quiet("from"),
        ),
        EventKind.DISCARD: EventRule(
            {"why": _DISCARD_WHY},
            "{who} 打出 {tile}{why}",
            "{who} discarded {tile}{why}",
            note=_quiet("why"),
        ),
        EventKind.TING: EventRule(
            _NONE, "{who} 报听，打出 {tile}", "{who} declared ready, discarding {tile}"
        ),
        EventKind.CHI: EventRule(_NONE, "{who} 吃 {tiles}", "{who} chowed {tiles}"),
        EventKind.PENG: EventRule(_NONE, "{who} 碰 {tiles}", "{who} punged {tiles}"),
        EventKind.MING_GANG: EventRule(_NONE, "{who} 杠 {tiles}", "{who} konged {tiles}"),
        EventKind.AN_GANG: EventRule(
            _NONE, "{who} 暗杠 {tile}", "{who} made a concealed kong {tile}"
        ),
        EventKind.JIA_GANG: EventRule(_NONE, "{who} 加杠 {tile}", "{who} added {tile} to a pung"),
        EventKind.PASS: EventRule(_NONE, "{who} 过", "{who} passed"),
        EventKind.HU: EventRule(
            {"how": str},
            "{who} 和牌 {tile}（{how}）",
            "{who} won on {tile} ({how})",
            note=_said("how"),
        ),
        EventKind.ZIMO: EventRule(
            {"how": str},
            "{who} 自摸 {tile}",
            "{who} won by self-draw on {tile}",
            note=_said("how"),
        ),
        EventKind.HUANGZHUANG: EventRule(_NONE, "流局", "Nobody won: the wall is exhausted"),
        EventKind.ESCAPE: EventRule(_NONE, "{who} 逃跑", "{who} left the hand"),
        EventKind.TRUSTEE: EventRule(
            {"on": bool},
            "{who} 托管{on_zh}",
            "{who} auto-play {on_en}",
            note=lambda data: "on" if data["on"] else "off",
        ),
        EventKind.TIMEOUT: EventRule(
            {"move": str},
            "{who} 超时，系统代打 {move}",
            "{who} timed out; the server played {move}",
            note=_said("move"),
        ),
        EventKind.END: EventRule(
            {"result": str},
            "本局结束（{result}）",
            "The hand is over ({result})",
            note=_said("result"),
        ),
    },
)
register_event_values(
    EventKind.DRAW,
    "from",
    {"back": ValueWords("（杠后）", " from the back", terminal=" from the back of the wall")},
)


class Event(NamedTuple):
    """``kind`` says what happened; ``player`` is the seat it concerns (``-1`` for
    chance/table events).  ``auto`` marks a move the engine made for a player (报听 or 托管
    auto-play, a timeout).  ``data`` holds the kind's own facts (:data:`EVENT_DATA`).  A named
    tuple: cheap to build on the hot path, immutable, and compared by value."""

    seq: int
    kind: AnyEventKind
    player: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    private: bool = False
    auto: bool = False
    data: EventData = NO_DATA

    def seen_by(self, viewer: int) -> Event:
        """The event as ``viewer`` may receive it."""
        if not self.private or viewer == self.player:
            return self
        return self._replace(tile=None, tiles=())

    def number(self, key: str) -> int:
        """The int ``data[key]`` (a seat, a count, a level)."""
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{self.kind} data {key!r} is not a number: {value!r}")
        return value

    def word(self, key: str) -> str:
        """The string ``data[key]`` (a tile's notation, a name)."""
        value = self.data[key]
        if not isinstance(value, str):
            raise TypeError(f"{self.kind} data {key!r} is not a string: {value!r}")
        return value

    def flag(self, key: str) -> bool:
        """The bool ``data[key]``."""
        value = self.data[key]
        if not isinstance(value, bool):
            raise TypeError(f"{self.kind} data {key!r} is not a flag: {value!r}")
        return value

    def __str__(self) -> str:
        who = "table" if self.player < 0 else f"seat {self.player}"
        what = str(self.tile) if self.tile is not None else ""
        if self.tiles:
            what = "".join(str(t) for t in self.tiles)
        text = event_text(self.kind, self.data)
        extra = f" {text}" if text else ""
        return f"#{self.seq} {who} {self.kind} {what}{extra}".rstrip()
