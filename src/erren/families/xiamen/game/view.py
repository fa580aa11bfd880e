"""What a xiamen seat sees of the family's own facts: the gold, the 游 levels."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal

from erren.engine.views import ViewFacts, register_view
from erren.families.xiamen.game.vocabulary import YOU_LEVELS
from erren.tiles import Tile

__all__ = ["XiamenView"]


@register_view
@dataclass(frozen=True, slots=True)
class XiamenView(ViewFacts):
    """Xiamen's golds (R-1.6) and 游金 levels (R-2.9)."""

    wild_mark: ClassVar[str] = "金"  # golds marked 金
    follows_discards: ClassVar[bool] = True

    gold: Tile | None = None
    """The gold kind of the hand, ``None`` before the indicator is turned (R-1.6)."""
    indicator_taken: bool = False
    """The face-up indicator went into a 抢金胡 winner's hand."""
    you_level: tuple[int, int] = (0, 0)
    """Each seat's 游 level (R-2.9): 0, 1 游金, 2 双游, 3 三游."""
    family: Literal["xiamen"] = "xiamen"

    @property
    def wild(self) -> Tile | None:
        return self.gold

    @property
    def shows_streak(self) -> bool:
        return self.gold is not None

    def seat_tag(self, seat: int) -> str | None:
        level = self.you_level[seat]
        return f"{YOU_LEVELS[level]} (游 level {level})" if level else None

    def played_as(self, kind: Tile) -> Tile:
        gold = self.gold
        if gold is not None and gold != Tile.WHITE and kind == gold:
            return Tile.WHITE
        return kind

    def note(self, name: Callable[[int], str]) -> str | None:
        """The gold: the indicator, the golds' kind and what the White plays as."""
        if self.gold is None:
            return None
        g = int(self.gold)
        where = "taken by 抢金胡" if self.indicator_taken else "face up"
        line = f"金 gold {name(g)} (indicator {where}; the other three {name(g)} are wild)"
        if g != Tile.WHITE:
            line += f" · 白 White plays as {name(g)}"
        return line
