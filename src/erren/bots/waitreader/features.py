"""What the wait reader sees: per-kind features of one observation (guobiao-2p), NumPy.

guobiao-2p plays 64 tiles: one suit (``m``, ``p`` or ``s``, the table's option) and the seven
honours.  The reader works on those 16 *playing kinds* in suit-relative order (ranks 1–9, then
East … Red); :func:`playing_kinds` finds the suit from the tiles the player sees (his own hand
always holds some in practice; ``m`` when no suited tile is in sight).

:func:`encode` turns an :class:`~erren.engine.Observation` into a ``(16, NUM_FEATURES)`` array
(one row per playing kind, the position's global facts repeated on each row) and the mask of
kinds that are **certainly not** a winning tile of the opponent now:

* with ``ting_auto_hu`` (the default) every tile he threw after his 报听 discard
  (``ting_at``), and every tile *I* threw after it: a locked hand wins on any winning tile it
  draws or is offered;
* a kind of which no copy can reach him any more: all four copies in my sight (hand, both
  rivers, melds) and none in my hand (nothing left to draw or to be thrown), and an honour of
  which I see all four (an honour wins only on a pair or a pung he cannot hold).

Only the observation is read: nothing hidden reaches the features.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from erren.engine import Observation

__all__ = [
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "NUM_PLAYING",
    "encode",
    "playing_kinds",
]

NUM_PLAYING: Final = 16
"""Playing kinds of guobiao-2p: nine ranks of the one suit and seven honours."""
_HONOURS = np.arange(27, 34)
_NEIGHBOURS = (-2, -1, 1, 2)
_RECENT = 3
"""Discards counted as "recent"."""

FEATURE_NAMES: Final[tuple[str, ...]] = (
    *(f"rank{r}" for r in range(1, 10)),
    "honour",
    "dragon",
    "mine",
    "in_rivers",
    "in_melds",
    "unseen",
    "none_unseen",
    "his_discards_of_kind",
    "he_threw_kind",
    "he_threw_kind_early",
    "he_threw_kind_recently",
    "i_threw_kind",
    "i_threw_kind_recently",
    *(f"he_threw_{d:+d}" for d in _NEIGHBOURS),
    *(f"unseen_{d:+d}" for d in _NEIGHBOURS),
    "he_threw_suji_low",
    "he_threw_suji_high",
    "ting_tile_same",
    "ting_tile_1",
    "ting_tile_2",
    "ting_tile_3",
    "in_his_melds",
    "ting",
    "since_ting",
    "his_discard_count",
    "his_melds",
    "wall",
    "his_concealed",
    "table_gb",
    "i_deal",
    "live_kinds",
    "his_honour_discards",
    "his_suited_discards",
    "i_threw_kind_last",
)
NUM_FEATURES: Final = len(FEATURE_NAMES)

_RANK_HONOUR = np.zeros((NUM_PLAYING, 11), dtype=np.float32)
for _i in range(9):
    _RANK_HONOUR[_i, _i] = 1.0
_RANK_HONOUR[9:, 9] = 1.0
_RANK_HONOUR[13:, 10] = 1.0  # 白发中 (the last three honours)
_SUITED = np.zeros(NUM_PLAYING, dtype=bool)
_SUITED[:9] = True
_RANKS = np.arange(9)
_GAPS = np.array([[1], [2], [3]])
_PLAYING_BY_SUIT = tuple(
    np.concatenate([np.arange(base, base + 9), _HONOURS]) for base in (0, 9, 18)
)


def playing_kinds(observation: Observation) -> npt.NDArray[np.intp]:
    """The 16 kinds in play (the suit's nine ranks, then the honours), from what is seen."""
    obs = observation
    seen: list[int] = list(obs.hand)
    for river in obs.discards:
        seen.extend(river)
    for melds in obs.melds:
        for meld in melds:
            seen.extend(meld.tiles)
    for t in seen:
        if t < 27:
            return _PLAYING_BY_SUIT[int(t) // 9]
    return _PLAYING_BY_SUIT[0]


def _count(counts: list[float], tiles: Iterable[int]) -> list[float]:
    for t in tiles:
        if t < 34:
            counts[t] += 1.0
    return counts


def _tallies(
    obs: Observation, ting_auto_hu: bool
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32], list[int], int]:
    """``(kinds, counts, his discards, his 报听 index)``: ``counts`` has one row per tally
    (see the comments) over the 16 playing kinds."""
    me = obs.player
    opp = 1 - me
    kinds = playing_kinds(obs)
    his = [int(t) for t in obs.discards[opp]]
    mine_river = [int(t) for t in obs.discards[me]]
    ta = obs.ting_at[opp] if obs.ting[opp] else -1
    before = his if ta < 0 else his[: ta + 1]
    safe: list[int] = []
    if ta >= 0 and ting_auto_hu:
        # Discards alternate strictly, the dealer first: my discard j comes after his ta-th
        # iff j >= ta (he deals) or j >= ta + 1 (I deal).
        safe = his[ta + 1 :] + mine_river[ta if obs.dealer == opp else ta + 1 :]
    claimed_his, claimed_mine = obs.claimed
    if opp == 1:
        claimed_his, claimed_mine = claimed_mine, claimed_his
    river = [t for i, t in enumerate(his) if i not in claimed_his]
    river += [t for i, t in enumerate(mine_river) if i not in claimed_mine]
    zero = [0.0] * 34
    rows = [
        _count(zero[:], obs.hand),  # 0 mine
        _count(zero[:], river),  # 1 rivers
        _count(zero[:], (t for m in obs.melds[opp] for t in m.tiles)),  # 2 his melds
        _count(zero[:], (t for m in obs.melds[me] for t in m.tiles)),  # 3 my melds
        _count(zero[:], before),  # 4 his discards before 报听
        _count(zero[:], before[:6]),  # 5 early
        _count(zero[:], before[-_RECENT:]),  # 6 recent
        _count(zero[:], mine_river),  # 7 my discards
        _count(zero[:], mine_river[-_RECENT:]),  # 8 my recent
        _count(zero[:], safe),  # 9 safe
        _count(zero[:], mine_river[-1:]),  # 10 my last discard
    ]
    return kinds, np.array(rows, dtype=np.float32)[:, kinds], his, ta


def _position(
    x: npt.NDArray[np.float32], obs: Observation, his: list[int], ta: int, fan_table: str
) -> None:
    """The position's own facts, the same on every row."""
    opp = 1 - obs.player
    x[37] = float(ta >= 0)
    x[38] = (len(his) - ta - 1) / 10.0 if ta >= 0 else 0.0
    x[39] = len(his) / 20.0
    x[40] = (len(obs.melds[opp]) + obs.hidden_kongs[opp]) / 4.0
    x[41] = obs.wall_count / 40.0
    x[42] = obs.concealed_count[opp] / 13.0
    x[43] = float(fan_table == "gb")
    x[44] = float(obs.dealer == obs.player)
    honours = sum(1 for t in his if 27 <= t < 34)
    x[46] = honours / 10.0
    x[47] = (len(his) - honours) / 10.0


def encode(
    observation: Observation, *, fan_table: str = "2p", ting_auto_hu: bool = True
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """``(kinds, features, certainly_not)``: the 16 playing kinds, their feature rows
    ``(16, NUM_FEATURES)`` and the mask of kinds that cannot be the opponent's winning tile."""
    obs = observation
    kinds, c, his, ta = _tallies(obs, ting_auto_hu)
    hand, rivers, in_his_melds = c[0], c[1], c[2]
    melds = in_his_melds + c[3]
    unseen = np.clip(4.0 - hand - rivers - melds, 0.0, 4.0)
    certainly_not = (unseen == 0) & ((hand == 0) | ~_SUITED)
    certainly_not |= c[9] > 0
    threw = (c[4] > 0).astype(np.float32)
    padded = np.zeros((2, 15), dtype=np.float32)
    padded[0, 3:12] = threw[:9]
    padded[1, 3:12] = unseen[:9] / 4.0

    x = np.empty((NUM_FEATURES, NUM_PLAYING), dtype=np.float32)
    x[:11] = _RANK_HONOUR.T
    x[11] = hand / 4.0
    x[12] = rivers / 4.0
    x[13] = melds / 4.0
    x[14] = unseen / 4.0
    x[15] = unseen == 0
    x[16] = c[4] / 4.0
    x[17] = threw
    x[18] = c[5] > 0
    x[19] = c[6] > 0
    x[20] = c[7] > 0
    x[21] = c[8] > 0
    x[22:40] = 0.0
    for j, d in enumerate(_NEIGHBOURS):
        x[22 + j, :9] = padded[0, 3 + d : 12 + d]
        x[26 + j, :9] = padded[1, 3 + d : 12 + d]
    x[30, :9] = padded[0, 0:9]
    x[31, :9] = padded[0, 6:15]
    if ta >= 0:
        where = np.flatnonzero(kinds == his[ta])
        if where.size:
            i = int(where[0])
            x[32, i] = 1.0
            if i < 9:
                gap = np.abs(_RANKS - i)
                x[33:36, :9] = gap[None, :] == _GAPS
    x[36] = in_his_melds / 4.0
    _position(x, obs, his, ta, fan_table)
    x[45] = (NUM_PLAYING - int(certainly_not.sum())) / NUM_PLAYING
    x[48] = c[10] > 0
    return kinds, x.T, certainly_not
