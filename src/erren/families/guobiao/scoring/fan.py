"""The row type of a fan table and the result types of scoring."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from erren.scoring.detail import ScoreRow, ScoreStep, ScoreUnit, source_tiles

if TYPE_CHECKING:
    from erren.analysis.readings import Reading
    from erren.families.guobiao.scoring.facts import Facts
    from erren.hand import Hand
    from erren.tiles import Tile

__all__ = ["Detector", "Fan", "FanHit", "ScoreResult", "Sources"]

Sources = tuple[tuple[int, ...], ...]
"""What a detector returns: one entry per occurrence of the fan (empty: the fan is absent),
each the indices of the reading's groups it is made of (``()``: the whole hand or the way the
hand was won)."""

Detector = Callable[["Facts"], Sources]


@dataclass(frozen=True, slots=True, eq=False)
class Fan:
    """One row of a fan table (guobiao-2p §4.2.2 / §4.3).

    ``excludes``: ids of the fans not counted when this one is (不计).  ``absorbs``: ids of
    fans whose occurrences made only of this fan's groups are not counted (a wind pung in
    三风刻 scores no 幺九刻); ``absorb_limit`` caps how many (九莲宝灯 absorbs one 幺九刻).
    ``bonus`` fans (花牌/补花) never count toward 起和 and are ignored by ``fallback`` fans
    (屁胡/无番和), which fire only when no other fan does.  ``per`` fans count once per
    occurrence; the others at most once.  ``guard`` is a set of
    :mod:`~erren.families.guobiao.scoring.facts`
    feature bits that must all hold for the fan to be possible: the calculator calls the
    detector only then (a guard that says everything makes the detector a constant).
    """

    id: str
    name: str
    english: str
    value: int
    number: int
    detector: Detector = field(repr=False)
    excludes: tuple[str, ...] = ()
    absorbs: tuple[str, ...] = ()
    absorb_limit: int | None = None
    per: bool = False
    bonus: bool = False
    fallback: bool = False
    one_suit: str = "yes"
    guard: int = 0

    def __str__(self) -> str:
        return f"{self.name} {self.value}"


@dataclass(frozen=True, slots=True)
class FanHit:
    """A fan counted in a score: ``count`` occurrences worth ``value`` each.  ``sources`` holds,
    per occurrence, the indices into ``ScoreResult.reading.groups`` it is made of (``()``: the
    whole hand or the way it was won)."""

    fan: Fan
    value: int
    count: int
    sources: Sources = ()

    @property
    def points(self) -> int:
        return self.value * self.count

    def __str__(self) -> str:
        times = f"×{self.count}" if self.count > 1 else ""
        return f"{self.fan.name} {self.value}{times}"


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The score of the best reading (§5.2 step 3) of ``hand``, flowers included in ``total``;
    a :class:`~erren.scoring.detail.FamilyScore` (``rows``, ``steps``, ``total`` in 番)."""

    fans: tuple[FanHit, ...]
    total: int
    reading: Reading
    table: str
    hand: Hand

    @property
    def unit(self) -> ScoreUnit:
        return ScoreUnit.FAN

    @property
    def rows(self) -> tuple[ScoreRow, ...]:
        """A row a fan: a flower fan made of the hand's flowers, a fan about the whole hand or
        the way it was won of the whole hand, any other of its groups."""
        out = []
        for hit in self.fans:
            if hit.fan.bonus:
                tiles: tuple[Tile, ...] = tuple(self.hand.flowers)
                melds: tuple[int, ...] = ()
            else:
                tiles, melds = source_tiles(self.hand, self.reading.groups, hit.sources)
            fan = hit.fan
            out.append(ScoreRow(fan.name, fan.english, hit.value, hit.count, tiles, melds, fan.id))
        return tuple(out)

    @property
    def steps(self) -> tuple[ScoreStep, ...]:
        """A line a fan with the groups it came from (the Chinese lines are :meth:`explain`'s),
        then the total."""
        out = []
        for hit in self.fans:
            where = "; ".join(" ".join(g) for g in self.groups_of(hit) if g)
            tail = f" ({where})" if where else ""
            times = f"×{hit.count}" if hit.count > 1 else ""
            out.append(
                ScoreStep(
                    f"{hit.fan.name} {hit.value}{times}{tail}",
                    f"{hit.fan.english} {hit.value}{times}{tail}",
                )
            )
        out.append(ScoreStep(f"= {self.total}", f"= {self.total}"))
        return tuple(out)

    @property
    def flower_points(self) -> int:
        """Points from 花牌/补花 (never counted toward 起和, §3.5)."""
        return sum(hit.points for hit in self.fans if hit.fan.bonus)

    @property
    def total_without_flowers(self) -> int:
        """The total that 起和 (``min_fan``) is checked against."""
        return self.total - self.flower_points

    def groups_of(self, hit: FanHit) -> tuple[tuple[str, ...], ...]:
        """The groups each occurrence of ``hit`` came from, as text (``("123m", "456m")``)."""
        return tuple(tuple(str(self.reading.groups[i]) for i in src) for src in hit.sources)

    def explain(self) -> str:
        """One line per fan, then the total: ``清龙 16 (123m 456m 789m)``."""
        lines = []
        for hit in self.fans:
            where = "; ".join(" ".join(g) for g in self.groups_of(hit) if g)
            lines.append(f"{hit}" + (f" ({where})" if where else ""))
        lines.append(f"= {self.total}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return " + ".join(str(h) for h in self.fans) + f" = {self.total}"
