"""Which tile kinds complete a 13-tile holding (regular or seven pairs): the wait of §3.4,
used by the wait fans 边张/坎张/单钓将 (§5.2 A15).  Plain count tuples, memoised."""

from __future__ import annotations

from functools import lru_cache

__all__ = ["completes_with", "wait_kinds"]


@lru_cache(maxsize=1 << 16)
def _complete(counts: tuple[int, ...], sets: int, pair: bool) -> bool:
    """Whether ``counts`` is exactly ``sets`` sets plus a pair (if ``pair``)."""
    i = 0
    while i < 34 and not counts[i]:
        i += 1
    if i == 34:
        return sets == 0 and not pair
    n = counts[i]
    if pair and n >= 2:
        rest = list(counts)
        rest[i] -= 2
        if _complete(tuple(rest), sets, False):
            return True
    if sets and n >= 3:
        rest = list(counts)
        rest[i] -= 3
        if _complete(tuple(rest), sets - 1, pair):
            return True
    if sets and i < 27 and i % 9 < 7 and counts[i + 1] and counts[i + 2]:
        rest = list(counts)
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        if _complete(tuple(rest), sets - 1, pair):
            return True
    return False


@lru_cache(maxsize=1 << 14)
def wait_kinds(concealed: tuple[int, ...], sets: int, held: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds that complete ``concealed`` (34 counts, the winning tile not included) into
    ``sets`` sets and a pair, or seven pairs when ``sets == 4`` and 13 tiles are concealed.
    A kind of which ``held`` already has four is skipped (pass zeros for a shape-only wait,
    as the wait fans do)."""
    out = []
    seven = sets == 4 and sum(concealed) == 13
    for t in range(34):
        if held[t] >= 4:
            continue
        grown = list(concealed)
        grown[t] += 1
        key = tuple(grown)
        if _complete(key, sets, True) or (seven and all(n in (0, 2, 4) for n in key)):
            out.append(t)
    return tuple(out)


def completes_with(concealed: tuple[int, ...], sets: int, kind: int) -> bool:
    """Whether ``kind`` completes ``concealed`` into ``sets`` sets and a pair, shape only (a
    fifth copy allowed; seven pairs cannot use one)."""
    grown = list(concealed)
    grown[kind] += 1
    return _complete(tuple(grown), sets, True)
