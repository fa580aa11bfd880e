"""The count-level search behind :mod:`erren.analysis.readings`: every split of a count tuple
into the groups of one shape, wild tiles searched in place, and the natural fast path's splits one
suit block at a time.

A group is a key ``(tiles, kind, wild_tiles)`` of plain tuples while searching (cheap to hash and
sort; sorting by tiles first gives the natural reading order); decompositions are sorted tuples
of keys, returned as sorted tuples of decompositions.  Everything is memoised with
:func:`functools.lru_cache` on the canonical key.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, permutations, product

from erren.analysis.groups import Group, GroupKind
from erren.analysis.shapes import Shape
from erren.tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS

KIND_ORDER: tuple[GroupKind, ...] = tuple(GroupKind)
_CHOW, _PUNG, _KONG, _PAIR, _SINGLE, _KNITTED = range(6)

Key = tuple[tuple[int, ...], int, tuple[int, ...]]
Decomp = tuple[Key, ...]
ALL_KINDS_MASK = (1 << NUM_KINDS) - 1


def _allows(mask: int, kind: int) -> bool:
    return bool(mask >> kind & 1)


def _lowest(counts: tuple[int, ...]) -> int:
    for i, n in enumerate(counts):
        if n:
            return i
    return -1


def _take(counts: tuple[int, ...], *kinds: int) -> tuple[int, ...]:
    out = list(counts)
    for k in kinds:
        out[k] -= 1
    return tuple(out)


@lru_cache(maxsize=256)
def _wild_sets(mask: int) -> tuple[Key, ...]:
    """Every set that wilds alone can make: a pung of an allowed kind, or a chow."""
    out: list[Key] = [((k, k, k), _PUNG, (k, k, k)) for k in range(NUM_KINDS) if _allows(mask, k)]
    for suit in range(3):
        for n in range(7):
            k = suit * 9 + n
            if all(_allows(mask, j) for j in (k, k + 1, k + 2)):
                out.append(((k, k + 1, k + 2), _CHOW, (k, k + 1, k + 2)))
    return tuple(sorted(out))


@lru_cache(maxsize=1024)
def _wild_only(wilds: int, sets: int, pair: bool, mask: int) -> tuple[Decomp, ...]:
    """Every way ``wilds`` wilds alone make ``sets`` sets and (if ``pair``) the pair."""
    if wilds != 3 * sets + 2 * pair:
        return ()
    pairs: list[tuple[Key, ...]] = [()]
    if pair:
        pairs = [(((k, k), _PAIR, (k, k)),) for k in range(NUM_KINDS) if _allows(mask, k)]
    out = {
        tuple(sorted(combo + p))
        for combo in combinations_with_replacement(_wild_sets(mask), sets)
        for p in pairs
    }
    return tuple(sorted(out))


@lru_cache(maxsize=1 << 16)
def _regular(
    counts: tuple[int, ...], wilds: int, sets: int, pair: bool, mask: int
) -> tuple[Decomp, ...]:
    """Every split of ``counts`` naturals plus ``wilds`` wilds into ``sets`` sets (+ the pair).

    At the lowest natural kind ``i`` it tries (xiamen R-4.5): the pair with one or two naturals of
    ``i``; a pung with one, two or three; every chow holding a natural ``i`` as its lowest
    natural tile, lower positions wild, higher ones natural or wild.  Wild-only groups come last.
    """
    if sum(counts) + wilds != 3 * sets + 2 * pair:
        return ()
    i = _lowest(counts)
    if i < 0:
        return _wild_only(wilds, sets, pair, mask)
    found: set[Decomp] = set()

    def extend(rest: tuple[int, ...], w: int, s: int, p: bool, key: Key) -> None:
        for decomp in _regular(rest, w, s, p, mask):
            found.add(tuple(sorted((*decomp, key))))

    ci = counts[i]
    wild_i = _allows(mask, i)
    if pair:
        if ci >= 2:
            extend(_take(counts, i, i), wilds, sets, False, ((i, i), _PAIR, ()))
        if wilds and wild_i:
            extend(_take(counts, i), wilds - 1, sets, False, ((i, i), _PAIR, (i,)))
    if sets:
        for nat in (3, 2, 1):
            need = 3 - nat
            if ci >= nat and wilds >= need and (need == 0 or wild_i):
                rest = _take(counts, *([i] * nat))
                extend(rest, wilds - need, sets - 1, pair, ((i, i, i), _PUNG, (i,) * need))
        if i < 27:
            base = i - i % 9
            for start in range(max(base, i - 2), min(i, base + 6) + 1):
                below = tuple(range(start, i))
                above = tuple(range(i + 1, start + 3))
                if len(below) > wilds or not all(_allows(mask, k) for k in below):
                    continue
                for natural in product((True, False), repeat=len(above)):
                    placed = list(zip(above, natural, strict=True))
                    nats = [k for k, nat in placed if nat]
                    fill = below + tuple(k for k, nat in placed if not nat)
                    if len(fill) > wilds or any(counts[k] == 0 for k in nats):
                        continue
                    if not all(_allows(mask, k) for k in fill):
                        continue
                    rest = _take(counts, i, *nats)
                    key = ((start, start + 1, start + 2), _CHOW, fill)
                    extend(rest, wilds - len(fill), sets - 1, pair, key)
    return tuple(sorted(found))


@lru_cache(maxsize=1 << 14)
def _seven_pairs(counts: tuple[int, ...], wilds: int, pairs: int, mask: int) -> tuple[Decomp, ...]:
    """Every split into ``pairs`` pairs; four of a kind is two pairs (guobiao §3.2, R5.1)."""
    if sum(counts) + wilds != 2 * pairs:
        return ()
    i = _lowest(counts)
    if i < 0:
        keys = [((k, k), _PAIR, (k, k)) for k in range(NUM_KINDS) if _allows(mask, k)]
        return tuple(sorted(combinations_with_replacement(keys, pairs)))
    found: set[Decomp] = set()
    options: list[tuple[tuple[int, ...], int, Key]] = []
    if counts[i] >= 2:
        options.append((_take(counts, i, i), wilds, ((i, i), _PAIR, ())))
    if wilds and _allows(mask, i):
        options.append((_take(counts, i), wilds - 1, ((i, i), _PAIR, (i,))))
    for rest, w, key in options:
        for decomp in _seven_pairs(rest, w, pairs - 1, mask):
            found.add(tuple(sorted((*decomp, key))))
    return tuple(sorted(found))


def _thirteen_orphans(counts: tuple[int, ...], wilds: int, mask: int) -> tuple[Decomp, ...]:
    """The 13 幺九 kinds once each and one of them twice: twelve singles, then the pair."""
    if any(n for k, n in enumerate(counts) if k not in TERMINALS_AND_HONORS):
        return ()
    found: list[Decomp] = []
    for paired in TERMINALS_AND_HONORS:
        singles: list[Key] = []
        used = 0
        ok = True
        for k in TERMINALS_AND_HONORS:
            need = 2 if k == paired else 1
            have = counts[k]
            if have > need or (have < need and not _allows(mask, k)):
                ok = False
                break
            used += need - have
            if k != paired:
                singles.append(((k,), _SINGLE, () if have else (k,)))
        if ok and used == wilds:
            pair: Key = ((paired, paired), _PAIR, (paired,) * (2 - counts[paired]))
            found.append((*sorted(singles), pair))
    return tuple(found)


def _knitted_layouts() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The six 组合龙 layouts: 147, 258, 369 in three different suits, as three kind trios."""
    out = []
    for suits in permutations(range(3)):
        out.append(tuple((s * 9 + j, s * 9 + j + 3, s * 9 + j + 6) for j, s in enumerate(suits)))
    return tuple(out)


