"""Property tests of xiamen scoring against brute force.

* completeness with ``k`` golds (R-3.3) equals brute-force substitution, the spec's oracle;
* 游金-ready (R-3.5) equals "complete for every kind that could be drawn";
* the chosen split is the maximum over brute force: every assignment of kinds to the golds,
  every wild-free split of the result, every placement of the golds among the groups of that
  split (X-06) and of the opponent's winning tile (R-4.4).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erren.analysis.readings import count_readings
from erren.analysis.shanten import is_complete
from erren.analysis.shapes import XIAMEN
from erren.families.xiamen.scoring import (
    XIAMEN_KINDS,
    NotAWinError,
    WinType,
    XiamenContext,
    complete,
    hand_counts,
    score_xiamen,
    you_ready,
)
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.testing.strategies import WALL_64, wild_hands
from erren.tiles import FLOWERS, NUM_KINDS, Tile

KINDS = sorted(XIAMEN_KINDS)
SETTINGS = settings(
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

Groups = tuple[tuple[int, ...], ...]


# --------------------------------------------------------------------------------------------
# The oracle: substitution, then wild-free splitting


@lru_cache(maxsize=1 << 16)
def splits(counts: tuple[int, ...], sets: int, pair: bool) -> tuple[Groups, ...]:
    """Every wild-free split of ``counts`` into ``sets`` sets (+ one pair), as sorted groups."""
    if sum(counts) != 3 * sets + 2 * pair:
        return ()
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((),)
    out: set[Groups] = set()
    options: list[tuple[tuple[int, ...], int, bool]] = []
    if pair and counts[i] >= 2:
        options.append(((i, i), sets, False))
    if sets and counts[i] >= 3:
        options.append(((i, i, i), sets - 1, pair))
    if sets and i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        options.append(((i, i + 1, i + 2), sets - 1, pair))
    for group, s, p in options:
        rest = list(counts)
        for k in group:
            rest[k] -= 1
        for found in splits(tuple(rest), s, p):
            out.add(tuple(sorted((*found, group))))
    return tuple(sorted(out))


def substitutions(counts: tuple[int, ...], golds: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every assignment of kinds to the golds: (resolved counts, gold counts per kind)."""
    for kinds in combinations_with_replacement(KINDS, golds):
        resolved = list(counts)
        assigned = [0] * NUM_KINDS
        for k in kinds:
            resolved[k] += 1
            assigned[k] += 1
        yield tuple(resolved), tuple(assigned)


