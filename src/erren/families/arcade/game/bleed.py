"""arcade's big-bleed deal (R3.10): the templates, a feasible target, the rigged deal."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from erren.families.arcade.game.options import ALL_KINDS, DEAL_POSITIONS, INDICATOR
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine.state import State
    from erren.families.arcade.game.options import ArcadeData, ArcadeOptions

__all__ = ["BLEED_NORMAL", "BLEED_YAKUMAN", "bleed_deal", "bleed_target"]


def _rset(rng: random.Random, kinds: tuple[int, ...] = ALL_KINDS) -> list[int]:
    """A random set (sequence or pung) among the sets of ``kinds``."""
    options: list[list[int]] = [[k, k, k] for k in kinds]
    options += [[k, k + 1, k + 2] for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
    return list(rng.choice(options))


def _suit(rng: random.Random) -> tuple[int, ...]:
    base = 9 * rng.randrange(3)
    return tuple(range(base, base + 9))


def _t_qingyise(rng: random.Random) -> list[int]:
    s = _suit(rng)
    k = rng.choice(s)
    return [*_rset(rng, s), *_rset(rng, s), *_rset(rng, s), *_rset(rng, s), k, k]


def _t_hunyise(rng: random.Random) -> list[int] | None:
    kinds = _suit(rng) + tuple(range(27, 34))
    groups = [_rset(rng, kinds) for _ in range(4)]
    k = rng.choice(kinds)
    groups.append([k, k])
    honor = sum(1 for g in groups if g[0] >= 27)
    if honor < 1 or len(groups) - honor < 2:
        return None
    return [t for g in groups for t in g]


def _t_ittsu(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    k = rng.randrange(34)
    return [*range(b, b + 9), *_rset(rng), k, k]


def _t_sanshoku(rng: random.Random) -> list[int]:
    n = rng.randrange(7)
    k = rng.randrange(34)
    return [*(b + n + i for b in (0, 9, 18) for i in range(3)), *_rset(rng), k, k]


def _t_sanshoku_pung(rng: random.Random) -> list[int]:
    n = rng.randrange(9)
    k = rng.randrange(34)
    return [*(b + n for b in (0, 9, 18) for _ in range(3)), *_rset(rng), k, k]


def _t_toitoi(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(34), 5)
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_chiitoi(rng: random.Random) -> list[int]:
    return [k for k in rng.sample(range(34), 7) for _ in range(2)]


def _t_junchan(rng: random.Random) -> list[int] | None:
    sets = []
    for _ in range(4):
        b = 9 * rng.randrange(3)
        sets.append(rng.choice(([b, b + 1, b + 2], [b + 6, b + 7, b + 8], [b] * 3, [b + 8] * 3)))
    if all(s[0] == s[1] for s in sets):
        return None
    k = rng.choice((0, 8, 9, 17, 18, 26))
    return [*(t for s in sets for t in s), k, k]


def _t_ryanpeikou(rng: random.Random) -> list[int]:
    seqs = [k for k in range(27) if k % 9 <= 6]
    a, b = rng.choice(seqs), rng.choice(seqs)
    k = rng.randrange(34)
    first = [a, a + 1, a + 2]
    second = [b, b + 1, b + 2]
    return [*first, *first, *second, *second, k, k]


def _t_daisuushi(rng: random.Random) -> list[int]:
    k = rng.randrange(34)
    return [*(w for w in range(27, 31) for _ in range(3)), k, k]


def _t_shousuushi(rng: random.Random) -> list[int]:
    pair = rng.randrange(27, 31)
    return [*(w for w in range(27, 31) if w != pair for _ in range(3)), pair, pair, *_rset(rng)]


def _t_tsuuiisou(rng: random.Random) -> list[int]:
    kinds = rng.sample(range(27, 34), 5)
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_suuankou(rng: random.Random) -> list[int]:
    kinds = [rng.randrange(34) for _ in range(5)]
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_chinroutou(rng: random.Random) -> list[int]:
    kinds = rng.sample((0, 8, 9, 17, 18, 26), 5)
    return [*(k for k in kinds[:4] for _ in range(3)), kinds[4], kinds[4]]


def _t_ryuuiisou(rng: random.Random) -> list[int]:
    green = (19, 20, 21, 23, 25, 32)
    sets = [[19, 20, 21], *([k] * 3 for k in green)]
    k = rng.choice(green)
    return [*(t for _ in range(4) for t in rng.choice(sets)), k, k]


def _t_chuuren(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    return [b, b, b, *range(b + 1, b + 8), b + 8, b + 8, b + 8, b + rng.randrange(9)]


def _t_suurenkou(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3) + rng.randrange(6)
    k = rng.randrange(34)
    return [*(b + i for i in range(4) for _ in range(3)), k, k]


def _t_hyakumangoku(rng: random.Random) -> list[int]:
    return [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 4, 4]


def _t_shinkansen(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    tail = [27, 27, 27, 30, 30] if rng.randrange(2) == 0 else [30, 30, 30, 27, 27]
    return [*range(b, b + 9), *tail]


def _t_daisharin(rng: random.Random) -> list[int]:
    b = 9 * rng.randrange(3)
    return [b + i for i in range(1, 8) for _ in range(2)]


def _t_peacock(rng: random.Random) -> list[int]:
    return [18, 18, 18, 22, 22, 22, 24, 24, 24, 26, 26, 26, 33, 33]


BLEED_NORMAL = (
    ("清一色", _t_qingyise),
    ("混一色", _t_hunyise),
    ("一气通贯", _t_ittsu),
    ("三色同顺", _t_sanshoku),
    ("三色同刻", _t_sanshoku_pung),
    ("碰碰胡", _t_toitoi),
    ("七对子", _t_chiitoi),
    ("纯全带幺", _t_junchan),
    ("两杯口", _t_ryanpeikou),
)
"""R3.10's normal-bleed templates: name and a sampler (``None`` or an invalid fill is redrawn)."""
BLEED_YAKUMAN = (
    ("大四喜", _t_daisuushi),
    ("小四喜", _t_shousuushi),
    ("字一色", _t_tsuuiisou),
    ("四暗刻", _t_suuankou),
    ("清老头", _t_chinroutou),
    ("绿一色", _t_ryuuiisou),
    ("九莲宝灯", _t_chuuren),
    ("四连刻", _t_suurenkou),
    ("百万石", _t_hyakumangoku),
    ("东北新干线", _t_shinkansen),
    ("大车轮", _t_daisharin),
    ("红孔雀", _t_peacock),
)
"""R3.10's yakuman-bleed templates."""
_TRIES = 2000


