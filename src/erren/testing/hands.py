"""Seeded random hands shared by the benchmarks and the differential tests.

Everybody who compares erren with a reference library draws from here, so a hand that disagrees
in a test can be timed in the benchmark and the other way round.  Two walls:

* :data:`WALL_64` — the two-player game's tiles: one suit (万, kinds 0..8) plus the seven honors
  (guobiao-2p §1.1), four copies each;
* :data:`WALL_136` — the full riichi/MCR set of 34 kinds, four copies each.

A :class:`Hand` is the concealed part as a 34-long count tuple plus the melds (sets of three kinds)
that were taken from the same wall, so ``held`` (concealed + melds) never exceeds four of a kind.
Two ways of dealing, mixed half and half by :func:`deal_batch`:

* ``uniform`` — the concealed tiles are the next tiles of the shuffled wall (mostly far from ready);
* ``near`` — a complete hand (sets and a pair) is built from the wall, then 0–3 of its concealed
  tiles are swapped for other wall tiles (many complete, ready and one-away hands, where waits and
  the win check are interesting).

Everything is a pure function of ``(seed, wall, size, melds)``: string seeds go through SHA-512 in
:class:`random.Random`, so runs agree across processes and ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

NUM_KINDS = 34
SUITED_64 = tuple(range(9))
HONORS = tuple(range(27, 34))

WallName = Literal["64", "136"]
WALL_NAMES: tuple[WallName, ...] = ("64", "136")

WALL_64: tuple[int, ...] = (*SUITED_64, *HONORS)
"""The kinds of the 64-tile wall (one suit, default 万, plus honors)."""
WALL_136: tuple[int, ...] = tuple(range(NUM_KINDS))
"""The kinds of the 136-tile wall."""
WALLS: dict[WallName, tuple[int, ...]] = {"64": WALL_64, "136": WALL_136}

Counts = tuple[int, ...]
Meld = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Hand:
    """A concealed part (34 counts) plus the melds taken from the same wall."""

    concealed: Counts
    melds: tuple[Meld, ...] = ()

    @property
    def size(self) -> int:
        """Number of concealed tiles (13/14 without melds, 10/11, 7/8, … with)."""
        return sum(self.concealed)

    @property
    def held(self) -> Counts:
        """Concealed tiles plus the tiles of the melds: what the player holds of each kind."""
        counts = list(self.concealed)
        for meld in self.melds:
            for kind in meld:
                counts[kind] += 1
        return tuple(counts)

    @property
    def meld_counts(self) -> Counts:
        """Tiles of each kind in the melds (erren's ``waits(held=...)``)."""
        counts = [0] * NUM_KINDS
        for meld in self.melds:
            for kind in meld:
                counts[kind] += 1
        return tuple(counts)

    @property
    def has_quad(self) -> bool:
        """Whether the concealed part holds four of some kind."""
        return 4 in self.concealed

    def __str__(self) -> str:
        text = counts_to_str(self.concealed)
        for meld in self.melds:
            text += f" [{counts_to_str(_counts(meld))}]"
        return text


# --------------------------------------------------------------------------------------------
# Dealing


def _counts(kinds: Sequence[int]) -> Counts:
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return tuple(counts)


def _take(pool: list[int], kinds: Sequence[int]) -> bool:
    """Remove ``kinds`` from ``pool`` if all are there (True), else leave it untouched."""
    taken: list[int] = []
    for kind in kinds:
        try:
            pool.remove(kind)
        except ValueError:
            pool.extend(taken)
            return False
        taken.append(kind)
    return True


def _random_set(pool: list[int], rng: random.Random) -> Meld | None:
    """Take a random pung or chow out of ``pool`` (None if none found after a few tries)."""
    for _ in range(64):
        kind = rng.choice(pool)
        if kind < 27 and kind % 9 <= 6 and rng.random() < 0.6:
            chow: Meld = (kind, kind + 1, kind + 2)
            if _take(pool, chow):
                return chow
        pung: Meld = (kind, kind, kind)
        if _take(pool, pung):
            return pung
    return None


def _shuffled_wall(wall: WallName, rng: random.Random) -> list[int]:
    pool = [kind for kind in WALLS[wall] for _ in range(4)]
    rng.shuffle(pool)
    return pool


def deal_uniform(wall: WallName, size: int, n_melds: int, rng: random.Random) -> Hand:
    """``n_melds`` random sets, then ``size`` concealed tiles straight off the shuffled wall."""
    while True:
        pool = _shuffled_wall(wall, rng)
        melds: list[Meld] = []
        for _ in range(n_melds):
            meld = _random_set(pool, rng)
            if meld is None:
                break
            melds.append(meld)
        else:
            rng.shuffle(pool)
            return Hand(_counts(pool[:size]), tuple(melds))


def deal_near(wall: WallName, size: int, n_melds: int, rng: random.Random) -> Hand:
    """A complete hand with 0–3 concealed tiles swapped for wall tiles, trimmed to ``size``.

    The complete hand has ``n_melds`` melds and ``4 - n_melds`` concealed sets plus a pair; for a
    13-tile (3n+1) size one random concealed tile is dropped as well.
    """
    n_sets = 4 - n_melds
    while True:
        pool = _shuffled_wall(wall, rng)
        melds: list[Meld] = []
        concealed: list[int] = []
        ok = True
        for _ in range(n_melds):
            meld = _random_set(pool, rng)
            if meld is None:
                ok = False
                break
            melds.append(meld)
        for _ in range(n_sets):
            if not ok:
                break
            found = _random_set(pool, rng)
            if found is None:
                ok = False
                break
            concealed.extend(found)
        if not ok:
            continue
        pair_kind = next((k for k in pool if pool.count(k) >= 2), None)
        if pair_kind is None:
            continue
        _take(pool, (pair_kind, pair_kind))
        concealed.extend((pair_kind, pair_kind))
        rng.shuffle(pool)
        for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 2, 3))):
            concealed[rng.randrange(len(concealed))] = pool.pop()
        while len(concealed) > size:
            pool.append(concealed.pop(rng.randrange(len(concealed))))
        return Hand(_counts(concealed), tuple(melds))


