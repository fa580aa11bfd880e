"""guobiao-2p's cross-checks for the corpus generator (test oracles only): the ``gb`` wins'
totals against PyMahjongGB's ``MahjongFanCalculator``; the shapes' shanten against
PyMahjongGB's five shanten functions (13/14 tiles; regular at every size) and ``mahjong``'s
regular shanten, and their waits against ``mahjong``'s win check (set ``guobiao-2p``) or
PyMahjongGB's useful tiles (set ``gb``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import MahjongGB

from erren.conformance.crosscheck import (
    FOUR_COPIES_CLAUSE,
    Verdict,
    agari_waits,
    mahjong_regular,
    waits_verdict,
)
from erren.testing.hands import from_gb, to_gb
from erren.testing.oracles import NO_LIMIT, regular_shanten
from erren.testing.wins import Case

__all__ = ["KONGS_CLAUSE", "MELDED_AND_CONCEALED_KONG", "SEVEN_PAIRS_CLAUSE", "gb_shape", "gb_win"]

MELDED_AND_CONCEALED_KONG = "明暗杠"

KONGS_CLAUSE = (
    "guobiao-2p §4.1 Kong fans, §4.3 #67 and #74: one melded and one concealed kong score "
    "明杠 1 + 暗杠 2 = 3; PyMahjongGB scores 明暗杠 5"
)
SEVEN_PAIRS_CLAUSE = (
    "guobiao-2p §3.2 and D22: four of a kind is two pairs; riichi (mahjong) needs seven "
    "different pairs"
)


def gb_win(case: Case, total: int) -> Verdict:
    """erren's ``gb`` total against PyMahjongGB's, with the one documented difference."""
    fans = MahjongGB.MahjongFanCalculator(**case.gb_arguments())
    raw = sum(value * count for value, count, _, _ in fans)
    if raw == total:
        return Verdict(oracle="pymahjonggb")
    names = {name for _, _, name, _ in fans}
    if MELDED_AND_CONCEALED_KONG in names:
        adjusted = sum(
            (3 if name == MELDED_AND_CONCEALED_KONG else value) * count
            for value, count, name, _ in fans
        )
        if adjusted == total:
            return Verdict(oracle="pymahjonggb", differs=KONGS_CLAUSE)
    return Verdict(unexplained=f"pymahjonggb total {raw}, erren {total}")


_GB_SHAPES = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "honors_and_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


def _gb_useful(tiles: tuple[str, ...], by_shape: dict[str, int]) -> list[int]:
    """The union of PyMahjongGB's useful tiles over the shapes at shanten 0."""
    kinds: set[int] = set()
    for shape, value in by_shape.items():
        if value == 0:
            kinds.update(from_gb(_GB_SHAPES[shape](tiles)[1]))
    return sorted(kinds)


def gb_shape(
    counts: Sequence[int], held: Sequence[int], expected: dict[str, Any], shapes: str
) -> Verdict:
    """The regular shanten against ``mahjong``; set ``guobiao-2p``: the waits against its win
    check on every draw; set ``gb``, a 3n+1 hand: every shape's shanten and the waits against
    PyMahjongGB (which takes 3n+1 hands only)."""
    counts = list(counts)
    by_shape: dict[str, int] = expected["by_shape"]
    tiles = to_gb(counts)
    size = sum(counts)
    differs = ""
    oracles = ["mahjong"]
    ours = by_shape["regular"]
    theirs = mahjong_regular(counts)
    if theirs != ours:
        if not (4 in counts and ours == regular_shanten(counts)):
            return Verdict(unexplained=f"mahjong regular {theirs}, erren {ours}")
        differs = FOUR_COPIES_CLAUSE
    if shapes == "gb" and size % 3 == 1:
        oracles.append("pymahjonggb")
        for shape, value in by_shape.items():
            theirs = int(_GB_SHAPES[shape](tiles)[0])
            if theirs == value:
                continue
            if shape == "regular" and theirs == regular_shanten(counts, limit=(NO_LIMIT,) * 34):
                differs = FOUR_COPIES_CLAUSE
                continue
            return Verdict(unexplained=f"pymahjonggb {shape} {theirs}, erren {value}")
    if "waits" in expected and (shapes == "guobiao-2p" or expected["shanten"] == 0):
        library = agari_waits(counts) if shapes == "guobiao-2p" else _gb_useful(tiles, by_shape)
        waits_differ, unexplained = waits_verdict(
            counts, held, expected["waits"], library, SEVEN_PAIRS_CLAUSE
        )
        if unexplained:
            return Verdict(unexplained=unexplained)
        differs = differs or waits_differ
    return Verdict(oracle=", ".join(oracles), differs=differs)
