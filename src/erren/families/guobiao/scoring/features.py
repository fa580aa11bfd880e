"""The *feature* bits of a guobiao hand and reading (the ``F_*`` bits): what must hold for a fan
to be possible.  :class:`~erren.families.guobiao.scoring.facts.HandFacts` sets the hand-level bits
(:func:`tile_features`, :func:`win_features`), :class:`~erren.families.guobiao.scoring.facts.Facts`
the
reading-level ones; each fan's guard (:mod:`erren.families.guobiao.scoring.fans`) is a set of them,
and
the calculator calls a detector only when its guard holds."""

from __future__ import annotations

from erren.analysis.shapes import Shape
from erren.families.guobiao.scoring.combos import CHOW_FANS, PUNG_FANS
from erren.families.guobiao.scoring.context import WinContext
from erren.tiles import NUM_KINDS

__all__ = [
    "CHOW_BITS",
    "COMBO_BITS",
    "CONCEALED_PUNG_BITS",
    "F_ALL_CHOWS",
    "F_ALL_HONORS",
    "F_ALL_TERMINALS",
    "F_ALL_TYPES",
    "F_CLOSED",
    "F_CONCEALED",
    "F_DIHU",
    "F_DRAGON_PUNG",
    "F_EDGE",
    "F_EVEN_PUNGS",
    "F_FIVES",
    "F_FOUR",
    "F_FOUR_CONCEALED_PUNGS",
    "F_FOUR_PUNGS",
    "F_FULLY_CONCEALED",
    "F_FULL_FLUSH",
    "F_GREEN",
    "F_HALF_FLUSH",
    "F_HONORS_KNITTED",
    "F_KNITTED",
    "F_KNITTED_STRAIGHT",
    "F_KONG",
    "F_LAST_CLAIM",
    "F_LAST_COPY",
    "F_LAST_DRAW",
    "F_LOWER",
    "F_LOWER_FOUR",
    "F_MELDED",
    "F_MIDDLE",
    "F_NO_HONORS",
    "F_ONE_SUIT_CONCEALED",
    "F_ORPHANS",
    "F_OUTSIDE",
    "F_READY",
    "F_REGULAR",
    "F_REPLACEMENT",
    "F_REVERSIBLE",
    "F_ROBBING",
    "F_ROUND_PUNG",
    "F_SEAT_PUNG",
    "F_SELF_DRAWN",
    "F_SETS",
    "F_SEVEN_PAIRS",
    "F_SIMPLES",
    "F_SINGLE",
    "F_TERMINALS_AND_HONORS",
    "F_THREE_CONCEALED_PUNGS",
    "F_TIANHU",
    "F_TIANTING",
    "F_TWO_CONCEALED_PUNGS",
    "F_UPPER",
    "F_UPPER_FOUR",
    "F_VOIDED",
    "F_YAOJIU_PUNG",
    "GREEN",
    "GROUP_ALL",
    "PUNG_BITS",
    "REVERSIBLE",
    "SAME_BITS",
    "SHAPE_BITS",
    "tile_features",
    "win_features",
]

REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
GREEN = frozenset((19, 20, 21, 23, 25, 32))

