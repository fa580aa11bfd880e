"""The generator's cross-checks against the reference libraries (test oracles only).

* win rows of table ``gb`` — PyMahjongGB's ``MahjongFanCalculator`` total;
* guobiao shapes — PyMahjongGB's five shanten functions (13/14 tiles; regular at every size)
  and ``mahjong``'s regular shanten;
* xiamen shapes without a gold — ``mahjong``'s regular shanten of the tiles as they play;
* arcade shapes without a wild — ``mahjong``'s shanten (the three riichi shapes) and its win
  check on every draw for the waits.

Each gives a :class:`Verdict`: agreed (the row's ``source`` names the library), differs by
definition (the row's ``differs`` names the spec clause), or unexplained (counted; the
generator fails unless told otherwise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import MahjongGB
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from erren.analysis.golds import functional_counts
from erren.notation import parse_tile
from erren.testing.hands import from_gb, to_gb
from erren.testing.oracles import NO_LIMIT, regular_shanten
from erren.testing.wins import Case
from erren.tiles import Tile

__all__ = [
    "MELDED_AND_CONCEALED_KONG",
    "Tally",
    "Verdict",
    "arcade_shape",
    "gb_shape",
    "gb_win",
    "xiamen_shape",
]

MELDED_AND_CONCEALED_KONG = "明暗杠"

KONGS_CLAUSE = (
    "guobiao-2p §4.1 Kong fans, §4.3 #67 and #74: one melded and one concealed kong score "
    "明杠 1 + 暗杠 2 = 3; PyMahjongGB scores 明暗杠 5"
)
FOUR_COPIES_CLAUSE = (
    "guobiao-2p §3.4: no fifth copy of a kind; PyMahjongGB's shanten ignores the four-copy limit"
)
SEVEN_PAIRS_GB_CLAUSE = (
    "guobiao-2p §3.2 and D22: four of a kind is two pairs; riichi (mahjong) needs seven "
    "different pairs"
)
SEVEN_PAIRS_ARCADE_CLAUSE = (
    "arcade R5.1 and R4.14: in seven pairs a kind of four is two pairs; riichi (mahjong) needs "
    "seven different pairs"
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


# --------------------------------------------------------------------------------------------
# Wins


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


# --------------------------------------------------------------------------------------------
# Shapes

_GB_SHAPES = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "honors_and_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


def _mahjong_regular(counts: Sequence[int]) -> int:
    return int(Shanten().calculate_shanten_for_regular_hand(list(counts)))


def _agari_waits(counts: list[int]) -> list[int]:
    """The kinds whose draw ``mahjong``'s win check accepts (riichi's three shapes)."""
    found = []
    for kind in range(34):
        counts[kind] += 1
        if counts[kind] <= 4 and Agari().is_agari(counts):
            found.append(kind)
        counts[kind] -= 1
    return found


def _gb_useful(tiles: tuple[str, ...], by_shape: dict[str, int]) -> list[int]:
    """The union of PyMahjongGB's useful tiles over the shapes at shanten 0."""
    kinds: set[int] = set()
    for shape, value in by_shape.items():
        if value == 0:
            kinds.update(from_gb(_GB_SHAPES[shape](tiles)[1]))
    return sorted(kinds)


def _waits_verdict(
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
    if missing or any(not _quad_pairs(counts, k) for k in extra):
        names = [str(Tile(k)) for k in drawable]
        return "", f"library waits {names}, erren {ours}"
    if extra:
        differs = clause
    return differs, ""


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
    theirs = _mahjong_regular(counts)
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
        library = _agari_waits(counts) if shapes == "guobiao-2p" else _gb_useful(tiles, by_shape)
        waits_differ, unexplained = _waits_verdict(
            counts, held, expected["waits"], library, SEVEN_PAIRS_GB_CLAUSE
        )
        if unexplained:
            return Verdict(unexplained=unexplained)
        differs = differs or waits_differ
    return Verdict(oracle=", ".join(oracles), differs=differs)


def xiamen_shape(counts: Sequence[int], gold: str, by_shape: dict[str, int]) -> Verdict | None:
    """Without a gold in the hand: the regular shanten of the tiles as they play (a White as
    the gold kind) against ``mahjong``; ``None`` when the hand holds a gold."""
    natural, golds = functional_counts(counts, int(parse_tile(gold)))
    if golds or max(natural) > 4:
        return None
    theirs = _mahjong_regular(natural)
    ours = by_shape["regular"]
    if theirs == ours:
        return Verdict(oracle="mahjong")
    if 4 in natural and ours == regular_shanten(natural):
        return Verdict(oracle="mahjong", differs=FOUR_COPIES_CLAUSE)
    return Verdict(unexplained=f"mahjong regular {theirs}, erren {ours}")


def _quad_pairs(counts: Sequence[int], kind: int) -> bool:
    """Whether ``counts`` plus ``kind`` is seven pairs with a kind of four (riichi says no)."""
    after = list(counts)
    after[kind] += 1
    return sum(after) == 14 and 4 in after and all(c % 2 == 0 for c in after)


def arcade_shape(counts: Sequence[int], held: Sequence[int], expected: dict[str, Any]) -> Verdict:
    """Without wilds: shanten against ``mahjong`` (its minimum over the riichi shapes) and the
    waits against its win check on each of the 34 draws."""
    counts = list(counts)
    size = sum(counts)
    ours = expected["shanten"]
    if size in (13, 14):
        theirs = int(Shanten().calculate_shanten(counts))
    else:
        theirs = _mahjong_regular(counts)
    differs = ""
    if theirs != ours:
        seven = expected["by_shape"].get("seven_pairs")
        if seven is not None and seven == ours and (4 in counts or sum(c > 0 for c in counts) < 7):
            differs = SEVEN_PAIRS_ARCADE_CLAUSE
        elif 4 in counts and ours == min(
            regular_shanten(counts), *(v for k, v in expected["by_shape"].items() if k != "regular")
        ):
            differs = FOUR_COPIES_CLAUSE
        else:
            return Verdict(unexplained=f"mahjong shanten {theirs}, erren {ours}")
    if "waits" in expected:
        waits_differ, unexplained = _waits_verdict(
            counts, held, expected["waits"], _agari_waits(counts), SEVEN_PAIRS_ARCADE_CLAUSE
        )
        if unexplained:
            return Verdict(unexplained=unexplained)
        differs = differs or waits_differ
    return Verdict(oracle="mahjong", differs=differs)
