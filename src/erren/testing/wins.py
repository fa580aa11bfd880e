"""Random winning hands for the ``gb`` fan table, with PyMahjongGB's arguments for each.

:func:`random_cases` builds winning hands constructively (sets and a pair, some of the sets turned
into melds of every kind, the winning tile taken out of the concealed part) in one suit + honors,
two and three suits, honors only, plus seven pairs, thirteen orphans, the knitted shapes and the
rare patterns, with random flags, winds and flowers.  Each :class:`Case` gives erren's hand and
context and PyMahjongGB's ``MahjongFanCalculator`` arguments.  The differential test
(``tests/differential/test_scoring_vs_pymahjonggb.py``) and the fast path's test
(``tests/scoring/test_fastfan.py``) score them; a run is a pure function of ``(n, seed)``.

PyMahjongGB's conventions: tiles ``W`` 万, ``B`` 饼, ``T`` 条, ``F1..F4`` 东南西北, ``J1`` 中,
``J2`` 发, ``J3`` 白 (so 5z→J3, 6z→J2, 7z→J1); packs ``("CHI", middle tile, offer 1..3 = which
tile was claimed)``, ``("PENG"|"GANG", tile, offer)`` where offer 0 means concealed — a PENG or
CHI with offer 0 would count as concealed, so claimed melds always get 1..3; a 加杠 is a GANG with
a non-zero offer; ``isAboutKong`` is 杠上开花 when self-drawn and 抢杠和 otherwise;
``is4thTile`` is 和绝张.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from erren.families.guobiao.scoring import WinContext
from erren.hand import Hand
from erren.tiles import Tile

# --------------------------------------------------------------------------------------------
# Tiles

SUITS = "mps"
HONORS = tuple(range(27, 34))
GB_NAMES: tuple[str, ...] = (
    *(f"W{n}" for n in range(1, 10)),
    *(f"B{n}" for n in range(1, 10)),
    *(f"T{n}" for n in range(1, 10)),
    "F1", "F2", "F3", "F4", "J3", "J2", "J1",
)  # fmt: skip
"""PyMahjongGB's name of each kind 0..33: 5z 白 = J3, 6z 发 = J2, 7z 中 = J1."""


def kind_text(kinds: Sequence[int]) -> str:
    """``[0, 1, 2]`` → ``123m`` (sorted, one suit letter per run)."""
    out = ""
    suit = ""
    for k in sorted(kinds):
        letter = SUITS[k // 9] if k < 27 else "z"
        number = k % 9 + 1 if k < 27 else k - 26
        if suit and letter != suit:
            out += suit
        suit = letter
        out += str(number)
    return out + suit


# --------------------------------------------------------------------------------------------
# Random winning hands


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """A meld to write: ``kind`` in chi/peng/ming/jia/an, its tiles, the claimed tile's index."""

    kind: str
    tiles: tuple[int, ...]
    claimed: int = 0

    def notation(self) -> str:
        if self.kind == "chi":
            text = kind_text(self.tiles)
            digits, suit = text[:-1], text[-1]
            i = self.claimed + 1
            return f"[{digits[:i]}'{digits[i:]}{suit}]"
        mark = {"peng": "'", "ming": "'", "jia": "+", "an": "#"}[self.kind]
        return f"[{kind_text(self.tiles)}{mark}]"

    def gb_pack(self, rng: random.Random) -> tuple[str, str, int]:
        first = self.tiles[0]
        if self.kind == "chi":
            return ("CHI", GB_NAMES[first + 1], self.claimed + 1)
        if self.kind == "peng":
            return ("PENG", GB_NAMES[first], rng.randint(1, 3))
        return ("GANG", GB_NAMES[first], 0 if self.kind == "an" else rng.randint(1, 3))


@dataclass(frozen=True, slots=True)
class Case:
    """One random win: the erren hand and context, and PyMahjongGB's arguments."""

    text: str
    family: str
    concealed: tuple[int, ...]
    melds: tuple[MeldSpec, ...]
    winning: int
    self_drawn: bool
    last_copy: bool
    last_tile: bool
    kong_replacement: bool
    robbing_kong: bool
    seat_wind: int  # 0..3
    round_wind: int  # 0..3
    flowers: int
    packs: tuple[tuple[str, str, int], ...] = field(default=())

    def hand(self) -> Hand:
        return Hand.parse(self.text)

    def context(self) -> WinContext:
        return WinContext(
            self_drawn=self.self_drawn,
            last_copy=self.last_copy,
            last_tile=self.last_tile,
            kong_replacement=self.kong_replacement,
            robbing_kong=self.robbing_kong,
            seat_wind=Tile(27 + self.seat_wind),
            round_wind=Tile(27 + self.round_wind),
            flowers=self.flowers,
        )

    def gb_arguments(self) -> dict[str, object]:
        return {
            "pack": self.packs,
            "hand": tuple(GB_NAMES[k] for k in self.concealed),
            "winTile": GB_NAMES[self.winning],
            "flowerCount": self.flowers,
            "isSelfDrawn": self.self_drawn,
            "is4thTile": self.last_copy,
            "isAboutKong": self.kong_replacement or self.robbing_kong,
            "isWallLast": self.last_tile,
            "seatWind": self.seat_wind,
            "prevalentWind": self.round_wind,
            "verbose": True,
        }

    def describe(self) -> str:
        flags = [
            name
            for name in ("self_drawn", "last_copy", "last_tile", "kong_replacement", "robbing_kong")
            if getattr(self, name)
        ]
        winds = f"seat {self.seat_wind + 1}z round {self.round_wind + 1}z"
        flowers = f" flowers {self.flowers}" if self.flowers else ""
        return f"{self.text}  [{self.family}; {' '.join(flags) or 'discard'}; {winds}{flowers}]"


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
