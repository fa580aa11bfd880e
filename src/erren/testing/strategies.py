"""Hypothesis strategies shared by the test suite: count arrays and hands drawn from real walls.

This module needs ``hypothesis`` (installed by the ``dev`` extra).

Counts are 34-long lists of copies per kind (``erren.tiles`` order).  Two walls:

* :data:`WALL_64` — the two-player wall: 1m..9m and the seven honors, four copies each;
* :data:`WALL_136` — all 34 kinds, four copies each.

Every strategy draws tiles *without replacement* from ``kinds`` × 4, so no kind ever exceeds four
copies and the examples shrink towards the lowest kinds.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

NUM_KINDS = 34
WALL_64: tuple[int, ...] = (*range(9), *range(27, 34))
"""Kinds of the 64-tile wall: one suit (万) plus honors."""
WALL_136: tuple[int, ...] = tuple(range(NUM_KINDS))
"""Kinds of the 136-tile wall."""
WALLS: tuple[tuple[int, ...], ...] = (WALL_64, WALL_136)

Counts = list[int]


def counts_of(kinds: Sequence[int]) -> Counts:
    """The 34 counts of a list of tile kinds."""
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


def _total(value: int | Sequence[int]) -> st.SearchStrategy[int]:
    return st.just(value) if isinstance(value, int) else st.sampled_from(list(value))


@st.composite
def concealed_counts(
    draw: st.DrawFn,
    total: int | Sequence[int] = (13, 14),
    kinds: Sequence[int] = WALL_136,
) -> Counts:
    """``total`` tiles (an int, or one of several) taken from the wall of ``kinds`` × 4."""
    size = draw(_total(total))
    positions = draw(
        st.lists(st.integers(0, 4 * len(kinds) - 1), min_size=size, max_size=size, unique=True)
    )
    return counts_of([kinds[position // 4] for position in positions])


def _sets_of(kinds: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every pung and chow made of ``kinds``."""
    present = set(kinds)
    pungs = [(k, k, k) for k in kinds]
    chows = [(k, k + 1, k + 2) for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in present]
    return pungs + chows


@st.composite
def complete_counts(
    draw: st.DrawFn, sets: int | Sequence[int] = 4, kinds: Sequence[int] = WALL_136
) -> Counts:
    """A complete regular hand: ``sets`` sets plus a pair, at most four of a kind."""
    n = draw(_total(sets))
    options = _sets_of(kinds)
    counts = [0] * NUM_KINDS
    for _ in range(n):
        fitting = [g for g in options if all(counts[k] + g.count(k) <= 4 for k in g)]
        for k in draw(st.sampled_from(fitting)):
            counts[k] += 1
    pair = draw(st.sampled_from([k for k in kinds if counts[k] <= 2]))
    counts[pair] += 2
    return counts


@st.composite
def near_counts(
    draw: st.DrawFn,
    total: int | Sequence[int] = (13, 14),
    kinds: Sequence[int] = WALL_136,
    max_swaps: int = 2,
) -> Counts:
    """A complete hand with up to ``max_swaps`` tiles changed, cut to ``total`` tiles.

    Many of these are complete, ready or one away: the cases where waits matter.
    """
    size = draw(_total(total))
    n = (size - 1) // 3
    counts = draw(complete_counts(sets=n, kinds=kinds))
    tiles = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    for _ in range(draw(st.integers(0, max_swaps))):
        index = draw(st.integers(0, len(tiles) - 1))
        spare = [k for k in kinds if tiles.count(k) < 4]
        tiles[index] = draw(st.sampled_from(spare))
    while len(tiles) > size:
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return counts_of(tiles)


@st.composite
def wild_hands(
    draw: st.DrawFn,
    total: int | Sequence[int] = (13, 14),
    kinds: Sequence[int] = WALL_136,
    max_wilds: int = 2,
    near: bool | None = None,
) -> tuple[Counts, int]:
    """``(counts, wilds)`` with ``sum(counts) + wilds`` equal to ``total``.

    ``near`` picks :func:`near_counts` (True), :func:`concealed_counts` (False) or either (None)
    for the natural tiles; then ``wilds`` of them, 0..``max_wilds``, become wilds.
    """
    size = draw(_total(total))
    use_near = draw(st.booleans()) if near is None else near
    counts = draw(near_counts(size, kinds) if use_near else concealed_counts(size, kinds))
    wilds = draw(st.integers(0, min(max_wilds, size)))
    tiles = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    for _ in range(wilds):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return counts_of(tiles), wilds


