"""Hypothesis strategies shared by the test suite: count arrays and hands drawn from real walls.

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
