"""xiamen's cross-check for the corpus generator (test oracle only): a shape without a gold
against ``mahjong``'s regular shanten of the tiles as they play (a White as the gold kind)."""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis.golds import functional_counts
from erren.conformance.crosscheck import FOUR_COPIES_CLAUSE, Verdict, mahjong_regular
from erren.notation import parse_tile
from erren.testing.oracles import regular_shanten

__all__ = ["xiamen_shape"]


def xiamen_shape(counts: Sequence[int], gold: str, by_shape: dict[str, int]) -> Verdict | None:
    """Without a gold in the hand: the regular shanten of the tiles as they play (a White as
    the gold kind) against ``mahjong``; ``None`` when the hand holds a gold."""
    natural, golds = functional_counts(counts, int(parse_tile(gold)))
    if golds or max(natural) > 4:
        return None
    theirs = mahjong_regular(natural)
    ours = by_shape["regular"]
    if theirs == ours:
        return Verdict(oracle="mahjong")
    if 4 in natural and ours == regular_shanten(natural):
        return Verdict(oracle="mahjong", differs=FOUR_COPIES_CLAUSE)
    return Verdict(unexplained=f"mahjong regular {theirs}, erren {ours}")
