"""What every family's score shows: :class:`FamilyScore`, the one interface the server, the
CLI and the web client render a win through, whatever the family.

A score is a list of :class:`ScoreRow` (a fan, a 水 item, a pattern: its name in Chinese and
English, its value, how many times it counts and the exact tiles it came from), the steps that
explain the figures, the total as the family counts it and the :class:`ScoreUnit` of that total
(番, 水, 役满).  Guobiao's :class:`~erren.families.guobiao.scoring.ScoreResult`, xiamen's
:class:`~erren.families.xiamen.scoring.XiamenScore` and arcade's
:class:`~erren.families.arcade.scoring.ArcadeResult` implement it; the points a win moves are in
:attr:`erren.engine.result.HandResult.deltas`, not here.

>>> from erren.hand import Hand
>>> from erren.families.guobiao.scoring import score
>>> detail: FamilyScore = score(Hand.parse("123456789m5z [111z'] +5z"), table="2p")
>>> for row in detail.rows:
...     print(row.name_zh, row.name_en, row.value, row.count, format_tiles(row.tiles))
清龙 Pure Straight 16 1 123456789m
幺九刻 Pung of Terminals or Winds 2 1 111z
>>> detail.total, detail.unit.zh
(18, '番')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, Protocol

from erren.analysis.readings import Group
from erren.hand import Hand
from erren.melds import Meld
from erren.notation import format_tiles
from erren.tiles import Tile

__all__ = [
    "FamilyScore",
    "ScoreRow",
    "ScoreStep",
    "ScoreUnit",
    "UnitWords",
    "format_tiles",
    "group_tiles",
    "hand_tiles",
    "meld_indices",
    "source_tiles",
]


class UnitWords(NamedTuple):
    """A unit's words: its name (``zh``, ``en``), the English heading of its rows, the
    settlement's caption and the rules page's title over them (Chinese, English), and the word
    the simulator's summaries average per win (``per_win``), and its English name for a count
    other than one (``en_many``: 3.4 points, 2 fan)."""

    zh: str
    en: str
    heading: str
    caption: tuple[str, str]
    table_title: tuple[str, str]
    per_win: str
    en_many: str


_PATTERNS = ("番种", "Patterns")
_SCORING_TABLE = ("番种表", "Scoring table")


class ScoreUnit(Enum):
    """What a total counts, with its words (:class:`UnitWords`)."""

    FAN = UnitWords("番", "fan", "Fans", _PATTERNS, _SCORING_TABLE, "fan", "fan")
    WATER = UnitWords(
        "水", "water", "Water", ("水", "Water"), ("水表", "Water table"), "水", "water"
    )
    """水 as players write it, in the English summaries too."""
    YAKUMAN = UnitWords(
        "役满", "yakuman", "Yakuman", _PATTERNS, _SCORING_TABLE, "yakuman", "yakuman"
    )
    POINT = UnitWords("分", "point", "Points", _PATTERNS, _SCORING_TABLE, "point", "points")
    """What a hand moves (``HandResult.deltas``) where it is not the score's own unit: xiamen's
    ``(底 + 水) × M`` and arcade's versus points; a room's stake is beans per point."""

    @property
    def words(self) -> UnitWords:
        return self.value

    @property
    def zh(self) -> str:
        return self.words.zh

    @property
    def en(self) -> str:
        return self.words.en

    @property
    def en_many(self) -> str:
        """The English name for a count other than one (``points``; ``fan`` stays ``fan``)."""
        return self.words.en_many

    @property
    def names(self) -> dict[str, str]:
        """Its names as the screens read them: ``zh``, ``en`` and ``en_many``."""
        return {"zh": self.zh, "en": self.en, "en_many": self.en_many}

    @property
    def heading(self) -> str:
        """The English heading of a list of rows counted in this unit (``Fans``)."""
        return self.words.heading

    @property
    def caption(self) -> tuple[str, str]:
        """The settlement's caption over a hand's rows counted in this unit, in Chinese and
        English (番种 / Patterns; 水 / Water)."""
        return self.words.caption

    @property
    def table_title(self) -> tuple[str, str]:
        """The rules page's title over the table of rows in this unit (番种表 / Scoring table;
        水表 / Water table)."""
        return self.words.table_title


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One row of a score: ``count`` times ``value`` (fan, 水, or a limit hand's multiplicity)
    named ``name_zh``/``name_en``, made of ``tiles`` — the physical tiles of every occurrence
    (the flowers of a flower row, the groups of a pattern, the whole hand for a fan about the
    hand or the way it was won; a wild as its own face).  ``melds`` are the indices into the
    hand's declared melds whose tiles are among ``tiles`` (so a screen can light the meld
    itself rather than a concealed tile of the same face).  ``id`` is the row's id in its
    family's table (``seven_pairs``, ``N11``, ``S-8``): what the rules page files it under."""

    name_zh: str
    name_en: str
    value: int
    count: int
    tiles: tuple[Tile, ...]
    melds: tuple[int, ...] = ()
    id: str = field(default="", compare=False)  # a label of the row, named by the names

    @property
    def points(self) -> int:
        """``value × count``: what the row adds to the total."""
        return self.value * self.count


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """One line of a score's explanation, in Chinese and in English."""

    zh: str
    en: str


