"""Which tile kinds complete a 13-tile holding (regular or seven pairs): the wait of §3.4,
used by the wait fans 边张/坎张/单钓将 (§5.2 A15).  Plain count tuples, memoised; the
completeness test is the analysis kernel's (:mod:`erren.analysis.complete`)."""

from __future__ import annotations

from functools import lru_cache

from erren.analysis.complete import is_complete_ignoring_copies
from erren.analysis.shapes import GUOBIAO_2P, Shape
from erren.analysis.waits import waits

__all__ = ["completes_with", "wait_kinds"]

_REGULAR = frozenset({Shape.REGULAR})


@lru_cache(maxsize=1 << 14)
def wait_kinds(concealed: tuple[int, ...], sets: int, held: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds that complete ``concealed`` (34 counts, the winning tile not included) into
    ``sets`` sets and a pair, or seven pairs when ``sets == 4`` and 13 tiles are concealed.
    A kind of which ``held`` already has four is skipped (pass zeros for a shape-only wait,
    as the wait fans do)."""
    if sum(concealed) != 3 * sets + 1:
        return ()
    found = set(waits(concealed, shapes=GUOBIAO_2P))  # seven pairs only at 13 tiles
    found.update(t for t in range(34) if concealed[t] == 4 and completes_with(concealed, sets, t))
    return tuple(t for t in sorted(found) if held[t] < 4)


def completes_with(concealed: tuple[int, ...], sets: int, kind: int) -> bool:
    """Whether ``kind`` completes ``concealed`` into ``sets`` sets and a pair, shape only (a
    fifth copy allowed; seven pairs cannot use one)."""
    grown = list(concealed)
    grown[kind] += 1
    if sum(grown) != 3 * sets + 2:
        return False
    return is_complete_ignoring_copies(grown, shapes=_REGULAR)
