"""The opening exchange chosen by value (R2.21, issue #30): what each candidate exchange is
worth in points, not in shanten.

Every tile given is swapped for a tile the player cannot see: for him, a uniform draw from the
unseen tiles (:func:`~erren.families.arcade.bot.value.unseen_counts`).  Each sample is one
random order of those tiles: its first ``G`` tiles are what the exchange brings (``G`` the
largest candidate; a candidate giving ``n`` tiles receives the first ``n``), the next
:attr:`Outlook.turns` are the player's draws after it.  Every candidate is valued over the same
samples (common random numbers), so their differences are not noise of the draws.

**The value of a sampled hand** (:func:`rollout`) is

    win_chance(shanten) × (payment of the ready hand it reaches + denied)

* ``shanten`` is the hand's just after the swap (wilds received count as wilds), and
  :data:`WIN_CHANCE` the chance that 大师 wins a hand from there, measured in self-play
  (0.88 ready, 0.61 one away, 0.45, 0.31, 0.18…): the distance discounts the value.
* The payment is that of the first ready hand the sample's draws lead to, played alone the way
  the expert plays far from ready (a draw is kept when it lowers the shanten — a wild always
  does — and the efficiency bot's discard goes, :func:`_discard`; a dealt 14-form first throws
  one): :meth:`ArcadeValuer.pay <erren.families.arcade.bot.value.ArcadeValuer.pay>` of a
  self-drawn win on its lowest paying wait, i.e. the real arcade scoring with the patterns
  (清一色, 七对, 一气通贯…), the yakuman, the 13 cap, the 财神 wild as the best tile it can stand
  for and the player's flowers.  A hand not ready within ``turns`` draws is given the
  payment :attr:`Outlook.fallback`.
* ``denied`` (:attr:`Outlook.denied`): a win also takes the hand from the opponent — two
  players, no draws — and so is worth his mean payment besides my own.
* A dealt 14-form that is already complete is 天和, a yakuman, won for sure.

So a faster hand and a richer one (a flush, seven pairs, a yakuman shape) are on one scale; with
every payment equal the ranking is by the mean win chance, close to the mean shanten of the
distance-only ranking (:func:`~erren.families.arcade.bot.exchange.exchange_plan`).

**Candidates** (:func:`candidates`): keeping every tile; the prefixes of the loose tiles,
loosest first (those of the distance-only ranking,
:func:`~erren.families.arcade.bot.exchange.loose_tiles`); and, toward a flush, for each suit,
every natural tile outside it (混一色: honors kept), or those and the single honors too, when
that is at most ``most`` tiles.  Successive halving keeps the cost down (a win scored by the
calculator takes about 0.3 ms): every candidate is valued over a quarter of the samples, the
:data:`FINALISTS` best over all of them; the highest mean wins, on equal means the candidate met
first (fewer tiles).  The plan of the distance-only ranking is a candidate too, its *anchor*:
another candidate replaces it only when worth :attr:`Outlook.margin` (10 %) more, so that the
noise of 64 rollouts does not move the choice (duplicate play over the ranking by shanten:
+0.05 [−0.01, +0.10] and +0.01 [−0.04, +0.05] points per hand with the margin, +0.07 [−0.04,
+0.17] without, 2,000 deals each; not a sure gain, so the expert's ``exchange_value`` knob that
turns this ranking on is off; docs/notes/expert-experiments.md).

Everything is drawn from the caller's generator: the same hand, seen tiles and seed give the
same exchange.  Past ``deadline`` the candidates valued so far decide.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from erren.analysis import _kernel
from erren.analysis.shapes import ARCADE, SHAPE_MASKS
from erren.families.arcade.bot.value import ArcadeValuer, ReadyHand
from erren.tiles import NUM_KINDS

__all__ = [
    "DEFAULT_OUTLOOK",
    "FINALISTS",
    "SCREEN_SHARE",
    "WIN_CHANCE",
    "Outlook",
    "candidates",
    "rollout",
    "value_plan",
    "win_chance",
]

_MASK = SHAPE_MASKS[ARCADE]
_improving = _kernel.improving
_discard_rows = _kernel.discard_rows
_shanten = _kernel.shanten
SCREEN_SHARE = 4
"""Every candidate is first valued over this share of the samples (1/4)..."""
FINALISTS = 3
"""...and the best this many over all of them (successive halving: a rollout that wins is
scored by the real calculator, about 0.3 ms)."""
WIN_CHANCE = (0.88, 0.61, 0.45, 0.31, 0.18, 0.12, 0.08)
"""The chance that 大师 wins the hand, by its shanten just after the exchange (0, 1, …, 6 and
more), measured over 400 deals of 大师 against itself (seed 77; the dealer's shanten is that
of its 14 tiles): 84, 508, 712, 262 and 22 hands for 0–4, the last two extrapolated."""
_YAKUMAN = 13
"""The points of a yakuman (R2.25), before ``base_points``."""


@dataclass(frozen=True, slots=True)
class Outlook:
    """How the rollout sees the hand to come."""

    turns: int = 14
    """Draws the rollout may take to reach a ready hand (the live wall gives each player
    about 22)."""
    denied: float = 3.5
    """Points a win is worth besides its payment: the opponent's win it prevents (his mean
    payment, about 3.5)."""
    fallback: float = 3.0
    """The payment assumed for a hand not ready within ``turns`` draws."""
    margin: float = 0.1
    """The distance-only plan is kept unless another candidate is worth this share more
    (negative: the best value wins)."""


DEFAULT_OUTLOOK = Outlook()
"""The outlook the expert plays with."""


def candidates(c: Sequence[int], order: Sequence[int], most: int) -> list[tuple[int, ...]]:
    """The exchanges to value (each sorted, without repeats): none, the prefixes of ``order``
    (the loose tiles, loosest first) and the flush pushes of the module docstring."""
    out: list[tuple[int, ...]] = [()]
    for n in range(1, len(order) + 1):
        out.append(tuple(sorted(order[:n])))
    for suit in range(3):
        others = [t for t in range(27) if t // 9 != suit for _ in range(c[t])]
        lone_honors = [t for t in range(27, NUM_KINDS) if c[t] == 1]
        for push in (others, others + lone_honors):
            if 0 < len(push) <= most:
                out.append(tuple(sorted(push)))
    return list(dict.fromkeys(out))


def value_plan(
    c: Sequence[int],
    wilds: int,
    unseen: Sequence[int],
    valuer: ArcadeValuer,
    rng: random.Random,
    *,
    order: Sequence[int],
    flowers: int,
    samples: int,
    most: int,
    outlook: Outlook,
    anchor: Sequence[int] | None = None,
    deadline: float = math.inf,
) -> list[int]:
    """The tiles to give (sorted): the candidate of highest mean rollout value over
    ``samples`` random orders of the unseen tiles (module docstring): every candidate over
    the first ``samples // SCREEN_SHARE``, the :data:`FINALISTS` best of them (and the
    ``anchor``) over all; on equal means the candidate met first.  With an ``anchor`` (the
    distance-only plan) another candidate must be worth ``outlook.margin`` more."""
    options = candidates(c, order, most)
    if anchor is not None:
        options = list(dict.fromkeys([tuple(sorted(anchor)), *options]))
    pool = [t for t in range(NUM_KINDS) for _ in range(unseen[t])]
    size = max(len(g) for g in options)
    need = size + outlook.turns
    if len(pool) < need:
        return []
    orders = [rng.sample(pool, need) for _ in range(samples)]
    screen = max(1, samples // SCREEN_SHARE)
    totals = [0.0] * len(options)
    h = list(c)
    valued = 0
    for i, give in enumerate(options):
        if time.perf_counter() > deadline:
            break
        totals[i] = _sum(
            h,
            wilds=wilds,
            give=give,
            orders=orders[:screen],
            size=size,
            valuer=valuer,
            flowers=flowers,
            outlook=outlook,
        )
        valued += 1
    ranked = sorted(range(valued), key=lambda i: -totals[i])[:FINALISTS]
    if anchor is not None and valued and 0 not in ranked:
        ranked.append(0)
    means = {i: totals[i] / screen for i in ranked}
    for i in sorted(ranked):
        if time.perf_counter() > deadline:
            break
        more = _sum(
            h,
            wilds=wilds,
            give=options[i],
            orders=orders[screen:],
            size=size,
            valuer=valuer,
            flowers=flowers,
            outlook=outlook,
        )
        means[i] = (totals[i] + more) / samples
    best = min(means, key=lambda i: (-round(means[i], 9), i), default=0)
    if anchor is not None and 0 in means and means[best] <= (1 + outlook.margin) * means[0]:
        best = 0
    return list(options[best])


def _sum(
    h: list[int],
    *,
    wilds: int,
    give: tuple[int, ...],
    orders: Sequence[Sequence[int]],
    size: int,
    valuer: ArcadeValuer,
    flowers: int,
    outlook: Outlook,
) -> float:
    """The summed rollout values of the hand ``h`` + ``wilds`` having given ``give`` over
    ``orders`` (each one's first tiles are received, the tiles from ``size`` on are the hand
    to come); ``h`` is left as it was."""
    total = 0.0
    for t in give:
        h[t] -= 1
    for tiles in orders:
        k = wilds
        for t in tiles[: len(give)]:
            if t == valuer.wild:
                k += 1
            else:
                h[t] += 1
        total += rollout(h, k, tiles[size:], valuer, flowers=flowers, outlook=outlook)
        for t in tiles[: len(give)]:
            if t != valuer.wild:
                h[t] -= 1
    for t in give:
        h[t] += 1
    return total


def rollout(
    c: Sequence[int],
    wilds: int,
    future: Sequence[int],
    valuer: ArcadeValuer,
    *,
    flowers: int,
    outlook: Outlook,
) -> float:
    """The value of the hand ``c`` (natural counts) + ``wilds`` just after the exchange:
    :func:`win_chance` of its shanten × (the payment of the ready hand it reaches over the
    draws ``future`` + :attr:`Outlook.denied`), as the module docstring says."""
    h = list(c)
    k = wilds
    s = _shanten(h, k, _MASK)
    if s < 0:
        return _YAKUMAN * valuer.base_points + outlook.denied  # 天和
    return win_chance(s) * (
        _ready_pay(h, k, future, valuer=valuer, flowers=flowers, outlook=outlook) + outlook.denied
    )


def win_chance(shanten: int) -> float:
    """The chance of winning the hand from ``shanten`` just after the exchange
    (:data:`WIN_CHANCE`)."""
    return WIN_CHANCE[min(shanten, len(WIN_CHANCE) - 1)]


def _ready_pay(
    h: list[int],
    k: int,
    future: Sequence[int],
    *,
    valuer: ArcadeValuer,
    flowers: int,
    outlook: Outlook,
) -> float:
    """The self-drawn payment of the first ready hand ``h`` + ``k`` wilds reaches over the
    draws ``future`` (its lowest wait that pays), playing as the efficiency bot; ``outlook.
    fallback`` when it is not ready within ``outlook.turns`` draws."""
    w = valuer.wild
    if (sum(h) + k) % 3 == 2:
        k = _discard(h, k)
    s, kinds = _improving(h, k, _MASK)
    useful = set(kinds)
    for t in future[: outlook.turns]:
        if s == 0:
            break
        if t == w:
            k += 1
        elif t in useful:
            h[t] += 1
        else:
            continue
        k = _discard(h, k)
        s, kinds = _improving(h, k, _MASK)
        useful = set(kinds)
    if s != 0:
        return outlook.fallback
    hand = ReadyHand(tuple(h), k, (), flowers)
    for t in kinds:
        pay = valuer.pay(hand, t, self_drawn=True)
        if pay:
            return float(pay)
    return float(valuer.pay(hand, w, self_drawn=True)) or outlook.fallback


def _discard(h: list[int], k: int) -> int:
    """Throw the efficiency bot's discard from the 14-form ``h`` + ``k`` wilds (the best row
    of the discard table, a natural tile rather than a wild on equal shanten); the wilds
    left."""
    rows = _discard_rows(h, k, _MASK, None)
    best = rows[0][1]
    for tile, value, _, _ in rows:
        if value != best:
            break
        if tile is not None:
            h[tile] -= 1
            return k
    return k - 1
