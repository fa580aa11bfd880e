"""The xiamen 水 calculator (R-4.1–R-4.5): read the final hand every way, run every row of the
水 table on each decomposition, keep the one with the most 水.

Golds are placed, not substituted: a decomposition says which group each gold sits in (the
analysis' readings), so X-06's hand is read both with the gold in the chow (three Whites left
as a concealed pung) and with a White in the chow (White-White-gold, no concealed pung), and
the maximum wins.  For a win on the opponent's tile the reading also says which group that tile
completed; a natural pung it completed is a claimed pung (R-4.4).  三金倒 hands are not
decomposed (R-4.4); a 三游 hand is its concealed part minus one gold in ``n`` groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from erren.analysis.readings import Group, GroupKind, Reading, readings
from erren.analysis.shapes import XIAMEN, Shape
from erren.errors import NotAWinError
from erren.families.xiamen.scoring.context import XIAMEN_KINDS, WinType, XiamenContext
from erren.families.xiamen.scoring.hands import gold_wilds, hand_counts, you_ready
from erren.families.xiamen.scoring.water import WATER, Occurrence, WaterFacts, WaterRow
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.notation import format_meld, format_tiles
from erren.tiles import Tile

__all__ = ["NotAWinError", "WaterItem", "XiamenResult", "score_xiamen"]


@dataclass(frozen=True, slots=True)
class WaterItem:
    """A counted row of the 水 table: ``count`` occurrences worth ``row.value`` each, shown by
    ``tiles`` (physical tiles: ``555z`` for three Whites playing as the gold kind) and made of
    ``groups`` (indices into :attr:`XiamenResult.groups`).

    A group-based row (a pung, a kong) gives one item per group; the golds (S-1) and the single
    flowers (S-2) give one item each, all their tiles together: ``金牌 ×3 (777m) 3``.
    """

    row: WaterRow
    tiles: tuple[Tile, ...]
    groups: tuple[int, ...] = ()
    count: int = 1

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def value(self) -> int:
        """The 水 of this item: ``row.value × count``."""
        return self.row.value * self.count

    @property
    def text(self) -> str:
        """The tiles as notation (``777m``, ``1f2f3f4f``)."""
        return format_tiles(self.tiles)

    def __str__(self) -> str:
        times = f" ×{self.count}" if self.count > 1 else ""
        return f"{self.row.name}{times} {self.value} ({self.text})"


def _items(row: WaterRow, found: tuple[Occurrence, ...]) -> list[WaterItem]:
    """A row's occurrences as items: one per group, the group-less ones together."""
    items = [WaterItem(row, tiles, where) for where, tiles in found if where]
    loose = [tiles for where, tiles in found if not where]
    if loose:
        items.append(WaterItem(row, tuple(t for tiles in loose for t in tiles), (), len(loose)))
    return items


@dataclass(frozen=True, slots=True)
class XiamenResult:
    """The 水 of a winning hand (R-4.3–R-4.5): ``items`` in table order, their sum ``water``,
    and the decomposition they were counted on.

    ``reading`` is the chosen decomposition (``None`` for 三金倒, which is not decomposed); a
    三游 reading ends with the lone gold as a single.  ``groups`` are the groups the items point
    into (the reading's groups; for 三金倒 one pung per kind with three or more naturals, then
    the melds).
    """

    hand: Hand
    ctx: XiamenContext
    items: tuple[WaterItem, ...]
    water: int
    reading: Reading | None
    groups: tuple[Group, ...]

    @property
    def win_type(self) -> WinType:
        return self.ctx.win_type

    def water_of(self, row_id: str) -> int:
        """The 水 the items of one row add up to."""
        return sum(item.value for item in self.items if item.id == row_id)

    def shown(self, item: WaterItem) -> str:
        """An item's tiles as a player reads them: a meld in brackets, Whites named."""
        for i in item.groups:
            meld = self.groups[i].meld
            if meld is not None:
                return format_meld(meld)
        text = item.text
        if Tile.WHITE in item.tiles and self.ctx.fake_gold is not None:
            text += f" (Whites as {self.ctx.gold})"
        return text

    def explain(self) -> str:
        """One line per item, then the total: ``S-8 风暗刻 2  333z``."""
        lines = [
            f"{item.id} {item.row.name}{f' ×{item.count}' if item.count > 1 else ''} "
            f"{item.value}  {self.shown(item)}"
            for item in self.items
        ]
        lines.append(f"= 水 {self.water}")
        return "\n".join(lines)

    def __str__(self) -> str:
        parts = [f"{item.row.name} {item.value}" for item in self.items]
        return (" + ".join(parts) or "0") + f" = 水 {self.water}"