KNITTED_GROUPS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
"""Offsets of the 147, 258 and 369 groups inside a suit."""


def deal_special(wall: WallName, size: int, n_melds: int, rng: random.Random) -> Hand:
    """A hand near 十三幺, 全不靠 or 组合龙: mostly distinct tiles of that shape, a few random ones.

    On the 64-tile wall these shapes cannot be completed (guobiao-2p §3.3); the hand is then
    drawn from the wall's tiles nearest to them (terminals, honors and one knitted group).
    """
    pool = _shuffled_wall(wall, rng)
    kinds = set(WALLS[wall])
    melds: list[Meld] = []
    for _ in range(n_melds):
        meld = _random_set(pool, rng)
        if meld is not None:
            melds.append(meld)
    choice = rng.randrange(3)
    if choice == 0:
        ideal = [k for k in (0, 8, 9, 17, 18, 26, *HONORS) if k in kinds]
    else:
        suits = [0, 1, 2]
        rng.shuffle(suits)
        ideal = [
            9 * s + off for s, group in zip(suits, KNITTED_GROUPS, strict=True) for off in group
        ]
        ideal = [k for k in ideal if k in kinds]
        if choice == 1:
            ideal += list(HONORS)
    concealed: list[int] = []
    rng.shuffle(ideal)
    n_random = rng.choice((0, 1, 1, 2, 2, 3, 4))
    for kind in ideal[: max(0, size - n_random)]:
        if _take(pool, (kind,)):
            concealed.append(kind)
    while len(concealed) < size:
        concealed.append(pool.pop())
    return Hand(_counts(concealed), tuple(melds))


Method = Literal["uniform", "near", "mixed", "special"]


