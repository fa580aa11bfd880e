"""Slow, obviously-correct references that erren's fast analysis is checked against.

Nothing here is fast or clever: each function defines a distance from scratch and searches the
targets directly, so the C kernel's tables and formulas, and a reference library's answers, can be
compared with something a reader can verify by hand.

Regular shanten for the differential tests (:func:`regular_shanten`):

Shanten by definition: the fewest tiles a hand lacks from some complete target, minus one.  A
target is ``sets`` sets (pungs or chows) plus one pair, ``3·sets + 2`` tiles; the hand lacks
``Σ max(0, target[k] − hand[k])`` of it (what it holds beyond the target is discarded on the way).
``limit[k]`` caps ``target[k]``: 4 for the real game (nobody can hold a fifth copy, guobiao-2p
§3.4), or 4 minus the copies already in the player's melds; a large cap gives the purely
combinatorial shanten that ignores copy limits (PyMahjongGB's definition).

The search walks the 34 kinds once, carrying the chows still open from the two previous kinds;
sets and the pair that touch no held tile cost their full size and are added at the end (a kind
the hand does not touch always has room for them).

Every shape's distance for the kernel's tests (:func:`ref_shanten_by_shape`, :func:`ref_block_row`,
:func:`ref_decomposes`): the least number of tiles to add so that the natural tiles lie inside one
complete target with at most four of a kind.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from erren.analysis.shapes import ALL_SHAPES, Shape, ShapeSet

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


# ------------------------------------------------------------------------------------------------
# Reference implementations (slow, obviously correct)

NUM_KINDS = 34
ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))
SETS: tuple[tuple[int, ...], ...] = (
    *((k, k, k) for k in range(NUM_KINDS)),
    *((k, k + 1, k + 2) for k in range(27) if k % 9 <= 6),
)
KNITTED_PERMS = tuple(itertools.permutations(range(3)))


def parse(text: str) -> list[int]:
    """Counts of a tenhou-style string such as ``"123m456p11z"``."""
    kinds: list[int] = []
    digits: list[int] = []
    for char in text:
        if char.isdigit():
            digits.append(int(char))
        else:
            base = "mpsz".index(char) * 9
            kinds.extend(base + d - 1 for d in digits)
            digits = []
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


def lack(target: Sequence[int], counts: Sequence[int]) -> int:
    """Tiles of ``target`` that ``counts`` does not have: Σ max(0, target − counts)."""
    return sum(max(0, t - c) for t, c in zip(target, counts, strict=True))


def ref_block_row(counts: Sequence[int], honors: bool, cap: int = 4) -> tuple[int, ...]:
    """Distance of one block to m sets + p pairs (index 2m + p), by branch and bound.

    ``cap`` bounds each kind of the target (4; 14 for the uncapped tables of Xiamen golds).
    """
    nd = len(counts)
    groups = [(k, k, k) for k in range(nd)]
    if not honors:
        groups += [(k, k + 1, k + 2) for k in range(nd - 2)]
    return tuple(
        _block_search(counts, groups, [0] * nd, start=0, left=m, pair=p, best=99, cap=cap)
        for m in range(5)
        for p in range(2)
    )


def _block_search(
    counts: Sequence[int],
    groups: list[tuple[int, int, int]],
    target: list[int],
    *,
    start: int,
    left: int,
    pair: int,
    best: int,
    cap: int = 4,
) -> int:
    """Least lack of ``target`` + ``left`` more groups (from ``start`` on) + ``pair`` pairs."""
    if lack(target, counts) >= best:
        return best
    if left == 0:
        if not pair:
            return lack(target, counts)
        for k in range(len(target)):
            if target[k] <= cap - 2:
                target[k] += 2
                best = min(best, lack(target, counts))
                target[k] -= 2
        return best
    for g in range(start, len(groups)):
        for k in groups[g]:
            target[k] += 1
        if max(target) <= cap:
            best = _block_search(
                counts, groups, target, start=g, left=left - 1, pair=pair, best=best, cap=cap
            )
        for k in groups[g]:
            target[k] -= 1
    return best


def ref_regular_distance(counts: Sequence[int], n: int) -> int:
    """Least tiles to add so ``counts`` lies inside n sets + a pair (≤ 4 of a kind).

    Only sets that use a surplus tile (held, not yet in the target) are enumerated; any other set
    costs its full 3 tiles wherever it goes (an untouched kind always has room), likewise the pair.
    """
    best = [3 * n + 2]
    target = [0] * NUM_KINDS

    def pair_cost() -> int:
        cost = 2
        for k in range(NUM_KINDS):
            if counts[k] > target[k] and target[k] <= 2:
                cost = min(cost, max(0, 2 - (counts[k] - target[k])))
        return cost

    def search(start: int, left: int, cost: int) -> None:
        best[0] = min(best[0], cost + 3 * left + pair_cost())
        if left == 0 or cost >= best[0]:
            return
        for g in range(start, len(SETS)):
            group = SETS[g]
            if all(counts[k] <= target[k] for k in group):
                continue
            extra = 0
            for k in group:
                extra += target[k] >= counts[k]
                target[k] += 1
            if max(target[k] for k in group) <= 4:
                search(g, left - 1, cost + extra)
            for k in group:
                target[k] -= 1

    search(0, n, 0)
    return best[0]


def ref_seven_pairs_distance(counts: Sequence[int]) -> int:
    """Seven pairs, a kind giving up to two pairs: DP over the kinds."""

    @cache
    def go(kind: int, pairs: int) -> int:
        if kind == NUM_KINDS:
            return 0 if pairs == 0 else 99
        return min(
            max(0, 2 * q - counts[kind]) + go(kind + 1, pairs - q) for q in range(min(2, pairs) + 1)
        )

    return go(0, 7)


def ref_orphans_distance(counts: Sequence[int]) -> int:
    """Thirteen orphans: one of each orphan kind plus one more of one of them."""
    best = 99
    for extra in ORPHANS:
        target = [0] * NUM_KINDS
        for k in ORPHANS:
            target[k] = 1
        target[extra] = 2
        best = min(best, lack(target, counts))
    return best


def knitted_kinds(perm: Sequence[int]) -> list[int]:
    """The nine knitted kinds when suit s takes the pattern 147/258/369 numbered perm[s]."""
    return [9 * s + perm[s] + 3 * j for s in range(3) for j in range(3)]


def ref_honors_knitted_distance(counts: Sequence[int]) -> int:
    """全不靠: 14 distinct kinds out of the seven honors and the nine knitted kinds."""
    best = 99
    for perm in KNITTED_PERMS:
        pool = knitted_kinds(perm) + list(range(27, 34))
        for chosen in itertools.combinations(pool, 14):
            best = min(best, sum(1 for k in chosen if counts[k] == 0))
    return best


def ref_knitted_straight_distance(counts: Sequence[int], sets: int = 1) -> int:
    """组合龙: the nine knitted kinds, ``sets`` sets (1; 0 when the set is a meld) and a pair."""
    best = 99
    for perm in KNITTED_PERMS:
        for group in SETS if sets else [()]:
            for pair in range(NUM_KINDS):
                target = [0] * NUM_KINDS
                for k in (*knitted_kinds(perm), *group, pair, pair):
                    target[k] += 1
                if max(target) <= 4:
                    best = min(best, lack(target, counts))
    return best


SPECIAL_REFS = {
    Shape.SEVEN_PAIRS: ref_seven_pairs_distance,
    Shape.THIRTEEN_ORPHANS: ref_orphans_distance,
    Shape.HONORS_AND_KNITTED: ref_honors_knitted_distance,
    Shape.KNITTED_STRAIGHT: ref_knitted_straight_distance,
}


def ref_shanten_by_shape(
    counts: Sequence[int], wilds: int = 0, shapes: ShapeSet = ALL_SHAPES
) -> dict[Shape, int]:
    """Each applicable shape's ``distance - 1 - wilds``."""
    total = sum(counts) + wilds
    n = (total - 1) // 3
    out: dict[Shape, int] = {}
    for shape in shapes:
        if shape is Shape.REGULAR:
            out[shape] = ref_regular_distance(counts, n) - 1 - wilds
        elif total in (13, 14):
            out[shape] = SPECIAL_REFS[shape](counts) - 1 - wilds
        elif total in (10, 11) and shape is Shape.KNITTED_STRAIGHT:
            out[shape] = ref_knitted_straight_distance(counts, sets=0) - 1 - wilds
    return out


def ref_decomposes(counts: list[int], n: int) -> bool:
    """Whether ``counts`` (any copies per kind) split into exactly n sets and a pair."""

    def sets_only(c: list[int], left: int) -> bool:
        i = next((k for k in range(NUM_KINDS) if c[k]), None)
        if i is None:
            return left == 0
        if left == 0:
            return False
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, left - 1)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            ok = sets_only(c, left - 1)
            for k in (i, i + 1, i + 2):
                c[k] += 1
            if ok:
                return True
        return False

    for p in range(NUM_KINDS):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = sets_only(counts, n)
            counts[p] += 2
            if ok:
                return True
    return False
