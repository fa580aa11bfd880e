"""The facts detectors share, computed once per hand (:class:`HandFacts`) and once per reading
and table (:class:`Facts`): counts, suits, chows and pungs by kind, concealment, the solved
set-combination fans, and a *feature* bitmask (the ``F_*`` bits) that the calculator tests
each fan's guard against before calling its detector.  Detectors are small functions over
these."""

from __future__ import annotations

from erren.analysis import _kernel
from erren.analysis.readings import GroupKind, Reading
from erren.analysis.shapes import SHAPE_MASKS, Shape
from erren.hand import Hand
from erren.melds import MeldKind
from erren.scoring.guobiao._waits import completes_with, wait_kinds
from erren.scoring.guobiao.combos import CHOW_FANS, PUNG_FANS, chow_combos, pung_combos
from erren.scoring.guobiao.context import WinContext
from erren.tiles import NUM_KINDS, Tile

__all__ = ["COMBO_BITS", "Facts", "HandFacts"]

_REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
_NO_LIMIT = (0,) * NUM_KINDS
_GREEN = frozenset((19, 20, 21, 23, 25, 32))
_WAIT_MASK = SHAPE_MASKS[frozenset((Shape.REGULAR, Shape.SEVEN_PAIRS))]
_k_waits = _kernel.waits

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

_SHAPE_BITS = {
    Shape.REGULAR: F_REGULAR | F_SETS,
    Shape.SEVEN_PAIRS: F_SEVEN_PAIRS,
    Shape.THIRTEEN_ORPHANS: F_ORPHANS,
    Shape.HONORS_AND_KNITTED: F_HONORS_KNITTED | F_KNITTED,
    Shape.KNITTED_STRAIGHT: F_KNITTED_STRAIGHT | F_KNITTED | F_SETS,
}
_CONCEALED_PUNG_BITS = {2: F_TWO_CONCEALED_PUNGS, 3: F_THREE_CONCEALED_PUNGS}
_GROUP_ALL = F_OUTSIDE | F_FIVES | F_EVEN_PUNGS


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


_SAME_BITS = tuple(_same_bits(t) for t in range(NUM_KINDS))
_CHOW_BITS = tuple(_chow_bits(t) if t < 27 else 0 for t in range(NUM_KINDS))
_PUNG_BITS = tuple(
    (F_DRAGON_PUNG if t >= 31 else 0)
    | (F_YAOJIU_PUNG if 27 <= t <= 30 or (t < 27 and t % 9 in (0, 8)) else 0)
    for t in range(NUM_KINDS)
)
_CHOW = GroupKind.CHOW
_PUNG = GroupKind.PUNG
_KONG = GroupKind.KONG
_PAIR = GroupKind.PAIR
_KNITTED_KIND = GroupKind.KNITTED
_AN_GANG = MeldKind.AN_GANG


def _tile_features(counts: list[int], kinds: list[int], has_melds: bool) -> int:
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
        if reversible and k not in _REVERSIBLE:
            reversible = False
        if green and k not in _GREEN:
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


def _win_features(ctx: WinContext, self_drawn: bool, tianhu: bool, n_claimed: int) -> int:
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


class HandFacts:
    """Facts of the whole hand, the same for every reading; ``features`` holds the hand-level
    ``F_*`` bits."""

    __slots__ = (
        "_unique_wait",
        "counts",
        "ctx",
        "features",
        "flowers",
        "hand",
        "kinds",
        "round_wind",
        "seat_wind",
        "self_drawn",
        "tianhu",
        "win",
    )

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        self.hand = hand
        self.ctx = ctx
        counts = [0] * NUM_KINDS
        for t in hand.concealed:
            counts[t] += 1
        winning = hand.winning
        win = -1 if winning is None else int(winning)
        if win >= 0:
            counts[win] += 1
        melds = hand.melds
        n_claimed = 0
        for meld in melds:
            if meld.kind is not _AN_GANG:
                n_claimed += 1
            for t in meld.tiles:
                counts[t] += 1
        self.counts = counts
        kinds = [k for k in range(NUM_KINDS) if counts[k]]
        self.kinds = kinds
        self.win = win
        tianhu = winning is None or ctx.tianhu
        self.tianhu = tianhu
        self_drawn = ctx.self_drawn or tianhu
        self.self_drawn = self_drawn
        self.seat_wind = int(
            ctx.seat_wind if ctx.seat_wind is not None else (Tile.EAST if tianhu else Tile.SOUTH)
        )
        self.round_wind = int(ctx.round_wind)
        self.flowers = ctx.flowers if ctx.flowers is not None else len(hand.flowers)
        self._unique_wait: bool | None = None

        self.features = _tile_features(counts, kinds, bool(melds)) | _win_features(
            ctx, self_drawn, tianhu, n_claimed
        )

    def unique_wait(self) -> bool:
        """Exactly one kind completes the hand held before the win (§5.2 A15)."""
        if self._unique_wait is None:
            hand = self.hand
            if hand.winning is None:
                self._unique_wait = False
            else:
                concealed = [0] * NUM_KINDS
                for t in hand.concealed:
                    concealed[t] += 1
                n_waits = len(_k_waits(concealed, 0, _WAIT_MASK, None, 4))
                if n_waits < 2 and 4 in concealed:
                    # Shape only: a kind the hand already holds four of still counts as a
                    # wait ("ignoring how many copies remain", A15; as MCR calculators do),
                    # which the kernel (four copies at most) leaves out.
                    held = tuple(concealed)
                    sets = 4 - len(hand.melds)
                    n_waits += sum(
                        1
                        for k in range(NUM_KINDS)
                        if held[k] == 4 and completes_with(held, sets, k)
                    )
                self._unique_wait = n_waits == 1
        return self._unique_wait


