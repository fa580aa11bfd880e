"""Tile names in mjai's notation and back.

mjai writes suited tiles as erren does (``1m``...``9s``; erren has no red fives, so never
``5mr``), the winds ``E S W N`` and the dragons ``P F C`` (白 haku, 發 hatsu, 中 chun).  mjai has
no flowers: the two-seat profile names them as erren does, ``1f``...``8f`` (an extension).  A tile
the reader may not see is ``?``, as in mjai's own hidden hands.

>>> from erren.tiles import Tile
>>> mjai_tile(Tile.WHITE), mjai_tile(Tile.M5), mjai_tile(Tile.F3), mjai_tile(None)
('P', '5m', '3f', '?')
>>> parse_mjai_tile("C") is Tile.RED
True
"""

from __future__ import annotations

from collections.abc import Iterable

from erren.errors import NotationError
from erren.tiles import NUM_KINDS, Tile

__all__ = ["HIDDEN", "mjai_tile", "mjai_tiles", "parse_mjai_tile"]

HIDDEN = "?"
"""A tile the reader of a stream may not see."""

_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_NAMES: tuple[str, ...] = tuple(
    [f"{n}{suit}" for suit in "mps" for n in range(1, 10)]
    + list(_HONORS)
    + [f"{n}f" for n in range(1, 9)]
)
_BY_NAME = {name: Tile(i) for i, name in enumerate(_NAMES)}
assert len(_NAMES) == NUM_KINDS + 8


def mjai_tile(tile: int | None) -> str:
    """mjai's name of ``tile`` (a kind 0..41), or ``?`` for ``None`` (a hidden tile)."""
    if tile is None:
        return HIDDEN
    return _NAMES[tile]


def mjai_tiles(tiles: Iterable[int | None]) -> list[str]:
    """mjai's names of ``tiles``, in order."""
    return [mjai_tile(t) for t in tiles]


def parse_mjai_tile(name: object) -> Tile:
    """The tile mjai calls ``name``; a red five (``5mr``) reads as its five.  Anything else,
    ``?`` included, raises :class:`~erren.errors.NotationError` naming the text."""
    if isinstance(name, str):
        found = _BY_NAME.get(name[:2] if name in ("5mr", "5pr", "5sr") else name)
        if found is not None:
            return found
    raise NotationError(f"not an mjai tile: {name!r} (1m..9s, E S W N P F C, 1f..8f)")
