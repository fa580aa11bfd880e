"""A family's part of the encodings of :mod:`erren.rl` (its ``rl`` part) and the parts of the
registered families in layout order.

The planes (:mod:`~erren.rl.planes`) and the action table (:mod:`~erren.rl.actions`) are the
shared rows and columns plus what each family's :class:`FamilyLayout` adds: its phases (a
``phase …`` column of the ``game`` plane each), its ``family …`` column, its scalar columns of
the seat and ``game`` planes, its tile planes, its moves, and the function that writes its
cells from its view.  A family names its part in :attr:`Family.parts
<erren.engine.family.Family.parts>` (``"rl": "erren.families.xiamen.rl:RL"``).

Layout version 1 is the built-in families' (the one the shipped learned weights read): their
parts say ``version=1`` and are laid out in the sections of that layout, in
:attr:`~erren.engine.family.Family.listing_order`.  A family added later says ``version=2``
(or higher): its part comes after everything of the earlier versions (its phase and
``family`` columns and its ``game`` columns at the end of the ``game`` plane, its seat columns
after the others, its planes after the last plane, its moves after the last index), so no
index of an earlier family moves.  A family without an ``rl`` part has the shared planes and
moves alone (a verb of its own has no index).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from erren.engine.actions import AnyActionKind
from erren.engine.registry import families
from erren.engine.views import FamilyView
from erren.tiles import NUM_KINDS

__all__ = [
    "EVERY_KIND",
    "NO_TILE",
    "FamilyLayout",
    "Move",
    "PlaneWriter",
    "registered_layouts",
]

EVERY_KIND: tuple[int | None, ...] = tuple(range(NUM_KINDS))
"""The tiles of a move naming a kind: one action index per kind, 1m..7z."""
NO_TILE: tuple[int | None, ...] = (None,)
"""The tiles of a move without a tile: one action index."""

Move = tuple[AnyActionKind, tuple[int | None, ...]]
"""A move kind and its tiles (:data:`EVERY_KIND`, :data:`NO_TILE`): consecutive indices."""


class PlaneWriter(Protocol):
    """What a family's :attr:`FamilyLayout.encode` writes with: its own columns and planes, by
    the names its part declares.  A value is scaled by ``top`` and clipped to ``[0, 1]``."""

    def seat(self, seat: int, column: str, value: float, top: float = 1.0) -> None:
        """Column ``column`` of the facts plane of ``seat`` ("me" or "opp" as he is or not the
        observing player)."""

    def game(self, column: str, value: float, top: float = 1.0) -> None:
        """Column ``column`` of the ``game`` plane."""

    def tile(self, plane: str, tile: int | None) -> None:
        """The column of ``tile``'s kind in ``plane`` (nothing for ``None`` or a flower)."""

    def counts(self, plane: str, tiles: Iterable[int]) -> None:
        """The ``≥ 1 … ≥ 4`` planes from ``plane`` (the ``≥ 1`` one) from the copies of each
        kind in ``tiles``."""


@dataclass(frozen=True, kw_only=True)
class FamilyLayout:
    """A family's part of the RL encodings (its ``rl`` part); docs/rl.md tabulates them."""

    version: int
    """The layout version that added the part: 1 for the built-in families (laid out in the
    sections of layout version 1), 2 or more for a family added later (appended)."""
    phases: tuple[str, ...] = ()
    """The family's own phases (their observation names), a ``phase …`` column each."""
    seat_columns: tuple[str, ...] = ()
    """The family's columns of each seat's ``facts`` plane."""
    game_columns: tuple[str, ...] = ()
    """The family's columns of the ``game`` plane."""
    planes: tuple[tuple[str, str], ...] = ()
    """The family's tile planes as ``(name, meaning)``."""
    moves: tuple[Move, ...] = ()
    """The family's own moves, in index order."""
    encode: Callable[[PlaneWriter, FamilyView], None] | None = None
    """Writes the family's cells from its view (``None``: it has none)."""


def registered_layouts() -> tuple[tuple[str, FamilyLayout], ...]:
    """The ``rl`` parts of the registered families by family name, in layout order: version 1's
    in listing order, then the later ones by version (then listing order)."""
    found = [(family.name, family.rl()) for family in families()]
    parts = [(name, part) for name, part in found if part is not None]
    return tuple(sorted(parts, key=lambda item: item[1].version))
