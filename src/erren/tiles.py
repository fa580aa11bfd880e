"""Tile kinds: the 34 playing kinds and the 8 flowers, as small ints with names.

A tile kind's index runs 1m..9m = 0..8, 1p..9p = 9..17, 1s..9s = 18..26, 1z..7z = 27..33 and
flowers 1f..8f = 34..41 (``../shared/spec/NOTATION.md``).  Hot paths work on plain ints and on
34-long count arrays; :class:`Tile` is the readable value at the edges: ``str(Tile.M1) == "1m"``
and ``repr(Tile.M1) == "Tile.M1"``, which is working code.  Reading a tile from its name is the
notation's (:func:`erren.notation.parse_tile`): this module imports nothing of erren's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

NUM_KINDS = 34
"""Playing kinds (everything but flowers)."""
NUM_FLOWERS = 8
SUITS = "mps"
SUIT_LETTERS = "mpszf"

Counts = list[int]
"""A count per playing kind: ``counts[i]`` copies of kind ``i`` (length :data:`NUM_KINDS`)."""


class Tile(IntEnum):
    """One tile kind.  The value is the kind's index."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    F1 = 34
    F2 = 35
    F3 = 36
    F4 = 37
    F5 = 38
    F6 = 39
    F7 = 40
    F8 = 41

    @classmethod
    def of(cls, number: int, suit: str) -> Tile:
        """The tile with this number (1-based) and suit letter, e.g. ``Tile.of(3, "p")``."""
        base = NUM_KINDS if suit == "f" else SUIT_LETTERS.index(suit) * 9
        return cls(base + number - 1)

    @property
    def suit(self) -> str:
        """``m``, ``p``, ``s``, ``z`` (honors) or ``f`` (flowers)."""
        return suit_of(self)

    @property
    def number(self) -> int:
        """1..9 for suited tiles, 1..7 for honors, 1..8 for flowers."""
        if self >= Tile.F1:
            return self - Tile.F1 + 1
        return self % 9 + 1 if self < Tile.EAST else self - Tile.EAST + 1

    @property
    def is_suited(self) -> bool:
        return self < Tile.EAST

    @property
    def is_honor(self) -> bool:
        return Tile.EAST <= self <= Tile.RED

    @property
    def is_wind(self) -> bool:
        return Tile.EAST <= self <= Tile.NORTH

    @property
    def is_dragon(self) -> bool:
        return Tile.WHITE <= self <= Tile.RED

    @property
    def is_terminal(self) -> bool:
        """1 or 9 of a suit."""
        return self < Tile.EAST and self % 9 in (0, 8)

    @property
    def is_terminal_or_honor(self) -> bool:
        """幺九: a terminal or an honor."""
        return is_terminal_or_honor(self)

    @property
    def is_flower(self) -> bool:
        return self >= Tile.F1

    def __str__(self) -> str:
        return f"{self.number}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


ALL_KINDS: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
FLOWERS: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS, NUM_KINDS + NUM_FLOWERS))
TERMINALS_AND_HONORS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The 13 幺九 kinds (thirteen orphans)."""
HONORS: tuple[int, ...] = tuple(range(27, 34))


def suit_of(kind: int) -> str:
    """The suit letter of a kind index (``m``/``p``/``s``/``z``/``f``)."""
    return SUIT_LETTERS[kind // 9] if kind < 27 else ("z" if kind < 34 else "f")


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def counts_of(tiles: Iterable[int]) -> Counts:
    """The 34-long count array of some playing tiles (flowers are not counted)."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        if tile < NUM_KINDS:
            counts[tile] += 1
    return counts


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    """The sorted tiles that a count array holds."""
    return [Tile(kind) for kind, n in enumerate(counts) for _ in range(n)]
