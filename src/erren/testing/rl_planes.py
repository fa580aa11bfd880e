"""The observation planes read from the state by pure Python: :mod:`erren.rl.encoder` as it was
before its shared cells were written in C (``erren.rl._planes``), kept unchanged as the
reference the tests hold the fast encoder byte-identical to (tests/rl/test_fast_planes.py).

:func:`encode_state` ``(state, player)`` is ``encode_observation(observe(state, player))``
(:mod:`erren.rl.planes`) read straight from the state; nothing outside the tests uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from erren.engine.phases import Origin, Phase
from erren.melds import MeldKind
from erren.rl import planes
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine import State

__all__ = ["encode_state"]

PLANES_SHAPE = (planes.NUM_PLANES, NUM_KINDS)
"""The shape of one encoding."""
_SIZE = planes.NUM_PLANES * NUM_KINDS
_BYTES = _SIZE * 4
_K = NUM_KINDS
# The planes' own tables: one layout, two encoders.
_ROW = planes._ROW
_SEAT_COL = planes._SEAT_COL
_GAME_COL = planes._GAME_COL
_PHASE_COL = planes._PHASE_COL
_ORIGIN_COL = planes._ORIGIN_COL
_FAMILY_COL = planes._FAMILY_COL
_ENCODERS = planes._ENCODERS

_DEAL, _END, _TURN = Phase.DEAL, Phase.END, Phase.TURN
_O_CLAIM = Origin.CLAIM
_CHI, _PENG, _AN_GANG = MeldKind.CHI, MeldKind.PENG, MeldKind.AN_GANG

_HAND = _ROW["hand≥1"] * _K
_LAST_DRAWN = _ROW["last_drawn"] * _K
_PENDING = _ROW["pending"] * _K
_ROUND_WIND = _ROW["round_wind"] * _K
_GAME = _ROW["game"]
_WALL = _GAME * _K + _GAME_COL["wall tiles left / 144"]
_STREAK = _GAME * _K + _GAME_COL["dealer streak / 8"]
_COPIES = tuple(tuple(n * _K for n in range(min(c, 4))) for c in range(64))
"""Count ``c`` → the offsets of its ``≥ 1 … ≥ 4`` cells from the ``≥ 1`` plane's cell."""


class _SeatCells:
    """The flat offsets of one seat block ("me" or "opp") and its facts' cells."""

    __slots__ = (
        "chow",
        "concealed",
        "concealed_kong",
        "dealer",
        "discard_count",
        "discards",
        "flower_count",
        "flowers",
        "hidden_kongs",
        "kong",
        "last_discard",
        "pung",
        "ting",
        "to_act",
        "trustee",
    )

    def __init__(self, who: str) -> None:
        self.chow = _ROW[f"{who}.chow≥1"] * _K
        self.pung = _ROW[f"{who}.pung"] * _K
        self.kong = _ROW[f"{who}.kong"] * _K
        self.concealed_kong = _ROW[f"{who}.concealed_kong"] * _K
        self.discards = _ROW[f"{who}.discards≥1"] * _K
        self.last_discard = _ROW[f"{who}.last_discard"] * _K
        self.flowers = _ROW[f"{who}.flowers"] * _K - NUM_KINDS  # indexed by the flower's id
        base = _ROW[f"{who}.facts"] * _K
        self.ting = base + _SEAT_COL["报听 declared"]
        self.trustee = base + _SEAT_COL["托管 on"]
        self.dealer = base + _SEAT_COL["is the dealer"]
        self.to_act = base + _SEAT_COL["is to act"]
        self.concealed = base + _SEAT_COL["concealed tiles / 14"]
        self.hidden_kongs = base + _SEAT_COL["face-down kongs whose kind is hidden / 4"]
        self.discard_count = base + _SEAT_COL["discards / 40"]
        self.flower_count = base + _SEAT_COL["flowers / 8"]


_ME, _OPP = _SeatCells("me"), _SeatCells("opp")

Cells: TypeAlias = "memoryview[float]"
"""Planes being written: a flat ``float32`` view (format ``f``) of an array's buffer; the
encoding that starts at cell ``at`` has the cell ``at + row * 34 + column``."""


def _counts(cells: Cells, base: int, tiles: Sequence[int]) -> None:
    """The ``≥ 1 … ≥ 4`` planes from the cell ``base`` of the tiles (flowers left out)."""
    seen = [0] * _K
    for kind in tiles:
        if kind < _K:
            n = seen[kind]
            if n < 4:
                cells[base + n * _K + kind] = 1.0
                seen[kind] = n + 1


