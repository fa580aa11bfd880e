"""Random winning hands for the ``gb`` fan table, with PyMahjongGB's arguments for each.

:func:`random_cases` builds winning hands constructively (sets and a pair, some of the sets turned
into melds of every kind, the winning tile taken out of the concealed part) in one suit + honors,
two and three suits, honors only, plus seven pairs, thirteen orphans, the knitted shapes and the
rare patterns, with random flags, winds and flowers.  Each :class:`Case` gives erren's hand, its
flags and PyMahjongGB's ``MahjongFanCalculator`` arguments (:mod:`erren.testing.wincase`, where
PyMahjongGB's conventions are written down); guobiao-2p's context of a case is
:func:`erren.families.guobiao.testing.win_context`.  The differential test
(``tests/differential/test_scoring_vs_pymahjonggb.py``) and the fast path's test
(``tests/scoring/test_fastfan.py``) score them; a run is a pure function of ``(n, seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from erren.testing.wincase import HONORS, SUITS, Case, MeldSpec, kind_text

__all__ = [
    "HONORS",
    "SUITS",
    "Case",
    "MeldSpec",
    "kind_text",
    "knitted_case",
    "pattern_case",
    "random_cases",
    "seven_pairs_case",
    "standard_case",
    "thirteen_orphans_case",
]

# --------------------------------------------------------------------------------------------
# Random winning hands


class Pool:
    """The 136 tiles, four of each kind, as counts."""

    def __init__(self) -> None:
        self.left = [4] * 34

    def take(self, kinds: Sequence[int]) -> bool:
        need: dict[int, int] = {}
        for k in kinds:
            need[k] = need.get(k, 0) + 1
        if any(self.left[k] < n for k, n in need.items()):
            return False
        for k, n in need.items():
            self.left[k] -= n
        return True


def _suit_kinds(suits: str) -> list[int]:
    return [SUITS.index(s) * 9 + n for s in suits for n in range(9)]


Theme = Callable[[random.Random, str], tuple[list[int], float]]
"""A theme gives the kinds sets may use and the chance that a set is a chow."""


def _theme_any(rng: random.Random, suits: str) -> tuple[list[int], float]:
    return _suit_kinds(suits) + list(HONORS), 0.55


def _theme_chows(rng: random.Random, suits: str) -> tuple[list[int], float]:
    return _suit_kinds(suits) + list(HONORS), 0.9


def _theme_pungs(rng: random.Random, suits: str) -> tuple[list[int], float]:
    return _suit_kinds(suits) + list(HONORS), 0.1


def _theme_honors(rng: random.Random, suits: str) -> tuple[list[int], float]:
    kinds = list(HONORS) + (rng.sample(_suit_kinds(suits), 3) if rng.random() < 0.7 else [])
    return kinds, 0.3


def _theme_terminals(rng: random.Random, suits: str) -> tuple[list[int], float]:
    ends = [k for k in _suit_kinds(suits) if k % 9 in (0, 8)]
    middle = [k for k in _suit_kinds(suits) if k % 9 in (1, 2, 6, 7)]
    return ends + list(HONORS) * rng.randint(0, 1) + middle * rng.randint(0, 1), 0.4


def _theme_range(rng: random.Random, suits: str) -> tuple[list[int], float]:
    low, high = rng.choice(((0, 2), (3, 5), (6, 8), (0, 3), (5, 8), (1, 7), (1, 5)))
    kinds = [k for k in _suit_kinds(suits) if low <= k % 9 <= high]
    return kinds + (list(HONORS) if rng.random() < 0.2 else []), 0.5


def _theme_tiles(rng: random.Random, suits: str) -> tuple[list[int], float]:
    green = [19, 20, 21, 23, 25, 32]
    reversible = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]
    fives = [k for k in _suit_kinds(suits) if 2 <= k % 9 <= 6]
    evens = [k for k in _suit_kinds(suits) if k % 9 in (1, 3, 5, 7)]
    return rng.choice((green, reversible, fives, evens)), rng.choice((0.2, 0.6))


THEMES: tuple[tuple[Theme, int], ...] = (
    (_theme_any, 8),
    (_theme_chows, 5),
    (_theme_pungs, 4),
    (_theme_honors, 2),
    (_theme_terminals, 2),
    (_theme_range, 2),
    (_theme_tiles, 2),
)


def _pick_set(
    rng: random.Random, pool: Pool, kinds: list[int], chow_chance: float, chows: list[int]
) -> tuple[int, ...] | None:
    """One set from ``kinds``: a chow (often related to an earlier chow) or a pung."""
    allowed = set(kinds)
    for _ in range(30):
        if rng.random() < chow_chance:
            if chows and rng.random() < 0.6:
                base = rng.choice(chows)
                number, suit = base % 9, base // 9
                move = rng.choice(("same", "suit", "up1", "up2", "up3", "down1", "down3"))
                if move == "suit":
                    suit = rng.randrange(3)
                else:
                    number += {"same": 0, "up1": 1, "up2": 2, "up3": 3, "down1": -1, "down3": -3}[
                        move
                    ]
                start = suit * 9 + number
                if not 0 <= number <= 6:
                    continue
            else:
                start = rng.choice(kinds)
                if start >= 27 or start % 9 > 6:
                    continue
            chow = (start, start + 1, start + 2)
            if all(k in allowed for k in chow) and pool.take(chow):
                chows.append(start)
                return chow
        else:
            kind = rng.choice(kinds)
            if pool.take((kind,) * 3):
                return (kind,) * 3
    return None


def _winds_and_flowers(rng: random.Random) -> tuple[int, int, int]:
    flowers = rng.choice((0,) * 12 + (1, 2, 3, 8))
    return rng.randrange(4), rng.randrange(4), flowers


def _flags(
    rng: random.Random,
    *,
    held: list[int],
    concealed_before: list[int],
    exposed: list[int],
    winning: int,
    has_kong: bool,
) -> tuple[bool, bool, bool, bool, bool]:
    """Random but physically possible flags: (self_drawn, last_copy, last_tile, kong_replacement,
    robbing_kong)."""
    self_drawn = rng.random() < 0.45
    last_tile = rng.random() < 0.12
    kong_replacement = self_drawn and has_kong and rng.random() < 0.35
    held_of_kind = held.count(winning)  # every copy the winner has, the winning tile included
    robbing = not self_drawn and not last_tile and held_of_kind == 1 and rng.random() < 0.35
    # 和绝张 (§2.11 last_copy): the three other copies are visible (discards, exposed melds) and
    # none is hidden in the winner's hand.  Three copies in his own exposed melds force it.
    if winning in concealed_before or robbing:
        last_copy = False
    elif exposed.count(winning) == 3:
        last_copy = True
    else:
        last_copy = rng.random() < 0.25
    return self_drawn, last_copy, last_tile, kong_replacement, robbing


def _family(shape: str, kinds: Sequence[int]) -> str:
    if shape != "standard":
        return shape
    suits = {k // 9 for k in kinds if k < 27}
    if not suits:
        return "standard honors only"
    return f"standard {len(suits)} suit{'' if len(suits) == 1 else 's'}"


def _case(
    rng: random.Random,
    shape: str,
    concealed_sets: list[tuple[int, ...]],
    melds: list[MeldSpec],
) -> Case:
    concealed = [k for group in concealed_sets for k in group]
    winning = concealed.pop(rng.randrange(len(concealed)))
    concealed.sort()
    in_melds = [k for m in melds for k in m.tiles]
    exposed = [k for m in melds if m.kind != "an" for k in m.tiles]
    held = [*concealed, winning, *in_melds]
    has_kong = any(m.kind in ("ming", "jia", "an") for m in melds)
    self_drawn, last_copy, last_tile, kong_replacement, robbing = _flags(
        rng,
        held=held,
        concealed_before=concealed,
        exposed=exposed,
        winning=winning,
        has_kong=has_kong,
    )
    seat, round_, flowers = _winds_and_flowers(rng)
    melds_text = "".join(f" {m.notation()}" for m in melds)
    return Case(
        text=f"{kind_text(concealed)}{melds_text} +{kind_text([winning])}",
        family=_family(shape, held),
        concealed=tuple(concealed),
        melds=tuple(melds),
        winning=winning,
        self_drawn=self_drawn,
        last_copy=last_copy,
        last_tile=last_tile,
        kong_replacement=kong_replacement,
        robbing_kong=robbing,
        seat_wind=seat,
        round_wind=round_,
        flowers=flowers,
        packs=tuple(m.gb_pack(rng) for m in melds),
    )


def _meldify(
    rng: random.Random, pool: Pool, sets: list[tuple[int, ...]], n_melds: int
) -> tuple[list[tuple[int, ...]], list[MeldSpec]]:
    """Turn ``n_melds`` random sets into melds: chi, peng, or one of the three kongs."""
    order = list(range(len(sets)))
    rng.shuffle(order)
    melded = set(order[:n_melds])
    melds: list[MeldSpec] = []
    concealed: list[tuple[int, ...]] = []
    for i, group in enumerate(sets):
        if i not in melded:
            concealed.append(group)
        elif group[0] != group[1]:
            melds.append(MeldSpec("chi", group, rng.randrange(3)))
        elif rng.random() < 0.4 and pool.take((group[0],)):
            melds.append(MeldSpec(rng.choice(("ming", "jia", "an")), (group[0],) * 4))
        else:
            melds.append(MeldSpec("peng", group))
    return concealed, melds


def standard_case(rng: random.Random, suits: str) -> Case | None:
    pool = Pool()
    theme = rng.choices([t for t, _ in THEMES], weights=[w for _, w in THEMES])[0]
    kinds, chow_chance = theme(rng, suits)
    sets: list[tuple[int, ...]] = []
    chows: list[int] = []
    for _ in range(4):
        found = _pick_set(rng, pool, kinds, chow_chance, chows)
        if found is None:
            return None
        sets.append(found)
    pair_choices = [k for k in kinds if pool.left[k] >= 2]
    if rng.random() < 0.15:  # a pair outside the theme now and then
        pair_choices = [
            k for k in range(34) if pool.left[k] >= 2 and (k >= 27 or SUITS[k // 9] in suits)
        ]
    if not pair_choices:
        return None
    pair = rng.choice(pair_choices)
    pool.take((pair, pair))
    n_melds = rng.choices((0, 1, 2, 3, 4), weights=(35, 20, 20, 15, 10))[0]
    concealed_sets, melds = _meldify(rng, pool, sets, n_melds)
    return _case(rng, "standard", [*concealed_sets, (pair, pair)], melds)


def seven_pairs_case(rng: random.Random, suits: str) -> Case | None:
    theme = rng.choices([t for t, _ in THEMES], weights=[w for _, w in THEMES])[0]
    kinds = sorted(set(theme(rng, suits)[0]))
    if rng.random() < 0.2:  # consecutive pairs (连七对) now and then
        suit = SUITS.index(rng.choice(suits))
        start = rng.randrange(3)
        kinds = [suit * 9 + start + i for i in range(7)]
        pairs = list(kinds)
    else:
        if len(kinds) < 4:
            return None
        pairs = []
        for _ in range(7):
            options = [k for k in kinds if pairs.count(k) < 2]
            if not options:
                return None
            k = rng.choice(options)
            if pairs.count(k) == 1 and rng.random() > 0.15:
                options = [o for o in options if o not in pairs] or options
                k = rng.choice(options)
            pairs.append(k)
    groups: list[tuple[int, ...]] = [(k, k) for k in pairs]
    return _case(rng, "seven pairs", groups, [])


def thirteen_orphans_case(rng: random.Random) -> Case:
    orphans = [0, 8, 9, 17, 18, 26, *HONORS]
    groups: list[tuple[int, ...]] = [(k,) for k in [*orphans, rng.choice(orphans)]]
    return _case(rng, "thirteen orphans", groups, [])


def _knitted(rng: random.Random) -> list[int]:
    order = list(range(3))
    rng.shuffle(order)
    return [suit * 9 + offset + 3 * i for offset, suit in enumerate(order) for i in range(3)]


def knitted_case(rng: random.Random) -> Case | None:
    knitted = _knitted(rng)
    if rng.random() < 0.5:  # 全不靠 / 七星不靠: 14 of the 9 knitted tiles and 7 honors
        tiles = rng.sample(knitted + list(HONORS), 14)
        return _case(rng, "honors and knitted", [(k,) for k in tiles], [])
    # 组合龙: the nine knitted tiles, one set and a pair
    pool = Pool()
    pool.take(knitted)
    kinds = list(range(34))
    found = _pick_set(rng, pool, kinds, 0.5, [])
    pair = rng.choice([k for k in kinds if pool.left[k] >= 2])
    if found is None or not pool.take((pair, pair)):
        return None
    concealed_sets, melds = _meldify(rng, pool, [found], rng.randrange(2))
    groups = [*((k,) for k in knitted), *concealed_sets, (pair, pair)]
    return _case(rng, "knitted straight", groups, melds)


def _chow(suit: int, start: int) -> tuple[int, ...]:
    return (suit * 9 + start - 1, suit * 9 + start, suit * 9 + start + 1)


def pattern_case(rng: random.Random) -> Case | None:
    """The rare patterns random sets seldom hit: 九莲宝灯, 一色/三色双龙会, 花龙, 三色三步高,
    全带五; one random set completes a pattern that needs only three."""
    a, b, c = rng.sample(range(3), 3)
    pattern = rng.choice(
        (
            "nine gates",
            "pure terminal",
            "mixed terminal",
            "mixed straight",
            "mixed shifted",
            "all fives",
        )
    )
    if pattern == "nine gates":
        tiles = [a * 9 + n - 1 for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
        tiles.append(a * 9 + rng.randrange(9))
        return _case(rng, pattern, [(k,) for k in tiles], [])
    sets: list[tuple[int, ...]]
    pair = -1
    if pattern == "pure terminal":
        sets, pair = [_chow(a, 1), _chow(a, 1), _chow(a, 7), _chow(a, 7)], a * 9 + 4
    elif pattern == "mixed terminal":
        sets, pair = [_chow(a, 1), _chow(a, 7), _chow(b, 1), _chow(b, 7)], c * 9 + 4
    elif pattern == "mixed straight":
        sets = [_chow(a, 1), _chow(b, 4), _chow(c, 7)]
    elif pattern == "mixed shifted":
        start = rng.randint(1, 5)
        sets = [_chow(a, start), _chow(b, start + 1), _chow(c, start + 2)]
    else:
        sets = [_chow(rng.randrange(3), rng.randint(3, 5)) for _ in range(3)]
        sets.append((rng.randrange(3) * 9 + 4,) * 3)
        pair = rng.randrange(3) * 9 + 4
    pool = Pool()
    for group in sets:
        if not pool.take(group):
            return None
    while len(sets) < 4:
        found = _pick_set(rng, pool, list(range(34)), 0.5, [])
        if found is None:
            return None
        sets.append(found)
    if pair < 0:
        pair = rng.choice([k for k in range(34) if pool.left[k] >= 2])
    if not pool.take((pair, pair)):
        return None
    concealed_sets, melds = _meldify(rng, pool, sets, rng.choice((0, 0, 1, 2)))
    return _case(rng, pattern, [*concealed_sets, (pair, pair)], melds)


def random_cases(n: int, seed: int) -> list[Case]:
    """``n`` winning hands: 40 % one suit + honors, 25 % three suits, 5 % two suits, 15 % seven
    pairs, 5 % rare patterns, 5 % thirteen orphans, 5 % knitted shapes."""
    rng = random.Random(f"erren-scoring-diff:{seed}")
    cases: list[Case] = []
    while len(cases) < n:
        roll = rng.random()
        case: Case | None
        if roll < 0.40:
            case = standard_case(rng, rng.choice(SUITS))
        elif roll < 0.65:
            case = standard_case(rng, SUITS)
        elif roll < 0.70:
            case = pattern_case(rng)
        elif roll < 0.75:
            case = standard_case(rng, "".join(rng.sample(SUITS, 2)))
        elif roll < 0.90:
            suits = rng.choice((rng.choice(SUITS), SUITS))
            case = seven_pairs_case(rng, suits)
        elif roll < 0.95:
            case = thirteen_orphans_case(rng)
        else:
            case = knitted_case(rng)
        if case is not None:
            cases.append(case)
    return cases
