"""``novice``: the 入门 level — random-like play that never looks foolish.

Exactly what it does, from the observation alone and its own seeded generator:

* **wins whenever a win is legal** (自摸, 点和, 抢杠和, xiamen's 三金倒/抢金胡 and the win of the
  游 chain, arcade's 海底 prompt);
* **discards at random among the reasonable tiles** of its concealed hand, counted by kind:

  1. *loose* tiles first — a single copy with no other tile of its suit within two ranks (a
     single honor is loose);
  2. else tiles in no *made meld* (no pung of it held, no run through it held): pairs and
     partial runs;
  3. else any other tile;
  4. a wild (xiamen's gold, arcade's 财神) only when nothing else may go;

  so it never breaks a made meld while a loose tile or a partial shape could go instead, and
  only ever picks among the legal discards (跟打 and 报听's frozen hand decide those);
* **declares 报听** with probability ``ting_chance`` when offered (a random one of the
  offered 报听 discards), **claims** a discard (chi, peng, 明杠) or takes a concealed or added
  kong with probability ``claim_chance`` (a random one of the offered claims), and otherwise
  passes or discards;
* arcade's events: no opening exchange (it keeps its tiles), pick-any at random among the
  offered choices, a pung offer never taken (it discards instead);
* any other decision (none is known today): a random legal action.

The same seed and the same observations give the same choices.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from erren.bots.base import Bot, register_bot
from erren.bots.strategy import strategy_of
from erren.engine import Action, ActionKind, Observation
from erren.engine.actions import AnyActionKind
from erren.tiles import NUM_KINDS

__all__ = ["NoviceBot", "discard_tiers"]

AK = ActionKind
_CLAIMS = frozenset({AK.CHI, AK.PENG, AK.MING_GANG, AK.AN_GANG, AK.JIA_GANG})
_SUITED = 27
"""Kinds below this are suited (three suits of nine ranks); the rest are honors."""


def _in_made_meld(counts: Sequence[int], kind: int) -> bool:
    """Whether a pung of ``kind`` or a run through it is held."""
    if counts[kind] >= 3:
        return True
    if kind >= _SUITED:
        return False
    rank = kind % 9
    for start in (rank - 2, rank - 1, rank):
        if 0 <= start <= 6:
            base = kind - rank + start
            if counts[base] and counts[base + 1] and counts[base + 2]:
                return True
    return False


def _loose(counts: Sequence[int], kind: int) -> bool:
    """A single copy with no tile of its suit within two ranks (a single honor)."""
    if counts[kind] != 1:
        return False
    if kind >= _SUITED:
        return True
    rank = kind % 9
    return not any(counts[kind + d] for d in (-2, -1, 1, 2) if 0 <= rank + d <= 8)


def discard_tiers(counts: Sequence[int], wild: int | None = None) -> list[list[int]]:
    """The held kinds in the novice's four tiers (loose, outside a made meld, the rest, the
    wild), each sorted; ``counts`` are the concealed tiles by kind."""
    tiers: list[list[int]] = [[], [], [], []]
    for kind in range(NUM_KINDS):
        if not counts[kind]:
            continue
        if kind == wild:
            tiers[3].append(kind)
        elif _loose(counts, kind):
            tiers[0].append(kind)
        elif not _in_made_meld(counts, kind):
            tiers[1].append(kind)
        else:
            tiers[2].append(kind)
    return tiers


class NoviceBot(Bot):
    """入门: sane random play (see the module).  ``claim_chance`` and ``ting_chance`` are the
    probabilities of taking an offered claim or kong, and of declaring an offered 报听."""

    name: ClassVar[str] = "novice"

    def __init__(
        self, *, seed: int | None = None, claim_chance: float = 0.15, ting_chance: float = 0.25
    ) -> None:
        self.rng = random.Random(seed)
        self.claim_chance = claim_chance
        self.ting_chance = ting_chance

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        rng = self.rng
        for action in legal_actions:
            if action.kind.is_win:
                return action
        if len(legal_actions) == 1:
            return legal_actions[0]
        by_kind: dict[AnyActionKind, list[Action]] = {}
        for action in legal_actions:
            by_kind.setdefault(action.kind, []).append(action)
        own = strategy_of(observation).novice(self, observation, legal_actions)
        if own is not None:  # the family's own moves (arcade: keep every tile, pick at random)
            return own
        discards = by_kind.get(AK.DISCARD, [])
        claims = [a for a in legal_actions if a.kind in _CLAIMS]
        tings = by_kind.get(AK.TING, [])
        if tings and rng.random() < self.ting_chance:
            return rng.choice(tings)
        if claims and rng.random() < self.claim_chance:
            return rng.choice(claims)
        if discards:
            return self._discard(observation, discards)
        if AK.PASS in by_kind:
            return by_kind[AK.PASS][0]
        return rng.choice(list(legal_actions))

    def _discard(self, observation: Observation, discards: Sequence[Action]) -> Action:
        counts = [0] * NUM_KINDS
        for tile in observation.hand:
            counts[tile] += 1
        kind = observation.view.wild
        wild = None if kind is None else int(kind)
        by_tile = {a.tile_kind(): a for a in discards}
        for tier in discard_tiers(counts, wild):
            allowed = [by_tile[k] for k in tier if k in by_tile]
            if allowed:
                return self.rng.choice(allowed)
        return self.rng.choice(list(discards))


register_bot("novice", NoviceBot)
