"""Declared melds: chi, peng and the three kongs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from erren.tiles import Tile


class MeldKind(Enum):
    """How a meld was declared."""

    __hash__ = object.__hash__
    """By identity, as members compare (``Enum`` hashes the name in Python: these are set and
    dict keys on the engine's hot path)."""

    CHI = "chi"  # 吃: a chow, one tile claimed from the opponent
    PENG = "peng"  # 碰: a pung claimed from a discard
    MING_GANG = "ming_gang"  # 明杠: a kong claimed from a discard
    JIA_GANG = "jia_gang"  # 加杠/补杠: a fourth tile added to a peng
    AN_GANG = "an_gang"  # 暗杠: a concealed kong

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.MING_GANG, MeldKind.JIA_GANG, MeldKind.AN_GANG)


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set.  ``tiles`` are the physical tiles, sorted; ``claimed`` the tile taken
    from the opponent when the notation marks it (``None``: concealed kong, or not marked)."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    claimed: Tile | None = None

    @classmethod
    def parse(cls, text: str) -> Meld:
        """``Meld.parse("[1'23m]")``; raises :class:`~erren.errors.NotationError`."""
        from erren.notation import parse_meld  # noqa: PLC0415 - notation imports this module

        return parse_meld(text)

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong (暗杠) is concealed; every other meld was claimed or shown."""
        return self.kind is MeldKind.AN_GANG

    @property
    def first(self) -> Tile:
        """The lowest tile (the first tile of a chow)."""
        return self.tiles[0]

    def __str__(self) -> str:
        from erren.notation import format_meld  # noqa: PLC0415

        return format_meld(self)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"