_KNITTED_LAYOUTS = _knitted_layouts()


def _honors_and_knitted(counts: tuple[int, ...], wilds: int, mask: int) -> tuple[Decomp, ...]:
    """全不靠 (七星不靠 when all seven honors are present): 14 distinct kinds out of the seven
    honors and one 组合龙 layout, each a single."""
    if any(n > 1 for n in counts) or sum(counts) + wilds != 14:
        return ()
    held = {k for k, n in enumerate(counts) if n}
    found: set[Decomp] = set()
    for layout in _KNITTED_LAYOUTS:
        pool = set(HONORS).union(*layout)
        if not held <= pool:
            continue
        missing = sorted(pool - held)
        for filled in combinations(missing, wilds):
            if not all(_allows(mask, k) for k in filled):
                continue
            keys = [((k,), _SINGLE, ()) for k in held] + [((k,), _SINGLE, (k,)) for k in filled]
            found.add(tuple(sorted(keys)))
    return tuple(sorted(found))


def _knitted_straight(
    counts: tuple[int, ...], wilds: int, sets: int, mask: int
) -> tuple[Decomp, ...]:
    """组合龙 (three knitted trios) + ``sets`` more sets + the pair; trios first, pair last."""
    found: set[Decomp] = set()
    for layout in _KNITTED_LAYOUTS:
        kinds = [k for trio in layout for k in trio]
        choices = [
            [c for c in (True, False) if (counts[k] if c else wilds and _allows(mask, k))]
            for k in kinds
        ]
        if not all(choices):
            continue
        for natural in product(*choices):
            fill = [k for k, nat in zip(kinds, natural, strict=True) if not nat]
            if len(fill) > wilds:
                continue
            rest = _take(counts, *(k for k, nat in zip(kinds, natural, strict=True) if nat))
            trios = tuple((trio, _KNITTED, tuple(k for k in trio if k in fill)) for trio in layout)
            for decomp in _regular(rest, wilds - len(fill), sets, True, mask):
                found.add(tuple(sorted(trios)) + decomp)
    return tuple(sorted(found))