def _melds(cells: Cells, at: int, state: State, seat: int, block: _SeatCells) -> int:
    """A seat's visible melds; the number of his 暗杠 this player may not see (the
    opponent's: the ``opp`` block)."""
    own = block is _ME
    hidden = 0
    chows: list[int] = []
    for meld in state.melds[seat]:
        kind = meld.kind
        if kind is _CHI:
            chows.extend(meld.tiles)
        elif kind is _PENG:
            cells[at + block.pung + meld.tiles[0]] = 1.0
        elif kind is _AN_GANG:
            if own:
                cells[at + block.concealed_kong + meld.tiles[0]] = 1.0
            else:
                hidden += 1
        else:
            cells[at + block.kong + meld.tiles[0]] = 1.0
    if chows:
        _counts(cells, at + block.chow, chows)
    return hidden


def _seat(cells: Cells, at: int, state: State, seat: int, block: _SeatCells) -> None:
    """One seat's block: its visible melds, discards, flowers and facts."""
    hidden = _melds(cells, at, state, seat, block) if state.melds[seat] else 0
    if hidden:
        cells[at + block.hidden_kongs] = min(hidden / 4, 1.0)
    discards = state.discards[seat]
    if discards:
        _counts(cells, at + block.discards, discards)
        cells[at + block.last_discard + discards[-1]] = 1.0
        cells[at + block.discard_count] = min(len(discards) / 40, 1.0)
    flowers = state.flowers[seat]
    if flowers:
        for flower in flowers:
            if flower >= NUM_KINDS:
                cells[at + block.flowers + flower] = 1.0
        cells[at + block.flower_count] = min(len(flowers) / 8, 1.0)
    concealed = sum(state.hands[seat])
    if concealed:
        cells[at + block.concealed] = min(concealed / 14, 1.0)
    if state.ting[seat]:
        cells[at + block.ting] = 1.0
    if state.trustee[seat]:
        cells[at + block.trustee] = 1.0
    if state.dealer == seat:
        cells[at + block.dealer] = 1.0


def _game(cells: Cells, at: int, state: State, acting: bool) -> None:
    """The ``game`` plane's shared facts and the round wind."""
    wall = state.wall_count
    if wall:
        cells[at + _WALL] = min(wall / 144, 1.0)
    streak = state.streak
    if streak:
        cells[at + _STREAK] = min(streak / 8, 1.0)
    col = _PHASE_COL.get(state.phase)
    if col is not None:
        cells[at + _GAME * _K + col] = 1.0
    if acting and state.origin is not None:
        cells[at + _GAME * _K + _ORIGIN_COL[state.origin]] = 1.0
    wind = state.round_wind
    if wind < NUM_KINDS:
        cells[at + _ROUND_WIND + wind] = 1.0


_VIEW_FAMILY: dict[str, str] = {}
"""A family's name → the ``family`` its views carry (learned from its first view)."""


def _family(cells: Cells, at: int, state: State, player: int) -> None:
    """The family's column and its own cells, from its view as in the observation path."""
    ruleset = state.ruleset
    family = _VIEW_FAMILY.get(ruleset.name)
    if family is None or family in _ENCODERS:
        view = ruleset.view(state, player)
        family = _VIEW_FAMILY[ruleset.name] = view.family
        encode = _ENCODERS.get(family)
        if encode is not None:
            own = planes._Cells()
            encode(planes._FamilyWriter(own, player), view)
            for row, col, value in zip(own.rows, own.cols, own.values, strict=True):
                cells[at + row * _K + col] = value
    column = _FAMILY_COL.get(family)
    if column is not None:
        cells[at + _GAME * _K + column] = 1.0


def _encode(cells: Cells, at: int, state: State, player: int) -> None:
    """The cells of the encoding from ``at`` that are not 0 (the others are 0 already)."""
    if player not in (0, 1):
        raise ValueError("player must be seat 0 or 1")
    phase = state.phase
    acting = phase is not _DEAL and phase is not _END
    actor = state.actor if acting else -1
    hand = at + _HAND
    for kind, count in enumerate(state.hands[player]):
        if count:
            base = hand + kind
            for offset in _COPIES[count]:
                cells[base + offset] = 1.0
    if actor == player:
        last = state.last_added[player]
        origin = state.origin
        drew = (
            phase is _TURN and origin is not None and origin is not _O_CLAIM
        ) or phase in state.ruleset.drawn_tile_phases
        if drew and 0 <= last < NUM_KINDS:
            cells[at + _LAST_DRAWN + last] = 1.0
    pending = state.pending
    if 0 <= pending < NUM_KINDS:
        cells[at + _PENDING + pending] = 1.0
    _seat(cells, at, state, player, _ME)
    _seat(cells, at, state, 1 - player, _OPP)
    if actor >= 0:
        cells[at + (_ME if actor == player else _OPP).to_act] = 1.0
    _game(cells, at, state, acting)
    _family(cells, at, state, player)


def encode_state(state: State, player: int) -> planes.Planes:
    """The planes of ``player``'s observation of ``state`` — equal to
    ``encode_observation(observe(state, player))`` — in a new array."""
    buffer = bytearray(_BYTES)
    _encode(memoryview(buffer).cast("f"), 0, state, player)
    return np.frombuffer(buffer, dtype=np.float32).reshape(PLANES_SHAPE)
