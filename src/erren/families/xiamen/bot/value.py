"""大师's xiamen value model: what a hand is worth in 水 payments (xiamen.md Section 4).

* **Payments** (:class:`Payments`): ``min((底 + 水) × M, cap) + bonus`` with 底 = base × 2^w
  (连庄, R-4.2) and M and the bonus of the win type (R-4.6): 平和 ×1, 自摸 ×2, 游金 ×4 + 50,
  双游 ×8 + 100, 三游 ×16 + 150.  The 水 of a hand (:meth:`HandModel.water`) is the golds held
  (S-1), the flowers (S-2–S-5), the melds' pungs and kongs (S-6, S-9–S-12) and a concealed pung
  for every kind held three times (S-7 suit 1, S-8 honor 2).
* **The risk** (:func:`hazard`): the opponent, at 游 level 0, wins on its turn with a chance
  that grows as the wall empties.  A 游金-ready hand (R-3.5) is worth 游金 if the opponent does
  not win on the one turn before the player's draw (and nothing without a draw left).
* **A ready hand** (``3n + 1`` tiles, R-3.4) is worth, a draw, Σ over the unseen tiles ``t``
  that complete it of ``P(t)`` × the best of 自摸 with ``t`` and, where one discard then leaves
  it 游金-ready, that 游金; a hand without golds adds a share of 平和 on the opponent's discards.
  So of two ready hands the one whose waits lead to 游金 can be worth more than one with more
  waits that only pay 自摸 (a ready hand that waits longer for 游金 would also wait longer for
  the win: a draw that completes it is taken, :mod:`.master`).
* **One from ready**: Σ ``P(t)`` × the worth of the best ready hand ``t`` leads to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from erren.analysis.golds import complete, you_ready
from erren.analysis.shanten import shanten
from erren.analysis.shapes import XIAMEN
from erren.engine import Observation
from erren.families.xiamen.scoring.context import WinType
from erren.melds import MeldKind
from erren.tiles import Tile

__all__ = [
    "KINDS",
    "PINGHU_SHARE",
    "HandModel",
    "Payments",
    "flower_water",
    "hand_model",
    "hazard",
    "meld_water",
]

HAZARD_START = 38
"""The live wall at which the opponent's chance to win on its turn starts to grow..."""
HAZARD_FLOOR = 0.02
"""... from this chance ..."""
HAZARD_SLOPE = 0.02
"""... by this much per tile drawn since ..."""
HAZARD_CEILING = 0.3
"""... up to this (measured in 大师's self-play: the hand is won on about 3 % of the turns
with 36–39 tiles in the wall, 11 % at 32–35, 19 % at 28–31, 25 % at 24–27)."""


def hazard(wall: int) -> float:
    """The opponent's chance to win on its turn with ``wall`` tiles left (at 游 level 0)."""
    rise = HAZARD_FLOOR + HAZARD_SLOPE * (HAZARD_START - wall)
    return min(HAZARD_CEILING, max(HAZARD_FLOOR, rise))


PINGHU_SHARE = 0.5
"""How much of a wait's draw chance a hand without golds adds for 平和 on the opponent's
discards (it throws one tile a turn, and not blindly)."""
KINDS = (*range(9), *range(27, 34))
"""The 16 playing kinds (R-1.1), by the 34-kind index."""
_WHITE = int(Tile.WHITE)
_HONOR = 27
_GOLDS_IN_PLAY = 3


@dataclass(frozen=True, slots=True)
class Payments:
    """What a win pays (R-4.1, R-4.2, R-4.6): ``base`` is 底 with the 连庄 doubling."""

    base: int
    cap: int

    def pay(self, water: int, win: WinType) -> int:
        """``min((底 + 水) × M, cap) + bonus`` (``cap`` 0: none)."""
        raw = (self.base + water) * win.multiplier
        if self.cap > 0:
            raw = min(raw, self.cap)
        return raw + win.bonus


def flower_water(flowers: Sequence[int]) -> int:
    """S-2–S-5: per group of four (春夏秋冬, 梅兰竹菊) 8 if all held, else one each."""
    total = 0
    for group in (range(34, 38), range(38, 42)):
        held = sum(1 for f in flowers if f in group)
        total += 8 if held == 4 else held
    return total


def meld_water(kind: MeldKind, honor: bool) -> int:
    """S-6, S-9–S-12: a declared meld's 水 (a chow and a claimed suit pung: 0)."""
    if kind is MeldKind.PENG:
        return 1 if honor else 0
    if kind is MeldKind.AN_GANG:
        return 4 if honor else 3
    if kind.is_kong:
        return 3 if honor else 2
    return 0


