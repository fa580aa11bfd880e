"""How ``erren play`` puts actions and events into words: :func:`describe` for the menus and
the advice, :func:`narrate` for the lines about what happened, and who is who at the table (the
human is seat 0, the computer seat 1)."""

from __future__ import annotations

from erren.display import Palette
from erren.engine import Action, ActionKind, Event
from erren.engine.actions import verb_rule
from erren.engine.events import AnyEventKind, EventKind, event_rule, value_words
from erren.tiles import Tile

AK = ActionKind
HUMAN, COMPUTER = 0, 1
NAMES = ("You", "Computer")


_NAMED = {
    AK.DISCARD: "discard {}",
    AK.TING: "discard {} and declare 报听 (ready)",
    AK.AN_GANG: "暗杠 concealed kong of {}",
    AK.JIA_GANG: "加杠 add {} to your pung",
}
"""The words of an action that names its tile (``{}``: the tile's name)."""

_PLAIN = {
    AK.ZIMO: "自摸 — win on your own draw!",
    AK.HU: "胡 — win!",
    AK.PASS: "过 pass",
}
"""The words of an action that needs no tile named (a family's own verbs bring their words:
:attr:`~erren.engine.actions.VerbRule.words`)."""


def describe(action: Action, pal: Palette, pending: Tile | None = None) -> str:
    """An action in words, for menus and advice."""
    kind = action.kind
    tile = action.tile
    if tile is not None and kind in _NAMED:
        return _NAMED[kind].format(pal.name(tile))
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind is AK.PENG and pending is not None:
        return f"碰 pung {pal.tiles([pending] * 3)}"
    if kind is AK.MING_GANG and pending is not None:
        return f"杠 kong {pal.tiles([pending] * 4)}"
    if kind is AK.CHI and tile is not None:
        return f"吃 chow {pal.tiles([tile, tile + 1, tile + 2])}"
    own = verb_rule(kind).words
    if own is not None:
        return own(action, pal)
    return str(action)


def narrate(event: Event, pal: Palette) -> str | None:
    """One line about an event, as the human may see it (``None``: not worth a line); read
    from the event's kind and data."""
    who = NAMES[event.player] if event.player in (0, 1) else ""
    verb = "draw" if event.player == HUMAN else "draws"
    tile = event.tile
    kind = event.kind
    auto = " (auto)" if event.auto else ""
    if kind is EventKind.DRAW:
        if tile is None:
            return None  # the opponent's draw: nothing to learn
        source = value_words(kind, "from", event.word("from")).terminal or ""
        return f"{who} {verb} {pal.name(tile)}{source}"
    if kind in (EventKind.DISCARD, EventKind.TING) and tile is not None:
        s = "s" if event.player == COMPUTER else ""
        ting = f" and declare{s} 报听 (ready)" if kind is EventKind.TING else ""
        return f"{who} discard{s} {pal.name(tile)}{ting}{auto}"
    if kind in _MELD_WORDS:
        return f"{who}: {_MELD_WORDS[kind]} {pal.tiles(event.tiles)}"
    if kind is EventKind.AN_GANG:
        shown = pal.name(tile) if tile is not None else "a face-down kind"
        return f"{who}: 暗杠 concealed kong ({shown})"
    if kind is EventKind.JIA_GANG and tile is not None:
        return f"{who}: 加杠 adds {pal.name(tile)} to a pung"
    if kind is EventKind.FLOWER and tile is not None:
        during = value_words(kind, "during", event.word("during")).terminal
        return f"{who}: 花 flower {pal.name(tile)}{during or ', replaced'}"
    if kind is EventKind.TRUSTEE:
        return f"{who}: 托管 auto-play {'on' if event.flag('on') else 'off'}"
    own = event_rule(kind).line  # a family's own kinds bring their line
    if own is not None:
        return own(event, who, pal)
    if kind is EventKind.HUANGZHUANG:
        return "流局 — nobody won"
    return None


_MELD_WORDS: dict[AnyEventKind, str] = {
    EventKind.CHI: "吃 chow",
    EventKind.PENG: "碰 pung",
    EventKind.MING_GANG: "杠 kong",
}
