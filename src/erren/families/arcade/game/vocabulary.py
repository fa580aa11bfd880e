"""arcade's own verbs and events: the opening exchange, pick-any (搓牌), the pung offer and the
post-draw 海底捞月 (arcade.md R1.9–R2.22), registered with the engine when the package is
imported."""

from __future__ import annotations

from erren.engine.actions import (
    Action,
    AnyActionKind,
    Argument,
    TileWords,
    VerbRule,
    register_verbs,
)
from erren.engine.describe import tile_name
from erren.engine.events import (
    AnyEventKind,
    Event,
    EventKind,
    EventRule,
    ValueWords,
    register_event_values,
    register_events,
)
from erren.notation import parse_tile
from erren.tiles import Tile

__all__ = ["ArcadeEvent", "ArcadeVerb"]


class ArcadeVerb(AnyActionKind):
    """arcade's moves (``0:give:9m``, ``0:exchange``, ``0:pick:3s``; ``0:exchange:19m5z`` and
    ``0:takepung:14m9p`` in records made before ``give``, replayed as ``give`` steps)."""

    EXCHANGE = "exchange"
    """End the opening exchange: the tiles given so far (or none) go for tiles from the reserve."""
    PICK = "pick"
    """Pick-any (搓牌) names the kind to draw."""
    TAKE_PUNG = "takepung"
    """Old records: accept the pung offer for these three tiles."""
    GIVE = "give"
    """Give up one more tile, in canonical order (the opening exchange's, or one of the three
    for the pung offer: the third completes the swap)."""


class ArcadeEvent(AnyEventKind):
    """What happens only in arcade."""

    WILD = "wild"
    """The wild indicator turned face up (``tile`` the wild, ``data.flower`` the flower kind)."""
    EXCHANGE = "exchange"
    """A seat's opening exchange (``tiles``: what it received, private)."""
    PICK_OFFER = "pick-offer"
    """A seat is asked to pick a kind (搓牌)."""
    PICK = "pick"
    """The picked kind (``tile``) and what came of it (``tiles``), private."""
    PUNG_OFFER = "pung-offer"
    """A pung of ``tile`` is offered to the seat (private)."""
    TAKE_PUNG = "takepung"
    """The seat took the offered pung (``tiles``: what it gave, private)."""
    GIVE = "give"
    """The seat chose one more tile to give up (``tile``, private) in its opening exchange or
    its answer to a pung offer; every step of a hand is an event, so a client resumes from its
    event number in the middle of such a choice too."""
    HAIDI = "haidi"
    """The post-draw phase (海底捞月) began for the seat."""


def _exchange_words(action: Action, words: TileWords) -> str:
    if not action.data:
        return "no exchange"
    return f"exchange {words.tiles(action.data)} for tiles from the reserve"


def _named(text: str) -> VerbRule:
    def say(action: Action, words: TileWords) -> str:
        return str(action) if action.tile is None else text.format(words.name(action.tile))

    return VerbRule(Argument.TILE, words=say)


register_verbs(
    ArcadeVerb,
    {
        ArcadeVerb.EXCHANGE: VerbRule(Argument.TILES, words=_exchange_words),
        ArcadeVerb.PICK: _named("搓牌 pick {} as your draw"),
        ArcadeVerb.TAKE_PUNG: VerbRule(
            Argument.TILES,
            count=3,
            usage="takepung gives up three tiles, e.g. takepung:14m9p",
            words=lambda action, words: (
                f"take the offered pung, giving up {words.tiles(action.data)}"
            ),
        ),
        ArcadeVerb.GIVE: _named("give up {}"),
    },
)


def _wild_line(event: Event, who: str, words: TileWords) -> str | None:
    if event.tile is None:
        return None
    return f"财神 the wild is {words.name(event.tile)} (indicator turned face up)"


def _exchange_line(event: Event, who: str, words: TileWords) -> str:
    got = f": got {words.tiles(event.tiles)}" if event.tiles else ""
    return f"{who}: opening exchange of {event.data['count']} tile(s){got}"


def _offer_line(event: Event, who: str, words: TileWords) -> str | None:
    if event.tile is None:
        return None
    return f"{who}: 换牌 — a pung of {words.name(event.tile)} is offered for three of your tiles"


def _pick_line(event: Event, who: str, words: TileWords) -> str | None:
    return None if event.tile is None else f"{who}: 搓牌 picks {words.name(event.tile)}"


def _haidi_line(event: Event, who: str, words: TileWords) -> str:
    return f"{who}: 海底捞月 — {event.data['draws']} draws from the reserve"


register_events(
    ArcadeEvent,
    {
        ArcadeEvent.WILD: EventRule(
            {"flower": Tile},
            "财神：{tile}，花牌：{flower}",
            "The wild is {tile}; the flowers are {flower}",
            note=lambda data: f"flower {data['flower']}",
            fields={
                "flower": lambda event, lang: tile_name(parse_tile(event.word("flower")), lang)
            },
            line=_wild_line,
        ),
        ArcadeEvent.EXCHANGE: EventRule(
            {"count": int},
            "{who} 换牌 {count} 张 {tiles}",
            "{who} exchanged {count} tile(s) {tiles}",
            note=lambda data: f"{data['count']} tile(s)",
            line=_exchange_line,
        ),
        ArcadeEvent.PICK_OFFER: EventRule({}, "{who} 选牌（搓牌）", "{who} may pick a tile (搓牌)"),
        ArcadeEvent.PICK: EventRule(
            {}, "{who} 搓牌 {tile}", "{who} picked {tile}", line=_pick_line
        ),
        ArcadeEvent.PUNG_OFFER: EventRule(
            {},
            "{who} 可换一刻 {tile}",
            "{who} is offered a pung of {tile}",
            line=_offer_line,
        ),
        ArcadeEvent.TAKE_PUNG: EventRule(
            {}, "{who} 换来一刻 {tile}", "{who} took the pung of {tile}"
        ),
        ArcadeEvent.GIVE: EventRule({}, "{who} 选出 {tile}", "{who} chose {tile} to give up"),
        ArcadeEvent.HAIDI: EventRule(
            {"draws": int},
            "{who} 海底捞月 {draws} 张",
            "{who} draws {draws} from the reserve (海底捞月)",
            note=lambda data: f"{data['draws']} draws",
            line=_haidi_line,
        ),
    },
)
register_event_values(
    EventKind.FLOWER,
    "during",
    {"exchange": ValueWords("（换牌）", " (exchange)"), "haidi": ValueWords()},
)
"""Flowers set aside as the opening exchange's or 海底捞月's tiles come from the reserve."""
register_event_values(EventKind.DRAW, "from", {"haidi": ValueWords("（海底）", " (haidi)")})
"""A draw of 海底捞月 from the reserve."""
register_event_values(EventKind.DISCARD, "why", {"haidi": ValueWords()})
"""The discard 海底捞月 makes for the seat."""