def oracle_complete(counts: tuple[int, ...], golds: int) -> bool:
    total = sum(counts) + golds
    if total % 3 != 2:
        return False
    return any(splits(r, total // 3, True) for r, _ in substitutions(counts, golds))


# --------------------------------------------------------------------------------------------
# Completeness and 游金-ready


@pytest.mark.slow
@SETTINGS
@given(wild_hands(total=(2, 5, 8, 11, 14), kinds=WALL_64, max_wilds=4))
def test_complete_equals_substitution(hand: tuple[list[int], int]) -> None:
    counts, golds = tuple(hand[0]), hand[1]
    expected = oracle_complete(counts, golds)
    assert complete(counts, golds) is expected
    assert is_complete(counts, wilds=golds, shapes=XIAMEN, max_copies=None) is expected
    found = count_readings(
        counts, wilds=golds, shapes=XIAMEN, max_copies=None, stands_for=XIAMEN_KINDS
    )
    n_melds = (14 - sum(counts) - golds) // 3
    if n_melds == 0:
        assert bool(found) is expected


@pytest.mark.slow
@SETTINGS
@given(wild_hands(total=(1, 4, 7, 10, 13), kinds=WALL_64, max_wilds=4))
def test_you_ready_equals_complete_for_every_draw(hand: tuple[list[int], int]) -> None:
    counts, golds = tuple(hand[0]), hand[1]
    every_draw = complete(counts, golds + 1)  # drawing a gold
    for kind in KINDS:  # drawing a natural of each functional kind (a White is g's)
        drawn = list(counts)
        drawn[kind] += 1
        every_draw = every_draw and oracle_complete(tuple(drawn), golds)
    assert you_ready(counts, golds) is every_draw


# --------------------------------------------------------------------------------------------
# The chosen split is the maximum


def _natural_pung_water(
    groups: Groups, assigned: tuple[int, ...], opponents: int | None
) -> int | None:
    """The best 水 of the concealed pungs over every placement of the golds among ``groups``
    (and of the opponent's winning tile of kind ``opponents``, then gold-free); None if the
    golds cannot be placed (cannot happen: the substitution made the split)."""
    best: int | None = None
    pungs = [i for i, g in enumerate(groups) if len(g) == 3 and g[0] == g[2]]
    for mask in range(1 << len(pungs)):  # which pungs hold at least one gold
        flagged = {pungs[j] for j in range(len(pungs)) if mask >> j & 1}
        ok = True
        for kind in set(k for g in groups for k in g):
            with_gold = sum(1 for i in flagged if groups[i][0] == kind)
            slots = sum(g.count(kind) for i, g in enumerate(groups) if i not in pungs)
            if not with_gold <= assigned[kind] <= 3 * with_gold + slots:
                ok = False
                break
        if not ok:
            continue
        natural = [i for i in pungs if i not in flagged]
        places: list[int | None] = [None]
        if opponents is not None:
            places = [i for i, g in enumerate(groups) if opponents in g]
        for place in places:
            water = 0
            for i in natural:
                honor = groups[i][0] >= Tile.EAST
                if i == place:
                    water += 1 if honor else 0  # completed by the opponent: claimed
                else:
                    water += 2 if honor else 1
            best = water if best is None else max(best, water)
    return best


def oracle_water(hand: Hand, ctx: XiamenContext) -> int | None:
    """The maximum 水 by brute force, None if the hand is not complete."""
    g = ctx.gold
    counts, golds = hand_counts(hand, g)
    flowers = set(ctx.flowers if ctx.flowers is not None else hand.flowers)
    water = golds
    for group in (FLOWERS[:4], FLOWERS[4:]):
        held = len(flowers & set(group))
        water += 8 if held == 4 else held
    for meld in hand.melds:
        honor = ctx.functional(meld.tiles[0]) >= Tile.EAST
        water += {
            MeldKind.CHI: 0,
            MeldKind.PENG: 1 if honor else 0,
            MeldKind.MING_GANG: 3 if honor else 2,
            MeldKind.JIA_GANG: 3 if honor else 2,
            MeldKind.AN_GANG: 4 if honor else 3,
        }[meld.kind]
    sanyou = ctx.win_type is WinType.SANYOU
    left = golds - 1 if sanyou else golds
    sets = 4 - len(hand.melds)
    opponents = None
    if ctx.win_type.on_opponents_tile and hand.winning is not None:
        opponents = ctx.functional(hand.winning)
    best: int | None = None
    for resolved, assigned in substitutions(counts, left):
        for groups in splits(resolved, sets, not sanyou):
            found = _natural_pung_water(groups, assigned, opponents)
            if found is not None:
                best = found if best is None else max(best, found)
    return None if best is None else water + best


@st.composite
def xiamen_wins(draw: st.DrawFn) -> tuple[Hand, XiamenContext]:
    """A complete xiamen hand with physical tiles: golds, Whites playing as ``g``, melds, a
    winning tile, flowers, and a win type it qualifies for."""
    g = draw(st.sampled_from(KINDS))
    fake = g != Tile.WHITE

    def physical(kind: int) -> int:
        return Tile.WHITE if fake and kind == g else kind

    options = [(k, k, k) for k in KINDS] + [(k, k + 1, k + 2) for k in range(7)]
    n_melds = draw(st.integers(0, 2))
    melds: list[Meld] = []
    for _ in range(n_melds):
        group = draw(st.sampled_from([o for o in options if g not in o or fake]))
        three = tuple(sorted(Tile(physical(k)) for k in group))
        if group[0] != group[1]:
            melds.append(Meld(MeldKind.CHI, three, three[0]))
        else:
            kind = draw(st.sampled_from(list(MeldKind)[1:]))
            four = three if kind is MeldKind.PENG else (*three, three[0])
            melds.append(Meld(kind, four, None if kind is MeldKind.AN_GANG else three[0]))
    kinds: list[int] = []
    for _ in range(4 - n_melds):
        kinds.extend(draw(st.sampled_from(options)))
    kinds.extend([draw(st.sampled_from(KINDS))] * 2)
    gold_at = set(draw(st.lists(st.integers(0, len(kinds) - 1), max_size=3, unique=True)))
    tiles = [
        g if i in gold_at or (k == g and not fake) else physical(k) for i, k in enumerate(kinds)
    ]
    held = list(tiles) + [t for m in melds for t in m.tiles]
    if any(held.count(t) > 4 for t in set(held)) or tiles.count(g) > 3:
        return draw(st.nothing())
    win_at = draw(st.integers(0, len(tiles) - 1))
    winning = Tile(tiles.pop(win_at))
    flowers = tuple(draw(st.sets(st.sampled_from(FLOWERS))))
    hand = Hand(tuple(sorted(Tile(t) for t in tiles)), tuple(melds), winning, ())
    golds = hand_counts(hand, g)[1]
    if golds == 0:
        win_type = draw(st.sampled_from([WinType.PINGHU, WinType.QIANGGANG, WinType.ZIMO]))
    elif winning == g:
        win_type = draw(st.sampled_from([WinType.ZIMO, WinType.QIANGJIN, WinType.YOUJIN]))
    else:
        win_type = draw(st.sampled_from([WinType.ZIMO, WinType.YOUJIN, WinType.SHUANGYOU]))
    if win_type in (WinType.YOUJIN, WinType.SHUANGYOU) and not you_ready(
        *hand_counts(hand, g, with_winning=False)
    ):
        win_type = WinType.ZIMO
    if win_type is not WinType.ZIMO and draw(st.booleans()):
        # 三游: the same hand without its winning tile, if that is 游金-ready.
        rest = Hand(hand.concealed, hand.melds, None, ())
        if you_ready(*hand_counts(rest, g)):
            hand, win_type = rest, WinType.SANYOU
    ctx = XiamenContext(gold=Tile(g), win_type=win_type, flowers=flowers)
    return hand, ctx


@pytest.mark.slow
@SETTINGS
@given(xiamen_wins())
def test_chosen_split_is_the_maximum(win: tuple[Hand, XiamenContext]) -> None:
    hand, ctx = win
    expected = oracle_water(hand, ctx)
    assert expected is not None
    result = score_xiamen(hand, ctx)
    assert result.water == expected
    assert sum(item.value for item in result.items) == result.water


@pytest.mark.slow
@SETTINGS
@given(wild_hands(total=14, kinds=WALL_64, max_wilds=3), st.sampled_from(KINDS))
def test_not_complete_is_refused(hand: tuple[list[int], int], gold: int) -> None:
    """Arbitrary 14 tiles: scored exactly when the oracle finds them complete."""
    counts, golds = hand
    fake = gold != Tile.WHITE
    tiles: list[int] = [gold] * golds
    for kind, n in enumerate(counts):
        if kind == gold and not fake:
            tiles += [gold] * n  # no natural 5z when the White is the gold
        else:
            tiles += [Tile.WHITE if fake and kind == gold else kind] * n
    if tiles.count(gold) > 3 or tiles.count(Tile.WHITE) > 4:
        return
    winning = Tile(tiles.pop())
    hand_ = Hand(tuple(sorted(Tile(t) for t in tiles)), (), winning, ())
    ctx = XiamenContext(gold=Tile(gold), win_type=WinType.ZIMO)
    expected = oracle_water(hand_, ctx)
    try:
        water: int | None = score_xiamen(hand_, ctx).water
    except NotAWinError:
        water = None
    assert water == expected
