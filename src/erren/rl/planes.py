"""The observation planes of :mod:`erren.rl`: one player's :class:`~erren.engine.Observation`
as a ``(NUM_PLANES, 34)`` array of ``float32`` in ``[0, 1]``.

Only the observation is read (never the :class:`~erren.engine.State`), so a plane holds nothing
the player may not see: his own concealed tiles, both seats' visible melds, discards and
flowers, the public counts and flags, and the family's view.  The layout is the shared planes
and columns plus each registered family's part (its ``rl`` part, :mod:`erren.rl.layout`), the
same in every family (a family's planes stay zero in the others), and relative to the observer:
the block "me" is the observing seat, "opp" the opponent.  Column ``k`` of a tile plane is the
tile kind ``k`` (1m..9m, 1p..9p, 1s..9s, 1z..7z = 0..33); a count ``c`` is written as the four
planes ``c ≥ 1 … c ≥ 4``.  Scalar planes hold one fact per column, scaled into ``[0, 1]`` and
clipped.  :data:`PLANES` names every plane and docs/rl.md tabulates them.

The end of a hand (the winner's hand, the fans) is not encoded: the reward carries it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from erren.engine import Observation
from erren.engine.phases import Origin, Phase
from erren.melds import MeldKind
from erren.rl.layout import registered_layouts
from erren.tiles import NUM_KINDS

__all__ = [
    "GAME_COLUMNS",
    "LAYOUT_VERSION",
    "NUM_PLANES",
    "PLANES",
    "SEAT_COLUMNS",
    "encode_observation",
]

Planes = npt.NDArray[np.float32]

_LAYOUTS = registered_layouts()
_FIRST = tuple((name, part) for name, part in _LAYOUTS if part.version == 1)
_LATER = tuple((name, part) for name, part in _LAYOUTS if part.version > 1)

LAYOUT_VERSION = max((part.version for _, part in _LAYOUTS), default=1)
"""The layout's version: 1 with the built-in families alone, the highest ``version`` of a
family's part otherwise (:mod:`erren.rl.layout`)."""
SHARED_PHASES = (Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END)
"""The shared phases a player may see, in column order (the families' follow)."""
PHASES = (
    *(phase.value for phase in SHARED_PHASES),
    *(phase for _, part in _LAYOUTS for phase in part.phases),
)
"""Every phase a player may see (the shared ones and the families'), a ``phase`` column each."""
ORIGINS = tuple(origin.value for origin in Origin)

SEAT_COLUMNS: tuple[str, ...] = (
    "concealed tiles / 14",
    "face-down kongs whose kind is hidden / 4",
    "报听 declared",
    "托管 on",
    "is the dealer",
    "is to act",
    "discards / 40",
    "flowers / 8",
    *(column for _, part in _LAYOUTS for column in part.seat_columns),
)
"""The columns of a seat's ``facts`` plane (the rest are zero)."""

GAME_COLUMNS: tuple[str, ...] = (
    "wall tiles left / 144",
    "dealer streak / 8",
    *(f"phase {p}" for p in (*SHARED_PHASES, *(p for _, part in _FIRST for p in part.phases))),
    *(f"origin {o}" for o in ORIGINS),
    *(f"family {name}" for name, _ in _FIRST),
    *(column for _, part in _FIRST for column in part.game_columns),
    *(
        column
        for name, part in _LATER
        for column in (
            *(f"phase {p}" for p in part.phases),
            f"family {name}",
            *part.game_columns,
        )
    ),
)
"""The columns of the ``game`` plane (the rest are zero): layout version 1's, then each later
family's phases, ``family`` column and own columns."""


