"""The observation planes of :mod:`erren.rl`: one player's :class:`~erren.engine.Observation`
as a ``(NUM_PLANES, 34)`` array of ``float32`` in ``[0, 1]``.

Only the observation is read (never the :class:`~erren.engine.State`), so a plane holds nothing
the player may not see: his own concealed tiles, both seats' visible melds, discards and
flowers, the public counts and flags, and the family's view.  The layout is the same in every
family (a family's planes stay zero in the others) and relative to the observer: the block
"me" is the observing seat, "opp" the opponent.  Column ``k`` of a tile plane is the tile kind
``k`` (1m..9m, 1p..9p, 1s..9s, 1z..7z = 0..33); a count ``c`` is written as the four planes
``c ≥ 1 … c ≥ 4``.  Scalar planes hold one fact per column, scaled into ``[0, 1]`` and clipped.
:data:`PLANES` names every plane and docs/rl.md tabulates them.

The end of a hand (the winner's hand, the fans) is not encoded: the reward carries it.
Arcade's stage-mode big-bleed template (``ArcadeView.bleed``, off by default) is not encoded.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from erren.engine import Observation
from erren.families.arcade.game.view import ArcadeView
from erren.families.guobiao.view import GuobiaoView
from erren.families.xiamen.game.view import XiamenView
from erren.melds import MeldKind
from erren.tiles import NUM_KINDS, Tile

__all__ = [
    "GAME_COLUMNS",
    "NUM_PLANES",
    "PLANES",
    "SEAT_COLUMNS",
    "encode_observation",
]

Planes = npt.NDArray[np.float32]

PHASES = (
    "turn",
    "claim",
    "rob",
    "end",
    "opening",
    "you_choice",
    "last_draw",
    "exchange",
    "pick",
    "haidi",
)
"""Every phase a player may see (the core's, xiamen's and arcade's), in column order."""
ORIGINS = ("deal", "draw", "replacement", "claim")
FAMILIES = ("guobiao-2p", "xiamen", "arcade")
BAOTING = ("menqing", "open", "tianting")

SEAT_COLUMNS: tuple[str, ...] = (
    "concealed tiles / 14",
    "face-down kongs whose kind is hidden / 4",
    "报听 declared",
    "托管 on",
    "is the dealer",
    "is to act",
    "discards / 40",
    "flowers / 8",
    "xiamen 游 level / 3",
    *(f"arcade 报听 kind {kind}" for kind in BAOTING),
    "arcade 海底 player",
)
"""The columns of a seat's ``facts`` plane (the rest are zero)."""

GAME_COLUMNS: tuple[str, ...] = (
    "wall tiles left / 144",
    "dealer streak / 8",
    *(f"phase {p}" for p in PHASES),
    *(f"origin {o}" for o in ORIGINS),
    *(f"family {f}" for f in FAMILIES),
    "xiamen indicator taken by 抢金胡",
    "arcade reserve tiles / 40",
    "arcade 海底 draws left / 8",
)
"""The columns of the ``game`` plane (the rest are zero)."""


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
    ("xiamen.gold", "xiamen: the gold kind, once turned"),
    ("arcade.wild", "arcade: the wild (财神) kind, once turned"),
    ("arcade.flower_kind", "arcade: the kind set aside as flowers"),
    ("arcade.offer", "arcade: the kind of the pung offered to this player"),
    *(
        (f"arcade.giving≥{n}", f"arcade: tiles given up so far in this choice, count ≥ {n}")
        for n in range(1, 5)
    ),
)
"""Every plane as ``(name, meaning)``, in row order."""

NUM_PLANES = len(PLANES)
_ROW = {name: i for i, (name, _) in enumerate(PLANES)}
_SEAT_COL = {name: i for i, name in enumerate(SEAT_COLUMNS)}
_GAME_COL = {name: i for i, name in enumerate(GAME_COLUMNS)}
_PHASE_COL = {p: _GAME_COL[f"phase {p}"] for p in PHASES}
_ORIGIN_COL = {o: _GAME_COL[f"origin {o}"] for o in ORIGINS}
_FAMILY_COL = {f: _GAME_COL[f"family {f}"] for f in FAMILIES}
_BAOTING_COL = {b: _SEAT_COL[f"arcade 报听 kind {b}"] for b in BAOTING}


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

    def tile(self, row: int, tile: Tile | None) -> None:
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
    match obs.view:
        case XiamenView(you_level=levels):
            cells.scaled(facts, _SEAT_COL["xiamen 游 level / 3"], levels[seat], 3)
        case ArcadeView(baoting=baoting, haidi_player=haidi):
            if baoting[seat] in _BAOTING_COL:
                cells.set(facts, _BAOTING_COL[baoting[seat]])
            cells.set(facts, _SEAT_COL["arcade 海底 player"], haidi == seat)
        case GuobiaoView():
            pass


def _game(cells: _Cells, obs: Observation) -> None:
    game = _ROW["game"]
    cells.scaled(game, _GAME_COL["wall tiles left / 144"], obs.wall_count, 144)
    cells.scaled(game, _GAME_COL["dealer streak / 8"], obs.streak, 8)
    if obs.phase in _PHASE_COL:
        cells.set(game, _PHASE_COL[obs.phase])
    if obs.origin is not None:
        cells.set(game, _ORIGIN_COL[obs.origin])
    cells.set(game, _FAMILY_COL[obs.view.family])
    match obs.view:
        case XiamenView(gold=gold, indicator_taken=taken):
            cells.tile(_ROW["xiamen.gold"], gold)
            cells.set(game, _GAME_COL["xiamen indicator taken by 抢金胡"], taken)
        case ArcadeView() as view:
            cells.tile(_ROW["arcade.wild"], view.wild)
            cells.tile(_ROW["arcade.flower_kind"], view.flower_kind)
            cells.tile(_ROW["arcade.offer"], view.offer)
            cells.counts(_ROW["arcade.giving≥1"], view.giving)
            cells.scaled(game, _GAME_COL["arcade reserve tiles / 40"], view.reserve_count, 40)
            cells.scaled(game, _GAME_COL["arcade 海底 draws left / 8"], view.haidi_left, 8)
        case GuobiaoView():
            pass


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
