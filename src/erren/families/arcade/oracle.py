"""arcade's cross-check for the corpus generator (test oracle only): a shape without a wild
against ``mahjong`` — its shanten (the three riichi shapes) and its win check on each of the
34 draws for the waits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mahjong.shanten import Shanten

from erren.conformance.crosscheck import (
    FOUR_COPIES_CLAUSE,
    Verdict,
    agari_waits,
    mahjong_regular,
    waits_verdict,
)
from erren.testing.oracles import regular_shanten

__all__ = ["SEVEN_PAIRS_CLAUSE", "arcade_shape"]

SEVEN_PAIRS_CLAUSE = (
    "arcade R5.1 and R4.14: in seven pairs a kind of four is two pairs; riichi (mahjong) needs "
    "seven different pairs"
)


def arcade_shape(counts: Sequence[int], held: Sequence[int], expected: dict[str, Any]) -> Verdict:
    """Without wilds: shanten against ``mahjong`` (its minimum over the riichi shapes) and the
    waits against its win check on each of the 34 draws."""
    counts = list(counts)
    size = sum(counts)
    ours = expected["shanten"]
    if size in (13, 14):
        theirs = int(Shanten().calculate_shanten(counts))
    else:
        theirs = mahjong_regular(counts)
    differs = ""
    if theirs != ours:
        seven = expected["by_shape"].get("seven_pairs")
        if seven is not None and seven == ours and (4 in counts or sum(c > 0 for c in counts) < 7):
            differs = SEVEN_PAIRS_CLAUSE
        elif 4 in counts and ours == min(
            regular_shanten(counts), *(v for k, v in expected["by_shape"].items() if k != "regular")
        ):
            differs = FOUR_COPIES_CLAUSE
        else:
            return Verdict(unexplained=f"mahjong shanten {theirs}, erren {ours}")
    if "waits" in expected:
        waits_differ, unexplained = waits_verdict(
            counts, held, expected["waits"], agari_waits(counts), SEVEN_PAIRS_CLAUSE
        )
        if unexplained:
            return Verdict(unexplained=unexplained)
        differs = differs or waits_differ
    return Verdict(oracle="mahjong", differs=differs)
