"""The facts detectors share, computed once per hand (:class:`HandFacts`) and once per reading
and table (:class:`Facts`): counts, suits, chows and pungs by kind, concealment, the solved
set-combination fans, and a *feature* bitmask (the ``F_*`` bits of
:mod:`erren.families.guobiao.scoring.features`) that the calculator tests each fan's guard against
before
calling its detector.  Detectors (:mod:`erren.families.guobiao.scoring.fans`) are small functions
over
these."""

from __future__ import annotations

from erren.analysis import _kernel
from erren.analysis.readings import GroupKind, Reading
from erren.analysis.shapes import SHAPE_MASKS, Shape
from erren.families.guobiao.scoring._waits import completes_with, wait_kinds
from erren.families.guobiao.scoring.combos import chow_combos, pung_combos
from erren.families.guobiao.scoring.context import WinContext
from erren.families.guobiao.scoring.features import (
    CHOW_BITS,
    COMBO_BITS,
    CONCEALED_PUNG_BITS,
    F_ALL_CHOWS,
    F_CLOSED,
    F_EDGE,
    F_FOUR_CONCEALED_PUNGS,
    F_FOUR_PUNGS,
    F_KONG,
    F_ROUND_PUNG,
    F_SEAT_PUNG,
    F_SINGLE,
    GROUP_ALL,
    PUNG_BITS,
    SAME_BITS,
    SHAPE_BITS,
    tile_features,
    win_features,
)
from erren.hand import Hand
from erren.melds import MeldKind
from erren.tiles import NUM_KINDS, Tile

__all__ = ["COMBO_BITS", "Facts", "HandFacts"]

_NO_LIMIT = (0,) * NUM_KINDS
_WAIT_MASK = SHAPE_MASKS[frozenset((Shape.REGULAR, Shape.SEVEN_PAIRS))]
_k_waits = _kernel.waits
_CHOW = GroupKind.CHOW
_PUNG = GroupKind.PUNG
_KONG = GroupKind.KONG
_PAIR = GroupKind.PAIR
_KNITTED_KIND = GroupKind.KNITTED
_AN_GANG = MeldKind.AN_GANG


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

        self.features = tile_features(counts, kinds, bool(melds)) | win_features(
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

    def __init__(
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
        self.all_groups = tuple(range(len(reading.groups)))
        regular = shape is Shape.REGULAR or shape is Shape.KNITTED_STRAIGHT
        features = h.features | SHAPE_BITS[shape] | self._read_groups(regular)
        features |= self._set_features(regular)
        self.chow_fans: dict[str, list[tuple[int, ...]]] = {}
        self.pung_fans: dict[str, list[tuple[int, ...]]] = {}
        if len(self.chows) >= 2:
            features |= self._chow_combinations(chow_values)
        if len(self.pungs) >= 2:
            features |= self._pung_combinations(pung_values)
        # A15: the wait fan of this reading, if the wait is unique.
        win = h.win
        self.wait = self._wait(win) if wait_fans and win >= 0 and regular else ""
        if self.wait:
            features |= _WAIT_BITS[self.wait]
        self.features = features

    def _read_groups(self, regular: bool) -> int:  # noqa: PLR0915 - one pass, the hot path
        """One pass over the reading's groups: the chows, pungs, kongs, pair and knitted groups,
        the concealed pung and kong counts (A2); the bits every group shares and the pung bits."""
        h = self.h
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
        every = GROUP_ALL if self.shape is Shape.REGULAR else 0  # bits every group must have
        pung_bits = 0
        for gi, g in enumerate(self.reading.groups):
            kind = g.kind
            t = g.tiles[0]
            if kind is _CHOW:
                chows.append((t, gi))
                if g.meld is None:
                    concealed_chows.append((t, gi))
                every &= CHOW_BITS[t]
            elif kind is _PUNG or kind is _KONG:
                pungs.append((t, gi))
                pung_bits |= PUNG_BITS[t]
                every &= SAME_BITS[t]
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
                    every &= SAME_BITS[t]
            elif kind is _KNITTED_KIND:
                n_knitted += 1
        if _discard_exposes_pung(h, concealed_pung_kinds, concealed_chows):
            n_concealed_pungs -= 1
        self.chows = chows
        self.pungs = pungs
        self.kongs = kongs
        self.concealed_chows = concealed_chows
        self.pair = (pair, pair_gi)
        self.n_knitted = n_knitted
        self.n_exposed_kongs = n_exposed_kongs
        self.n_concealed_kongs = n_concealed_kongs
        self.n_concealed_pungs = n_concealed_pungs + n_concealed_kongs
        return every | pung_bits

    def _set_features(self, regular: bool) -> int:
        """The bits of kongs, concealed pungs, wind pungs, 碰碰和 and 平和 (A3, A4, A9, A20)."""
        h = self.h
        pungs = self.pungs
        features = F_KONG if self.kongs else 0
        n = self.n_concealed_pungs
        if n >= 2:
            features |= CONCEALED_PUNG_BITS.get(n, F_FOUR_CONCEALED_PUNGS)
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


def _discard_exposes_pung(
    h: HandFacts, concealed_pung_kinds: int, concealed_chows: list[tuple[int, int]]
) -> bool:
    """A2: on a discard win, a concealed pung of the winning kind is exposed unless the winning
    tile fits a concealed chow of the reading (``concealed_pung_kinds``: a bit per kind)."""
    win = h.win
    return bool(
        win >= 0
        and not h.self_drawn
        and concealed_pung_kinds >> win & 1
        and not any(c <= win <= c + 2 and win // 9 == c // 9 for c, _ in concealed_chows)
    )


_WAIT_BITS = {"edge": F_EDGE, "closed": F_CLOSED, "single": F_SINGLE}