# Feature bits.  Hand level (the same for every reading):
F_GREEN = 1 << 0  # every tile in 23468s 6z
F_ALL_TERMINALS = 1 << 1
F_ALL_HONORS = 1 << 2
F_TERMINALS_AND_HONORS = 1 << 3  # all 幺九, some terminal and some honor
F_FULL_FLUSH = 1 << 4  # one suit, no honor
F_HALF_FLUSH = 1 << 5  # one suit and honors
F_VOIDED = 1 << 6  # exactly two suits
F_NO_HONORS = 1 << 7  # no honor, more than one suit
F_ALL_TYPES = 1 << 8  # three suits, a wind and a dragon
F_REVERSIBLE = 1 << 9
F_SIMPLES = 1 << 10  # no terminal, no honor
F_UPPER = 1 << 11  # every tile suited and 7..9
F_MIDDLE = 1 << 12  # 4..6
F_LOWER = 1 << 13  # 1..3
F_UPPER_FOUR = 1 << 14  # 6..9
F_LOWER_FOUR = 1 << 15  # 1..4
F_SELF_DRAWN = 1 << 16
F_LAST_DRAW = 1 << 17  # self-drawn last tile of the wall
F_LAST_CLAIM = 1 << 18  # discard win on the last tile
F_REPLACEMENT = 1 << 19
F_ROBBING = 1 << 20
F_MELDED = 1 << 21  # four claimed melds, discard win
F_FULLY_CONCEALED = 1 << 22  # no claimed meld, self-drawn
F_CONCEALED = 1 << 23  # no claimed meld, discard win
F_LAST_COPY = 1 << 24  # 和绝张 (not robbing)
F_TIANHU = 1 << 25
F_DIHU = 1 << 26
F_TIANTING = 1 << 27
F_READY = 1 << 28  # 报听 or 天听
F_FOUR = 1 << 29  # some kind held four times
F_ONE_SUIT_CONCEALED = 1 << 30  # no meld, one suit, no honor (九莲宝灯's precondition)
# Reading level:
F_REGULAR = 1 << 31
F_SEVEN_PAIRS = 1 << 32
F_ORPHANS = 1 << 33
F_HONORS_KNITTED = 1 << 34
F_KNITTED_STRAIGHT = 1 << 35
F_KNITTED = 1 << 36  # 组合龙 or 全不靠 (both can score 组合龙)
F_SETS = 1 << 37  # regular or 组合龙: sets and a pair
F_KONG = 1 << 38
F_TWO_CONCEALED_PUNGS = 1 << 39
F_THREE_CONCEALED_PUNGS = 1 << 40
F_FOUR_CONCEALED_PUNGS = 1 << 41
F_FOUR_PUNGS = 1 << 42  # regular, four pungs/kongs
F_DRAGON_PUNG = 1 << 43
F_YAOJIU_PUNG = 1 << 44  # a terminal or wind pung
F_ROUND_PUNG = 1 << 45
F_SEAT_PUNG = 1 << 46
F_ALL_CHOWS = 1 << 47  # 平和's condition
F_OUTSIDE = 1 << 48  # regular, every set and the pair hold a terminal or honor
F_FIVES = 1 << 49  # regular, every set and the pair hold a 5
F_EVEN_PUNGS = 1 << 50  # regular, pungs and pair of 2, 4, 6, 8
F_EDGE = 1 << 51
F_CLOSED = 1 << 52
F_SINGLE = 1 << 53
_FIRST_COMBO = 54
COMBO_BITS: dict[str, int] = {
    fan: 1 << (_FIRST_COMBO + i) for i, fan in enumerate((*CHOW_FANS, *PUNG_FANS))
}
"""The feature bit of each set-combination fan (A6, A7, A9): set when the reading scores it."""

SHAPE_BITS = {
    Shape.REGULAR: F_REGULAR | F_SETS,
    Shape.SEVEN_PAIRS: F_SEVEN_PAIRS,
    Shape.THIRTEEN_ORPHANS: F_ORPHANS,
    Shape.HONORS_AND_KNITTED: F_HONORS_KNITTED | F_KNITTED,
    Shape.KNITTED_STRAIGHT: F_KNITTED_STRAIGHT | F_KNITTED | F_SETS,
}
CONCEALED_PUNG_BITS = {2: F_TWO_CONCEALED_PUNGS, 3: F_THREE_CONCEALED_PUNGS}
GROUP_ALL = F_OUTSIDE | F_FIVES | F_EVEN_PUNGS


def _number_bits(numbers: int) -> int:
    """A13 from the bit set of the numbers present (bit n for n = 1..9; 0 if an honor is in)."""
    out = 0
    if not numbers:
        return out
    for bit, allowed in (
        (F_UPPER, (7, 8, 9)),
        (F_MIDDLE, (4, 5, 6)),
        (F_LOWER, (1, 2, 3)),
        (F_UPPER_FOUR, (6, 7, 8, 9)),
        (F_LOWER_FOUR, (1, 2, 3, 4)),
    ):
        mask = 0
        for n in allowed:
            mask |= 1 << n
        if not numbers & ~mask:
            out |= bit
    return out