def decompositions(
    shape: Shape, counts: tuple[int, ...], wilds: int, n_melds: int, mask: int
) -> tuple[Decomp, ...]:
    if shape is Shape.REGULAR:
        return _regular(counts, wilds, 4 - n_melds, True, mask) if n_melds <= 4 else ()
    if n_melds and shape is not Shape.KNITTED_STRAIGHT:
        return ()
    if shape is Shape.SEVEN_PAIRS:
        return _seven_pairs(counts, wilds, 7, mask)
    if shape is Shape.THIRTEEN_ORPHANS:
        return _thirteen_orphans(counts, wilds, mask)
    if shape is Shape.HONORS_AND_KNITTED:
        return _honors_and_knitted(counts, wilds, mask)
    if shape is Shape.KNITTED_STRAIGHT and n_melds <= 1:
        return _knitted_straight(counts, wilds, 1 - n_melds, mask)
    return ()


# ---------------------------------------------------------------------------------------------
# The natural fast path (no wild tiles): the kernel says which shapes are complete, and the
# regular shape is split one block at a time (a suit's nine counts, the honors), each block's
# splits memoised on its counts.  Blocks recur across hands far more than whole hands do.


def _natural_groups() -> dict[Key, Group]:
    """One shared :class:`Group` per natural (wild-free, undeclared) group of the 34 kinds."""
    keys: list[Key] = []
    for k in range(NUM_KINDS):
        keys += [((k,), _SINGLE, ()), ((k, k), _PAIR, ()), ((k, k, k), _PUNG, ())]
        if k < 27 and k % 9 < 7:
            keys.append(((k, k + 1, k + 2), _CHOW, ()))
    for layout in _KNITTED_LAYOUTS:
        keys += [(trio, _KNITTED, ()) for trio in layout]
    return {key: Group(KIND_ORDER[key[1]], key[0]) for key in keys}


NATURAL_GROUPS = _natural_groups()


@lru_cache(maxsize=1 << 12)
def _block_splits(block: tuple[int, ...], sets: int, pair: bool) -> tuple[Decomp, ...]:
    """Every split of one suit's counts (numbers 1..9 as 0..8) into ``sets`` sets and the
    pair if ``pair``: sorted tuples of keys, sorted."""
    i = _lowest(block)
    if i < 0:
        return ((),) if sets == 0 and not pair else ()
    found: set[Decomp] = set()
    options: list[tuple[tuple[int, ...], int, bool, Key]] = []
    n = block[i]
    if pair and n >= 2:
        options.append((_take(block, i, i), sets, False, ((i, i), _PAIR, ())))
    if sets:
        if n >= 3:
            options.append((_take(block, i, i, i), sets - 1, pair, ((i, i, i), _PUNG, ())))
        if i < 7 and block[i + 1] and block[i + 2]:
            key: Key = ((i, i + 1, i + 2), _CHOW, ())
            options.append((_take(block, i, i + 1, i + 2), sets - 1, pair, key))
    for rest, s, p, key in options:
        for decomp in _block_splits(rest, s, p):
            found.add(tuple(sorted((*decomp, key))))
    return tuple(sorted(found))


@lru_cache(maxsize=1 << 12)
def _suit_splits(
    block: tuple[int, ...], base: int
) -> tuple[tuple[tuple[Group, ...], Group | None], ...]:
    """The splits of one suit block (kinds ``base``..``base + 8``) as (sets, pair) of shared
    groups; a block of 3n+1 tiles has none."""
    total = sum(block)
    if total % 3 == 1:
        return ()
    out = []
    for decomp in _block_splits(block, total // 3, total % 3 == 2):
        sets: list[Group] = []
        pair: Group | None = None
        for tiles, kind, _ in decomp:
            group = NATURAL_GROUPS[(tuple(t + base for t in tiles), kind, ())]
            if kind == _PAIR:
                pair = group
            else:
                sets.append(group)
        out.append((tuple(sets), pair))
    return tuple(out)


def natural_regular(full: list[int]) -> list[tuple[tuple[Group, ...], Group]]:
    """Every (concealed sets in reading order, pair) of a wild-free hand's concealed counts."""
    blocks: list[tuple[tuple[tuple[Group, ...], Group | None], ...]] = []
    for base in (0, 9, 18):
        block = tuple(full[base : base + 9])
        if any(block):
            splits = _suit_splits(block, base)
            if not splits:
                return []
            blocks.append(splits)
    honor_sets: list[Group] = []
    honor_pair: Group | None = None
    for k in range(27, 34):
        n = full[k]
        if n == 3:
            honor_sets.append(NATURAL_GROUPS[((k, k, k), _PUNG, ())])
        elif n == 2:
            if honor_pair is not None:
                return []
            honor_pair = NATURAL_GROUPS[((k, k), _PAIR, ())]
        elif n:
            return []
    out: list[tuple[tuple[Group, ...], Group]] = []
    for choice in product(*blocks):
        pair = honor_pair
        sets: list[Group] = []
        ok = True
        for block_sets, block_pair in choice:
            sets += block_sets
            if block_pair is not None:
                if pair is not None:
                    ok = False
                    break
                pair = block_pair
        if ok and pair is not None:
            out.append((tuple(sets + honor_sets), pair))
    return out