# --------------------------------------------------------------------------------------------
# The rows, split by scope once

_HAND_ROWS = tuple(r for r in WATER if r.scope == "hand")
_READING_ROWS = tuple(r for r in WATER if r.scope == "reading")
_POSITION = {r.id: i for i, r in enumerate(WATER)}
for _r in WATER:
    assert all(next(x for x in WATER if x.id == o).scope == _r.scope for o in _r.replaces)

_Fired = list[tuple[WaterRow, tuple[Occurrence, ...]]]


def _evaluate(rows: tuple[WaterRow, ...], facts: WaterFacts) -> tuple[_Fired, int]:
    """Every row on ``facts``; rows replaced by a row that fired are dropped.  (fired, 水)"""
    fired: _Fired = []
    for r in rows:
        found = r.detector(facts)
        if found:
            fired.append((r, found))
    replaced = {o for r, _ in fired for o in r.replaces}
    if replaced:
        fired = [(r, found) for r, found in fired if r.id not in replaced]
    return fired, sum(r.value * len(found) for r, found in fired)


# --------------------------------------------------------------------------------------------
# Checks: the hand fits the win type

_MELD_GROUP = {
    MeldKind.CHI: GroupKind.CHOW,
    MeldKind.PENG: GroupKind.PUNG,
    MeldKind.MING_GANG: GroupKind.KONG,
    MeldKind.JIA_GANG: GroupKind.KONG,
    MeldKind.AN_GANG: GroupKind.KONG,
}


def _meld_group(meld: Meld, ctx: XiamenContext) -> Group:
    return Group(_MELD_GROUP[meld.kind], tuple(sorted(ctx.functional(t) for t in meld.tiles)), meld)


def _check(hand: Hand, ctx: XiamenContext, golds: int) -> None:
    g = ctx.gold
    t = ctx.win_type
    tiles = [*hand.concealed, *(m for meld in hand.melds for m in meld.tiles)]
    if hand.winning is not None:
        tiles.append(hand.winning)
    strange = sorted({tile for tile in tiles if tile not in XIAMEN_KINDS})
    if strange:
        shown = " ".join(str(Tile(x)) for x in strange)
        raise NotAWinError(f"xiamen has no 饼/条 tiles (R-1.1): {shown}")
    if any(tile == g for meld in hand.melds for tile in meld.tiles):
        raise NotAWinError(f"a gold ({Tile(g)}) is never part of a meld (R-1.7)")
    limit = 4 if t is WinType.QIANGJIN else 3
    if golds > limit:
        raise NotAWinError(
            f"{golds} golds: only three are in play, a fourth only after 抢金胡 (R-1.7)"
        )
    if t in (WinType.SANJINDAO, WinType.SANYOU):
        if t is WinType.SANJINDAO and golds < 3:
            raise NotAWinError(f"三金倒 needs all three golds in the hand, not {golds} (R-2.3)")
        if t is WinType.SANYOU and hand.winning is not None:
            raise NotAWinError(
                "a 三游 hand has no winning tile: write its 13 tiles, the lone gold included "
                "(R-2.9.4)"
            )
        if t is WinType.SANYOU and not you_ready(*hand_counts(hand, g)):
            raise NotAWinError("a 三游 hand must be 游金-ready: groups plus a lone gold (R-2.9.4)")
        return
    if hand.winning is None:
        raise NotAWinError(f"a {t.chinese} hand needs its winning tile, written +X")
    if t.on_opponents_tile:
        if hand.winning == g:
            raise NotAWinError(f"a discarded gold can never be won on (R-2.8): {Tile(g)}")
        if golds:
            raise NotAWinError(
                f"a player holding a gold cannot win {t.chinese} on the opponent's tile "
                "(R-2.6, R-2.7, L-05)"
            )
    if t is WinType.QIANGJIN and hand.winning != g:
        raise NotAWinError(
            f"抢金胡 takes the indicator into the hand: the winning tile must be {Tile(g)} (R-2.3)"
        )
    if t in (WinType.YOUJIN, WinType.SHUANGYOU) and not you_ready(
        *hand_counts(hand, g, with_winning=False)
    ):
        raise NotAWinError(
            f"{t.chinese} is won from 游金-ready: the hand without its drawn tile must be sets "
            "plus a lone gold (R-2.9, R-3.5)"
        )


# --------------------------------------------------------------------------------------------
# Decompositions