@dataclass(slots=True)
class HandModel:
    """The worth of one player's hands in one decision: ``unseen`` natural copies by
    functional kind, ``golds_unseen``, ``fixed`` 水 (flowers and melds), ``wall`` the live
    wall when the opponent is next to draw (after this turn's discard) and the ``payments``."""

    gold: int
    unseen: list[int]
    golds_unseen: int
    fixed: int
    wall: int
    payments: Payments
    _ready: dict[tuple[tuple[int, ...], int], float] = field(default_factory=dict)

    @property
    def total_unseen(self) -> int:
        return max(1, sum(self.unseen) + self.golds_unseen)

    def water(self, counts: Sequence[int], golds: int) -> int:
        """The 水 of a concealed part: golds, the fixed 水, a concealed pung per triple."""
        pungs = sum((2 if t >= _HONOR else 1) for t in KINDS if counts[t] >= 3)
        return golds + pungs + self.fixed

    def pay(self, counts: Sequence[int], golds: int, win: WinType) -> int:
        return self.payments.pay(self.water(counts, golds), win)

    def you_worth(self, counts: Sequence[int], golds: int, wall: int) -> float:
        """A 游金-ready part: 游金 unless the opponent wins first or no draw is left."""
        if wall < 2:
            return 0.0
        return self.pay(counts, golds, WinType.YOUJIN) * (1.0 - hazard(wall))

    def complete_worth(self, counts: list[int], golds: int, wall: int) -> float:
        """A complete 14-tile part on the player's draw (the opponent draws next from
        ``wall``): 自摸 now, or a discard into 游金."""
        best = float(self.pay(counts, golds, WinType.ZIMO))
        if golds < 1 or wall < 2:
            return best
        for t in KINDS:
            if counts[t] == 0:
                continue
            counts[t] -= 1
            if you_ready(counts, golds):
                best = max(best, self.you_worth(counts, golds, wall))
            counts[t] += 1
        if golds >= 2 and you_ready(counts, golds - 1):
            best = max(best, self.you_worth(counts, golds - 1, wall))
        return best

    def ready_worth(self, counts: list[int], golds: int, wall: int | None = None) -> float:
        """A 13-tile (``3n + 1``) part at 游 level 0 after the player's discard (0 if not
        ready)."""
        wall = self.wall if wall is None else wall
        key = (tuple(counts), golds * 256 + max(wall, 0))
        found = self._ready.get(key)
        if found is not None:
            return found
        if you_ready(counts, golds):
            worth = self.you_worth(counts, golds, wall)
        else:
            worth = self._wait_rate(counts, golds, wall)
        self._ready[key] = worth
        return worth

    def _wait_rate(self, counts: list[int], golds: int, wall: int) -> float:
        total = self.total_unseen
        rate = 0.0
        after = wall - 2  # the wall when the opponent draws after the player's winning draw
        for t in KINDS:
            left = self.unseen[t]
            if left <= 0 or counts[t] >= 4:
                continue
            counts[t] += 1
            if complete(counts, golds):
                q = left / total
                rate += q * self.complete_worth(counts, golds, after)
                if golds == 0:
                    counts[t] -= 1
                    pinghu = self.pay(counts, 0, WinType.PINGHU)
                    counts[t] += 1
                    rate += PINGHU_SHARE * q * pinghu
            counts[t] -= 1
        if self.golds_unseen > 0 and complete(counts, golds + 1):
            q = self.golds_unseen / total
            rate += q * self.complete_worth(counts, golds + 1, after)
        return rate

    def one_away_worth(self, counts: list[int], golds: int) -> float:
        """A 13-tile part one from ready: per draw, the best ready hand it leads to."""
        total = self.total_unseen
        later = self.wall - 2
        rate = 0.0
        for t in (*KINDS, -1):
            left = self.golds_unseen if t < 0 else self.unseen[t]
            if left <= 0 or (t >= 0 and counts[t] >= 4):
                continue
            k = golds + 1 if t < 0 else golds
            if t >= 0:
                counts[t] += 1
            best = self.best_ready(counts, k, later)
            if t >= 0:
                counts[t] -= 1
            if best > 0:
                q = left / total
                rate += q * best
        return rate

    def best_ready(self, counts: list[int], golds: int, wall: int) -> float:
        """The worth of the best discard of a 14-tile part into a ready hand (0: none)."""
        best = 0.0
        for t in KINDS:
            if counts[t] == 0:
                continue
            counts[t] -= 1
            if shanten(counts, wilds=golds, shapes=XIAMEN) == 0:
                best = max(best, self.ready_worth(counts, golds, wall))
            counts[t] += 1
        if golds > 0 and shanten(counts, wilds=golds - 1, shapes=XIAMEN) == 0:
            best = max(best, self.ready_worth(counts, golds - 1, wall))
        return best

    def worth(self, counts: list[int], golds: int) -> float | None:
        """A 13-tile part after a discard: ready or one from ready; ``None`` further away."""
        away = shanten(counts, wilds=golds, shapes=XIAMEN)
        if away == 0:
            return self.ready_worth(counts, golds)
        if away == 1:
            return self.one_away_worth(counts, golds)
        return None


def hand_model(
    observation: Observation,
    gold: int,
    visible: Sequence[int],
    payments: Payments,
    *,
    extra_water: int = 0,
) -> HandModel:
    """The model of ``observation``'s player (``visible``: functional copies seen, as
    :func:`~erren.families.xiamen.bot.efficiency.gold_counts`)."""
    unseen = [0] * 34
    for t in KINDS:
        if t == gold:  # its natural tiles are the Whites (none when the White is the gold)
            unseen[t] = 0 if gold == _WHITE else max(0, 4 - visible[t])
        elif t == _WHITE and gold != _WHITE:
            unseen[t] = 0
        else:
            unseen[t] = max(0, 4 - visible[t])
    o = observation
    seen_golds = sum(1 for t in o.hand if int(t) == gold)
    seen_golds += sum(1 for row in o.discards for t in row if int(t) == gold)
    fixed = flower_water([int(f) for f in o.flowers[o.player]]) + extra_water
    for meld in o.melds[o.player]:
        kind = int(meld.tiles[0])
        kind = gold if kind == _WHITE and gold != _WHITE else kind
        fixed += meld_water(meld.kind, kind >= _HONOR)
    return HandModel(
        gold=gold,
        unseen=unseen,
        golds_unseen=max(0, _GOLDS_IN_PLAY - seen_golds),
        fixed=fixed,
        wall=o.wall_count,
        payments=payments,
    )