def _valid_fill(tiles: list[int] | None, banned: tuple[int, int]) -> bool:
    if tiles is None or len(tiles) != 14:
        return False
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t in banned:
            return False
        counts[t] += 1
    return max(counts) <= 4


def _feasible(sampler: Any, banned: tuple[int, int]) -> bool:
    """Whether a template can be filled without ``W`` and ``F`` (a fixed local generator, so
    that the hand's generator is used only for the choices of R3.10)."""
    rng = random.Random(0)
    return any(_valid_fill(sampler(rng), banned) for _ in range(_TRIES))


def bleed_target(
    rng: random.Random, yakuman: bool, wild: int, flower: int
) -> tuple[str, list[int]] | None:
    """R3.10 steps 2–3: a feasible template of the type, chosen uniformly, and a random fill
    ``T`` (14 kinds) showing it; ``None`` if no template is feasible."""
    banned = (wild, flower)
    table = BLEED_YAKUMAN if yakuman else BLEED_NORMAL
    feasible = [(name, f) for name, f in table if _feasible(f, banned)]
    if not feasible:
        return None
    name, sampler = rng.choice(feasible)
    for _ in range(_TRIES * 5):
        tiles = sampler(rng)
        if _valid_fill(tiles, banned):
            return name, sorted(tiles)  # type: ignore[arg-type]
    return None  # pragma: no cover - feasible templates fill quickly


def bleed_deal(state: State, d: ArcadeData, human: int, opts: ArcadeOptions) -> None:
    """R3.10: the rigged deal of the human, drawn from the hand's event generator."""
    rng = d.rng
    u = rng.random()
    py, pn = opts.bleed_yakuman_prob, opts.bleed_normal_prob
    if u < py:
        yakuman, gap = True, opts.bleed_yakuman_gap
    elif u < py + pn:
        yakuman, gap = False, opts.bleed_normal_gap
    else:
        return
    found = bleed_target(rng, yakuman, d.wild, d.flower)
    if found is None:
        return
    name, target = found
    hand = list(target)
    for i in sorted(rng.sample(range(14), gap + 1), reverse=True):
        del hand[i]
    counts = [0] * NUM_KINDS
    for t in hand:
        counts[t] += 1
    size = 14 if human == state.dealer else 13
    while len(hand) < size:
        pool = [
            k for k in range(NUM_KINDS) if k not in (d.wild, d.flower) for _ in range(4 - counts[k])
        ]
        t = rng.choice(pool)
        counts[t] += 1
        hand.append(t)
    _place(state, DEAL_POSITIONS[0 if human == state.dealer else 1], hand)
    d.bleed = name
    d.bleed_seat = human


def _place(state: State, positions: tuple[int, ...], tiles: list[int]) -> None:
    """R3.10 step 5: swap tiles so that ``positions`` hold exactly ``tiles`` (the indicator
    stays)."""
    wall = state.wall
    need = [0] * 42
    for t in tiles:
        need[t] += 1
    wrong = []
    for pos in positions:
        t = wall[pos]
        if need[t] > 0:
            need[t] -= 1
        else:
            wrong.append(pos)
    inside = set(positions)
    for pos in wrong:
        want = next(k for k in range(42) if need[k] > 0)
        need[want] -= 1
        src = next(
            i
            for i in range(len(wall) - 1, -1, -1)
            if i != INDICATOR and i not in inside and wall[i] == want
        )
        wall[pos], wall[src] = wall[src], wall[pos]