class FamilyScore(Protocol):
    """The score of a win in any family, as a screen shows it."""

    @property
    def rows(self) -> tuple[ScoreRow, ...]:
        """The rows to show, in the family's display order."""
        ...

    @property
    def steps(self) -> tuple[ScoreStep, ...]:
        """The explanation, one line a step, in both languages."""
        ...

    @property
    def total(self) -> int:
        """The total as the family counts it (fan with flowers, 水, fan or 役满 multiplicity)."""
        ...

    @property
    def unit(self) -> ScoreUnit:
        """What :attr:`total` counts."""
        ...


def meld_indices(melds: Sequence[Meld], groups: Iterable[Group]) -> tuple[int, ...]:
    """The indices into ``melds`` of the declared melds among ``groups``, sorted."""
    found: set[int] = set()
    for group in groups:
        if group.meld is None:
            continue
        for i, meld in enumerate(melds):
            if meld is group.meld or meld == group.meld:
                found.add(i)
                break
    return tuple(sorted(found))


def group_tiles(group: Group, wild: Tile | None = None) -> tuple[Tile, ...]:
    """A group as physical tiles: a declared meld as its own tiles, a concealed group's kinds
    with each kind a wild stands for shown as the wild's face (``wild``; the kind itself when
    ``None``)."""
    if group.meld is not None:
        return tuple(group.meld.tiles)
    kinds = list(group.tiles)
    for kind in group.wild_tiles:
        if kind in kinds:
            kinds.remove(kind)
    shown = [Tile(k) for k in kinds]
    shown.extend(Tile(k) if wild is None else wild for k in group.wild_tiles)
    return tuple(shown)


def hand_tiles(hand: Hand) -> tuple[Tile, ...]:
    """Every tile of a hand but its flowers: concealed, winning tile, then the melds."""
    out = list(hand.concealed)
    if hand.winning is not None:
        out.append(hand.winning)
    for meld in hand.melds:
        out.extend(meld.tiles)
    return tuple(out)


def source_tiles(
    hand: Hand,
    groups: Sequence[Group],
    sources: Iterable[Iterable[int]],
    wild: Tile | None = None,
) -> tuple[tuple[Tile, ...], tuple[int, ...]]:
    """The tiles and melds of a row whose occurrences are made of ``groups[i]`` for the ``i``
    of ``sources`` (each group once, in reading order); no group at all means the whole hand."""
    indices = sorted({i for src in sources for i in src})
    if not indices:
        return hand_tiles(hand), tuple(range(len(hand.melds)))
    chosen = [groups[i] for i in indices]
    tiles = tuple(t for g in chosen for t in group_tiles(g, wild))
    return tiles, meld_indices(hand.melds, chosen)
