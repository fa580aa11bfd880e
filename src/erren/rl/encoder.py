"""The observation planes and the action mask read straight from the engine's
:class:`~erren.engine.State`: the environments' fast path.

:func:`encode_state` ``(state, player)`` is exactly ``encode_observation(observe(state,
player))`` (:mod:`erren.rl.planes`: the same array, byte for byte; tests/rl/test_encoder.py and
tests/rl/test_fast_planes.py check thousands of seeded positions of every family), without
building the :class:`~erren.engine.Observation`.  The shared cells are written in C
(``erren.rl._planes``, built with the package like the analysis kernel): it reads the board's
integer counts and lists and writes into the array's buffer; this module gives it the layout
(every offset, from :mod:`~erren.rl.planes`) at import.  Only what the player may see is read,
as :func:`~erren.engine.observe` copies it: his own concealed tiles, the opponent's melds
without his 暗杠 (a count of them), the public pools and flags.  A family with cells of its own
(its ``rl`` part's ``encode``, a plug-in family's too) gets its view (``Family.view``) and
writes them in Python as in the observation path; for the others the C writes the family's
column and no view is built.  The pure-Python state encoder this replaced is kept as the
tests' reference, :mod:`erren.testing.rl_planes`.

:class:`LegalMoves` is the acting seat's legal moves as action indices, the mask and the move of
each index, built once per decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from erren.engine import Action
from erren.engine.phases import Origin, Phase
from erren.melds import MeldKind
from erren.rl import _planes, planes
from erren.rl.actions import NUM_ACTIONS, action_index
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine import State

__all__ = ["PLANES_SHAPE", "LegalMoves", "encode_into", "encode_state", "flat_cells"]

PLANES_SHAPE = (planes.NUM_PLANES, NUM_KINDS)
"""The shape of one encoding."""
_SIZE = planes.NUM_PLANES * NUM_KINDS
_K = NUM_KINDS
# The planes' own tables: one layout, two encoders.
_ROW = planes._ROW
_SEAT_COL = planes._SEAT_COL
_GAME_COL = planes._GAME_COL
_PHASE_COL = planes._PHASE_COL
_ORIGIN_COL = planes._ORIGIN_COL
_FAMILY_COL = planes._FAMILY_COL
_ENCODERS = planes._ENCODERS

_GAME = _ROW["game"]


def _seat_offsets(who: str) -> dict[str, int]:
    """The cells of one seat block ("me" or "opp"), by the names ``_planes`` reads."""
    facts = _ROW[f"{who}.facts"] * _K
    found = {
        "chow": _ROW[f"{who}.chow≥1"] * _K,
        "pung": _ROW[f"{who}.pung"] * _K,
        "kong": _ROW[f"{who}.kong"] * _K,
        "concealed_kong": _ROW[f"{who}.concealed_kong"] * _K,
        "discards": _ROW[f"{who}.discards≥1"] * _K,
        "last_discard": _ROW[f"{who}.last_discard"] * _K,
        "flowers": _ROW[f"{who}.flowers"] * _K - NUM_KINDS,  # indexed by the flower's id
        "ting": facts + _SEAT_COL["报听 declared"],
        "trustee": facts + _SEAT_COL["托管 on"],
        "dealer": facts + _SEAT_COL["is the dealer"],
        "to_act": facts + _SEAT_COL["is to act"],
        "concealed": facts + _SEAT_COL["concealed tiles / 14"],
        "hidden_kongs": facts + _SEAT_COL["face-down kongs whose kind is hidden / 4"],
        "discard_count": facts + _SEAT_COL["discards / 40"],
        "flower_count": facts + _SEAT_COL["flowers / 8"],
    }
    return {f"{who}.{name}": cell for name, cell in found.items()}


_planes.configure(
    {
        "size": _SIZE,
        "hand": _ROW["hand≥1"] * _K,
        "last_drawn": _ROW["last_drawn"] * _K,
        "pending": _ROW["pending"] * _K,
        "round_wind": _ROW["round_wind"] * _K,
        "game": _GAME * _K,
        "wall": _GAME * _K + _GAME_COL["wall tiles left / 144"],
        "streak": _GAME * _K + _GAME_COL["dealer streak / 8"],
        **_seat_offsets("me"),
        **_seat_offsets("opp"),
    },
    _PHASE_COL,
    _ORIGIN_COL,
    MeldKind.CHI,
    MeldKind.PENG,
    MeldKind.AN_GANG,
    Phase.DEAL,
    Phase.END,
    Phase.TURN,
    Origin.CLAIM,
)

Cells: TypeAlias = "memoryview[float]"
"""Planes being written: a flat ``float32`` view (format ``f``) of an array's buffer; the
encoding that starts at cell ``at`` has the cell ``at + row * 34 + column``."""

_PLAIN: dict[str, int] = {}
"""A family without cells of its own, by its name → its ``family`` column (-1: none), learned
from its first view: the C encoder writes the column, no view is built."""


def _family(cells: Cells, at: int, state: State, player: int) -> None:
    """The family's column and its own cells, from its view as in the observation path."""
    ruleset = state.ruleset
    view = ruleset.view(state, player)
    encode = _ENCODERS.get(view.family)
    if encode is not None:
        own = planes._Cells()
        encode(planes._FamilyWriter(own, player), view)
        for row, col, value in zip(own.rows, own.cols, own.values, strict=True):
            cells[at + row * _K + col] = value
    column = _FAMILY_COL.get(view.family)
    if column is not None:
        cells[at + _GAME * _K + column] = 1.0
    if encode is None:
        _PLAIN[ruleset.name] = -1 if column is None else column


