"""The expert's opening exchange in arcade (R2.21): which tiles to give up.

Two rankings: by distance, below (the default), or by value (:mod:`.exchange_value`: the
expected points of the hands each candidate leads to; the expert's ``exchange_value`` knob).

Every tile given is swapped for the front tile of the reserve, a tile the player cannot see:
for him, a uniform draw from the unseen tiles.  Candidates are the prefixes of the hand's
loose tiles, loosest first (a single tile with fewer neighbours within two, honors before
terminals before middle tiles); each prefix is valued by Monte-Carlo over the same random
draws (common random numbers): the mean shanten of the hand after the swap, wilds received
counted as wilds.  The smallest prefix with the lowest mean wins; with no loose tile, none.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Sequence

from erren.analysis.shanten import shanten
from erren.analysis.shapes import ARCADE
from erren.engine import Action, ActionKind, Observation
from erren.families.arcade.bot.efficiency import next_give, wild_counts
from erren.families.arcade.bot.exchange_value import DEFAULT_OUTLOOK, Outlook, value_plan
from erren.families.arcade.bot.value import ArcadeValuer, unseen_counts
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.tiles import NUM_KINDS

__all__ = ["EXCHANGE_SAMPLES", "exchange_choice", "exchange_plan", "loose_tiles"]

AK = ActionKind
EXCHANGE_SAMPLES = 96
"""Random draws each candidate is valued over."""
MAX_GIVE = 8
"""The largest number of tiles considered for giving."""
_MEMO_SIZE = 64
"""Plans remembered (one hand's exchange is several ``give`` decisions)."""


def loose_tiles(c: Sequence[int]) -> list[int]:
    """The single tiles of ``c`` (natural counts), loosest first: fewer tiles of the same
    suit within two steps, then honors before terminals before middle tiles, then kind."""
    keyed: list[tuple[int, int, int]] = []
    for t in range(NUM_KINDS):
        if c[t] != 1:
            continue
        if t >= 27:
            keyed.append((0, 0, t))
            continue
        r = t % 9
        near = sum(c[t + d] for d in (-2, -1, 1, 2) if 0 <= r + d <= 8)
        keyed.append((near, 1 if r in (0, 8) else 2, t))
    return [t for _, _, t in sorted(keyed)]


def exchange_plan(
    c: Sequence[int],
    wilds: int,
    unseen: Sequence[int],
    wild: int,
    rng: random.Random,
    *,
    samples: int = EXCHANGE_SAMPLES,
    most: int = MAX_GIVE,
    deadline: float = math.inf,
) -> list[int]:
    """The tiles to give (sorted), at most ``most``, each candidate valued over ``samples``
    draws, as the module docstring says; past ``deadline`` (``time.perf_counter``) the best
    candidate so far."""
    order = loose_tiles(c)[:most]
    if not order:
        return []
    pool = [t for t in range(NUM_KINDS) for _ in range(unseen[t])]
    if len(pool) < len(order):
        return []
    draws = [rng.sample(pool, len(order)) for _ in range(samples)]
    best_mean = float(shanten(c, wilds=wilds, shapes=ARCADE))
    best_n = 0
    h = list(c)
    for n in range(1, len(order) + 1):
        if time.perf_counter() > deadline:
            break
        h[order[n - 1]] -= 1
        total = 0
        for draw in draws:
            k = wilds
            for t in draw[:n]:
                if t == wild:
                    k += 1
                else:
                    h[t] += 1
            total += shanten(h, wilds=k, shapes=ARCADE)
            for t in draw[:n]:
                if t != wild:
                    h[t] -= 1
        mean = total / len(draws)
        if mean < best_mean - 1e-9:
            best_mean, best_n = mean, n
    return sorted(order[:best_n])


def exchange_choice(
    observation: Observation,
    view: ArcadeView,
    wild: int,
    legal: Sequence[Action],
    *,
    plan_size: tuple[int, int] = (EXCHANGE_SAMPLES, MAX_GIVE),
    deadline: float = math.inf,
    valuer: ArcadeValuer | None = None,
    outlook: Outlook = DEFAULT_OUTLOOK,
    memo: dict[str, list[int]] | None = None,
) -> Action:
    """The next ``give`` of the plan (``plan_size`` = samples, most tiles), or ``exchange``
    when it is all given (the plan depends on the hand and the seen tiles only, so every step
    finds the same one; ``memo`` keeps it from one step to the next).  With a ``valuer`` the
    candidates are ranked by value (:func:`~.exchange_value.value_plan` with ``outlook``),
    else by mean shanten (:func:`exchange_plan`)."""
    c, k, _ = wild_counts(observation, view, wild)
    unseen = unseen_counts(observation, view, wild)
    key = ",".join(str(int(t)) for t in observation.hand) + f"|{sum(unseen)}"
    rank = "shanten" if valuer is None else "value"
    memo_key = f"{key}|{wild}|{rank}|{plan_size}|{outlook}"
    plan = None if memo is None else memo.get(memo_key)
    if plan is None:
        rng = random.Random(zlib.crc32(key.encode()))
        samples, most = plan_size
        if valuer is None:
            plan = exchange_plan(
                c, k, unseen, wild, rng, samples=samples, most=most, deadline=deadline
            )
        else:
            flowers = len(observation.flowers[observation.player])
            order = loose_tiles(c)[:most]
            anchor: list[int] | None = None
            if outlook.margin >= 0:
                anchor = exchange_plan(
                    c, k, unseen, wild, random.Random(zlib.crc32(key.encode())), most=most
                )
            plan = value_plan(
                c,
                k,
                unseen,
                valuer,
                rng,
                order=order,
                flowers=flowers,
                samples=samples,
                most=most,
                outlook=outlook,
                anchor=anchor,
                deadline=deadline,
            )
        if memo is not None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[memo_key] = plan
    return next_give(view, plan, legal, Action.make(ArcadeVerb.EXCHANGE, observation.player))