def _sanjindao_groups(hand: Hand, ctx: XiamenContext) -> tuple[Group, ...]:
    """R-4.4: every functional kind with three or four naturals counts once as a pung."""
    counts, _ = hand_counts(hand, ctx.gold)
    pungs = tuple(Group(GroupKind.PUNG, (k, k, k)) for k, n in enumerate(counts) if n >= 3)
    return pungs + tuple(_meld_group(m, ctx) for m in hand.melds)


def _sanyou_readings(hand: Hand, ctx: XiamenContext) -> list[Reading]:
    """R-4.4: the concealed part minus one gold in ``n`` groups.  Read as the hand plus one more
    gold whose pair is the two golds, then shown with the lone gold as a single."""
    g = ctx.gold
    probe = Hand(hand.concealed, hand.melds, Tile(g), hand.flowers)
    out: list[Reading] = []
    seen: set[tuple[Group, ...]] = set()
    lone = Group(GroupKind.SINGLE, (int(g),), None, (int(g),))
    for reading in readings(probe, shapes=XIAMEN, wilds=gold_wilds(g)):
        pair = reading.pair
        if pair is None or len(pair.wild_tiles) != 2 or reading.winning is not pair:
            continue
        groups = (*reading.groups[:-1], lone)
        if groups in seen:
            continue
        seen.add(groups)
        wild = tuple(sorted(k for grp in groups for k in grp.wild_tiles))
        out.append(Reading(Shape.REGULAR, groups, None, wild))
    return out


def _opponents_pung(reading: Reading) -> int | None:
    """The group the opponent's winning tile completed, if it is a pung of three naturals."""
    i = reading.winning_group
    if i is None:
        return None
    group = reading.groups[i]
    if group.meld is None and group.kind is GroupKind.PUNG and not group.wild_tiles:
        return i
    return None


@lru_cache(maxsize=1 << 14)
def _score(hand: Hand, ctx: XiamenContext) -> XiamenResult:
    g = int(ctx.gold)
    t = ctx.win_type
    golds = sum(1 for tile in hand.concealed if tile == g) + (hand.winning == g)
    _check(hand, ctx, golds)
    flowers = ctx.flowers if ctx.flowers is not None else hand.flowers
    gold_tiles = (Tile(g),) * golds
    physical = ctx.physical
    hand_fired, hand_water = _evaluate(
        _HAND_ROWS, WaterFacts((), None, gold_tiles, tuple(flowers), physical)
    )

    best: tuple[int, _Fired, Reading | None, tuple[Group, ...]] | None = None
    if t is WinType.SANJINDAO:
        groups = _sanjindao_groups(hand, ctx)
        fired, water = _evaluate(
            _READING_ROWS, WaterFacts(groups, None, gold_tiles, tuple(flowers), physical)
        )
        best = (water, fired, None, groups)
    else:
        if t is WinType.SANYOU:
            found = _sanyou_readings(hand, ctx)
        else:
            found = readings(hand, shapes=XIAMEN, wilds=gold_wilds(g))
        place_matters = t.on_opponents_tile
        previous: tuple[Group, ...] | None = None
        for reading in found:
            if not place_matters:
                # The place of a self-drawn tile changes nothing; such readings are adjacent.
                if reading.groups == previous:
                    continue
                previous = reading.groups
            theirs = _opponents_pung(reading) if place_matters else None
            facts = WaterFacts(reading.groups, theirs, gold_tiles, tuple(flowers), physical)
            fired, water = _evaluate(_READING_ROWS, facts)
            if best is None or water > best[0]:
                best = (water, fired, reading, reading.groups)
        if best is None:
            raise NotAWinError(f"{hand} is not complete with gold {Tile(g)} (R-3.1–R-3.3)")
    water, fired, chosen, groups = best
    every = sorted(hand_fired + fired, key=lambda rf: _POSITION[rf[0].id])
    items = tuple(item for r, found in every for item in _items(r, found))
    return XiamenResult(hand, ctx, items, hand_water + water, chosen, groups)


def score_xiamen(hand: Hand, ctx: XiamenContext) -> XiamenResult:
    """The 水 of a xiamen winning hand: every item with its value and source, the total, and
    the decomposition with the most 水 (R-4.3–R-4.5).

    ``hand`` is the winner's final hand with physical tiles (parse it with
    ``Hand.parse(text, plays_as={Tile.WHITE: g})`` so that melds holding a White read), the
    winning tile as ``+X`` except for 三金倒 (13 or 14 tiles as held) and 三游 (the 13 tiles,
    the lone gold included).  Raises :class:`NotAWinError` when the hand is not complete or
    does not fit the win type (a gold holder winning 平和, a 游金 not won from 游金-ready, …).
    Memoised on its arguments.
    """
    return _score(hand, ctx)
