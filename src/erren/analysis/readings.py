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

The groups and readings themselves are :mod:`erren.analysis.groups` (re-exported here); the
search is :mod:`erren.analysis._decompose`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from erren.analysis import _kernel
from erren.analysis._decompose import (
    ALL_KINDS_MASK,
    KIND_ORDER,
    NATURAL_GROUPS,
    Decomp,
    Key,
    decompositions,
    natural_regular,
)
from erren.analysis.complete import is_complete
from erren.analysis.groups import Group, GroupKind, Reading, group_counts, groups_text
from erren.analysis.shapes import SHAPE_MASKS, Shape, ShapeSet
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS

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


_MELD_GROUP_KIND = {
    MeldKind.CHI: GroupKind.CHOW,
    MeldKind.PENG: GroupKind.PUNG,
    MeldKind.MING_GANG: GroupKind.KONG,
    MeldKind.JIA_GANG: GroupKind.KONG,
    MeldKind.AN_GANG: GroupKind.KONG,
}


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
# Assembling readings.

_SHAPE_ORDER = (
    Shape.REGULAR,
    Shape.SEVEN_PAIRS,
    Shape.THIRTEEN_ORPHANS,
    Shape.HONORS_AND_KNITTED,
    Shape.KNITTED_STRAIGHT,
)


def _group(key: Key) -> Group:
    group = NATURAL_GROUPS.get(key)
    if group is not None:
        return group
    tiles, kind, wild = key
    return Group(KIND_ORDER[kind], tiles, None, wild)


def _plays_as(tile: int, stand_in: int | None, wild_kind: int | None) -> int:
    """The kind a natural tile plays as: the wild kind for the stand-in, else its own."""
    if wild_kind is not None and stand_in is not None and tile == stand_in:
        return wild_kind
    return int(tile)


def _meld_group(meld: Meld, stand_in: int | None, wild_kind: int | None) -> Group:
    """A declared meld as a fixed set, its tiles resolved (xiamen: a White plays as ``g``)."""
    tiles = tuple(sorted(_plays_as(t, stand_in, wild_kind) for t in meld.tiles))
    return Group(_MELD_GROUP_KIND[meld.kind], tiles, meld)


def _within_copies(decomp: Decomp, meld_groups: tuple[Group, ...], max_copies: int) -> bool:
    seen = [0] * NUM_KINDS
    for tiles, _, _ in decomp:
        for t in tiles:
            seen[t] += 1
    for group in meld_groups:
        for t in group.tiles:
            seen[t] += 1
    return max(seen) <= max_copies


def _order(shape: Shape, decomp: Decomp, melds: tuple[Group, ...]) -> tuple[Group, ...]:
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


def _group_key(group: Group) -> Key:
    return (group.tiles, KIND_ORDER.index(group.kind), group.wild_tiles)


def _natural_readings(
    full: list[int], meld_groups: tuple[Group, ...], winning: int | None, shapes: ShapeSet
) -> tuple[Reading, ...]:
    """:func:`_readings` for a hand without wilds (same readings, same order)."""
    n_melds = len(meld_groups)
    by_shape = _k_by_shape(full, 0, SHAPE_MASKS[shapes])
    ranked: list[tuple[int, tuple[Key, ...], tuple[Group, ...]]] = []
    for index, shape in enumerate(_SHAPE_ORDER):
        if shape not in shapes:
            continue
        value = by_shape[index]
        if shape is Shape.REGULAR:
            if value != -1:
                continue
            for sets, pair in natural_regular(full):
                groups = (*sets, *meld_groups, pair)
                key = (*(_group_key(g) for g in sets), _group_key(pair))
                ranked.append((index, key, groups))
            continue
        if value is None and not (shape is Shape.KNITTED_STRAIGHT and n_melds == 1):
            continue  # a special shape with melds (组合龙 takes one meld: searched below)
        if value is not None and value != -1:
            continue
        for decomp in decompositions(shape, tuple(full), 0, n_melds, ALL_KINDS_MASK):
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
    if not total_wilds and mask == ALL_KINDS_MASK and max(full) <= 4:  # the kernel's range
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
        for decomp in decompositions(shape, key, total_wilds, len(meld_groups), mask):
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
        tuple((g.tiles, KIND_ORDER.index(g.kind), g.wild_tiles) for g in reading.groups),
        -1 if reading.winning_group is None else reading.winning_group,
        -1 if reading.winning_kind is None else reading.winning_kind,
    )


def _mask(kinds: Iterable[int] | None) -> int:
    if kinds is None:
        return ALL_KINDS_MASK
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

    A hand of the wrong size is not winning.  Wilds limited to some kinds under the four-copies
    cap, uncapped wilds with other shapes than the regular one, and naturals a limited wild may
    not join are outside the kernel's semantics: those ask :func:`readings` instead."""
    counts, n_wilds, melds, winning, winning_wild = _hand_key(hand, wilds)
    full = list(counts)
    if winning is not None:
        full[winning] += 1
    total_wilds = n_wilds + winning_wild
    if len(melds) > 4 or sum(full) + total_wilds != 14 - 3 * len(melds):
        return False
    if max(full) > 4 or not _kernel_exact(full, shapes, wilds):
        return bool(readings(hand, shapes=shapes, wilds=wilds))
    cap = None if wilds is not None and wilds.max_copies is None else 4
    if not melds or cap is None:
        return is_complete(full, wilds=total_wilds, shapes=shapes, max_copies=cap)
    held = group_counts(melds)
    if any(full[k] + held[k] > 4 for k in range(NUM_KINDS)):
        return False  # a fifth copy counting the melds: no reading within the cap
    return is_complete(full, wilds=total_wilds, shapes=shapes, held=held)


_REGULAR_ONLY = frozenset({Shape.REGULAR})


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
