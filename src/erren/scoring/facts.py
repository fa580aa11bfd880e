"""The facts detectors share, computed once per hand (:class:`HandFacts`) and once per reading
and table (:class:`Facts`): counts, suits, chows and pungs by kind, concealment, the solved
set-combination fans.  Detectors are small functions over these."""

from __future__ import annotations

from erren.analysis.readings import GroupKind, Reading
from erren.analysis.shapes import Shape
from erren.hand import Hand
from erren.melds import MeldKind
from erren.scoring._waits import wait_kinds
from erren.scoring.combos import chow_combos, pung_combos
from erren.scoring.context import WinContext
from erren.tiles import NUM_KINDS, Tile

__all__ = ["Facts", "HandFacts"]

_REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
_NO_LIMIT = (0,) * NUM_KINDS
_GREEN = frozenset((19, 20, 21, 23, 25, 32))


class HandFacts:
    """Facts of the whole hand, the same for every reading."""

    __slots__ = (
        "_unique_wait",
        "all_honors",
        "all_simples",
        "all_terminals",
        "all_terminals_or_honors",
        "counts",
        "ctx",
        "dihu",
        "flowers",
        "green",
        "hand",
        "has_dragon",
        "has_honor",
        "has_wind",
        "kinds",
        "last_copy",
        "last_tile",
        "n_claimed",
        "n_suits",
        "numbers",
        "replacement",
        "reversible",
        "robbing",
        "round_wind",
        "seat_wind",
        "self_drawn",
        "tianhu",
        "tianting",
        "ting",
        "win",
    )

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        self.hand = hand
        self.ctx = ctx
        counts = hand.all_counts()
        self.counts = counts
        kinds = [k for k in range(NUM_KINDS) if counts[k]]
        self.kinds = kinds
        self.win = -1 if hand.winning is None else int(hand.winning)
        self.tianhu = hand.winning is None or ctx.tianhu
        self.self_drawn = ctx.self_drawn or self.tianhu
        self.robbing = ctx.robbing_kong and not self.self_drawn
        self.last_copy = ctx.last_copy
        self.last_tile = ctx.last_tile
        self.replacement = ctx.kong_replacement and self.self_drawn
        self.ting = ctx.ting
        self.tianting = ctx.tianting
        self.dihu = ctx.dihu and not self.self_drawn
        self.seat_wind = int(
            ctx.seat_wind
            if ctx.seat_wind is not None
            else (Tile.EAST if self.tianhu else Tile.SOUTH)
        )
        self.round_wind = int(ctx.round_wind)
        self.flowers = ctx.flowers if ctx.flowers is not None else len(hand.flowers)
        self.n_claimed = sum(1 for m in hand.melds if m.kind is not MeldKind.AN_GANG)
        suits = {k // 9 for k in kinds if k < 27}
        self.n_suits = len(suits)
        self.has_honor = any(k >= 27 for k in kinds)
        self.has_wind = any(27 <= k <= 30 for k in kinds)
        self.has_dragon = any(k >= 31 for k in kinds)
        terminal_or_honor = [k >= 27 or k % 9 in (0, 8) for k in kinds]
        self.all_simples = not any(terminal_or_honor)
        self.all_terminals_or_honors = all(terminal_or_honor)
        self.all_honors = all(k >= 27 for k in kinds)
        self.all_terminals = all(k < 27 and k % 9 in (0, 8) for k in kinds)
        self.reversible = all(k in _REVERSIBLE for k in kinds)
        self.green = all(k in _GREEN for k in kinds)
        # Numbers present (bit n for number n = 1..9), or 0 when an honor is present (A13).
        mask = 0
        if not self.has_honor:
            for k in kinds:
                mask |= 1 << (k % 9 + 1)
        self.numbers = mask
        self._unique_wait: bool | None = None

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
                # Shape only: a kind the hand already holds four of still counts as a wait
                # ("ignoring how many copies remain", A15; as MCR calculators do).
                waits = wait_kinds(tuple(concealed), 4 - len(hand.melds), _NO_LIMIT)
                self._unique_wait = len(waits) == 1
        return self._unique_wait


def _concealed_pung_count(
    h: HandFacts, concealed_pungs: list[tuple[int, int]], concealed_chows: list[tuple[int, int]]
) -> int:
    """Concealed pungs and 暗杠 (§4.1), after A2: on a discard win, a concealed pung of the
    winning kind is exposed unless the winning tile fits a concealed chow of the reading."""
    win = h.win
    n = len(concealed_pungs)
    if (
        not h.self_drawn
        and win >= 0
        and any(p == win for p, _ in concealed_pungs)
        and not any(c <= win <= c + 2 and win // 9 == c // 9 for c, _ in concealed_chows)
    ):
        n -= 1
    return n


class Facts:
    """Facts of one reading under one table."""

    __slots__ = (
        "all_groups",
        "chow_fans",
        "chows",
        "concealed_chows",
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
        self.shape = reading.shape
        groups = reading.groups
        self.all_groups = tuple(range(len(groups)))
        chows: list[tuple[int, int]] = []
        pungs: list[tuple[int, int]] = []
        kongs: list[int] = []
        concealed_chows: list[tuple[int, int]] = []
        concealed_pungs: list[tuple[int, int]] = []
        pair = -1
        pair_gi = -1
        n_knitted = 0
        n_exposed_kongs = 0
        n_concealed_kongs = 0
        regular = reading.shape is Shape.REGULAR or reading.shape is Shape.KNITTED_STRAIGHT
        for gi, g in enumerate(groups):
            kind = g.kind
            if kind is GroupKind.CHOW:
                chows.append((g.tiles[0], gi))
                if g.meld is None:
                    concealed_chows.append((g.tiles[0], gi))
            elif kind is GroupKind.PUNG or kind is GroupKind.KONG:
                pungs.append((g.tiles[0], gi))
                if kind is GroupKind.KONG:
                    kongs.append(gi)
                    if g.meld is not None and g.meld.kind is MeldKind.AN_GANG:
                        n_concealed_kongs += 1
                    else:
                        n_exposed_kongs += 1
                elif g.meld is None:
                    concealed_pungs.append((g.tiles[0], gi))
            elif kind is GroupKind.PAIR:
                if regular:
                    pair = g.tiles[0]
                    pair_gi = gi
            elif kind is GroupKind.KNITTED:
                n_knitted += 1
        win = h.win
        n_concealed_pungs = _concealed_pung_count(h, concealed_pungs, concealed_chows)
        self.chows = chows
        self.pungs = pungs
        self.kongs = kongs
        self.concealed_chows = concealed_chows
        self.pair = (pair, pair_gi)
        self.n_knitted = n_knitted
        self.n_exposed_kongs = n_exposed_kongs
        self.n_concealed_kongs = n_concealed_kongs
        self.n_concealed_pungs = n_concealed_pungs + n_concealed_kongs
        self._combinations(chow_values, pung_values)
        # A15: the wait fan of this reading, if the wait is unique.
        self.wait = self._wait(win) if wait_fans and win >= 0 and regular else ""

    def _combinations(self, chow_values: tuple[int, ...], pung_values: tuple[int, ...]) -> None:
        """A6/A7, solved on the sorted kinds and mapped back to group indices."""
        chows = self.chows
        pungs = self.pungs
        pair, pair_gi = self.pair
        self.chow_fans: dict[str, list[tuple[int, ...]]] = {}
        self.pung_fans: dict[str, list[tuple[int, ...]]] = {}
        if len(chows) >= 2:
            ordered = sorted(chows)
            for fan, pos in chow_combos(tuple(c for c, _ in ordered), pair, chow_values):
                self.chow_fans.setdefault(fan, []).append(tuple(ordered[p][1] for p in pos))
        if len(pungs) >= 2:
            ordered = sorted(pungs)
            for fan, pos in pung_combos(tuple(p for p, _ in ordered), pair, pung_values):
                src = tuple(ordered[p][1] for p in pos)
                if fan.startswith("little_"):
                    src += (pair_gi,)
                self.pung_fans.setdefault(fan, []).append(src)

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
        """组合龙 + set + pair: a winning tile of the knitted trios has no wait fan; else the
        wait is the one of the set and pair left once the trios are taken out (MCR)."""
        groups = self.reading.groups
        knitted = {t for g in groups if g.kind is GroupKind.KNITTED for t in g.tiles}
        if win in knitted:
            return False
        concealed = [0] * NUM_KINDS
        n_sets = 0
        for g in groups:
            if g.kind is GroupKind.KNITTED or g.meld is not None:
                continue
            for t in g.tiles:
                concealed[t] += 1
            if g.kind is not GroupKind.PAIR:
                n_sets += 1
        concealed[win] -= 1
        return len(wait_kinds(tuple(concealed), n_sets, _NO_LIMIT)) == 1