def _same_bits(t: int) -> int:
    """F_OUTSIDE/F_FIVES/F_EVEN_PUNGS of a pung, kong or pair of kind ``t``."""
    if t >= 27:
        return F_OUTSIDE
    n = t % 9
    return (
        (F_OUTSIDE if n in (0, 8) else 0)
        | (F_FIVES if n == 4 else 0)
        | (F_EVEN_PUNGS if n in (1, 3, 5, 7) else 0)
    )


def _chow_bits(t: int) -> int:
    n = t % 9
    return (F_OUTSIDE if n in (0, 6) else 0) | (F_FIVES if n in (2, 3, 4) else 0)


SAME_BITS = tuple(_same_bits(t) for t in range(NUM_KINDS))
CHOW_BITS = tuple(_chow_bits(t) if t < 27 else 0 for t in range(NUM_KINDS))
PUNG_BITS = tuple(
    (F_DRAGON_PUNG if t >= 31 else 0)
    | (F_YAOJIU_PUNG if 27 <= t <= 30 or (t < 27 and t % 9 in (0, 8)) else 0)
    for t in range(NUM_KINDS)
)


def tile_features(counts: list[int], kinds: list[int], has_melds: bool) -> int:
    """The hand-level ``F_*`` bits of the tiles held (A11–A14, 九莲宝灯's precondition)."""
    suits = 0  # bit per suit present
    honors = 0  # 1: a wind, 2: a dragon
    numbers = 0  # bit per number present (A13)
    terminal_or_honor = 0
    simple = 0
    reversible = True
    green = True
    four = False
    for k in kinds:
        if k >= 27:
            honors |= 1 if k <= 30 else 2
            terminal_or_honor += 1
        else:
            suits |= 1 << (k // 9)
            n = k % 9
            numbers |= 1 << (n + 1)
            if n in (0, 8):
                terminal_or_honor += 1
            else:
                simple += 1
        if reversible and k not in REVERSIBLE:
            reversible = False
        if green and k not in GREEN:
            green = False
        if counts[k] == 4:
            four = True
    f = (F_GREEN if green else 0) | (F_REVERSIBLE if reversible else 0) | (F_FOUR if four else 0)
    f |= _suit_features(suits, honors, numbers, has_melds)
    if not simple:  # every tile a terminal or an honor
        if not suits:
            f |= F_ALL_HONORS
        elif not honors:
            f |= F_ALL_TERMINALS
        else:
            f |= F_TERMINALS_AND_HONORS
    elif terminal_or_honor == 0:
        f |= F_SIMPLES
    return f


def _suit_features(suits: int, honors: int, numbers: int, has_melds: bool) -> int:
    """A11 and A13 from the suits (a bit each), honors (1 wind, 2 dragon) and numbers held."""
    f = 0
    n_suits = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1)
    if n_suits == 1:
        f |= F_HALF_FLUSH if honors else F_FULL_FLUSH
        if not honors and not has_melds:
            f |= F_ONE_SUIT_CONCEALED
    elif n_suits == 2:
        f |= F_VOIDED
    elif n_suits == 3 and honors == 3:
        f |= F_ALL_TYPES
    if not honors:
        f |= _number_bits(numbers)
        if n_suits > 1:
            f |= F_NO_HONORS
    return f


def win_features(ctx: WinContext, self_drawn: bool, tianhu: bool, n_claimed: int) -> int:
    """The hand-level ``F_*`` bits of how the hand was won (A8, A16, step C)."""
    f = 0
    robbing = ctx.robbing_kong and not self_drawn
    last_tile = ctx.last_tile
    if self_drawn:
        f |= F_SELF_DRAWN
        if last_tile:
            f |= F_LAST_DRAW
        if ctx.kong_replacement:
            f |= F_REPLACEMENT
        if n_claimed == 0:
            f |= F_FULLY_CONCEALED
    else:
        if last_tile:
            f |= F_LAST_CLAIM
        if robbing:
            f |= F_ROBBING
        if n_claimed == 0:
            f |= F_CONCEALED
        elif n_claimed == 4:
            f |= F_MELDED
        if ctx.dihu:
            f |= F_DIHU
    if ctx.last_copy and not robbing:
        f |= F_LAST_COPY
    if tianhu:
        f |= F_TIANHU
    if ctx.tianting:
        f |= F_TIANTING | F_READY
    elif ctx.ting:
        f |= F_READY
    return f
