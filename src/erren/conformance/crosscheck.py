"""The generator's cross-checks against the reference libraries (test oracles only): what
every family's check uses — the verdict, the tally, ``mahjong``'s regular shanten and win
check, and erren's waits against a library's.  Each family's own checks (PyMahjongGB's fans
and shapes for guobiao-2p, ``mahjong`` for the xiamen hands without a gold and the arcade
hands without a wild) are in its package (``families/<name>/oracle.py``), given to the
generator by its :class:`~erren.conformance.adapter.ConformanceAdapter`.

Each gives a :class:`Verdict`: agreed (the row's ``source`` names the library), differs by
definition (the row's ``differs`` names the spec clause), or unexplained (counted; the
generator fails unless told otherwise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from erren.notation import parse_tile
from erren.tiles import Tile

__all__ = [
    "FOUR_COPIES_CLAUSE",
    "FOUR_HELD_CLAUSE",
    "Tally",
    "Verdict",
    "agari_waits",
    "mahjong_regular",
    "quad_pairs",
    "waits_verdict",
]

FOUR_COPIES_CLAUSE = (
    "guobiao-2p §3.4: no fifth copy of a kind; PyMahjongGB's shanten ignores the four-copy limit"
)
FOUR_HELD_CLAUSE = (
    "guobiao-2p §3.4 / arcade R5.2: a kind the player holds all four of is no wait; mahjong's "
    "win check does not know the melds"
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """``oracle`` agreed (``differs`` empty), or differs by the clause ``differs``; neither
    when ``unexplained`` holds what differs."""

    oracle: str = ""
    differs: str = ""
    unexplained: str = ""


@dataclass(slots=True)
class Tally:
    """Cross-check figures per oracle: rows checked, agreed, differing by definition, and the
    unexplained ones (kept to show)."""

    checked: Counter[str] = field(default_factory=Counter)
    agreed: Counter[str] = field(default_factory=Counter)
    by_definition: Counter[str] = field(default_factory=Counter)
    unexplained: list[str] = field(default_factory=list)

    def add(self, name: str, verdict: Verdict, row_id: str) -> None:
        self.checked[name] += 1
        if verdict.unexplained:
            self.unexplained.append(f"{row_id}: {verdict.unexplained}")
        elif verdict.differs:
            self.by_definition[name] += 1
        else:
            self.agreed[name] += 1

    def lines(self) -> list[str]:
        return [
            f"{name}: {self.checked[name]} checked, {self.agreed[name]} agreed, "
            f"{self.by_definition[name]} differ by definition, "
            f"{self.checked[name] - self.agreed[name] - self.by_definition[name]} unexplained"
            for name in sorted(self.checked)
        ]


def mahjong_regular(counts: Sequence[int]) -> int:
    return int(Shanten().calculate_shanten_for_regular_hand(list(counts)))


def agari_waits(counts: list[int]) -> list[int]:
    """The kinds whose draw ``mahjong``'s win check accepts (riichi's three shapes)."""
    found = []
    for kind in range(34):
        counts[kind] += 1
        if counts[kind] <= 4 and Agari().is_agari(counts):
            found.append(kind)
        counts[kind] -= 1
    return found


def waits_verdict(
    counts: list[int], held: Sequence[int], ours: list[str], theirs: list[int], clause: str
) -> tuple[str, str]:
    """``(differs, unexplained)`` of erren's waits against a library's, which knows no melds:
    a kind held four times is dropped from the library's list (``FOUR_HELD_CLAUSE``), and erren
    may add a draw that makes seven pairs with a kind of four (``clause``)."""
    differs = ""
    drawable = [k for k in theirs if counts[k] + held[k] < 4]
    if drawable != theirs:
        differs = FOUR_HELD_CLAUSE
    mine = [int(parse_tile(t)) for t in ours]
    missing = [k for k in drawable if k not in mine]
    extra = [k for k in mine if k not in drawable]
    if missing or any(not quad_pairs(counts, k) for k in extra):
        names = [str(Tile(k)) for k in drawable]
        return "", f"library waits {names}, erren {ours}"
    if extra:
        differs = clause
    return differs, ""


def quad_pairs(counts: Sequence[int], kind: int) -> bool:
    """Whether ``counts`` plus ``kind`` is seven pairs with a kind of four (riichi says no)."""
    after = list(counts)
    after[kind] += 1
    return sum(after) == 14 and 4 in after and all(c % 2 == 0 for c in after)
