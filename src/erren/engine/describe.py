"""Events in words, in Chinese or English, rendered from ``kind`` and ``data`` (never prose).

``describe(event, "zh", viewer=0)`` is one sentence about the event as ``viewer`` receives it
("你 打出 五万", "Opponent discarded 5 Characters").  Every :class:`~erren.engine.EventKind`
has a template in both languages (:data:`TEMPLATES`); the fields of a template are ``who``
(你/对手, You/Opponent, or the table), ``tile`` and ``tiles`` (tile names) and the words made
from the kind's ``data``.  The web client renders the same way from the same JSON
(``web/js/events.js``), the terminal client with its own colours (``cli/words.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal

from erren.engine.events import YOU_LEVELS, Event, EventKind
from erren.notation import parse_tile
from erren.tiles import Tile

__all__ = ["LANGS", "TEMPLATES", "Lang", "describe", "tile_name"]

Lang = Literal["zh", "en"]
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


TEMPLATES: Mapping[EventKind, tuple[str, str]] = {
    EventKind.SHUFFLE: ("洗牌（{count} 张）", "The wall is shuffled ({count} tiles)"),
    EventKind.DICE: ("掷骰：{dice}", "Dice: {dice}"),
    EventKind.DEAL: ("{who} 起牌 {tiles}", "{who} dealt {tiles}"),
    EventKind.FLOWER: ("{who} 补花 {tile}{during}", "{who} set a flower aside: {tile}{during}"),
    EventKind.DRAW: ("{who} 摸牌 {tile}{source}", "{who} drew {tile}{source}"),
    EventKind.DISCARD: ("{who} 打出 {tile}{why}", "{who} discarded {tile}{why}"),
    EventKind.TING: ("{who} 报听，打出 {tile}", "{who} declared ready, discarding {tile}"),
    EventKind.CHI: ("{who} 吃 {tiles}", "{who} chowed {tiles}"),
    EventKind.PENG: ("{who} 碰 {tiles}", "{who} punged {tiles}"),
    EventKind.MING_GANG: ("{who} 杠 {tiles}", "{who} konged {tiles}"),
    EventKind.AN_GANG: ("{who} 暗杠 {tile}", "{who} made a concealed kong {tile}"),
    EventKind.JIA_GANG: ("{who} 加杠 {tile}", "{who} added {tile} to a pung"),
    EventKind.PASS: ("{who} 过", "{who} passed"),
    EventKind.HU: ("{who} 和牌 {tile}（{how}）", "{who} won on {tile} ({how})"),
    EventKind.ZIMO: ("{who} 自摸 {tile}", "{who} won by self-draw on {tile}"),
    EventKind.HUANGZHUANG: ("流局", "Nobody won: the wall is exhausted"),
    EventKind.ESCAPE: ("{who} 逃跑", "{who} left the hand"),
    EventKind.TRUSTEE: ("{who} 托管{on_zh}", "{who} auto-play {on_en}"),
    EventKind.TIMEOUT: ("{who} 超时，系统代打 {move}", "{who} timed out; the server played {move}"),
    EventKind.END: ("本局结束（{result}）", "The hand is over ({result})"),
    EventKind.GOLD: ("翻金：{tile}", "The gold is {tile}"),
    EventKind.YOU: ("{who} 进入{level_word}", "{who}: 游 level {level} ({level_word})"),
    EventKind.WILD: (
        "财神：{tile}，花牌：{flower}",
        "The wild is {tile}; the flowers are {flower}",
    ),
    EventKind.EXCHANGE: (
        "{who} 换牌 {count} 张 {tiles}",
        "{who} exchanged {count} tile(s) {tiles}",
    ),
    EventKind.PICK_OFFER: ("{who} 选牌（搓牌）", "{who} may pick a tile (搓牌)"),
    EventKind.PICK: ("{who} 搓牌 {tile}", "{who} picked {tile}"),
    EventKind.PUNG_OFFER: ("{who} 可换一刻 {tile}", "{who} is offered a pung of {tile}"),
    EventKind.TAKE_PUNG: ("{who} 换来一刻 {tile}", "{who} took the pung of {tile}"),
    EventKind.GIVE: ("{who} 选出 {tile}", "{who} chose {tile} to give up"),
    EventKind.HAIDI: (
        "{who} 海底捞月 {draws} 张",
        "{who} draws {draws} from the reserve (海底捞月)",
    ),
}
"""``(zh, en)`` templates of every kind."""

_DURING = {"gold_reveal": ("（翻金）", " (gold reveal)"), "exchange": ("（换牌）", " (exchange)")}
_SOURCE = {"back": ("（杠后）", " from the back"), "haidi": ("（海底）", " (haidi)")}
_WHY = {"qiangjin": ("（抢金）", " (抢金)"), "gold": ("（弃金）", " (the gold)")}


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
    pick = 0 if zh else 1
    out: dict[str, object] = dict(event.data)
    out["who"] = _who(event, lang, viewer)
    out["tile"] = tile_name(event.tile, lang) if event.tile is not None else hidden
    out["tiles"] = " ".join(tile_name(t, lang) for t in event.tiles)
    extra: Mapping[str, Callable[[], object]] = {
        "during": lambda: _DURING.get(event.word("during"), ("", ""))[pick],
        "source": lambda: _SOURCE.get(event.word("from"), ("", ""))[pick],
        "why": lambda: _WHY.get(event.word("why"), ("", ""))[pick],
        "on_zh": lambda: "开启" if event.flag("on") else "取消",
        "on_en": lambda: "on" if event.flag("on") else "off",
        "dice": lambda: ", ".join(str(n) for n in _numbers(event.data["dice"])),
        "level_word": lambda: YOU_LEVELS[event.number("level")],
        "flower": lambda: tile_name(parse_tile(event.word("flower")), lang),
    }
    template = TEMPLATES[event.kind][pick]
    for name, make in extra.items():
        if "{" + name + "}" in template:
            out[name] = make()
    return out


def describe(event: Event, lang: Lang, viewer: int) -> str:
    """One sentence about ``event`` as ``viewer`` receives it, in ``lang``."""
    template = TEMPLATES[event.kind][0 if lang == "zh" else 1]
    return " ".join(template.format(**_fields(event, lang, viewer)).split())
