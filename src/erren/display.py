"""Terminal rendering of tiles, melds and the table, shared by the CLI (``erren play``,
``erren replay``, the scorers) and the RL environments' ``render()``.

Tiles are drawn with their Chinese face and a colour per family (万 red, 饼 blue, 条 green,
winds bold, 白/发/中 in their own colours, flowers magenta), or in the shared notation with
``ascii=True`` (``5m``, ``7z``).  Colour is used only on a terminal and never when ``NO_COLOR``
is set (https://no-color.org).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

from erren.engine import Observation
from erren.melds import Meld, MeldKind
from erren.scoring.detail import FamilyScore
from erren.tiles import Tile

__all__ = [
    "LEGEND",
    "Palette",
    "board_lines",
    "golds_first",
    "pad",
    "seat_lines",
    "use_color",
    "view_line",
    "width",
    "wild_of",
]

_SUIT_NAME = {"m": "万", "p": "饼", "s": "条"}
_HONOR_FACE = ("东", "南", "西", "北", "白", "发", "中")
_FLOWER_FACE = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_SUIT_COLOR = {"m": "31", "p": "34", "s": "32"}
_HONOR_COLOR = ("1", "1", "1", "1", "1;37", "1;32", "1;31")
_MELD_WORD = {
    MeldKind.CHI: "吃",
    MeldKind.PENG: "碰",
    MeldKind.MING_GANG: "明杠",
    MeldKind.JIA_GANG: "加杠",
    MeldKind.AN_GANG: "暗杠",
}

LEGEND = "Tiles: 1万..9万 characters (1m..9m) · 东南西北 winds (1z..4z) · 白发中 dragons (5z..7z)"


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns: on the right (left-aligned),
    or on the left with ``right=True`` (right-aligned, for numbers); never cut."""
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill


def use_color(stream: TextIO, *, disabled: bool = False) -> bool:
    """Colour only on a terminal, and not with ``NO_COLOR`` set (to anything non-empty)."""
    if disabled or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass(frozen=True)
class Palette:
    """How tiles look: ``color`` (ANSI escapes) and ``ascii`` (notation instead of faces)."""

    color: bool = False
    ascii: bool = False

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and code else text

    def bold(self, text: str) -> str:
        return self.paint(text, "1")

    def dim(self, text: str) -> str:
        return self.paint(text, "2")

    def face(self, tile: int) -> str:
        """The tile's text without colour, always 3 columns wide."""
        t = Tile(tile)
        if self.ascii:
            return f"{t} "[:3].ljust(3)
        if t.is_flower:
            return _FLOWER_FACE[t - 34] + " "
        if t.is_honor:
            return _HONOR_FACE[t - 27] + " "
        return f"{t.number}{_SUIT_NAME[t.suit]}"

    def _code(self, tile: int) -> str:
        t = Tile(tile)
        if t.is_flower:
            return "35"
        if t.is_honor:
            return _HONOR_COLOR[t - 27]
        return _SUIT_COLOR[t.suit]

    def tile(self, tile: int) -> str:
        """The tile, coloured, 3 columns wide."""
        return self.paint(self.face(tile), self._code(tile))

    def tiles(self, tiles: Iterable[int]) -> str:
        return " ".join(self.tile(t) for t in tiles).rstrip() or "-"

    def name(self, tile: int) -> str:
        """The tile in a sentence (coloured, no padding)."""
        return self.paint(self.face(tile).strip(), self._code(tile))

    def meld(self, meld: Meld) -> str:
        """``碰[5万 5万 5万]``; a concealed kong shows its kind only to its owner."""
        return f"{_MELD_WORD[meld.kind]}[{self.tiles(meld.tiles)}]"

    def melds(self, melds: Sequence[Meld], hidden: int = 0) -> str:
        parts = [self.meld(m) for m in melds]
        parts += ["暗杠[? ? ? ?]"] * hidden
        return "  ".join(parts) or "-"


def seat_lines(
    obs: Observation,
    seat: int,
    pal: Palette,
    label: str,
    *,
    hand: Sequence[Tile] | None = None,
    hidden: bool = False,
) -> list[str]:
    """One seat as ``obs.player`` sees it: name and flags, the concealed ``hand`` (or its size
    when ``hidden``), melds, flowers and discards (claimed ones are in the claimer's melds)."""
    tags = []
    if seat == obs.dealer:
        tags.append("庄 dealer" + (f" 连庄数 {obs.streak + 1}" if obs.view.shows_streak else ""))
    mark = obs.view.seat_tag(seat)
    if mark:
        tags.append(pal.paint(mark, "1;33"))
    if obs.ting[seat]:
        tags.append(pal.paint("听 ready", "1;33"))
    if obs.trustee[seat]:
        tags.append("托管 auto")
    tag = f"  ({', '.join(tags)})" if tags else ""
    lines = [pal.bold(f"{label}{tag}")]
    if hand is not None:
        lines.append(f"  hand     {pal.tiles(hand)}")
    elif hidden:
        lines.append(f"  hand     {obs.concealed_count[seat]} tiles (hidden)")
    lines.append(f"  melds    {pal.melds(obs.melds[seat], obs.hidden_kongs[seat])}")
    if obs.flowers[seat]:
        lines.append(f"  flowers  {pal.tiles(obs.flowers[seat])}")
    claimed = set(obs.claimed[seat])
    pool = [t for i, t in enumerate(obs.discards[seat]) if i not in claimed]
    for start in range(0, max(1, len(pool)), 12):
        head = "  discards " if start == 0 else "           "
        lines.append(head + pal.tiles(pool[start : start + 12]))
    return lines


def wild_of(obs: Observation) -> Tile | None:
    """The wild kind of the hand (xiamen's gold, arcade's 财神; ``None`` before the indicator is
    turned and in a family without wilds)."""
    return obs.view.wild


def view_line(obs: Observation, pal: Palette) -> str | None:
    """The family's line about its public facts (xiamen's gold, arcade's 财神 and reserve), or
    ``None`` (:meth:`erren.engine.views.ViewFacts.note`)."""
    return obs.view.note(pal.name)


def golds_first(tiles: Sequence[Tile], gold: Tile | None) -> list[Tile]:
    """The hand with its golds at the far left (xiamen R-1.7)."""
    if gold is None:
        return list(tiles)
    return [t for t in tiles if t == gold] + [t for t in tiles if t != gold]


def board_lines(
    obs: Observation, pal: Palette, *, names: tuple[str, str] = ("You", "Computer")
) -> list[str]:
    """The table as ``obs.player`` sees it: the opponent first (tile count, melds, flowers,
    discards), then the player's melds and discards (his hand is drawn by the caller)."""
    me, other = obs.player, obs.opponent
    return seat_lines(obs, other, pal, names[1], hidden=True) + seat_lines(obs, me, pal, names[0])


def score_lines(detail: FamilyScore) -> list[str]:
    """A win's score in any family: the rows (name, points, count), the total in the family's
    unit, then the explanation steps."""
    unit = detail.unit
    lines = [f"{unit.heading} ({unit.zh}):"]
    for row in detail.rows:
        times = f" × {row.count}" if row.count > 1 else ""
        label = f"{row.name_zh} ({row.name_en})" if row.name_en else row.name_zh
        lines.append(f"  {pad(label, 36)} {row.points:>3}{times}")
    lines.append(f"  {pad('total', 36)} {detail.total:>3} {unit.zh}")
    lines.append("")
    lines += ["  " + step.en for step in detail.steps]
    return lines
