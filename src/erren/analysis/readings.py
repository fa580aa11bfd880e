"""Readings: every decomposition of a complete hand into the groups of a winning shape.

A *reading* is what scoring stands on (guobiao-2p §5.2 step 1, arcade R5.1 "interpretation",
xiamen R-4.5 "decomposition"): the concealed tiles plus the winning tile split into the groups of
one shape, each declared meld as one more fixed set, every wild tile resolved to the kind it
stands for, and the group the winning tile completed.  Scoring tries every reading and keeps the
best, so this module lists them all, each once, in a deterministic order:

* two readings that differ only in the order of their groups are one reading;
* the place of the winning tile is part of a reading: if its kind sits in several different
  groups, each choice is a separate reading (边张/坎张/单钓, concealed pungs);
* so is the place of each wild: ``1m 2m 3m`` with a wild as ``2m`` next to a natural ``2m`` gives
  one reading with the wild in the chow and one with the wild elsewhere (xiamen X-06).

The hot path works on 34-long count tuples (:func:`count_readings`); the decomposition of a
count tuple is memoised on its canonical key with :func:`functools.lru_cache`, so scoring the same
hand for several winning tiles or several tables costs one search.  Wild tiles are searched
directly (a wild fills a position of a group) rather than by trying every assignment of kinds,
which keeps hands with three or four wilds at a few milliseconds; the property tests check the
result against that brute force.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, permutations, product

from erren.analysis import _kernel
from erren.analysis.complete import is_complete
from erren.analysis.shapes import SHAPE_MASKS, Shape, ShapeSet
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS

__all__ = [
    "Group",
    "GroupKind",
    "Reading",
    "Wilds",
    "count_readings",
    "group_counts",
    "groups_text",
    "is_winning",
    "readings",
]


class GroupKind(Enum):
    """What a group of a reading is."""

    CHOW = "chow"  # 顺子: three consecutive numbers of one suit
    PUNG = "pung"  # 刻子: three of a kind
    KONG = "kong"  # 杠子: four of a kind, always a declared meld
    PAIR = "pair"  # 将/雀头; also each pair of seven pairs
    SINGLE = "single"  # a lone tile of 十三幺 or 全不靠/七星不靠
    KNITTED = "knitted"  # one 147/258/369 trio of 组合龙


_KIND_ORDER: tuple[GroupKind, ...] = tuple(GroupKind)
_CHOW, _PUNG, _KONG, _PAIR, _SINGLE, _KNITTED = range(6)
_SET_KINDS = frozenset({GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG})

_MELD_GROUP_KIND = {
    MeldKind.CHI: GroupKind.CHOW,
    MeldKind.PENG: GroupKind.PUNG,
    MeldKind.MING_GANG: GroupKind.KONG,
    MeldKind.JIA_GANG: GroupKind.KONG,
    MeldKind.AN_GANG: GroupKind.KONG,
}


def _format(tiles: Iterable[int]) -> str:
    """``123m``-style text of resolved kinds (a small copy of the notation's printer)."""
    out: list[str] = []
    suit = ""
    for tile in sorted(tiles):
        letter = "mpsz"[tile // 9] if tile < 27 else "z"
        number = tile % 9 + 1 if tile < 27 else tile - 26
        if suit and letter != suit:
            out.append(suit)
        suit = letter
        out.append(str(number))
    return "".join(out) + suit


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a reading.

    ``tiles`` are resolved kinds, sorted (a wild appears as the kind it stands for; xiamen's
    White as the gold kind).  ``wild_tiles`` lists the kinds inside this group that wild tiles
    stand for, so ``tiles`` minus ``wild_tiles`` are the natural tiles.  ``meld`` is the declared
    meld this group is, if any.
    """

    kind: GroupKind
    tiles: tuple[int, ...]
    meld: Meld | None = None
    wild_tiles: tuple[int, ...] = ()

    @property
    def is_concealed(self) -> bool:
        """Not from a claimed meld: a group of the concealed part, or a concealed kong (暗杠)."""
        return self.meld is None or self.meld.is_concealed

    @property
    def first(self) -> int:
        """The lowest kind (the first tile of a chow)."""
        return self.tiles[0]

    @property
    def is_set(self) -> bool:
        """A chow, pung or kong (面子)."""
        return self.kind in _SET_KINDS

    @property
    def is_pung(self) -> bool:
        """A pung or a kong ("pung" in fan definitions includes kongs)."""
        return self.kind is GroupKind.PUNG or self.kind is GroupKind.KONG

    @property
    def has_wild(self) -> bool:
        """Some tile of this group is a wild."""
        return bool(self.wild_tiles)

    def naturals(self, kind: int) -> int:
        """How many natural (non-wild) tiles of ``kind`` this group holds."""
        return self.tiles.count(kind) - self.wild_tiles.count(kind)

    def __str__(self) -> str:
        text = _format(self.tiles)
        if self.meld is not None:
            text = f"[{text}]"
        if self.wild_tiles:
            text += "{" + "".join(_format((t,)) for t in self.wild_tiles) + "}"
        return text


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand.

    ``groups``: for the regular shape the concealed sets (sorted), then the declared melds in
    the order of the hand, then the pair; the seven pairs (sorted); for 十三幺 the twelve singles
    then the pair; for 全不靠 the fourteen singles; for 组合龙 the three knitted trios, the set,
    then the pair.  ``winning_group`` is the index of the group the winning tile completed (None
    when the hand has no winning tile); ``winning_kind`` the kind it plays as and
    ``winning_wild`` whether it is itself a wild.  ``wild_kinds`` is what each wild stands for.
    """

    shape: Shape
    groups: tuple[Group, ...]
    winning_group: int | None
    wild_kinds: tuple[int, ...]
    winning_kind: int | None = None
    winning_wild: bool = False

    @property
    def winning(self) -> Group | None:
        """The group the winning tile completed."""
        return None if self.winning_group is None else self.groups[self.winning_group]

    @property
    def sets(self) -> tuple[Group, ...]:
        """The chows, pungs and kongs, melds included."""
        return tuple(g for g in self.groups if g.is_set)

    @property
    def pair(self) -> Group | None:
        """The pair of a regular, 组合龙 or 十三幺 reading (None for seven pairs and 全不靠)."""
        if self.shape is Shape.SEVEN_PAIRS:
            return None
        last = self.groups[-1]
        return last if last.kind is GroupKind.PAIR else None

    def counts(self) -> list[int]:
        """The resolved hand as 34 counts: concealed part, winning tile and melds."""
        return group_counts(self.groups)

    def __str__(self) -> str:
        return groups_text(self.shape.name.lower(), self.groups, self.winning_group)


def group_counts(groups: Iterable[Group]) -> list[int]:
    """The tiles of ``groups`` as 34 counts (every tile of a kong counted)."""
    counts = [0] * NUM_KINDS
    for group in groups:
        for tile in group.tiles:
            counts[tile] += 1
    return counts


def groups_text(label: str, groups: Sequence[Group], winning_group: int | None) -> str:
    """``label: g1 g2 ...``, the group the winning tile completed in ``<...>``."""
    parts = [str(g) for g in groups]
    if winning_group is not None:
        parts[winning_group] = "<" + parts[winning_group] + ">"
    return f"{label}: " + " ".join(parts)


@dataclass(frozen=True, slots=True)
class Wilds:
    """How wild tiles work in a family.

    ``kind`` is the wild kind of the hand (arcade 财神 ``W``, xiamen gold ``g``): every concealed
    tile of this kind, the winning tile included, is wild.  ``max_copies`` bounds every kind of
    the resolved hand, concealed part and melds (arcade 4, R5.2; xiamen ``None``: a gold may be a
    fifth copy, R-3.2).  ``stand_in`` is a natural kind that plays as the wild kind's face (xiamen's
    White when ``g ≠ 5z``, R-1.8).  ``stands_for`` restricts the kinds a wild may stand for (xiamen:
    the 16 kinds of its tile set, R-3.2); ``None`` means all 34 (arcade R1.9b).
    """

    kind: int
    max_copies: int | None = 4
    stand_in: int | None = None
    stands_for: frozenset[int] | None = field(default=None)


# ---------------------------------------------------------------------------------------------
# The count-level search.  A group is a key ``(tiles, kind, wild_tiles)`` of plain tuples while
# searching (cheap to hash and sort; sorting by tiles first gives the natural reading order);
# decompositions are sorted tuples of keys, returned as sorted tuples of decompositions.

_Key = tuple[tuple[int, ...], int, tuple[int, ...]]
_Decomp = tuple[_Key, ...]
_ALL_KINDS_MASK = (1 << NUM_KINDS) - 1


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
def _wild_sets(mask: int) -> tuple[_Key, ...]:
    """Every set that wilds alone can make: a pung of an allowed kind, or a chow."""
    out: list[_Key] = [((k, k, k), _PUNG, (k, k, k)) for k in range(NUM_KINDS) if _allows(mask, k)]
    for suit in range(3):
        for n in range(7):
            k = suit * 9 + n
            if all(_allows(mask, j) for j in (k, k + 1, k + 2)):
                out.append(((k, k + 1, k + 2), _CHOW, (k, k + 1, k + 2)))
    return tuple(sorted(out))


@lru_cache(maxsize=1024)
def _wild_only(wilds: int, sets: int, pair: bool, mask: int) -> tuple[_Decomp, ...]:
    """Every way ``wilds`` wilds alone make ``sets`` sets and (if ``pair``) the pair."""
    if wilds != 3 * sets + 2 * pair:
        return ()
    pairs: list[tuple[_Key, ...]] = [()]
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
) -> tuple[_Decomp, ...]:
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
    found: set[_Decomp] = set()

    def extend(rest: tuple[int, ...], w: int, s: int, p: bool, key: _Key) -> None:
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
def _seven_pairs(counts: tuple[int, ...], wilds: int, pairs: int, mask: int) -> tuple[_Decomp, ...]:
    """Every split into ``pairs`` pairs; four of a kind is two pairs (guobiao §3.2, R5.1)."""
    if sum(counts) + wilds != 2 * pairs:
        return ()
    i = _lowest(counts)
    if i < 0:
        keys = [((k, k), _PAIR, (k, k)) for k in range(NUM_KINDS) if _allows(mask, k)]
        return tuple(sorted(combinations_with_replacement(keys, pairs)))
    found: set[_Decomp] = set()
    options: list[tuple[tuple[int, ...], int, _Key]] = []
    if counts[i] >= 2:
        options.append((_take(counts, i, i), wilds, ((i, i), _PAIR, ())))
    if wilds and _allows(mask, i):
        options.append((_take(counts, i), wilds - 1, ((i, i), _PAIR, (i,))))
    for rest, w, key in options:
        for decomp in _seven_pairs(rest, w, pairs - 1, mask):
            found.add(tuple(sorted((*decomp, key))))
    return tuple(sorted(found))


def _thirteen_orphans(counts: tuple[int, ...], wilds: int, mask: int) -> tuple[_Decomp, ...]:
    """The 13 幺九 kinds once each and one of them twice: twelve singles, then the pair."""
    if any(n for k, n in enumerate(counts) if k not in TERMINALS_AND_HONORS):
        return ()
    found: list[_Decomp] = []
    for paired in TERMINALS_AND_HONORS:
        singles: list[_Key] = []
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
            pair: _Key = ((paired, paired), _PAIR, (paired,) * (2 - counts[paired]))
            found.append((*sorted(singles), pair))
    return tuple(found)


def _knitted_layouts() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The six 组合龙 layouts: 147, 258, 369 in three different suits, as three kind trios."""
    out = []
    for suits in permutations(range(3)):
        out.append(tuple((s * 9 + j, s * 9 + j + 3, s * 9 + j + 6) for j, s in enumerate(suits)))
    return tuple(out)


_KNITTED_LAYOUTS = _knitted_layouts()
_REGULAR_ONLY = frozenset({Shape.REGULAR})


def _honors_and_knitted(counts: tuple[int, ...], wilds: int, mask: int) -> tuple[_Decomp, ...]:
    """全不靠 (七星不靠 when all seven honors are present): 14 distinct kinds out of the seven
    honors and one 组合龙 layout, each a single."""
    if any(n > 1 for n in counts) or sum(counts) + wilds != 14:
        return ()
    held = {k for k, n in enumerate(counts) if n}
    found: set[_Decomp] = set()
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
) -> tuple[_Decomp, ...]:
    """组合龙 (three knitted trios) + ``sets`` more sets + the pair; trios first, pair last."""
    found: set[_Decomp] = set()
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


# ---------------------------------------------------------------------------------------------
# Assembling readings.

_SHAPE_ORDER = (
    Shape.REGULAR,
    Shape.SEVEN_PAIRS,
    Shape.THIRTEEN_ORPHANS,
    Shape.HONORS_AND_KNITTED,
    Shape.KNITTED_STRAIGHT,
)


def _group(key: _Key) -> Group:
    group = _NATURAL_GROUPS.get(key)
    if group is not None:
        return group
    tiles, kind, wild = key
    return Group(_KIND_ORDER[kind], tiles, None, wild)


def _plays_as(tile: int, stand_in: int | None, wild_kind: int | None) -> int:
    """The kind a natural tile plays as: the wild kind for the stand-in, else its own."""
    if wild_kind is not None and stand_in is not None and tile == stand_in:
        return wild_kind
    return int(tile)


def _meld_group(meld: Meld, stand_in: int | None, wild_kind: int | None) -> Group:
    """A declared meld as a fixed set, its tiles resolved (xiamen: a White plays as ``g``)."""
    tiles = tuple(sorted(_plays_as(t, stand_in, wild_kind) for t in meld.tiles))
    return Group(_MELD_GROUP_KIND[meld.kind], tiles, meld)


def _decompositions(
    shape: Shape, counts: tuple[int, ...], wilds: int, n_melds: int, mask: int
) -> tuple[_Decomp, ...]:
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


def _within_copies(decomp: _Decomp, meld_groups: tuple[Group, ...], max_copies: int) -> bool:
    seen = [0] * NUM_KINDS
    for tiles, _, _ in decomp:
        for t in tiles:
            seen[t] += 1
    for group in meld_groups:
        for t in group.tiles:
            seen[t] += 1
    return max(seen) <= max_copies


def _order(shape: Shape, decomp: _Decomp, melds: tuple[Group, ...]) -> tuple[Group, ...]:
    """The groups of one decomposition in reading order (see :class:`Reading`)."""
    groups = [_group(k) for k in decomp]
    if shape is Shape.SEVEN_PAIRS or shape is Shape.HONORS_AND_KNITTED:
        return tuple(groups)
    if shape is Shape.THIRTEEN_ORPHANS:
        return tuple(g for g in groups if g.kind is GroupKind.SINGLE) + tuple(
            g for g in groups if g.kind is GroupKind.PAIR
        )
    knitted = tuple(g for g in groups if g.kind is GroupKind.KNITTED)
    sets = tuple(g for g in groups if g.is_set)
    pairs = tuple(g for g in groups if g.kind is GroupKind.PAIR)
    return knitted + sets + melds + pairs


def _winning_choices(
    groups: tuple[Group, ...], winning: int | None, winning_wild: bool
) -> Iterator[tuple[int | None, int | None]]:
    """(group index, kind) for each distinct place of the winning tile in these groups."""
    if winning is None and not winning_wild:
        yield None, None
        return
    seen: set[tuple[Group, int]] = set()
    for index, group in enumerate(groups):
        if group.meld is not None:
            continue
        if winning_wild:
            kinds = sorted(set(group.wild_tiles))
        elif winning is not None and group.naturals(winning):
            kinds = [winning]
        else:
            kinds = []
        for kind in kinds:
            if (group, kind) not in seen:
                seen.add((group, kind))
                yield index, kind


# ---------------------------------------------------------------------------------------------
# The natural fast path (no wild tiles): the kernel says which shapes are complete, and the
# regular shape is split one block at a time (a suit's nine counts, the honors), each block's
# splits memoised on its counts.  Blocks recur across hands far more than whole hands do.

_k_by_shape = _kernel.shanten_by_shape


def _natural_groups() -> dict[_Key, Group]:
    """One shared :class:`Group` per natural (wild-free, undeclared) group of the 34 kinds."""
    keys: list[_Key] = []
    for k in range(NUM_KINDS):
        keys += [((k,), _SINGLE, ()), ((k, k), _PAIR, ()), ((k, k, k), _PUNG, ())]
        if k < 27 and k % 9 < 7:
            keys.append(((k, k + 1, k + 2), _CHOW, ()))
    for layout in _KNITTED_LAYOUTS:
        keys += [(trio, _KNITTED, ()) for trio in layout]
    return {key: Group(_KIND_ORDER[key[1]], key[0]) for key in keys}


_NATURAL_GROUPS = _natural_groups()


@lru_cache(maxsize=1 << 12)
def _block_splits(block: tuple[int, ...], sets: int, pair: bool) -> tuple[_Decomp, ...]:
    """Every split of one suit's counts (numbers 1..9 as 0..8) into ``sets`` sets and the
    pair if ``pair``: sorted tuples of keys, sorted."""
    i = _lowest(block)
    if i < 0:
        return ((),) if sets == 0 and not pair else ()
    found: set[_Decomp] = set()
    options: list[tuple[tuple[int, ...], int, bool, _Key]] = []
    n = block[i]
    if pair and n >= 2:
        options.append((_take(block, i, i), sets, False, ((i, i), _PAIR, ())))
    if sets:
        if n >= 3:
            options.append((_take(block, i, i, i), sets - 1, pair, ((i, i, i), _PUNG, ())))
        if i < 7 and block[i + 1] and block[i + 2]:
            key: _Key = ((i, i + 1, i + 2), _CHOW, ())
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
            group = _NATURAL_GROUPS[(tuple(t + base for t in tiles), kind, ())]
            if kind == _PAIR:
                pair = group
            else:
                sets.append(group)
        out.append((tuple(sets), pair))
    return tuple(out)


def _natural_regular(full: list[int]) -> list[tuple[tuple[Group, ...], Group]]:
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
            honor_sets.append(_NATURAL_GROUPS[((k, k, k), _PUNG, ())])
        elif n == 2:
            if honor_pair is not None:
                return []
            honor_pair = _NATURAL_GROUPS[((k, k), _PAIR, ())]
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


def _group_key(group: Group) -> _Key:
    return (group.tiles, _KIND_ORDER.index(group.kind), group.wild_tiles)


def _natural_readings(
    full: list[int], meld_groups: tuple[Group, ...], winning: int | None, shapes: ShapeSet
) -> tuple[Reading, ...]:
    """:func:`_readings` for a hand without wilds (same readings, same order)."""
    n_melds = len(meld_groups)
    by_shape = _k_by_shape(full, 0, SHAPE_MASKS[shapes])
    ranked: list[tuple[int, tuple[_Key, ...], tuple[Group, ...]]] = []
    for index, shape in enumerate(_SHAPE_ORDER):
        if shape not in shapes:
            continue
        value = by_shape[index]
        if shape is Shape.REGULAR:
            if value != -1:
                continue
            for sets, pair in _natural_regular(full):
                groups = (*sets, *meld_groups, pair)
                key = (*(_group_key(g) for g in sets), _group_key(pair))
                ranked.append((index, key, groups))
            continue
        if value is None and not (shape is Shape.KNITTED_STRAIGHT and n_melds == 1):
            continue  # a special shape with melds (组合龙 takes one meld: searched below)
        if value is not None and value != -1:
            continue
        for decomp in _decompositions(shape, tuple(full), 0, n_melds, _ALL_KINDS_MASK):
            groups = _order(shape, decomp, meld_groups)
            ranked.append((index, tuple(_group_key(g) for g in groups), groups))
    if len(ranked) > 1:
        ranked.sort(key=lambda r: (r[0], r[1]))
    out: list[Reading] = []
    for index, _, groups in ranked:
        shape = _SHAPE_ORDER[index]
        if winning is None:
            out.append(Reading(shape, groups, None, (), None, False))
            continue
        seen: list[Group] = []
        for gi, group in enumerate(groups):
            if group.meld is None and winning in group.tiles and group not in seen:
                seen.append(group)
                out.append(Reading(shape, groups, gi, (), winning, False))
    return tuple(out)


@lru_cache(maxsize=4096)
def _readings(
    counts: tuple[int, ...],
    *,
    wilds: int,
    meld_groups: tuple[Group, ...],
    winning: int | None,
    winning_wild: bool,
    shapes: ShapeSet,
    max_copies: int | None,
    mask: int,
) -> tuple[Reading, ...]:
    """Every reading of one hand at count level (the memoised core of the public functions)."""
    full = list(counts)
    if winning is not None:
        full[winning] += 1
    total_wilds = wilds + winning_wild
    if sum(full) + total_wilds != 14 - 3 * len(meld_groups):
        return ()
    if not total_wilds and mask == _ALL_KINDS_MASK and max(full) <= 4:  # the kernel's range
        if max_copies is not None:
            held = list(full)
            for group in meld_groups:
                for tile in group.tiles:
                    held[tile] += 1
            if max(held) > max_copies:
                return ()
        return _natural_readings(full, meld_groups, winning, shapes)
    key = tuple(full)
    out: list[Reading] = []
    for shape in _SHAPE_ORDER:
        if shape not in shapes:
            continue
        for decomp in _decompositions(shape, key, total_wilds, len(meld_groups), mask):
            if max_copies is not None and not _within_copies(decomp, meld_groups, max_copies):
                continue
            groups = _order(shape, decomp, meld_groups)
            wild_kinds = tuple(sorted(t for g in groups for t in g.wild_tiles))
            for index, kind in _winning_choices(groups, winning, winning_wild):
                out.append(Reading(shape, groups, index, wild_kinds, kind, winning_wild))
    out.sort(key=_reading_order)
    return tuple(out)


def _reading_order(reading: Reading) -> tuple[object, ...]:
    """Shapes in :data:`_SHAPE_ORDER`, then groups by tiles, then the winning tile's place."""
    return (
        _SHAPE_ORDER.index(reading.shape),
        tuple((g.tiles, _KIND_ORDER.index(g.kind), g.wild_tiles) for g in reading.groups),
        -1 if reading.winning_group is None else reading.winning_group,
        -1 if reading.winning_kind is None else reading.winning_kind,
    )


def _mask(kinds: Iterable[int] | None) -> int:
    if kinds is None:
        return _ALL_KINDS_MASK
    mask = 0
    for k in kinds:
        mask |= 1 << int(k)
    return mask


def count_readings(
    concealed: Sequence[int],
    *,
    wilds: int = 0,
    melds: Sequence[Meld] = (),
    winning: int | None = None,
    winning_wild: bool = False,
    shapes: ShapeSet,
    max_copies: int | None = 4,
    stands_for: Iterable[int] | None = None,
) -> list[Reading]:
    """Every reading of a hand given as counts (the count-level core of :func:`readings`).

    ``concealed`` is a 34-long count array of the natural concealed tiles, by the kind they play
    as, *not* counting the winning tile; ``wilds`` the number of wild tiles among them.
    ``winning`` is the kind of a natural winning tile; ``winning_wild`` says the winning tile is
    one more wild (then ``winning`` must be None).  ``melds`` are fixed sets, taken as written.
    ``max_copies`` bounds each kind of the resolved hand, melds included; ``stands_for`` the
    kinds a wild may stand for (None: all 34).  A hand of the wrong size has no reading.
    """
    if len(concealed) != NUM_KINDS:
        raise ValueError(f"concealed must be a {NUM_KINDS}-long count array")
    if winning_wild and winning is not None:
        raise ValueError("a wild winning tile has no natural kind: pass winning=None")
    if min(concealed) < 0 or wilds < 0:
        raise ValueError("counts must not be negative")
    meld_groups = tuple(_meld_group(m, None, None) for m in melds)
    found = _readings(
        tuple(int(n) for n in concealed),
        wilds=wilds,
        meld_groups=meld_groups,
        winning=None if winning is None else int(winning),
        winning_wild=winning_wild,
        shapes=frozenset(shapes),
        max_copies=max_copies,
        mask=_mask(stands_for),
    )
    return list(found)


def _hand_key(
    hand: Hand, wilds: Wilds | None
) -> tuple[tuple[int, ...], int, tuple[Group, ...], int | None, bool]:
    """A hand at count level: natural counts by the kind they play as, wilds, melds, winning."""
    if wilds is None:
        counts = [0] * NUM_KINDS
        for tile in hand.concealed:
            counts[tile] += 1
        plain = None if hand.winning is None else int(hand.winning)
        return tuple(counts), 0, _plain_melds(hand.melds), plain, False
    wild = wilds.kind
    stand_in = None if wilds is None or wilds.stand_in == wild else wilds.stand_in
    counts = [0] * NUM_KINDS
    n_wilds = 0
    for tile in hand.concealed:
        if tile == wild:
            n_wilds += 1
        else:
            counts[_plays_as(tile, stand_in, wild)] += 1
    winning: int | None = None
    winning_wild = hand.winning is not None and hand.winning == wild
    if hand.winning is not None and not winning_wild:
        winning = _plays_as(hand.winning, stand_in, wild)
    melds = tuple(_meld_group(m, stand_in, wild) for m in hand.melds)
    return tuple(counts), n_wilds, melds, winning, winning_wild


@lru_cache(maxsize=1 << 10)
def _plain_melds(melds: tuple[Meld, ...]) -> tuple[Group, ...]:
    """The melds of a hand without wilds as fixed sets (memoised: meld sets recur)."""
    return tuple(_meld_group(m, None, None) for m in melds)


def readings(hand: Hand, *, shapes: ShapeSet, wilds: Wilds | None = None) -> list[Reading]:
    """Every reading of a complete hand, each once, in a deterministic order.

    The concealed tiles plus the winning tile are split into the groups of each shape in
    ``shapes``; melds are fixed sets.  With ``wilds``, every concealed tile of the wild kind
    (the winning tile included) stands for some kind, and every assignment that the
    ``max_copies`` limit allows is reached; a ``stand_in`` tile plays as the wild kind.  A hand
    that is not complete (or has the wrong size) has no reading.
    """
    counts, n_wilds, melds, winning, winning_wild = _hand_key(hand, wilds)
    found = _readings(
        counts,
        wilds=n_wilds,
        meld_groups=melds,
        winning=winning,
        winning_wild=winning_wild,
        shapes=frozenset(shapes),
        max_copies=4 if wilds is None else wilds.max_copies,
        mask=_mask(None if wilds is None else wilds.stands_for),
    )
    return list(found)


def is_winning(hand: Hand, *, shapes: ShapeSet, wilds: Wilds | None = None) -> bool:
    """Whether the hand has at least one reading in ``shapes``: the kernel's completeness test
    (:func:`erren.analysis.complete.is_complete`) on the hand at count level.

    A hand of the wrong size is not winning.  The few settings outside the kernel's semantics
    (a wild limited to some kinds under the four-copies cap, a fifth copy with other shapes than
    the regular one, or kinds a limited wild could not join) ask :func:`readings` instead."""
    counts, n_wilds, melds, winning, winning_wild = _hand_key(hand, wilds)
    full = list(counts)
    if winning is not None:
        full[winning] += 1
    total_wilds = n_wilds + winning_wild
    if len(melds) > 4 or sum(full) + total_wilds != 14 - 3 * len(melds):
        return False
    if max(full) > 4 or not _kernel_exact(full, shapes, wilds):
        return bool(readings(hand, shapes=shapes, wilds=wilds))
    if wilds is not None and wilds.max_copies is None:
        return is_complete(full, wilds=total_wilds, shapes=shapes, max_copies=None)
    held = group_counts(melds)
    if any(full[k] + held[k] > 4 for k in range(NUM_KINDS)):
        return False  # a fifth copy counting the melds: no reading within the cap
    return is_complete(full, wilds=total_wilds, shapes=shapes, held=held if melds else None)


def _kernel_exact(full: Sequence[int], shapes: ShapeSet, wilds: Wilds | None) -> bool:
    """Whether the kernel's test is exactly "has a reading" for these wilds: no wilds, or wilds
    under the four-copies cap free to stand for any kind (arcade), or uncapped wilds (xiamen) on
    the regular shape only, limited at most to whole suits and honor kinds holding every natural
    kind (so a wild joining naturals never needs a kind it may not stand for)."""
    if wilds is None:
        return True
    if wilds.max_copies is not None:
        return wilds.max_copies == 4 and wilds.stands_for is None
    if not shapes <= _REGULAR_ONLY:
        return False
    allowed = wilds.stands_for
    if allowed is None:
        return True
    if not allowed:
        return False
    for k, n in enumerate(full):
        if n:
            block = range(k, k + 1) if k >= 27 else range(k - k % 9, k - k % 9 + 9)
            if not all(j in allowed for j in block):
                return False
    return True