def _seat_planes(who: str) -> tuple[tuple[str, str], ...]:
    return (
        *((f"{who}.chow≥{n}", f"tiles of {who}'s chows, count ≥ {n}") for n in range(1, 5)),
        (f"{who}.pung", f"kinds of {who}'s pungs (碰)"),
        (f"{who}.kong", f"kinds of {who}'s exposed kongs (明杠, 加杠)"),
        (f"{who}.concealed_kong", f"kinds of {who}'s 暗杠 this player may see (his own)"),
        *(
            (f"{who}.discards≥{n}", f"{who}'s discards (claimed ones too), count ≥ {n}")
            for n in range(1, 5)
        ),
        (f"{who}.last_discard", f"{who}'s latest discard"),
        (f"{who}.flowers", f"{who}'s flowers: column i is flower i+1 (1f..8f)"),
        (f"{who}.facts", f"{who}'s scalar facts (columns: SEAT_COLUMNS)"),
    )


PLANES: tuple[tuple[str, str], ...] = (
    *((f"hand≥{n}", f"this player's concealed tiles, count ≥ {n}") for n in range(1, 5)),
    ("last_drawn", "the tile this player just drew (his turn)"),
    ("pending", "the discard that may be claimed, or the 加杠 tile that may be robbed"),
    *_seat_planes("me"),
    *_seat_planes("opp"),
    ("round_wind", "the round wind"),
    ("game", "scalar facts of the hand (columns: GAME_COLUMNS)"),
    *(plane for _, part in _LAYOUTS for plane in part.planes),
)
"""Every plane as ``(name, meaning)``, in row order."""

NUM_PLANES = len(PLANES)
_ROW = {name: i for i, (name, _) in enumerate(PLANES)}
_SEAT_COL = {name: i for i, name in enumerate(SEAT_COLUMNS)}
_GAME_COL = {name: i for i, name in enumerate(GAME_COLUMNS)}
_PHASE_COL = {p: _GAME_COL[f"phase {p}"] for p in PHASES}
_ORIGIN_COL = {o: _GAME_COL[f"origin {o}"] for o in ORIGINS}
_FAMILY_COL = {name: _GAME_COL[f"family {name}"] for name, _ in _LAYOUTS}
_ENCODERS = {name: part.encode for name, part in _LAYOUTS if part.encode is not None}
if len(SEAT_COLUMNS) > NUM_KINDS or len(GAME_COLUMNS) > NUM_KINDS:
    raise ValueError(f"the families' rl parts need more than {NUM_KINDS} columns of a plane")


class _Cells:
    """The non-zero cells of one encoding, written into the array at once (one NumPy call
    instead of one per cell)."""

    __slots__ = ("cols", "rows", "values")

    def __init__(self) -> None:
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.values: list[float] = []

    def set(self, row: int, col: int, value: float = 1.0) -> None:
        if value:
            self.rows.append(row)
            self.cols.append(col)
            self.values.append(value)

    def scaled(self, row: int, col: int, value: float, top: float) -> None:
        self.set(row, col, min(value / top, 1.0))

    def tile(self, row: int, tile: int | None) -> None:
        if tile is not None and tile < NUM_KINDS:
            self.set(row, int(tile))

    def counts(self, row: int, tiles: Iterable[int]) -> None:
        """The ``≥ 1 … ≥ 4`` planes from ``row``: the n-th copy of a kind marks plane n."""
        seen = [0] * NUM_KINDS
        rows, cols, values = self.rows, self.cols, self.values
        for tile in tiles:
            kind = int(tile)
            if kind < NUM_KINDS:
                n = seen[kind]
                if n < 4:
                    rows.append(row + n)
                    cols.append(kind)
                    values.append(1.0)
                    seen[kind] = n + 1


class _SeatRows:
    """The rows of one seat block ("me" or "opp")."""

    def __init__(self, who: str) -> None:
        self.chow = _ROW[f"{who}.chow≥1"]
        self.pung = _ROW[f"{who}.pung"]
        self.kong = _ROW[f"{who}.kong"]
        self.concealed_kong = _ROW[f"{who}.concealed_kong"]
        self.discards = _ROW[f"{who}.discards≥1"]
        self.last_discard = _ROW[f"{who}.last_discard"]
        self.flowers = _ROW[f"{who}.flowers"]
        self.facts = _ROW[f"{who}.facts"]


_ME, _OPP = _SeatRows("me"), _SeatRows("opp")


