"""What a player asks of a hand: how far from winning, what it waits for, what to discard.

This module puts the count-level analysis (:mod:`~erren.analysis.shanten`,
:mod:`~erren.analysis.waits`) together for one parsed :class:`~erren.hand.Hand`.
"""

from __future__ import annotations

from dataclasses import dataclass

from erren.analysis.shanten import shanten_by_shape
from erren.analysis.shapes import ARCADE, GB, GUOBIAO_2P, RIICHI, XIAMEN, Shape, ShapeSet
from erren.analysis.waits import DiscardOption, discard_table, improving, waits
from erren.errors import AnalysisError
from erren.hand import Hand

SHAPE_SETS: dict[str, ShapeSet] = {
    "gb": GB,
    "guobiao-2p": GUOBIAO_2P,
    "arcade": ARCADE,
    "xiamen": XIAMEN,
    "riichi": RIICHI,
}
"""Named shape sets: which winning shapes exist (a ruleset chooses)."""


@dataclass(frozen=True, slots=True)
class KindCount:
    """A tile kind and how many of it the player has not seen."""

    kind: int
    remaining: int


@dataclass(frozen=True, slots=True)
class HandReport:
    """The analysis of one hand.

    ``waits`` is set for a ready-or-not hand of 13 − 3k tiles (empty when not ready),
    ``improving`` for such a hand that is not ready (the draws that lower its shanten), and
    ``discards`` for a hand of 14 − 3k tiles (best first).
    """

    hand: Hand
    wilds: int
    shanten: int
    by_shape: dict[Shape, int]
    waits: tuple[KindCount, ...] | None
    improving: tuple[KindCount, ...] | None
    discards: tuple[DiscardOption, ...] | None

    @property
    def complete(self) -> bool:
        return self.shanten == -1


def analyze(
    hand: Hand,
    *,
    wilds: int = 0,
    shapes: ShapeSet = GB,
    seen: list[int] | None = None,
) -> HandReport:
    """Analyse ``hand`` (no winning tile) holding ``wilds`` extra wild tiles.

    ``seen`` counts tiles the player can see outside the hand (discards, the opponent's
    melds); what remains of a kind is four minus what the hand, its melds and ``seen`` show.
    """
    if hand.winning is not None:
        raise AnalysisError("analysis takes a hand without a winning tile (+X)")
    if wilds < 0:
        raise AnalysisError(f"the number of wild tiles cannot be negative ({wilds})")
    counts = hand.concealed_counts()
    visible = hand.all_counts()
    if seen is not None:
        visible = [min(4, a + b) for a, b in zip(visible, seen, strict=True)]
    total = len(hand.concealed) + wilds
    by_shape = shanten_by_shape(counts, wilds=wilds, shapes=shapes)
    best = min(by_shape.values())

    def remaining(kinds: list[int] | tuple[int, ...]) -> tuple[KindCount, ...]:
        return tuple(KindCount(k, 4 - visible[k]) for k in kinds)

    wait_list = improving_list = discards = None
    if total % 3 == 1:
        wait_list = remaining(waits(counts, wilds=wilds, shapes=shapes, held=hand.meld_counts()))
        if best > 0:
            improving_list = remaining(improving(counts, wilds=wilds, shapes=shapes)[1])
    else:
        discards = tuple(discard_table(counts, wilds=wilds, shapes=shapes, visible=visible))
    return HandReport(hand, wilds, best, by_shape, wait_list, improving_list, discards)