def block_counts(kinds: int = 9) -> st.SearchStrategy[list[int]]:
    """Counts of one block (9 suit kinds or 7 honors), each 0..4: any key of a kernel table."""
    return st.lists(st.integers(0, 4), min_size=kinds, max_size=kinds)


Melded = tuple[Counts, int, Counts]
"""``(counts, wilds, held)``: the concealed naturals, the wilds, the tiles in the melds."""


@st.composite
def melded_wild_hands(
    draw: st.DrawFn,
    total: int | Sequence[int] = (10, 11),
    kinds: Sequence[int] = WALL_136,
    max_wilds: int = 2,
) -> Melded:
    """A hand with ``(14 - total) // 3`` melds whose wilds may hit the meld-aware cap (R5.2).

    The melds are pungs, chows or kongs (``held`` counts four for a kong); the concealed part is
    a complete hand of the remaining sets with up to two tiles swapped, cut to ``total``, then up
    to ``max_wilds`` of its tiles become wilds.  Half the time the concealed sets and the pair
    keep to the melded kinds and their neighbours and may go past four of a kind counting the
    melds; the tiles past four become wilds, so a wild that would be a fifth copy is common.
    """
    size = draw(_total(total))
    n_melds = (14 - size) // 3
    held = [0] * NUM_KINDS
    for _ in range(n_melds):
        fitting = [g for g in _sets_of(kinds) if all(held[k] + g.count(k) <= 4 for k in g)]
        group = draw(st.sampled_from(fitting))
        kong = group[0] == group[1] and held[group[0]] == 0 and draw(st.booleans())
        for k in group:
            held[k] += 1
        held[group[0]] += kong
    near = sorted(
        {j for k in kinds if held[k] for j in range(k - 2, k + 3) if j in kinds}
        if draw(st.booleans())
        else set(kinds)
    )
    # With `bind`, the concealed sets may go past four of a kind with the melds, by at most
    # max_wilds tiles; those tiles then become wilds, which the cap forbids to stand for them.
    slack = max_wilds if draw(st.booleans()) else 0
    tiles: list[int] = []

    def room(k: int) -> int:
        over = sum(max(0, held[j] + tiles.count(j) - 4) for j in kinds)
        return 4 - held[k] - tiles.count(k) + max(0, slack - over)

    for _ in range(4 - n_melds):
        fitting = [
            g
            for g in _sets_of(kinds)
            if g[0] in near
            and all(room(k) >= g.count(k) and tiles.count(k) + g.count(k) <= 4 for k in g)
        ]
        if fitting:
            tiles.extend(draw(st.sampled_from(fitting)))
    pairs = [k for k in near if room(k) >= 2 and tiles.count(k) <= 2]
    if slack and any(held[k] for k in pairs) and draw(st.booleans()):
        pairs = [k for k in pairs if held[k]]
    if pairs:
        tiles.extend([draw(st.sampled_from(pairs))] * 2)
    for _ in range(draw(st.integers(0, 2))):
        spare = [k for k in near if room(k) >= 1 and tiles.count(k) < 4]
        if tiles and spare:
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(spare))
    while len(tiles) > size:
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    while len(tiles) < size:
        spare = [k for k in kinds if held[k] + tiles.count(k) < 4]
        tiles.append(draw(st.sampled_from(spare)))
    wilds = 0
    for k in kinds:  # the tiles past four become the wilds
        while held[k] + tiles.count(k) > 4:
            tiles.remove(k)
            wilds += 1
    for _ in range(draw(st.integers(0, max(0, min(max_wilds, size) - wilds)))):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
        wilds += 1
    return counts_of(tiles), wilds, held