def _seat(cells: _Cells, obs: Observation, seat: int, rows: _SeatRows) -> None:
    chows: list[int] = []
    for meld in obs.melds[seat]:
        kind = meld.kind
        if kind is MeldKind.CHI:
            chows.extend(meld.tiles)
        elif kind is MeldKind.PENG:
            cells.set(rows.pung, meld.first)
        elif kind is MeldKind.AN_GANG:
            cells.set(rows.concealed_kong, meld.first)
        else:
            cells.set(rows.kong, meld.first)
    cells.counts(rows.chow, chows)
    discards = obs.discards[seat]
    cells.counts(rows.discards, discards)
    if discards:
        cells.set(rows.last_discard, discards[-1])
    for flower in obs.flowers[seat]:
        if flower >= NUM_KINDS:
            cells.set(rows.flowers, flower - NUM_KINDS)
    facts = rows.facts
    cells.scaled(facts, _SEAT_COL["concealed tiles / 14"], obs.concealed_count[seat], 14)
    cells.scaled(
        facts, _SEAT_COL["face-down kongs whose kind is hidden / 4"], obs.hidden_kongs[seat], 4
    )
    cells.set(facts, _SEAT_COL["报听 declared"], obs.ting[seat])
    cells.set(facts, _SEAT_COL["托管 on"], obs.trustee[seat])
    cells.set(facts, _SEAT_COL["is the dealer"], obs.dealer == seat)
    cells.set(facts, _SEAT_COL["is to act"], obs.to_act == seat)
    cells.scaled(facts, _SEAT_COL["discards / 40"], len(discards), 40)
    cells.scaled(facts, _SEAT_COL["flowers / 8"], len(obs.flowers[seat]), 8)


class _FamilyWriter:
    """The :class:`~erren.rl.layout.PlaneWriter` a family's encoder writes its cells with."""

    __slots__ = ("cells", "player")

    def __init__(self, cells: _Cells, player: int) -> None:
        self.cells = cells
        self.player = player

    def seat(self, seat: int, column: str, value: float, top: float = 1.0) -> None:
        rows = _ME if seat == self.player else _OPP
        self.cells.scaled(rows.facts, _SEAT_COL[column], value, top)

    def game(self, column: str, value: float, top: float = 1.0) -> None:
        self.cells.scaled(_ROW["game"], _GAME_COL[column], value, top)

    def tile(self, plane: str, tile: int | None) -> None:
        self.cells.tile(_ROW[plane], tile)

    def counts(self, plane: str, tiles: Iterable[int]) -> None:
        self.cells.counts(_ROW[plane], tiles)


def _game(cells: _Cells, obs: Observation) -> None:
    game = _ROW["game"]
    cells.scaled(game, _GAME_COL["wall tiles left / 144"], obs.wall_count, 144)
    cells.scaled(game, _GAME_COL["dealer streak / 8"], obs.streak, 8)
    if obs.phase in _PHASE_COL:
        cells.set(game, _PHASE_COL[obs.phase])
    if obs.origin is not None:
        cells.set(game, _ORIGIN_COL[obs.origin])
    family = obs.view.family
    if family in _FAMILY_COL:
        cells.set(game, _FAMILY_COL[family])
    encode = _ENCODERS.get(family)
    if encode is not None:
        encode(_FamilyWriter(cells, obs.player), obs.view)


def encode_observation(obs: Observation) -> Planes:
    """The planes of ``obs`` (a new array, shape ``(NUM_PLANES, 34)``)."""
    cells = _Cells()
    cells.counts(_ROW["hand≥1"], obs.hand)
    cells.tile(_ROW["last_drawn"], obs.last_drawn)
    cells.tile(_ROW["pending"], obs.pending)
    _seat(cells, obs, obs.player, _ME)
    _seat(cells, obs, obs.opponent, _OPP)
    cells.tile(_ROW["round_wind"], obs.round_wind)
    _game(cells, obs)
    out = np.zeros((NUM_PLANES, NUM_KINDS), dtype=np.float32)
    out[cells.rows, cells.cols] = cells.values
    return out
