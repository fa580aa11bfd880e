"""The fixed action encoding of :mod:`erren.rl`: every move of every family as one integer.

One table (:data:`ACTIONS`) serves every family and both seats: index ``i`` names a move kind
and its tile, never a seat (the seat is the acting agent's).  A family uses the rows it needs;
the others never appear in its action mask.  The shared moves come first, then each registered
family's (its ``rl`` part, :mod:`erren.rl.layout`).  The table of the built-in families
(layout version 1):

=========  ==================  ============================================================
indices    move                tile
=========  ==================  ============================================================
0–33       ``discard``         the kind discarded (1m..9m, 1p..9p, 1s..9s, 1z..7z = 0..33)
34–67      ``ting``            discard + 报听, the kind discarded
68–88      ``chi``             the chow's first tile: 1–7 of m, p, s (``68 + 7·suit + n − 1``)
89         ``peng``
90         ``minggang``
91–124     ``angang``          the kind of the concealed kong
125–158    ``jiagang``         the kind added to a pung
159        ``hu``              win on the discard, or rob the 加杠
160        ``zimo``            self-drawn win
161        ``pass``
162–268    each family's       its own moves, in the order of its ``rl`` part (docs/rl.md)
=========  ==================  ============================================================

Chance actions (shuffle, dice, seed) are drawn by the engine, system actions (timeout,
trustee, escape) are a table's and ``takepung`` and the composite ``exchange:…`` exist only in
old records: none of them is ever a legal move, so none has an index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from erren.engine import Action, ActionKind
from erren.engine.actions import AnyActionKind
from erren.rl.layout import EVERY_KIND, NO_TILE, Move, registered_layouts
from erren.tiles import Tile

__all__ = [
    "ACTIONS",
    "NUM_ACTIONS",
    "action_index",
    "action_mask",
    "describe",
    "index_action",
    "legal_indices",
    "legal_move",
]

AK = ActionKind
_CHOW_STARTS: tuple[int | None, ...] = tuple(s * 9 + n for s in range(3) for n in range(7))

SHARED_MOVES: tuple[Move, ...] = (
    (AK.DISCARD, EVERY_KIND),
    (AK.TING, EVERY_KIND),
    (AK.CHI, _CHOW_STARTS),
    (AK.PENG, NO_TILE),
    (AK.MING_GANG, NO_TILE),
    (AK.AN_GANG, EVERY_KIND),
    (AK.JIA_GANG, EVERY_KIND),
    (AK.HU, NO_TILE),
    (AK.ZIMO, NO_TILE),
    (AK.PASS, NO_TILE),
)
"""The moves of every family, indices 0–161."""

_LAYOUT: tuple[Move, ...] = (
    *SHARED_MOVES,
    *(move for _, part in registered_layouts() for move in part.moves),
)

ACTIONS: tuple[tuple[AnyActionKind, Tile | None], ...] = tuple(
    (kind, None if tile is None else Tile(tile)) for kind, tiles in _LAYOUT for tile in tiles
)
"""Row ``i``: the move kind and its tile (``None``: a move without a tile)."""

NUM_ACTIONS = len(ACTIONS)
"""The size of the ``Discrete`` action space (269 with the built-in families)."""

_INDEX: dict[tuple[AnyActionKind, int], int] = {
    (kind, -1 if tile is None else int(tile)): i for i, (kind, tile) in enumerate(ACTIONS)
}


def action_index(action: Action) -> int:
    """The index of a legal move; :class:`ValueError` for an action no player chooses
    (chance, system, a record's composite form)."""
    if action.data:
        raise ValueError(f"{action} has no index: only the moves a player chooses are encoded")
    key = (action.kind, -1 if action.tile is None else int(action.tile))
    found = _INDEX.get(key)
    if found is None:
        raise ValueError(f"{action} has no index: only the moves a player chooses are encoded")
    return found


def index_action(index: int, seat: int) -> Action:
    """The move of row ``index`` made by ``seat``; :class:`ValueError` outside the table."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} is outside 0..{NUM_ACTIONS - 1}")
    kind, tile = ACTIONS[index]
    return Action.make(kind, seat, tile)


def legal_move(index: int, seat: int, legal: Sequence[Action]) -> Action:
    """The move of row ``index`` by ``seat`` if it is one of ``legal``; :class:`ValueError`
    naming the index and the legal moves otherwise."""
    move = index_action(index, seat)
    if move not in legal:
        allowed = ", ".join(f"{action_index(a)} {describe(action_index(a))}" for a in legal)
        raise ValueError(
            f"action {index} ({describe(index)}) is not legal for player_{seat} now "
            f"(legal: {allowed or 'none: it is not this player’s decision'})"
        )
    return move


def legal_indices(legal: Iterable[Action]) -> list[int]:
    """The indices of ``legal`` in their order."""
    return [action_index(a) for a in legal]


def action_mask(legal: Iterable[Action]) -> npt.NDArray[np.int8]:
    """The ``int8`` mask of ``legal``: 1 at the index of each legal move, 0 elsewhere."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in legal:
        mask[action_index(action)] = 1
    return mask


def describe(index: int) -> str:
    """Row ``index`` as text: ``discard:5m``, ``chi:345m``, ``pass``."""
    kind, tile = ACTIONS[index]
    if tile is None:
        return kind.value
    return str(Action.make(kind, 0, tile)).split(":", 1)[1]
