"""xiamen's own verbs and events: 三金倒, 抢金胡, the 游 chain's win and 游金; the gold and the
游 levels (xiamen.md R-2.7–R-2.10), registered with the engine when the package is imported."""

from __future__ import annotations

from erren.engine.actions import (
    Action,
    AnyActionKind,
    Argument,
    TileWords,
    VerbRule,
    register_verbs,
)
from erren.engine.events import (
    AnyEventKind,
    Event,
    EventData,
    EventKind,
    EventRule,
    ValueWords,
    register_event_values,
    register_events,
)

__all__ = ["YOU_LEVELS", "XiamenEvent", "XiamenVerb"]


class XiamenVerb(AnyActionKind):
    """xiamen's moves (``1:sanjindao``, ``0:qiangjin:3z``, ``0:win``, ``0:discardgold``)."""

    SANJINDAO = "sanjindao"
    """三金倒: three golds in the opening window (R-2.7)."""
    QIANGJIN = "qiangjin"
    """抢金胡: the dealer names the tile he lays out (``qiangjin:3z``), the other seat none."""
    WIN = "win"
    """A player in the 游 chain who drew a gold wins with it."""
    DISCARD_GOLD = "discardgold"
    """游金: the drawn gold is thrown to swim on for a bigger win (a risk, not a win)."""


class XiamenEvent(AnyEventKind):
    """What happens only in xiamen."""

    GOLD = "gold"
    """The gold indicator turned face up (``tile`` is the gold)."""
    YOU = "you"
    """A seat's 游 level went up (``data.level``)."""


YOU_LEVELS = ("", "游金", "双游", "三游")
"""The words of xiamen's 游 levels (R-2.9: 1 游金, 2 双游, 3 三游), as a ``you`` event's
``level`` indexes them."""


def _said(text: str) -> VerbRule:
    return VerbRule(wins=True, words=lambda action, words: text)


def _qiangjin(action: Action, words: TileWords) -> str:
    if action.tile is None:
        return "抢金胡 — take the gold indicator: win!"
    return f"抢金胡 — lay out {words.name(action.tile)} and take the gold indicator: win!"


register_verbs(
    XiamenVerb,
    {
        XiamenVerb.SANJINDAO: _said("三金倒 — win with the three golds!"),
        XiamenVerb.QIANGJIN: VerbRule(Argument.TILE_OR_NONE, wins=True, words=_qiangjin),
        XiamenVerb.WIN: _said("win now with the gold you drew"),
        XiamenVerb.DISCARD_GOLD: VerbRule(
            throws=True,
            words=lambda action, words: (
                "discard the gold and swim on (双游/三游: bigger win, if you get there)"
            ),
        ),
    },
)


def _level(data: EventData) -> str:
    level = data["level"]
    return f"{level} {YOU_LEVELS[level]}" if isinstance(level, int) else str(level)


def _gold_line(event: Event, who: str, words: TileWords) -> str | None:
    if event.tile is None:
        return None
    return f"金 the gold is {words.name(event.tile)} (indicator turned face up)"


def _you_line(event: Event, who: str, words: TileWords) -> str:
    return f"{who}: {YOU_LEVELS[event.number('level')]} — swimming for the gold (游)"


register_events(
    XiamenEvent,
    {
        XiamenEvent.GOLD: EventRule(
            {},
            "翻金：{tile}",
            "The gold is {tile}",
            note=lambda data: "indicator",
            line=_gold_line,
        ),
        XiamenEvent.YOU: EventRule(
            {"level": int},
            "{who} 进入{level_word}",
            "{who}: 游 level {level} ({level_word})",
            note=_level,
            fields={"level_word": lambda event, lang: YOU_LEVELS[event.number("level")]},
            line=_you_line,
        ),
    },
)
register_event_values(
    EventKind.FLOWER,
    "during",
    {
        "gold_reveal": ValueWords(
            "（翻金）", " (gold reveal)", terminal=" revealed for the gold (no replacement)"
        )
    },
)
"""A flower turned up while the gold indicator is revealed (R-2.2): set aside, not replaced."""
register_event_values(
    EventKind.DISCARD,
    "why",
    {"qiangjin": ValueWords("（抢金）", " (抢金)"), "gold": ValueWords("（弃金）", " (the gold)")},
)
"""The tile 抢金胡 lays out, and the gold thrown to swim on (游金)."""