def encode_into(cells: Cells, at: int, state: State, player: int) -> None:
    """Write the planes of ``player``'s observation of ``state`` into ``cells`` from the cell
    ``at`` (a flat ``float32`` view; every cell of the encoding is written)."""
    _encode(cells, at, state, player)


def _encode(cells: Cells | planes.Planes, at: int, state: State, player: int) -> None:
    """Every cell of the encoding from ``at`` (``cells``: a flat view or a C-contiguous
    ``float32`` array): the shared ones in C (zeroed first), then the family's column and
    cells."""
    column = _PLAIN.get(state.ruleset.name)
    if column is not None:
        _planes.encode(cells, at, state, player, column)
        return
    _planes.encode(cells, at, state, player, -1)
    _family(cells if isinstance(cells, memoryview) else flat_cells(cells), at, state, player)


def flat_cells(array: npt.NDArray[np.float32]) -> Cells:
    """The flat ``float32`` view of a C-contiguous ``float32`` array of encodings (one, or a
    stack of them), for :func:`encode_into`."""
    _check(array)
    return array.data.cast("B").cast("f")


def _check(array: npt.NDArray[np.float32]) -> None:
    if array.dtype != np.float32 or not array.flags.c_contiguous:
        raise ValueError("the planes are written into a C-contiguous float32 array")


def encode_state(
    state: State, player: int, out: npt.NDArray[np.float32] | None = None
) -> planes.Planes:
    """The planes of ``player``'s observation of ``state`` — equal to
    ``encode_observation(observe(state, player))`` — in a new array, or written into ``out``
    (shape :data:`PLANES_SHAPE`, C-contiguous ``float32``) and returned."""
    if out is None:
        out = np.empty(PLANES_SHAPE, dtype=np.float32)
    elif out.shape != PLANES_SHAPE:
        raise ValueError(f"the planes have the shape {PLANES_SHAPE}, not {out.shape}")
    else:
        _check(out)
    _encode(out, 0, state, player)
    return out


_INDEX_OF: dict[int, int] = {}
"""``id(action)`` → the action's index, for the actions of :data:`_KNOWN` (kept alive there, so
each id stays its action's)."""
_KNOWN: list[Action] = []


def _indices(legal: Sequence[Action]) -> list[int]:
    """The index of each action, memoised by the action's identity (``Action.make`` interns
    the moves)."""
    found = _planes.indices(legal, _INDEX_OF) if type(legal) is list else None
    if found is not None:
        return found
    if len(_KNOWN) > 50_000:  # moves a family builds afresh each time: keep the memo small
        _INDEX_OF.clear()
        _KNOWN.clear()
    for action in legal:
        if id(action) not in _INDEX_OF:
            _INDEX_OF[id(action)] = action_index(action)
            _KNOWN.append(action)
    return [_INDEX_OF[id(action)] for action in legal]


class LegalMoves:
    """The legal moves of one decision by index."""

    __slots__ = ("indices", "legal")

    def __init__(self, legal: Sequence[Action]) -> None:
        self.legal = legal
        self.indices = _indices(legal)
        """The legal indices, in the engine's order of ``legal``."""

    def move(self, index: int) -> Action | None:
        """The legal move of ``index``, ``None`` if it has none."""
        try:
            return self.legal[self.indices.index(index)]
        except ValueError:
            return None

    def mask(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
        """The ``int8`` mask (1 at each legal index): a new array, or written into ``out``."""
        if out is None:
            marks = np.empty(NUM_ACTIONS, dtype=np.int8)
            _planes.mark(marks, 0, NUM_ACTIONS, self.indices)
            return marks
        out[:] = 0
        out[self.indices] = 1
        return out

    def mark(self, mask: memoryview, at: int) -> None:
        """Write the mask into the flat ``int8`` view ``mask`` from the cell ``at``."""
        _planes.mark(mask, at, NUM_ACTIONS, self.indices)