class Facts:
    """Facts of one reading under one table; ``features`` holds every ``F_*`` bit that holds."""

    __slots__ = (
        "all_groups",
        "chow_fans",
        "chows",
        "concealed_chows",
        "features",
        "h",
        "kongs",
        "n_concealed_kongs",
        "n_concealed_pungs",
        "n_exposed_kongs",
        "n_knitted",
        "pair",
        "pung_fans",
        "pungs",
        "reading",
        "shape",
        "wait",
    )

    def __init__(  # noqa: PLR0915 - one pass over the groups, the hot path of scoring
        self,
        h: HandFacts,
        reading: Reading,
        chow_values: tuple[int, ...],
        pung_values: tuple[int, ...],
        wait_fans: bool,
    ) -> None:
        self.h = h
        self.reading = reading
        shape = reading.shape
        self.shape = shape
        groups = reading.groups
        self.all_groups = tuple(range(len(groups)))
        chows: list[tuple[int, int]] = []
        pungs: list[tuple[int, int]] = []
        kongs: list[int] = []
        concealed_chows: list[tuple[int, int]] = []
        n_concealed_pungs = 0
        concealed_pung_kinds = 0  # bit per kind
        pair = -1
        pair_gi = -1
        n_knitted = 0
        n_exposed_kongs = 0
        n_concealed_kongs = 0
        features = h.features | _SHAPE_BITS[shape]
        regular = shape is Shape.REGULAR or shape is Shape.KNITTED_STRAIGHT
        every = _GROUP_ALL if shape is Shape.REGULAR else 0  # bits every group must have
        pung_bits = 0
        for gi, g in enumerate(groups):
            kind = g.kind
            t = g.tiles[0]
            if kind is _CHOW:
                chows.append((t, gi))
                if g.meld is None:
                    concealed_chows.append((t, gi))
                every &= _CHOW_BITS[t]
            elif kind is _PUNG or kind is _KONG:
                pungs.append((t, gi))
                pung_bits |= _PUNG_BITS[t]
                every &= _SAME_BITS[t]
                if kind is _KONG:
                    kongs.append(gi)
                    meld = g.meld
                    if meld is not None and meld.kind is _AN_GANG:
                        n_concealed_kongs += 1
                    else:
                        n_exposed_kongs += 1
                elif g.meld is None:
                    n_concealed_pungs += 1
                    concealed_pung_kinds |= 1 << t
            elif kind is _PAIR:
                if regular:
                    pair = t
                    pair_gi = gi
                    every &= _SAME_BITS[t]
            elif kind is _KNITTED_KIND:
                n_knitted += 1
        win = h.win
        # A2: on a discard win, a concealed pung of the winning kind is exposed unless the
        # winning tile fits a concealed chow of the reading.
        if (
            win >= 0
            and not h.self_drawn
            and concealed_pung_kinds >> win & 1
            and not any(c <= win <= c + 2 and win // 9 == c // 9 for c, _ in concealed_chows)
        ):
            n_concealed_pungs -= 1
        n_concealed_pungs += n_concealed_kongs
        self.chows = chows
        self.pungs = pungs
        self.kongs = kongs
        self.concealed_chows = concealed_chows
        self.pair = (pair, pair_gi)
        self.n_knitted = n_knitted
        self.n_exposed_kongs = n_exposed_kongs
        self.n_concealed_kongs = n_concealed_kongs
        self.n_concealed_pungs = n_concealed_pungs
        features |= every | pung_bits | self._set_features(regular)
        self.chow_fans: dict[str, list[tuple[int, ...]]] = {}
        self.pung_fans: dict[str, list[tuple[int, ...]]] = {}
        if len(chows) >= 2:
            features |= self._chow_combinations(chow_values)
        if len(pungs) >= 2:
            features |= self._pung_combinations(pung_values)
        # A15: the wait fan of this reading, if the wait is unique.
        self.wait = self._wait(win) if wait_fans and win >= 0 and regular else ""
        if self.wait:
            features |= _WAIT_BITS[self.wait]
        self.features = features

    def _set_features(self, regular: bool) -> int:
        """The bits of kongs, concealed pungs, wind pungs, 碰碰和 and 平和 (A3, A4, A9, A20)."""
        h = self.h
        pungs = self.pungs
        features = F_KONG if self.kongs else 0
        n = self.n_concealed_pungs
        if n >= 2:
            features |= _CONCEALED_PUNG_BITS.get(n, F_FOUR_CONCEALED_PUNGS)
        if pungs:
            for t, _ in pungs:
                if t == h.round_wind:
                    features |= F_ROUND_PUNG
                if t == h.seat_wind:
                    features |= F_SEAT_PUNG
            if len(pungs) == 4 and self.shape is Shape.REGULAR:
                features |= F_FOUR_PUNGS
        pair = self.pair[0]
        if regular and len(self.chows) + self.n_knitted == 4 and 0 <= pair < 27:
            features |= F_ALL_CHOWS
        return features

    def _chow_combinations(self, chow_values: tuple[int, ...]) -> int:
        """A6, solved on the sorted first kinds and mapped back to group indices."""
        ordered = sorted(self.chows)
        bits = 0
        fans = self.chow_fans
        firsts = tuple(c for c, _ in ordered)
        pair = self.pair[0]
        # The pair matters only to the 双龙会 fans (four chows, a pair of 5): key the
        # memoised solution on it only then, so that it recurs across hands.
        if len(firsts) != 4 or not 0 <= pair < 27 or pair % 9 != 4:
            pair = -1
        for fan, pos in chow_combos(firsts, pair, chow_values):
            fans.setdefault(fan, []).append(tuple(ordered[p][1] for p in pos))
            bits |= COMBO_BITS[fan]
        return bits

    def _pung_combinations(self, pung_values: tuple[int, ...]) -> int:
        """A7 (with A9's pair adjustments), as :meth:`_chow_combinations`."""
        ordered = sorted(self.pungs)
        pair, pair_gi = self.pair
        bits = 0
        fans = self.pung_fans
        # The pair matters only to 小四喜/小三元 (an honor pair), as for the chows.
        key_pair = pair if pair >= 27 else -1
        for fan, pos in pung_combos(tuple(p for p, _ in ordered), key_pair, pung_values):
            src = tuple(ordered[p][1] for p in pos)
            if fan.startswith("little_"):
                src += (pair_gi,)
            fans.setdefault(fan, []).append(src)
            bits |= COMBO_BITS[fan]
        return bits

    def _wait(self, win: int) -> str:
        h = self.h
        candidates = ""
        for c, _ in self.concealed_chows:
            if c // 9 == win // 9 and (win == c or win == c + 2):
                candidates = "edge"
                break
        if not candidates:
            for c, _ in self.concealed_chows:
                if c + 1 == win:
                    candidates = "closed"
                    break
        if not candidates and self.pair[0] == win:
            candidates = "single"
        if not candidates:
            return ""
        if self.shape is Shape.KNITTED_STRAIGHT:
            return candidates if self._knitted_unique(win) else ""
        return candidates if h.unique_wait() else ""

    def _knitted_unique(self, win: int) -> bool:
        """组合龙 + set + pair: the wait is the one of the set and pair left once the trios are
        taken out (MCR).  The winning tile is placed in that set or pair (the caller found it
        there), even when its kind is also in a trio: that reading is the higher one (§5.1
        就高不就低, A15), as in PyMahjongGB."""
        concealed = [0] * NUM_KINDS
        n_sets = 0
        for g in self.reading.groups:
            if g.kind is _KNITTED_KIND or g.meld is not None:
                continue
            for t in g.tiles:
                concealed[t] += 1
            if g.kind is not _PAIR:
                n_sets += 1
        concealed[win] -= 1
        return len(wait_kinds(tuple(concealed), n_sets, _NO_LIMIT)) == 1


_WAIT_BITS = {"edge": F_EDGE, "closed": F_CLOSED, "single": F_SINGLE}
