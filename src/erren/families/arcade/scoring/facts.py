"""Interpretations (arcade R5.1) and the facts the pattern detectors share.

An :class:`Interpretation` is one way to read a complete hand: a form, its groups (every wild
resolved), and the group the winning tile completed.  :class:`HandInfo` holds what is the same
for every interpretation (the situation and the natural tiles); :class:`Facts` what one
interpretation shows (resolved counts, sets, pair, wait, concealed pungs).  Detectors in
:mod:`erren.families.arcade.scoring.patterns` are small functions over :class:`Facts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from erren.analysis.readings import Group, GroupKind, group_counts, groups_text
from erren.families.arcade.scoring.context import ArcadeContext
from erren.hand import Hand
from erren.tiles import NUM_KINDS

__all__ = ["GREEN", "RED_PEACOCK", "Facts", "Form", "HandInfo", "Interpretation", "Wait"]

GREEN = frozenset((19, 20, 21, 23, 25, 32))
"""Green tiles ``2s 3s 4s 6s 8s 6z`` (R4.1)."""
RED_PEACOCK = frozenset((18, 22, 24, 26, 33))
"""Red-peacock tiles ``1s 5s 7s 9s 7z`` (R4.1)."""


class Form(Enum):
    """The winning forms of R4.6 / R5.1."""

    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    FREE_GREEN = "free_green"  # 绿一色 「可以乱牌」: any all-green hand (L14, §7 item 36)


class Wait(Enum):
    """The wait of the winning tile within an interpretation (R4.4)."""

    TWO_SIDED = "two_sided"  # 两面
    EDGE = "edge"  # 边张
    CLOSED = "closed"  # 嵌张
    PAIR = "pair"  # 单钓
    DUAL_PUNG = "dual_pung"  # 双碰
    OTHER = "other"  # 国士无双's singles, free green's loose tiles


@dataclass(frozen=True, slots=True)
class Interpretation:
    """One interpretation (R5.1): ``groups`` in reading order — concealed sets, melds, pair for
    the standard form; seven pairs; twelve singles and the pair for 国士无双; loose tiles (as
    singles) then melds for free green.  ``wild_kinds`` is what each wild stands for, sorted;
    ``winning_kind`` the kind the winning tile plays as."""

    form: Form
    groups: tuple[Group, ...]
    winning_group: int | None
    winning_kind: int | None
    wild_kinds: tuple[int, ...] = ()

    @property
    def winning(self) -> Group | None:
        """The group the winning tile completed."""
        return None if self.winning_group is None else self.groups[self.winning_group]

    def counts(self) -> list[int]:
        """The resolved hand as 34 counts (every tile of a kong counted)."""
        return group_counts(self.groups)

    def __str__(self) -> str:
        return groups_text(self.form.value, self.groups, self.winning_group)


class HandInfo:
    """What every interpretation of one hand shares: the situation and the natural tiles."""

    __slots__ = (
        "ctx",
        "hand",
        "menqing",
        "natural_counts",
        "no_melds",
        "self_drawn",
        "wilds",
    )

    def __init__(self, hand: Hand, ctx: ArcadeContext) -> None:
        self.hand = hand
        self.ctx = ctx
        self.self_drawn = ctx.is_self_drawn
        self.no_melds = not hand.melds
        # 门清 state (R4.2): no open set; concealed kongs are allowed.
        self.menqing = all(m.is_concealed for m in hand.melds)
        wild = ctx.wild
        tiles = [*hand.concealed, *([] if hand.winning is None else [hand.winning])]
        self.wilds = sum(1 for t in tiles if t == wild)
        counts = [0] * NUM_KINDS
        for t in hand.concealed:  # the 13 tiles before the win, wilds excluded
            if t != wild:
                counts[t] += 1
        self.natural_counts = counts


def _wait(group: Group, kind: int) -> Wait:
    if group.kind is GroupKind.CHOW:
        n = group.first % 9  # 0-based number of the sequence's low tile
        at = kind - group.first
        if at == 1:
            return Wait.CLOSED
        if at == 0:
            return Wait.TWO_SIDED if n <= 5 else Wait.EDGE
        return Wait.TWO_SIDED if n >= 1 else Wait.EDGE
    if group.kind is GroupKind.PAIR:
        return Wait.PAIR
    if group.is_pung:
        return Wait.DUAL_PUNG
    return Wait.OTHER


def _tile_classes(kinds: list[int]) -> tuple[int, bool, bool, bool]:
    """(a bit per suit present, any honor, any terminal, any simple) of the kinds held."""
    suits = 0
    honors = terminals = simples = False
    for k in kinds:
        if k >= 27:
            honors = True
        else:
            suits |= 1 << (k // 9)
            if k % 9 in (0, 8):
                terminals = True
            else:
                simples = True
    return suits, honors, terminals, simples


class Facts:
    """What one interpretation shows, computed once and read by every detector.

    ``chows``: (group index, first kind); ``pungs``: (group index, kind, concealed by R4.3) for
    pungs and kongs; ``pair``: index of the standard form's pair (``-1`` if none);
    ``suits``: a bit per suit present; ``all_groups``: every group index (a source).
    """

    __slots__ = (
        "all_groups",
        "chows",
        "counts",
        "form",
        "h",
        "honors",
        "interp",
        "kinds",
        "kongs",
        "n_concealed_pungs",
        "pair",
        "pair_kind",
        "pungs",
        "simples_only",
        "suits",
        "terminals",
        "wait",
        "yaojiu_only",
    )

    def __init__(self, h: HandInfo, interp: Interpretation) -> None:
        self.h = h
        self.interp = interp
        self.form = interp.form
        groups = interp.groups
        self.all_groups = tuple(range(len(groups)))
        counts = [0] * NUM_KINDS
        chows: list[tuple[int, int]] = []
        pungs: list[tuple[int, int, bool]] = []
        kongs: list[int] = []
        pair = -1
        win_group = interp.winning_group
        self_drawn = h.self_drawn
        for gi, group in enumerate(groups):
            for tile in group.tiles:
                counts[tile] += 1
            kind = group.kind
            if kind is GroupKind.CHOW:
                chows.append((gi, group.first))
            elif kind is GroupKind.PUNG or kind is GroupKind.KONG:
                meld = group.meld
                # R4.3: a pung completed by a winning discard counts as open.
                concealed = meld.is_concealed if meld is not None else self_drawn or gi != win_group
                pungs.append((gi, group.first, concealed))
                if kind is GroupKind.KONG:
                    kongs.append(gi)
            elif kind is GroupKind.PAIR and interp.form is Form.STANDARD:
                pair = gi
        self.counts = counts
        self.chows = chows
        self.pungs = pungs
        self.kongs = kongs
        self.n_concealed_pungs = sum(1 for p in pungs if p[2])
        self.pair = pair
        self.pair_kind = groups[pair].first if pair >= 0 else -1
        kinds = [k for k in range(NUM_KINDS) if counts[k]]
        self.kinds = kinds
        self.suits, self.honors, self.terminals, simples = _tile_classes(kinds)
        self.simples_only = not self.honors and not self.terminals
        self.yaojiu_only = not simples
        win = interp.winning
        self.wait = (
            Wait.OTHER
            if win is None or interp.winning_kind is None
            else _wait(win, interp.winning_kind)
        )

    @property
    def is_standard(self) -> bool:
        return self.form is Form.STANDARD

    @property
    def one_suit(self) -> bool:
        """Exactly one suit is present (honors aside)."""
        return self.suits in (1, 2, 4)
