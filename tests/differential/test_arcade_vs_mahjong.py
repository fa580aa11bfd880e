"""The arcade patterns that mean the same as riichi yaku, against ``mahjong`` 2.1.0's
``HandCalculator`` on random closed hands (arcade §4, R4.14).

Each hand is a random complete closed hand, dealt from shape templates biased towards the
compared yaku (one suit, terminals and honors, pungs, repeated sequences, triple sequences and
pungs, straights, seven pairs, green, winds, dragons, nine gates).  The library scores it with
its highest-valued decomposition; erren lists every interpretation (``evaluate``).  The library's
compared yaku must equal, for **some** interpretation, the set erren detects there (limit hands
if any standard yakuman holds, otherwise the non-limit patterns — listed even when one of
arcade's local limit hands would drop them), once the documented differences below are applied.

Compared (riichi → arcade): iipeikou N9, ryanpeikou N10, chiitoitsu N11, ittsu N24, chanta
N18, junchan N19, honitsu N21, chinitsu N22, toitoi N13, sanankou N15, sanshoku N14, sanshoku
doukou N17, shousangen N23, honroutou N20, tanyao N6, menzen tsumo N7; yakuman kokushi L17,
suuankou L8, daisangen L6, shousuushii L4, daisuushii L5, ryuuiisou L14, tsuuiisou L12,
chinroutou L13, chuuren poutou L16.

Differences, each applied in its exact form (never skipped):

1. **White is the flower kind** (R1.10–R1.11, §7 items 4–6): a natural ``5z`` is never in an
   arcade hand.  :func:`test_natural_hands` deals hands without ``5z`` and without wilds;
   :func:`test_white_played_by_wilds` deals hands with up to three ``5z`` (which shousangen,
   daisangen, kokushi need) and gives arcade each ``5z`` as a wild tile of a kind the hand
   lacks (R1.9b: a wild may stand for ``F``).  A wild winning tile is self-drawn (R2.6).
2. **Honroutou in seven pairs** (N20 "Seven pairs do not qualify", §7 item 31): riichi scores
   honroutou on an all-幺九 chiitoitsu; arcade does not.  Applied: an all-幺九 seven-pairs
   interpretation with terminals and honors expects riichi's honroutou.
3. **Tsuuiisou in seven pairs** (L12 「形式必须为碰碰胡」, §7 item 37): riichi's seven honor pairs
   are tsuuiisou; arcade's 字一色 needs four pungs.  Applied like 2 (only with wilds as ``5z``).
4. **Chuuren poutou** (L16 「独听9门才算」, §7 item 35): riichi scores any ``1112345678999 + x``
   hand; arcade only the pure nine-sided wait (riichi's double chuuren).  Applied: a natural
   nine-gates hand that is not the pure form expects riichi's single chuuren.
5. **Multiplicities** (R4.13): riichi's double yakuman (kokushi 13-sided, suuankou tanki, pure
   chuuren, daisuushii) map to the arcade limit hand; only the set of hands is compared.
6. **Local limit hands** (大车轮, 四连刻, 百万石, 红孔雀, 东北新干线, R4.14) drop arcade's
   non-limit patterns; riichi scores ordinary yaku.  Applied: the comparison reads arcade's
   non-limit detections, which :class:`~erren.families.arcade.scoring.Evaluation` lists regardless.
7. **No yaku**: a riichi hand with no yaku (``no_yaku``) has the empty set of compared yaku;
   arcade's 推倒胡 and 门清 are not compared.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

from erren.families.arcade.scoring import ArcadeContext, Evaluation, Form, evaluate
from erren.hand import Hand
from erren.testing.differential import SEED
from erren.tiles import Tile

NATURAL_HANDS = 3000
WILD_HANDS = 1200

WHITE = 31
GREEN_KINDS = (19, 20, 21, 23, 25, 32)
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

YAKU: dict[str, str] = {
    "Iipeiko": "N9",
    "Ryanpeikou": "N10",
    "Chiitoitsu": "N11",
    "Ittsu": "N24",
    "Chantai": "N18",
    "Junchan": "N19",
    "Honitsu": "N21",
    "Chinitsu": "N22",
    "Toitoi": "N13",
    "San Ankou": "N15",
    "Sanshoku Doujun": "N14",
    "Sanshoku Doukou": "N17",
    "Shou Sangen": "N23",
    "Honroutou": "N20",
    "Tanyao": "N6",
    "Menzen Tsumo": "N7",
}
YAKUMAN: dict[str, str] = {
    "Kokushi Musou": "L17",
    "Kokushi Musou Juusanmen Matchi": "L17",  # difference 5
    "Suu Ankou": "L8",
    "Suu Ankou Tanki": "L8",  # difference 5
    "Daisangen": "L6",
    "Shousuushii": "L4",
    "Dai Suushii": "L5",
    "Ryuuiisou": "L14",
    "Tsuu Iisou": "L12",
    "Chinroutou": "L13",
    "Daburu Chuuren Poutou": "L16",  # difference 5: the pure form
    "Chuuren Poutou": "chuuren (not pure)",  # difference 4
}
COMPARED_NON_LIMIT = frozenset(YAKU.values())
COMPARED_LIMIT = frozenset(YAKUMAN.values())

_CALCULATOR = HandCalculator()
_OPTIONS = OptionalRules(has_double_yakuman=True, has_open_tanyao=True)


# --------------------------------------------------------------------------------------------
# Dealing complete closed hands


@dataclass(frozen=True)
class Dealt:
    counts: tuple[int, ...]  # 14 tiles, the winning tile included
    winning: int
    self_drawn: bool

    def notation(self, wild: int | None = None) -> str:
        rest = list(self.counts)
        rest[self.winning] -= 1
        tiles = [k for k, n in enumerate(rest) for _ in range(n)]
        shown = ["W" if wild is not None and k == WHITE else str(Tile(k)) for k in tiles]
        win = "W" if wild is not None and self.winning == WHITE else str(Tile(self.winning))
        return " ".join(shown) + f" +{win}" + (" tsumo" if self.self_drawn else " ron")


def _chows(kinds: list[int]) -> list[tuple[int, ...]]:
    present = set(kinds)
    return [(k, k + 1, k + 2) for k in kinds if k < 27 and k % 9 < 7 and {k + 1, k + 2} <= present]


def _fill(
    rng: random.Random,
    kinds: list[int],
    counts: list[int],
    sets: int,
    pung_bias: float,
) -> bool:
    """Add ``sets`` random sets and a pair of ``kinds`` to ``counts`` (four copies at most)."""
    chows = _chows(kinds)
    for _ in range(sets):
        for _attempt in range(20):
            if chows and rng.random() >= pung_bias:
                group: tuple[int, ...] = rng.choice(chows)
            else:
                group = (rng.choice(kinds),) * 3
            if all(counts[k] + group.count(k) <= 4 for k in set(group)):
                for k in group:
                    counts[k] += 1
                break
        else:
            return False
    for _attempt in range(20):
        k = rng.choice(kinds)
        if counts[k] <= 2:
            counts[k] += 2
            return True
    return False


def _pool(rng: random.Random, white: bool) -> list[int]:
    honors = [k for k in range(27, 34) if white or k != WHITE]
    suit = rng.randrange(3) * 9
    choice = rng.randrange(8)
    if choice == 0:
        pool = list(range(34))
    elif choice == 1:
        pool = list(range(suit, suit + 9))
    elif choice == 2:
        pool = list(range(suit, suit + 9)) + honors
    elif choice == 3:
        pool = [k for k in range(27) if k % 9 in (0, 1, 2, 6, 7, 8)] + honors
    elif choice == 4:
        pool = [k for k in range(27) if k % 9 in (0, 8)] + honors
    elif choice == 5:
        pool = [k for k in range(27) if 1 <= k % 9 <= 7]
    elif choice == 6:
        pool = list(GREEN_KINDS)
    else:
        pool = honors + [k for k in range(27) if k % 9 in (0, 8)][: rng.randrange(1, 7)]
    return [k for k in pool if white or k != WHITE]


def _template(rng: random.Random, white: bool) -> list[int] | None:
    """A hand shaped for one yaku, or a random hand of a biased pool of kinds."""
    counts = [0] * 34
    kinds = [k for k in range(34) if white or k != WHITE]
    style = rng.randrange(12)
    if style == 0:  # repeated sequences (iipeikou, ryanpeikou)
        s = rng.randrange(3) * 9 + rng.randrange(7)
        for k in (s, s + 1, s + 2):
            counts[k] += 2
        ok = _fill(rng, kinds if rng.random() < 0.5 else [s, s + 1, s + 2], counts, 2, 0.3)
        return counts if ok else None
    if style == 1:  # triple sequence / triple pung
        n = rng.randrange(7)
        pung = rng.random() < 0.5
        for suit in range(3):
            for k in (suit * 9 + n,) * 3 if pung else range(suit * 9 + n, suit * 9 + n + 3):
                counts[k] += 1
        return counts if _fill(rng, kinds, counts, 1, 0.5) else None
    if style == 2:  # pure straight
        base = rng.randrange(3) * 9
        for k in range(base, base + 9):
            counts[k] += 1
        pool = kinds if rng.random() < 0.5 else list(range(base, base + 9)) + list(range(27, 34))
        return counts if _fill(rng, [k for k in pool if k in kinds], counts, 1, 0.5) else None
    if style == 3:  # seven pairs of distinct kinds
        pool = _pool(rng, white)
        if len(pool) < 7:
            pool = kinds
        for k in rng.sample(pool, 7):
            counts[k] = 2
        return counts
    if style == 4:  # nine gates shapes
        base = rng.randrange(3) * 9
        for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
            counts[base + i] = n
        counts[base + rng.randrange(9)] += 1
        return counts
    if style == 5 and white:  # thirteen orphans (needs the White: wild test only)
        for k in ORPHANS:
            counts[k] = 1
        counts[rng.choice(ORPHANS)] += 1
        return counts if counts[WHITE] <= 3 else None
    if style == 6:  # winds and dragons
        honors = [k for k in range(27, 34) if k in kinds]
        for k in rng.sample(honors, 3 if white else 2):
            counts[k] += 3
        return counts if _fill(rng, kinds, counts, 4 - (3 if white else 2), 0.5) else None
    return counts if _fill(rng, _pool(rng, white), counts, 4, rng.random()) else None


def deal(rng: random.Random, white: bool) -> Dealt:
    while True:
        counts = _template(rng, white)
        if counts is None or sum(counts) != 14 or max(counts) > 4:
            continue
        if not white and counts[WHITE]:
            continue
        if white and not 1 <= counts[WHITE] <= 3:
            continue
        tiles = [k for k, n in enumerate(counts) for _ in range(n)]
        winning = rng.choice(tiles)
        self_drawn = rng.random() < 0.5 or (white and winning == WHITE)
        return Dealt(tuple(counts), winning, self_drawn)


# --------------------------------------------------------------------------------------------
# The two sides


def riichi_yaku(hand: Dealt) -> frozenset[str] | None:
    """The library's compared yaku (mapped to arcade ids); None if it finds no win."""
    tiles = [k * 4 + i for k, n in enumerate(hand.counts) for i in range(n)]
    config = HandConfig(is_tsumo=hand.self_drawn, options=_OPTIONS)
    response = _CALCULATOR.estimate_hand_value(tiles, hand.winning * 4, config=config)
    if response.error == HandCalculator.ERR_NO_YAKU:
        return frozenset()  # difference 7
    if response.error is not None:
        return None
    names = [y.name for y in response.yaku or ()]
    limits = frozenset(YAKUMAN[n] for n in names if n in YAKUMAN)
    if any(getattr(y, "is_yakuman", False) for y in response.yaku or ()):
        return limits
    return frozenset(YAKU[n] for n in names if n in YAKU)


