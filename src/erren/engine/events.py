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

from collections.abc import Mapping
from enum import StrEnum
from typing import NamedTuple, TypeAlias

from erren.tiles import Tile

__all__ = [
    "EVENT_DATA",
    "YOU_LEVELS",
    "Event",
    "EventData",
    "EventKind",
    "EventValue",
    "event_text",
]

NOBODY = -2
"""``player`` of an event nobody may see in full (the shuffle)."""


class EventKind(StrEnum):
    """What happened.  The values are the wire names (``kind`` of the event JSON)."""

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
    GOLD = "gold"
    """xiamen: the gold indicator turned face up (``tile`` is the gold)."""
    YOU = "you"
    """xiamen: a seat's 游 level went up."""
    WILD = "wild"
    """arcade: the wild indicator turned face up (``tile`` the wild, ``data.flower`` the
    flower kind)."""
    EXCHANGE = "exchange"
    """arcade: a seat's opening exchange (``tiles``: what it received, private)."""
    PICK_OFFER = "pick-offer"
    """arcade: a seat is asked to pick a kind (搓牌)."""
    PICK = "pick"
    """arcade: the picked kind (``tile``) and what came of it (``tiles``), private."""
    PUNG_OFFER = "pung-offer"
    """arcade: a pung of ``tile`` is offered to the seat (private)."""
    TAKE_PUNG = "takepung"
    """arcade: the seat took the offered pung (``tiles``: what it gave, private)."""
    GIVE = "give"
    """arcade: the seat chose one more tile to give up (``tile``, private) in its opening
    exchange or its answer to a pung offer; every step of a hand is an event, so a client
    resumes from its event number in the middle of such a choice too."""
    HAIDI = "haidi"
    """arcade: the post-draw phase (海底捞月) began for the seat."""


EventValue: TypeAlias = str | int | bool | tuple[int, ...]
"""One value of an event's ``data``: a tile's notation, a seat or count, a flag, dice."""

EventData: TypeAlias = Mapping[str, EventValue]

NO_DATA: EventData = {}
"""The ``data`` of the kinds that carry none (read-only by its type; a plain mapping, so a
:class:`~erren.engine.State` copies and pickles like any value)."""

_WHERE = ("deal", "draw", "gold_reveal", "exchange", "haidi")
_DRAW_FROM = ("front", "back", "haidi")
_DISCARD_WHY = ("turn", "qiangjin", "gold", "haidi")

EVENT_DATA: Mapping[EventKind, Mapping[str, type | tuple[str, ...]]] = {
    EventKind.SHUFFLE: {"count": int},
    EventKind.DICE: {"dice": tuple},
    EventKind.DEAL: {},
    EventKind.FLOWER: {"during": _WHERE},
    EventKind.DRAW: {"from": _DRAW_FROM},
    EventKind.DISCARD: {"why": _DISCARD_WHY},
    EventKind.TING: {},
    EventKind.CHI: {},
    EventKind.PENG: {},
    EventKind.MING_GANG: {},
    EventKind.AN_GANG: {},
    EventKind.JIA_GANG: {},
    EventKind.PASS: {},
    EventKind.HU: {"how": str},
    EventKind.ZIMO: {"how": str},
    EventKind.HUANGZHUANG: {},
    EventKind.ESCAPE: {},
    EventKind.TRUSTEE: {"on": bool},
    EventKind.TIMEOUT: {"move": str},
    EventKind.END: {"result": str},
    EventKind.GOLD: {},
    EventKind.YOU: {"level": int},
    EventKind.WILD: {"flower": Tile},
    EventKind.EXCHANGE: {"count": int},
    EventKind.PICK_OFFER: {},
    EventKind.PICK: {},
    EventKind.PUNG_OFFER: {},
    EventKind.TAKE_PUNG: {},
    EventKind.GIVE: {},
    EventKind.HAIDI: {"draws": int},
}
"""The keys of each kind's ``data`` and their types: ``int``/``str``/``bool``, ``Tile`` for a
tile's notation string, ``tuple`` for a list of ints, or a tuple of the allowed strings."""

YOU_LEVELS = ("", "游金", "双游", "三游")
"""The words of xiamen's 游 levels (R-2.9: 1 游金, 2 双游, 3 三游), as a ``you`` event's
``level`` indexes them."""


_QUIET = {"during": ("deal", "draw"), "from": ("front",), "why": ("turn",)}
"""Values the English line leaves out (an ordinary flower, draw or discard)."""


def event_text(kind: EventKind, data: EventData) -> str:
    """The short English note of the transcripts' event line (``back``, ``flower 5z``...), as
    the events wrote it when they carried text."""
    match kind:
        case EventKind.SHUFFLE:
            return f"{data['count']} tiles"
        case EventKind.DICE:
            dice = data["dice"]
            return ",".join(str(n) for n in dice) if isinstance(dice, tuple) else str(dice)
        case EventKind.FLOWER | EventKind.DRAW | EventKind.DISCARD:
            key = next(iter(EVENT_DATA[kind]))
            value = str(data[key])
            return "" if value in _QUIET[key] else value.replace("_", " ")
        case EventKind.HU | EventKind.ZIMO:
            return str(data["how"])
        case EventKind.TRUSTEE:
            return "on" if data["on"] else "off"
        case EventKind.TIMEOUT:
            return str(data["move"])
        case EventKind.END:
            return str(data["result"])
        case EventKind.GOLD:
            return "indicator"
        case EventKind.YOU:
            level = data["level"]
            return f"{level} {YOU_LEVELS[level]}" if isinstance(level, int) else str(level)
        case EventKind.WILD:
            return f"flower {data['flower']}"
        case EventKind.EXCHANGE:
            return f"{data['count']} tile(s)"
        case EventKind.HAIDI:
            return f"{data['draws']} draws"
        case _:
            return ""


class Event(NamedTuple):
    """``kind`` says what happened; ``player`` is the seat it concerns (``-1`` for
    chance/table events).  ``auto`` marks a move the engine made for a player (报听 or 托管
    auto-play, a timeout).  ``data`` holds the kind's own facts (:data:`EVENT_DATA`).  A named
    tuple: cheap to build on the hot path, immutable, and compared by value."""

    seq: int
    kind: EventKind
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
