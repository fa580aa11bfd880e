"""The values of a reading: the groups a complete hand splits into, and the reading itself.

A :class:`Group` is one set, pair or single with the kinds it resolves to (a wild tile as the kind
it stands for); a :class:`Reading` is one way to read a complete hand — its shape, its groups in
reading order, and the group the winning tile completed.  :mod:`erren.analysis.readings` finds
them; the scorers read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from erren.analysis.shapes import Shape
from erren.melds import Meld
from erren.tiles import NUM_KINDS

__all__ = ["Group", "GroupKind", "Reading", "group_counts", "groups_text"]


class GroupKind(Enum):
    """What a group of a reading is."""

    CHOW = "chow"  # 顺子: three consecutive numbers of one suit
    PUNG = "pung"  # 刻子: three of a kind
    KONG = "kong"  # 杠子: four of a kind, always a declared meld
    PAIR = "pair"  # 将/雀头; also each pair of seven pairs
    SINGLE = "single"  # a lone tile of 十三幺 or 全不靠/七星不靠
    KNITTED = "knitted"  # one 147/258/369 trio of 组合龙


_SET_KINDS = frozenset({GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG})


def _format(tiles: Iterable[int]) -> str:
    """``123m``-style text of resolved kinds (a small copy of the notation's printer)."""
    out: list[str] = []
    suit = ""
    for tile in sorted(tiles):
        letter = "mpsz"[tile // 9] if tile < 27 else "z"
        number = tile % 9 + 1 if tile < 27 else tile - 26
        if suit and letter != suit:
            out.append(suit)
        suit = letter
        out.append(str(number))
    return "".join(out) + suit


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a reading.

    ``tiles`` are resolved kinds, sorted (a wild appears as the kind it stands for; xiamen's
    White as the gold kind).  ``wild_tiles`` lists the kinds inside this group that wild tiles
    stand for, so ``tiles`` minus ``wild_tiles`` are the natural tiles.  ``meld`` is the declared
    meld this group is, if any.
    """

    kind: GroupKind
    tiles: tuple[int, ...]
    meld: Meld | None = None
    wild_tiles: tuple[int, ...] = ()

    @property
    def is_concealed(self) -> bool:
        """Not from a claimed meld: a group of the concealed part, or a concealed kong (暗杠)."""
        return self.meld is None or self.meld.is_concealed

    @property
    def first(self) -> int:
        """The lowest kind (the first tile of a chow)."""
        return self.tiles[0]

    @property
    def is_set(self) -> bool:
        """A chow, pung or kong (面子)."""
        return self.kind in _SET_KINDS

    @property
    def is_pung(self) -> bool:
        """A pung or a kong ("pung" in fan definitions includes kongs)."""
        return self.kind is GroupKind.PUNG or self.kind is GroupKind.KONG

    @property
    def has_wild(self) -> bool:
        """Some tile of this group is a wild."""
        return bool(self.wild_tiles)

    def naturals(self, kind: int) -> int:
        """How many natural (non-wild) tiles of ``kind`` this group holds."""
        return self.tiles.count(kind) - self.wild_tiles.count(kind)

    def __str__(self) -> str:
        text = _format(self.tiles)
        if self.meld is not None:
            text = f"[{text}]"
        if self.wild_tiles:
            text += "{" + "".join(_format((t,)) for t in self.wild_tiles) + "}"
        return text


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand.

    ``groups``: for the regular shape the concealed sets (sorted), then the declared melds in
    the order of the hand, then the pair; the seven pairs (sorted); for 十三幺 the twelve singles
    then the pair; for 全不靠 the fourteen singles; for 组合龙 the three knitted trios, the set,
    then the pair.  ``winning_group`` is the index of the group the winning tile completed (None
    when the hand has no winning tile); ``winning_kind`` the kind it plays as and
    ``winning_wild`` whether it is itself a wild.  ``wild_kinds`` is what each wild stands for.
    """

    shape: Shape
    groups: tuple[Group, ...]
    winning_group: int | None
    wild_kinds: tuple[int, ...]
    winning_kind: int | None = None
    winning_wild: bool = False

    @property
    def winning(self) -> Group | None:
        """The group the winning tile completed."""
        return None if self.winning_group is None else self.groups[self.winning_group]

    @property
    def sets(self) -> tuple[Group, ...]:
        """The chows, pungs and kongs, melds included."""
        return tuple(g for g in self.groups if g.is_set)

    @property
    def pair(self) -> Group | None:
        """The pair of a regular, 组合龙 or 十三幺 reading (None for seven pairs and 全不靠)."""
        if self.shape is Shape.SEVEN_PAIRS:
            return None
        last = self.groups[-1]
        return last if last.kind is GroupKind.PAIR else None

    def counts(self) -> list[int]:
        """The resolved hand as 34 counts: concealed part, winning tile and melds."""
        return group_counts(self.groups)

    def __str__(self) -> str:
        return groups_text(self.shape.name.lower(), self.groups, self.winning_group)


def group_counts(groups: Iterable[Group]) -> list[int]:
    """The tiles of ``groups`` as 34 counts (every tile of a kong counted)."""
    counts = [0] * NUM_KINDS
    for group in groups:
        for tile in group.tiles:
            counts[tile] += 1
    return counts


def groups_text(label: str, groups: Sequence[Group], winning_group: int | None) -> str:
    """``label: g1 g2 ...``, the group the winning tile completed in ``<...>``."""
    parts = [str(g) for g in groups]
    if winning_group is not None:
        parts[winning_group] = "<" + parts[winning_group] + ">"
    return f"{label}: " + " ".join(parts)