def _nine_gates_impure(counts: tuple[int, ...]) -> bool:
    """Riichi's chuuren poutou: one suit, 1112345678999 plus any tile of the suit."""
    for base in (0, 9, 18):
        block = counts[base : base + 9]
        if sum(block) == 14 and all(
            n >= need for n, need in zip(block, (3, 1, 1, 1, 1, 1, 1, 1, 3), strict=True)
        ):
            return True
    return False


def expected(hand: Dealt, e: Evaluation) -> frozenset[str]:
    """What riichi should report if it read the hand as this interpretation (differences 2–6)."""
    interp = e.interpretation
    counts = interp.counts()
    kinds = [k for k, n in enumerate(counts) if n]
    limits = {p.id for p in e.limit_hands} & COMPARED_LIMIT
    if interp.form is Form.SEVEN_PAIRS and all(k >= 27 for k in kinds):
        limits.add("L12")  # difference 3
    if "L16" not in limits and _nine_gates_impure(hand.counts):
        limits.add("chuuren (not pure)")  # difference 4
    if limits:
        return frozenset(limits)
    found = {p.id for p in e.non_limit} & COMPARED_NON_LIMIT
    yaojiu = all(k >= 27 or k % 9 in (0, 8) for k in kinds)
    if (
        interp.form is Form.SEVEN_PAIRS
        and yaojiu
        and any(k >= 27 for k in kinds)
        and any(k < 27 for k in kinds)
    ):
        found.add("N20")  # difference 2
    return frozenset(found)


