"""The 水 table of R-4.3 as rows: an id, the names, the value per occurrence, a detector, and
what a row replaces.  The calculator runs every row in one generic loop.

A detector reads :class:`WaterFacts` and returns the occurrences it finds, each the indices of
the groups it is made of (``()`` for golds and flowers) and the physical tiles that show it
(``555z`` for three Whites playing as a pung of the gold kind).  ``scope`` says whether the row
depends on the decomposition (``"reading"``) or only on the hand (``"hand"``: golds, flowers),
so the hand rows run once per hand, the reading rows once per decomposition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from erren.analysis.readings import Group, GroupKind
from erren.melds import MeldKind
from erren.tiles import Tile

__all__ = ["WATER", "Occurrence", "WaterFacts", "WaterRow", "row"]

Occurrence = tuple[tuple[int, ...], tuple[Tile, ...]]
"""One occurrence of a row: indices of the groups it is made of, and its physical tiles."""


@dataclass(frozen=True, slots=True)
class WaterFacts:
    """What the rows look at.

    ``groups``: the groups of the decomposition being scored (declared melds resolved to
    functional kinds, ``meld`` set); ``opponents_pung``: the index of the natural pung that the
    opponent's winning tile completed (R-4.4), if any; ``golds``: the physical gold tiles in the
    final hand (R-1.7, S-1); ``flowers``: the winner's flowers; ``physical``: functional kind →
    the physical tile of a natural of that kind (a White for ``g``).
    """

    groups: tuple[Group, ...]
    opponents_pung: int | None
    golds: tuple[Tile, ...]
    flowers: tuple[Tile, ...]
    physical: Callable[[int], Tile] = field(repr=False)


Detector = Callable[[WaterFacts], tuple[Occurrence, ...]]


@dataclass(frozen=True, slots=True, eq=False)
class WaterRow:
    """One row of the 水 table (R-4.3).  ``value`` is per occurrence; ``replaces`` lists ids
    not counted when this row is (S-5 all eight flowers replaces S-3 and S-4)."""

    id: str
    name: str
    english: str
    value: int
    detector: Detector = field(repr=False)
    scope: Literal["hand", "reading"] = "reading"
    replaces: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.id} {self.name} {self.value}"

    def __repr__(self) -> str:
        return f"row({self.id!r})"


# --------------------------------------------------------------------------------------------
# Detectors

_SEASONS = (Tile.F1, Tile.F2, Tile.F3, Tile.F4)
_PLANTS = (Tile.F5, Tile.F6, Tile.F7, Tile.F8)


def _golds(f: WaterFacts) -> tuple[Occurrence, ...]:
    return tuple(((), (tile,)) for tile in f.golds)


def _single_flowers(f: WaterFacts) -> tuple[Occurrence, ...]:
    """S-2: each flower of a group the winner does not hold complete."""
    held = set(f.flowers)
    out: list[Occurrence] = []
    for group in (_SEASONS, _PLANTS):
        if not held.issuperset(group):
            out.extend(((), (flower,)) for flower in group if flower in held)
    return tuple(out)


def _flower_group(group: tuple[Tile, ...]) -> Detector:
    def detect(f: WaterFacts) -> tuple[Occurrence, ...]:
        return (((), group),) if set(f.flowers).issuperset(group) else ()

    return detect


def _all_flowers(f: WaterFacts) -> tuple[Occurrence, ...]:
    return (((), (*_SEASONS, *_PLANTS)),) if len(set(f.flowers)) == 8 else ()


def _is_honor(group: Group) -> bool:
    return group.tiles[0] >= Tile.EAST


def _melds(kinds: tuple[MeldKind, ...], honor: bool) -> Detector:
    """Declared melds of these kinds whose functional kind is an honor (or a suit)."""

    def detect(f: WaterFacts) -> tuple[Occurrence, ...]:
        return tuple(
            ((i,), g.meld.tiles)
            for i, g in enumerate(f.groups)
            if g.meld is not None and g.meld.kind in kinds and _is_honor(g) == honor
        )

    return detect


def _natural_pungs(f: WaterFacts, honor: bool, concealed: bool) -> tuple[Occurrence, ...]:
    """Pungs of three natural tiles in the concealed part (R-4.4); ``concealed=False`` takes the
    one the opponent's winning tile completed."""
    out: list[Occurrence] = []
    for i, g in enumerate(f.groups):
        if g.meld is not None or g.kind is not GroupKind.PUNG or g.wild_tiles:
            continue
        if _is_honor(g) != honor or (i == f.opponents_pung) == concealed:
            continue
        out.append(((i,), (f.physical(g.tiles[0]),) * 3))
    return tuple(out)


def _claimed_honor_pungs(f: WaterFacts) -> tuple[Occurrence, ...]:
    """S-6: a peng of an honor, or an honor pung completed by the opponent's tile (R-4.4)."""
    return _melds((MeldKind.PENG,), True)(f) + _natural_pungs(f, True, False)


def _concealed_pungs(honor: bool) -> Detector:
    def detect(f: WaterFacts) -> tuple[Occurrence, ...]:
        return _natural_pungs(f, honor, True)

    return detect


_CLAIMED_KONGS = (MeldKind.MING_GANG, MeldKind.JIA_GANG)
_CONCEALED_KONGS = (MeldKind.AN_GANG,)

WATER: tuple[WaterRow, ...] = (
    WaterRow("S-1", "金牌", "gold", 1, _golds, "hand"),
    WaterRow("S-2", "花牌", "flower", 1, _single_flowers, "hand"),
    WaterRow("S-3", "春夏秋冬", "seasons group", 8, _flower_group(_SEASONS), "hand"),
    WaterRow("S-4", "梅兰竹菊", "plants group", 8, _flower_group(_PLANTS), "hand"),
    WaterRow("S-5", "花全齐", "all eight flowers", 16, _all_flowers, "hand", ("S-3", "S-4")),
    WaterRow("S-6", "风刻", "claimed honor pung", 1, _claimed_honor_pungs),
    WaterRow("S-7", "普通暗刻", "concealed suit pung", 1, _concealed_pungs(False)),
    WaterRow("S-8", "风暗刻", "concealed honor pung", 2, _concealed_pungs(True)),
    WaterRow("S-9", "普通明杠", "claimed suit kong", 2, _melds(_CLAIMED_KONGS, False)),
    WaterRow("S-10", "普通暗杠", "concealed suit kong", 3, _melds(_CONCEALED_KONGS, False)),
    WaterRow("S-11", "风明杠", "claimed honor kong", 3, _melds(_CLAIMED_KONGS, True)),
    WaterRow("S-12", "风暗杠", "concealed honor kong", 4, _melds(_CONCEALED_KONGS, True)),
)
"""R-4.3 in table order.  Everything not listed is worth 0: chows, claimed suit pungs, the
pair, Whites as such, groups that contain a gold."""

_BY_ID = {r.id: r for r in WATER}


def row(row_id: str) -> WaterRow:
    """A row by id: ``row("S-8").value == 2``."""
    try:
        return _BY_ID[row_id]
    except KeyError:
        raise ValueError(f"no 水 row {row_id!r}; the rows are S-1..S-12") from None
