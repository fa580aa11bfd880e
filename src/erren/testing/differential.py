"""Shared bits of the differential tests: the seed, sample sizes and mismatch reporting.

Each test function deals a batch of seeded hands (:mod:`erren.testing.hands`), runs erren and a
reference library on every hand, and collects the hands where they disagree in a way no documented
difference explains.  It then asserts that list is empty, printing the first few hands in
tenhou-style notation so a failure can be replayed with ``erren`` and the library by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from erren.testing.hands import Hand

SEED = 2024
"""One seed for the whole differential suite: a run is reproducible, CI sees the same hands."""


def gb_seven_pairs_shanten(counts: tuple[int, ...] | list[int]) -> int:
    """Seven pairs with four of a kind counting as two pairs (guobiao-2p §3.2, D22), 13/14 tiles.

    Every tile beyond the pairs can still be paired (a single has three copies left, the odd tile
    of a triple one), so the shanten is ``6 - pairs`` with ``pairs = Σ count // 2``, at most 7.
    """
    return 6 - min(7, sum(c // 2 for c in counts))


def is_gb_seven_pairs(counts: tuple[int, ...] | list[int]) -> bool:
    """A complete seven pairs in erren's (MCR) sense: 14 tiles, every count even."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


@dataclass(frozen=True, slots=True)
class Mismatch:
    hand: Hand
    what: str
    erren: object
    library: object

    def __str__(self) -> str:
        return f"{self.hand}: {self.what}: erren {self.erren!r}, library {self.library!r}"


def report(mismatches: list[Mismatch], checked: int, limit: int = 12) -> str:
    """The assertion message: how many of how many disagreed, and the first ``limit`` hands."""
    lines = [f"{len(mismatches)} unexplained disagreement(s) in {checked} checks:"]
    lines += [f"  {m}" for m in mismatches[:limit]]
    return "\n".join(lines)