def deal_batch(
    wall: WallName,
    size: int,
    count: int,
    *,
    seed: int | str = 0,
    method: Method = "mixed",
) -> list[Hand]:
    """``count`` hands of ``size`` concealed tiles from ``wall``, reproducible from ``seed``.

    ``size`` fixes the number of melds: 13/14 → none, 10/11 → one, 7/8 → two, 4/5 → three.
    ``mixed`` alternates :func:`deal_uniform` and :func:`deal_near`; ``special`` deals
    :func:`deal_special` hands (thirteen orphans and the knitted shapes).
    """
    if size % 3 == 0 or not 1 <= size <= 14:
        raise ValueError(f"a hand has 3n+1 or 3n+2 concealed tiles, not {size}")
    n_melds = (14 - size) // 3
    rng = random.Random(f"erren-bench:{seed}:{wall}:{size}:{method}")
    hands: list[Hand] = []
    for i in range(count):
        if method == "special":
            hands.append(deal_special(wall, size, n_melds, rng))
            continue
        near = method == "near" or (method == "mixed" and i % 2 == 1)
        deal = deal_near if near else deal_uniform
        hands.append(deal(wall, size, n_melds, rng))
    return hands


# --------------------------------------------------------------------------------------------
# Each library's input format (prepared outside any timed loop)

_SUIT_LETTERS = "mps"
GB_SUIT = {"m": "W", "p": "B", "s": "T"}
GB_HONORS = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
"""PyMahjongGB honors for 1z..7z: winds F1..F4 = 东南西北, dragons J1 中, J2 发, J3 白.

Checked against the library: ``MahjongFanCalculator`` scores 绿一色 for T2/T3/T4/T6/T8 + J2 only.
"""
GB_NAMES: tuple[str, ...] = tuple(
    [f"{GB_SUIT[s]}{n}" for s in _SUIT_LETTERS for n in range(1, 10)] + list(GB_HONORS)
)
GB_INDEX: dict[str, int] = {name: i for i, name in enumerate(GB_NAMES)}


def counts_to_str(counts: Sequence[int]) -> str:
    """Tenhou-style text (``NOTATION.md``): ``[2,1,0,…]`` → ``"112m"``."""
    out = ""
    for suit_index, letter in enumerate("mpsz"):
        width = 7 if letter == "z" else 9
        digits = "".join(str(n + 1) * counts[suit_index * 9 + n] for n in range(width))
        if digits:
            out += digits + letter
    return out


def to_gb(counts: Sequence[int]) -> tuple[str, ...]:
    """PyMahjongGB standing tiles, e.g. ``("W1", "W1", "F1")``."""
    return tuple(GB_NAMES[k] for k in range(NUM_KINDS) for _ in range(counts[k]))


def from_gb(names: Sequence[str]) -> list[int]:
    """Sorted kind indices of PyMahjongGB tile names."""
    return sorted(GB_INDEX[name] for name in names)


def to_majiang(counts: Sequence[int], melds: Sequence[Meld] = ()) -> str:
    """cmajiang (majiang-core) text: ``"m123p456z11,z555="``; melds as ``=`` pungs / ``-`` chows."""
    text = ""
    for suit_index, letter in enumerate("mpsz"):
        width = 7 if letter == "z" else 9
        digits = "".join(str(n + 1) * counts[suit_index * 9 + n] for n in range(width))
        if digits:
            text += letter + digits
    for a, b, c in melds:
        letter = "mpsz"[a // 9]
        mark = "=" if a == b else "-"
        text += f",{letter}{a % 9 + 1}{b % 9 + 1}{c % 9 + 1}{mark}"
    return text


MAJIANG_NAMES: tuple[str, ...] = tuple(
    [f"{s}{n}" for s in _SUIT_LETTERS for n in range(1, 10)] + [f"z{n}" for n in range(1, 8)]
)
MAJIANG_INDEX: dict[str, int] = {name: i for i, name in enumerate(MAJIANG_NAMES)}
