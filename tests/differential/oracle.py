"""A slow, obviously-correct regular shanten, used only to settle a disagreement with a library.

Shanten by definition: the fewest tiles a hand lacks from some complete target, minus one.  A
target is ``sets`` sets (pungs or chows) plus one pair, ``3·sets + 2`` tiles; the hand lacks
``Σ max(0, target[k] − hand[k])`` of it (what it holds beyond the target is discarded on the way).
``limit[k]`` caps ``target[k]``: 4 for the real game (nobody can hold a fifth copy, guobiao-2p
§3.4), or 4 minus the copies already in the player's melds; a large cap gives the purely
combinatorial shanten that ignores copy limits (PyMahjongGB's definition).

The search walks the 34 kinds once, carrying the chows still open from the two previous kinds;
sets and the pair that touch no held tile cost their full size and are added at the end (a kind
the hand does not touch always has room for them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

NO_LIMIT = 14


def regular_shanten(
    hand: Sequence[int], *, sets: int | None = None, limit: Sequence[int] | None = None
) -> int:
    """Exact regular shanten of ``hand`` (34 counts) for ``sets`` sets + a pair.

    ``sets`` defaults to what the hand size implies: ``(len − 1) // 3`` for 13/14 → 4, 10/11 → 3, …
    """
    n = sum(hand)
    if sets is None:
        sets = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    caps = tuple(limit) if limit is not None else (4,) * 34
    counts = tuple(hand)

    @cache
    def best(i: int, open1: int, open2: int, sets_left: int, pair_left: int) -> int:
        # open1 chows started at i-1 still need kind i and i+1; open2 started at i-2 need kind i.
        if i == 34:
            if open1 or open2:
                return 99
            return 3 * sets_left + 2 * pair_left
        h = counts[i]
        result = 99
        can_start_chow = i < 27 and i % 9 <= 6 and (h or counts[i + 1] or counts[i + 2])
        for pung in (0, 1) if (sets_left and h) else (0,):
            for pair in (0, 1) if (pair_left and h) else (0,):
                max_chows = sets_left - pung if can_start_chow else 0
                for chows in range(max_chows + 1):
                    t = 3 * pung + 2 * pair + chows + open1 + open2
                    if t > caps[i]:
                        break
                    cost = max(0, t - h)
                    rest = best(
                        i + 1,
                        chows,
                        open1,
                        sets_left - pung - chows,
                        pair_left - pair,
                    )
                    result = min(result, cost + rest)
        return result

    if len(caps) != 34 or len(counts) != 34:
        raise ValueError("hand and limit have one entry per kind (34)")
    return best(0, 0, 0, sets, 1) - 1
