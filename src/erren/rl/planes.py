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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from erren.engine import ArcadeView, GuobiaoView, Observation, XiamenView
from erren.melds import Meld, MeldKind
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
FAMILIES = ("guobiao", "xiamen", "arcade")
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
_LEVELS = np.arange(1, 5).reshape(4, 1)


def _scaled(value: float, top: float) -> float:
    return min(value / top, 1.0)


def _counts(tiles: Sequence[int]) -> npt.NDArray[np.int64]:
    return np.bincount(np.asarray(tiles, dtype=np.int64), minlength=NUM_KINDS)[:NUM_KINDS]


def _thermometer(out: Planes, row: int, tiles: Sequence[int]) -> None:
    if tiles:
        out[row : row + 4] = _counts(tiles) >= _LEVELS


def _seat(out: Planes, obs: Observation, seat: int, who: str) -> None:
    chows: list[int] = []
    for meld in obs.melds[seat]:
        _meld(out, meld, who, chows)
    _thermometer(out, _ROW[f"{who}.chow≥1"], chows)
    discards = obs.discards[seat]
    _thermometer(out, _ROW[f"{who}.discards≥1"], discards)
    if discards:
        out[_ROW[f"{who}.last_discard"], discards[-1]] = 1.0
    flowers = out[_ROW[f"{who}.flowers"]]
    for flower in obs.flowers[seat]:
        if flower >= NUM_KINDS:
            flowers[flower - NUM_KINDS] = 1.0
    facts = out[_ROW[f"{who}.facts"]]
    facts[_SEAT_COL["concealed tiles / 14"]] = _scaled(obs.concealed_count[seat], 14)
    facts[_SEAT_COL["face-down kongs whose kind is hidden / 4"]] = _scaled(
        obs.hidden_kongs[seat], 4
    )
    facts[_SEAT_COL["报听 declared"]] = obs.ting[seat]
    facts[_SEAT_COL["托管 on"]] = obs.trustee[seat]
    facts[_SEAT_COL["is the dealer"]] = obs.dealer == seat
    facts[_SEAT_COL["is to act"]] = obs.to_act == seat
    facts[_SEAT_COL["discards / 40"]] = _scaled(len(discards), 40)
    facts[_SEAT_COL["flowers / 8"]] = _scaled(len(obs.flowers[seat]), 8)
    match obs.view:
        case XiamenView(you_level=levels):
            facts[_SEAT_COL["xiamen 游 level / 3"]] = _scaled(levels[seat], 3)
        case ArcadeView(baoting=baoting, haidi_player=haidi):
            if baoting[seat] in BAOTING:
                facts[_SEAT_COL[f"arcade 报听 kind {baoting[seat]}"]] = 1.0
            facts[_SEAT_COL["arcade 海底 player"]] = haidi == seat
        case GuobiaoView():
            pass


def _meld(out: Planes, meld: Meld, who: str, chows: list[int]) -> None:
    kind = meld.kind
    if kind is MeldKind.CHI:
        chows.extend(meld.tiles)
    elif kind is MeldKind.PENG:
        out[_ROW[f"{who}.pung"], meld.first] = 1.0
    elif kind is MeldKind.AN_GANG:
        out[_ROW[f"{who}.concealed_kong"], meld.first] = 1.0
    else:
        out[_ROW[f"{who}.kong"], meld.first] = 1.0


def _one_hot(out: Planes, row: str, tile: Tile | None) -> None:
    if tile is not None and tile < NUM_KINDS:
        out[_ROW[row], tile] = 1.0


def _game(out: Planes, obs: Observation) -> None:
    game = out[_ROW["game"]]
    game[_GAME_COL["wall tiles left / 144"]] = _scaled(obs.wall_count, 144)
    game[_GAME_COL["dealer streak / 8"]] = _scaled(obs.streak, 8)
    if obs.phase in PHASES:
        game[_GAME_COL[f"phase {obs.phase}"]] = 1.0
    if obs.origin is not None:
        game[_GAME_COL[f"origin {obs.origin}"]] = 1.0
    game[_GAME_COL[f"family {obs.view.family}"]] = 1.0
    match obs.view:
        case XiamenView(gold=gold, indicator_taken=taken):
            _one_hot(out, "xiamen.gold", gold)
            game[_GAME_COL["xiamen indicator taken by 抢金胡"]] = taken
        case ArcadeView() as view:
            _one_hot(out, "arcade.wild", view.wild)
            _one_hot(out, "arcade.flower_kind", view.flower_kind)
            _one_hot(out, "arcade.offer", view.offer)
            _thermometer(out, _ROW["arcade.giving≥1"], view.giving)
            game[_GAME_COL["arcade reserve tiles / 40"]] = _scaled(view.reserve_count, 40)
            game[_GAME_COL["arcade 海底 draws left / 8"]] = _scaled(view.haidi_left, 8)
        case GuobiaoView():
            pass


def encode_observation(obs: Observation) -> Planes:
    """The planes of ``obs`` (a new array, shape ``(NUM_PLANES, 34)``)."""
    out = np.zeros((NUM_PLANES, NUM_KINDS), dtype=np.float32)
    _thermometer(out, _ROW["hand≥1"], [t for t in obs.hand if t < NUM_KINDS])
    _one_hot(out, "last_drawn", obs.last_drawn)
    _one_hot(out, "pending", obs.pending)
    me, opp = obs.player, obs.opponent
    _seat(out, obs, me, "me")
    _seat(out, obs, opp, "opp")
    out[_ROW["round_wind"], obs.round_wind] = 1.0
    _game(out, obs)
    return out