def _compare(
    hands: Iterator[Dealt], to_arcade: Callable[[Dealt], tuple[Hand, ArcadeContext]]
) -> tuple[int, list[str], dict[str, int]]:
    checked = 0
    mismatches: list[str] = []
    seen: dict[str, int] = {}
    for hand in hands:
        theirs = riichi_yaku(hand)
        arcade_hand, ctx = to_arcade(hand)
        ours = [expected(hand, e) for e in evaluate(arcade_hand, ctx)]
        checked += 1
        for found in (theirs or frozenset()) | frozenset().union(*ours):
            seen[found] = seen.get(found, 0) + 1
        if theirs is None or not ours or theirs not in ours:
            mismatches.append(
                f"{hand.notation()} (arcade {arcade_hand}): riichi {sorted(theirs or ['no win'])}"
                f", arcade interpretations {[sorted(s) for s in ours]}"
            )
    return checked, mismatches, seen


def _natural(hand: Dealt) -> tuple[Hand, ArcadeContext]:
    rest = list(hand.counts)
    rest[hand.winning] -= 1
    concealed = tuple(Tile(k) for k, n in enumerate(rest) for _ in range(n))
    return Hand(concealed, (), Tile(hand.winning)), ArcadeContext(self_drawn=hand.self_drawn)


