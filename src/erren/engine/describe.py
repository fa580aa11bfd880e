"""Events in words, in Chinese or English, rendered from ``kind`` and ``data`` (never prose).

``describe(event, "zh", viewer=0)`` is one sentence about the event as ``viewer`` receives it
("你 打出 五万", "Opponent discarded 5 Characters").  Every kind of event has a template in both
languages (its :class:`~erren.engine.events.EventRule`, a family's kinds registered by the
family); the fields of a template are ``who`` (你/对手, You/Opponent, or the table), ``tile``
and ``tiles`` (tile names), the words made from the kind's ``data`` and the kind's own
:attr:`~erren.engine.events.EventRule.fields`.  The web client renders the same way from the
same JSON (``web/js/events.js``), the terminal client with its own colours (``cli/words.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from erren.engine.events import Event, Lang, event_rule, value_words
from erren.tiles import Tile

__all__ = ["LANGS", "Lang", "describe", "template", "tile_name"]

LANGS: tuple[Lang, ...] = ("zh", "en")

_NUMERALS = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九")
_HONORS_ZH = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_HONORS_EN = ("East", "South", "West", "North", "White", "Green", "Red")
_FLOWERS_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_FLOWERS_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")
_SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}


def tile_name(tile: Tile, lang: Lang) -> str:
    """A tile in words (五万, 5 Characters; 红中, Red; 梅, Plum)."""
    if tile.is_flower:
        return (_FLOWERS_ZH if lang == "zh" else _FLOWERS_EN)[tile - Tile.F1]
    if tile.is_honor:
        return (_HONORS_ZH if lang == "zh" else _HONORS_EN)[tile - Tile.EAST]
    if lang == "zh":
        return _NUMERALS[tile.number] + _SUIT_ZH[tile.suit]
    return f"{tile.number} {_SUIT_EN[tile.suit]}"


_SAID = {"during": "during", "source": "from", "why": "why"}
"""The template fields that say a closed ``data`` field's value in words (by the field's key:
:func:`~erren.engine.events.value_words`, the shared values' and the families')."""


def _numbers(value: object) -> tuple[int, ...]:
    return value if isinstance(value, tuple) else ()


def _who(event: Event, lang: Lang, viewer: int) -> str:
    if event.player < 0:
        return "牌桌" if lang == "zh" else "The table"
    if event.player == viewer:
        return "你" if lang == "zh" else "You"
    return "对手" if lang == "zh" else "Opponent"


def _fields(event: Event, lang: Lang, viewer: int) -> dict[str, object]:
    zh = lang == "zh"
    hidden = "？" if zh else "?"
    out: dict[str, object] = dict(event.data)
    out["who"] = _who(event, lang, viewer)
    out["tile"] = tile_name(event.tile, lang) if event.tile is not None else hidden
    out["tiles"] = " ".join(tile_name(t, lang) for t in event.tiles)
    extra: Mapping[str, Callable[[], object]] = {
        "on_zh": lambda: "开启" if event.flag("on") else "取消",
        "on_en": lambda: "on" if event.flag("on") else "off",
        "dice": lambda: ", ".join(str(n) for n in _numbers(event.data["dice"])),
    }
    words = template(event, lang)
    for name, key in _SAID.items():
        if "{" + name + "}" in words:
            said = value_words(event.kind, key, event.word(key))
            out[name] = said.zh if zh else said.en
    for name, make in extra.items():
        if "{" + name + "}" in words:
            out[name] = make()
    for name, own in event_rule(event.kind).fields.items():
        if "{" + name + "}" in words:
            out[name] = own(event, lang)
    return out


def template(event: Event, lang: Lang) -> str:
    """The template of ``event``'s kind in ``lang``."""
    rule = event_rule(event.kind)
    return rule.zh if lang == "zh" else rule.en


def describe(event: Event, lang: Lang, viewer: int) -> str:
    """One sentence about ``event`` as ``viewer`` receives it, in ``lang``."""
    return " ".join(template(event, lang).format(**_fields(event, lang, viewer)).split())
