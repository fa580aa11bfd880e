"""Winning-shape tests for the engine's hot path (guobiao-2p §3.1, §3.2, §3.4).

The engine asks three questions many times per hand: is this concealed part complete, which
kinds does this 13-form wait on, and which discards leave a ready hand.

* :func:`is_complete` is erren's one completeness test, the C kernel's
  (:func:`erren.analysis.complete.is_complete`, called by mask): the regular shape, plus seven
  pairs without melds (four of a kind = two pairs).
* :func:`waits_mask` and :func:`ready_discards` answer on 34-long count arrays with two lookup
  tables built once, at their first use (:func:`_tables`, so that importing stays cheap): the
  complete set, every count vector of one suit (packed 3 bits per number) that splits into chows
  and pungs, with or without one pair (the count modulo 3 tells which); the near map, every
  vector one tile short of such a vector, mapped to the bitmask of the numbers that complete
  it.  Honors never form chows, so each honor kind is complete alone with 0, 2 or 3 tiles.  The
  conformance tests cross-check them with the kernel's waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from erren.analysis.complete import is_complete_by_mask
from erren.analysis.shapes import GUOBIAO_2P, Shape, shape_mask

__all__ = ["is_complete", "ready_discards", "waits_mask"]


def _pack(counts: Sequence[int]) -> int:
    key = 0
    for i, c in enumerate(counts):
        key |= c << (3 * i)
    return key


@cache
def _tables() -> tuple[frozenset[int], dict[int, int]]:
    """(the complete set, the near map), built at the first call."""
    groups: list[list[int]] = []
    for i in range(9):
        g = [0] * 9
        g[i] = 3
        groups.append(g)
    for i in range(7):
        g = [0] * 9
        g[i] = g[i + 1] = g[i + 2] = 1
        groups.append(g)
    complete: set[int] = set()
    for n in range(5):
        for combo in combinations_with_replacement(range(len(groups)), n):
            base = [0] * 9
            for gi in combo:
                for i, c in enumerate(groups[gi]):
                    base[i] += c
            if max(base) > 4:
                continue
            complete.add(_pack(base))
            for p in range(9):
                if base[p] <= 2:
                    base[p] += 2
                    complete.add(_pack(base))
                    base[p] -= 2
    near: dict[int, int] = {}
    for key in complete:
        for i in range(9):
            if (key >> (3 * i)) & 7:
                smaller = key - (1 << (3 * i))
                near[smaller] = near.get(smaller, 0) | (1 << i)
    return frozenset(complete), near


_WITHOUT_MELDS = shape_mask(GUOBIAO_2P)
"""Regular or seven pairs (four of a kind = two pairs, §3.2)."""
_WITH_MELDS = shape_mask(frozenset({Shape.REGULAR}))


def _suit_key(counts: Sequence[int], base: int) -> int:
    c = counts
    return (
        c[base]
        | c[base + 1] << 3
        | c[base + 2] << 6
        | c[base + 3] << 9
        | c[base + 4] << 12
        | c[base + 5] << 15
        | c[base + 6] << 18
        | c[base + 7] << 21
        | c[base + 8] << 24
    )


def is_complete(counts: Sequence[int], melds: int) -> bool:
    """Whether a concealed part of ``14 - 3 * melds`` tiles (34 counts) is a winning shape:
    four sets and a pair counting the melds, or seven pairs when there is no meld."""
    return is_complete_by_mask(counts, 0, _WITHOUT_MELDS if melds == 0 else _WITH_MELDS)


def waits_mask(counts: Sequence[int], melds: int, meld_counts: Sequence[int] | None = None) -> int:
    """Bitmask (bit ``k`` = kind ``k``) of the kinds that complete a 13-form concealed part of
    ``13 - 3 * melds`` tiles (§3.4).  Kinds of which the player holds all four copies
    (concealed plus ``meld_counts``) are left out."""
    complete, near = _tables()
    mask = 0
    bad = -1  # the one incomplete component: 0/9/18 a suit, 27.. an honor kind
    bad_n = 0
    pairs = 0
    pair_parts: list[int] = []
    regular = True
    for base in (0, 9, 18):
        n = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
        n += counts[base + 4] + counts[base + 5] + counts[base + 6] + counts[base + 7]
        n += counts[base + 8]
        if not n:
            continue
        if n % 3 != 1 and _suit_key(counts, base) in complete:
            if n % 3 == 2:
                pairs += 1
                pair_parts.append(base)
        elif bad >= 0:
            regular = False
            break
        else:
            bad, bad_n = base, n
    if regular:
        for k in range(27, 34):
            c = counts[k]
            if c == 2:
                pairs += 1
                pair_parts.append(k)
            elif c in {1, 4}:
                if bad >= 0 or c == 4:
                    regular = False
                    break
                bad, bad_n = k, 1
    if regular:
        if bad < 0:
            if pairs == 2:
                for part in pair_parts:
                    if part >= 27:
                        mask |= 1 << part
                    else:
                        mask |= near.get(_suit_key(counts, part), 0) << part
        elif bad >= 27:
            if pairs == 0:
                mask |= 1 << bad
        elif (bad_n % 3 == 1 and pairs == 0) or (bad_n % 3 == 2 and pairs == 1):
            mask |= near.get(_suit_key(counts, bad), 0) << bad
    if melds == 0:
        mask |= _seven_pairs_wait(counts)
    if mask:
        mask = _drop_held_four(mask, counts, meld_counts)
    return mask


def _seven_pairs_wait(counts: Sequence[int]) -> int:
    """The wait of a 13-tile seven-pairs shape (six pairs and one odd count), as a bitmask."""
    odd = -1
    npairs = 0
    for k in range(34):
        c = counts[k]
        if c:
            npairs += c >> 1
            if c & 1:
                if odd >= 0:
                    return 0
                odd = k
    return 1 << odd if odd >= 0 and npairs == 6 else 0


def _drop_held_four(mask: int, counts: Sequence[int], meld_counts: Sequence[int] | None) -> int:
    """§3.4: a kind the player holds four times (concealed + melds) is no wait."""
    m = mask
    while m:
        low = m & -m
        k = low.bit_length() - 1
        if counts[k] + (meld_counts[k] if meld_counts is not None else 0) >= 4:
            mask &= ~low
        m ^= low
    return mask


def ready_discards(
    counts: list[int],
    melds: int,
    meld_counts: Sequence[int] | None = None,
    kinds: Sequence[int] = range(34),
) -> int:
    """Bitmask of the kinds whose discard leaves a ready 13-form (``counts`` is a 14-form and is
    restored before returning).  ``kinds`` are the kinds in play (a speed hint).

    A discard ``x`` and a winning tile ``t`` change at most two components (a suit, or one honor
    kind), so every other component must already be complete: with three or more incomplete
    components only seven pairs can remain, and with two the discard comes from one of them.
    """
    complete = _tables()[0]
    incomplete: list[int] = []  # honor kinds, or suit bases 0/9/18
    for k in range(27, 34):
        c = counts[k]
        if c in {1, 4}:
            incomplete.append(k)
    if len(incomplete) <= 2:
        for base in (0, 9, 18):
            n = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
            n += counts[base + 4] + counts[base + 5] + counts[base + 6] + counts[base + 7]
            n += counts[base + 8]
            if n and (n % 3 == 1 or _suit_key(counts, base) not in complete):
                incomplete.append(base)
    out = 0
    if melds == 0:  # seven pairs, directly: one odd count after the discard, six pairs
        odd = [k for k in kinds if counts[k] & 1]
        if len(odd) == 2:
            out = 1 << odd[0] | 1 << odd[1]
        elif not odd:
            for k in kinds:
                if counts[k]:
                    out |= 1 << k
    if len(incomplete) > 2:
        return out
    if len(incomplete) == 2:
        candidates: list[int] = []
        for part in incomplete:
            if part >= 27:
                candidates.append(part)
            else:
                candidates.extend(k for k in range(part, part + 9) if counts[k])
    else:
        candidates = [k for k in kinds if counts[k]]
    for x in candidates:
        if out >> x & 1:
            continue
        counts[x] -= 1
        ok = waits_mask(counts, melds, meld_counts)
        counts[x] += 1
        if ok:
            out |= 1 << x
    return out