def _with_wilds(hand: Dealt) -> tuple[Hand, ArcadeContext]:
    """Each 5z becomes a wild of a kind the hand lacks (difference 1)."""
    wild = next(k for k in range(34) if k != WHITE and not hand.counts[k])
    rest = list(hand.counts)
    rest[hand.winning] -= 1
    concealed = tuple(
        sorted(Tile(wild if k == WHITE else k) for k, n in enumerate(rest) for _ in range(n))
    )
    winning = Tile(wild if hand.winning == WHITE else hand.winning)
    ctx = ArcadeContext(wild=Tile(wild), self_drawn=hand.self_drawn)
    return Hand(concealed, (), winning), ctx


def test_natural_hands() -> None:
    rng = random.Random(SEED)
    hands = (deal(rng, white=False) for _ in range(NATURAL_HANDS))
    checked, mismatches, seen = _compare(hands, _natural)
    assert not mismatches, f"{len(mismatches)} of {checked}:\n" + "\n".join(mismatches[:12])
    # Every compared pattern that can occur without the White was exercised.
    missing = (COMPARED_NON_LIMIT | COMPARED_LIMIT) - set(seen) - {"N23", "L6", "L17"}
    assert not missing, f"never seen: {sorted(missing)}"


@pytest.mark.slow
def test_white_played_by_wilds() -> None:
    """Slow (about 8 s): thousands of generated hands compared with the reference library."""
    rng = random.Random(SEED + 1)
    hands = (deal(rng, white=True) for _ in range(WILD_HANDS))
    checked, mismatches, seen = _compare(hands, _with_wilds)
    assert not mismatches, f"{len(mismatches)} of {checked}:\n" + "\n".join(mismatches[:12])
    for needed in ("N23", "L6", "L17"):
        assert seen.get(needed), f"{needed} never exercised"
