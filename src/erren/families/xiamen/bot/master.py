"""大师's xiamen play by expected payment (:mod:`.value`), where the hand is ready or complete
(claims: one from ready) and both players are at 游 level 0:

* **Discards**: of the discards that leave the hand ready, the one whose waits pay most a
  draw (自摸, or 游金 where a discard after the winning draw leaves the hand 游金-ready),
  where it is worth :data:`SWITCH_MARGIN` more than the efficiency bot's; with a complete
  hand, 自摸 now against a discard into 游金 while a draw is left after the opponent's.
  (Choosing one-from-ready discards by the ready hands a draw leads to measured no gain:
  ``--deals 2000 --seed 3``, ready discards alone +0.61 ± 0.46 points per hand, with the
  one-from-ready look +0.56 ± 0.50 at four times the decision time, the look alone +0.17.)
* **Claims**: one from ready, a chi or peng into a ready hand against passing for the draw
  (the ready hand's worth a draw against the mean worth of the ready hands the draw leads to;
  measured even with the efficiency bot's claims: +0.01 ± 0.39 on 1,000 deals).
* **The 游 chain**: with a gold drawn at 游 level 1, 游金 now against 双游 a turn later if the
  opponent does not win first (level 2 always climbs: 三游 needs no draw of its own, R-2.9.4).

Everything else (discards one or more from ready, 平和, kongs, the opening, the race while the
opponent is at a 游 level) is left to :mod:`.expert` and the efficiency bot:
:func:`value_choice` returns ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis.golds import you_ready
from erren.analysis.shanten import shanten
from erren.analysis.shapes import XIAMEN
from erren.analysis.waits import DiscardOption, discard_table
from erren.bots.common import by_tile
from erren.engine import Action, ActionKind, Family, Observation
from erren.engine.phases import Phase
from erren.families.xiamen.bot.efficiency import functional_kind, gold_counts, physical_tile
from erren.families.xiamen.bot.value import (
    HandModel,
    Payments,
    hand_model,
    hazard,
)
from erren.families.xiamen.game.data import XiamenPhase
from erren.families.xiamen.game.family import XiamenFamily
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.families.xiamen.scoring.context import WinType

__all__ = ["CLAIM_MARGIN", "SWITCH_MARGIN", "payments_of", "value_choice"]

AK = ActionKind
_HONOR = 27


SWITCH_MARGIN = 0.15
"""Ready or one from ready, leave the efficiency bot's discard only for one whose hand is
worth this share more (``erren arena --rules xiamen --bots master,expert[value_model=false]
--deals 2000 --seed 3``: 0 +0.36 ± 0.74, 0.15 +0.56 ± 0.50, 0.4 +0.23 ± 0.36 points per
hand)."""
CLAIM_MARGIN = 1.0
"""Claim into a ready hand when its worth a draw exceeds this many times the passing hand's."""


def payments_of(observation: Observation, ruleset: Family | None) -> Payments:
    """The table's payments: its base and cap (the spec's 8 and 100 without a xiamen
    ruleset), 底 doubled per 连庄 (R-4.2)."""
    base, cap = 8, 100
    if isinstance(ruleset, XiamenFamily):
        base, cap = ruleset.options.base, ruleset.options.cap
    return Payments(base=base * 2**observation.streak, cap=cap)


def value_choice(
    observation: Observation,
    gold: int,
    you_level: tuple[int, int],
    payments: Payments,
    legal: Sequence[Action],
) -> Action | None:
    """大师's choice by expected payment, or ``None`` where the model has nothing to say."""
    me, other = you_level[observation.player], you_level[observation.opponent]
    if other != 0:
        return None
    phase = observation.phase
    if phase is XiamenPhase.YOU_CHOICE and me == 1:
        return _you_choice(observation, gold, payments, legal)
    if me != 0:
        return None
    if phase is Phase.TURN:
        return _turn(observation, gold, payments, legal)
    if phase is Phase.CLAIM:
        return _claim(observation, gold, payments, legal)
    return None


def _turn(
    observation: Observation, gold: int, payments: Payments, legal: Sequence[Action]
) -> Action | None:
    counts, golds, visible = gold_counts(observation, gold)
    discards = by_tile(legal, AK.DISCARD)
    if not discards or any(a.kind in (AK.AN_GANG, AK.JIA_GANG) for a in legal):
        return None  # a kong on offer: the efficiency bot weighs it
    model = hand_model(observation, gold, visible, payments)
    rows = discard_table(counts, wilds=golds, shapes=XIAMEN, visible=visible)
    keyed = [
        (row, gold if row.discard is None else physical_tile(row.discard, gold)) for row in rows
    ]
    keyed = [(row, tile) for row, tile in keyed if tile in discards]
    zimo = next((a for a in legal if a.kind is AK.ZIMO), None)
    if zimo is not None:
        return _win_or_swim(model, counts, golds, keyed=keyed, discards=discards, zimo=zimo)
    if min((row.shanten for row, _ in keyed), default=9) != 0:
        return None  # one from ready the look-ahead measured no gain (module docstring)
    best: tuple[float, int] | None = None
    choice: Action | None = None
    plain: float | None = None
    for order, (row, tile) in enumerate(keyed):
        if row.shanten != 0:
            continue
        worth = _after_discard(model, counts, golds, row.discard) or 0.0
        if plain is None:
            plain = worth
        key = (worth, -order)
        if best is None or key > best:
            best, choice = key, discards[tile]
    if best is None or plain is None or best[0] <= (1.0 + SWITCH_MARGIN) * plain:
        return None  # the efficiency bot's discard
    return choice


def _win_or_swim(
    model: HandModel,
    counts: list[int],
    golds: int,
    *,
    keyed: Sequence[tuple[DiscardOption, int]],
    discards: dict[int, Action],
    zimo: Action,
) -> Action:
    """A complete hand: 自摸 now, or the discard into 游金 whose payment, if the opponent does
    not win on its turn first, is worth more."""
    best, choice = float(model.pay(counts, golds, WinType.ZIMO)), zimo
    order = list(discards)  # ties go to the first offered, as the efficiency bot's do
    for row, tile in sorted(keyed, key=lambda pair: order.index(pair[1])):
        if not _enters_you(counts, golds, row.discard):
            continue
        k = golds - 1 if row.discard is None else golds
        if row.discard is not None:
            counts[row.discard] -= 1
        worth = model.you_worth(counts, k, model.wall)
        if row.discard is not None:
            counts[row.discard] += 1
        if worth > best:
            best, choice = worth, discards[tile]
    return choice


def _enters_you(counts: list[int], golds: int, kind: int | None) -> bool:
    """Whether discarding ``kind`` (``None``: a gold) leaves the part 游金-ready."""
    if kind is None:
        return you_ready(counts, golds - 1)
    counts[kind] -= 1
    ready = you_ready(counts, golds)
    counts[kind] += 1
    return ready


def _after_discard(
    model: HandModel, counts: list[int], golds: int, kind: int | None
) -> float | None:
    """The worth of the part left by discarding ``kind`` (``None``: a gold)."""
    if kind is None:
        return model.worth(counts, golds - 1)
    counts[kind] -= 1
    worth = model.worth(counts, golds)
    counts[kind] += 1
    return worth


def _claim(
    observation: Observation, gold: int, payments: Payments, legal: Sequence[Action]
) -> Action | None:
    """One from ready, a chi or peng that makes the hand ready against passing for the draw:
    the ready hand's worth a draw against the mean worth of the ready hands the draw leads
    to (a 平和, a kong and everything else: the efficiency bot's)."""
    x = observation.pending
    if x is None or any(a.kind in (AK.HU, AK.MING_GANG) for a in legal):
        return None
    counts, golds, visible = gold_counts(observation, gold)
    if shanten(counts, wilds=golds, shapes=XIAMEN) != 1:
        return None
    fx = functional_kind(int(x), gold)
    model = hand_model(observation, gold, visible, payments)
    model.wall = observation.wall_count + 1
    best: tuple[float, int] | None = None
    choice: Action | None = None
    for order, action in enumerate(legal):
        if action.kind in (AK.PENG, AK.CHI):
            worth = _claimed_worth(
                observation,
                payments,
                visible,
                counts=counts,
                golds=golds,
                fx=fx,
                action=action,
                gold=gold,
            )
            if worth > 0 and (best is None or (worth, -order) > best):
                best, choice = (worth, -order), action
    if best is None:
        return None
    if best[0] > CLAIM_MARGIN * model.one_away_worth(counts, golds):
        return choice
    return next((a for a in legal if a.kind is AK.PASS), None)


def _claimed_worth(
    observation: Observation,
    payments: Payments,
    visible: list[int],
    *,
    counts: list[int],
    golds: int,
    fx: int,
    action: Action,
    gold: int,
) -> float:
    """The worth a draw of the best ready hand after claiming ``fx`` by ``action`` and a
    discard (0: no ready hand)."""
    if action.kind is AK.PENG:
        used = [fx, fx]
        extra = 1 if fx >= _HONOR else 0
    else:
        start = functional_kind(action.tile_kind(), gold)
        used = [t for t in (start, start + 1, start + 2) if t != fx]
        extra = 0
    for t in used:
        counts[t] -= 1
    model = hand_model(observation, gold, visible, payments, extra_water=extra)
    best = model.best_ready(counts, golds, model.wall)
    for t in used:
        counts[t] += 1
    return best


def _you_choice(
    observation: Observation, gold: int, payments: Payments, legal: Sequence[Action]
) -> Action | None:
    """At level 1 with a gold drawn: 游金 now, or throw it for 双游 on the next draw."""
    counts, golds, visible = gold_counts(observation, gold)
    model = hand_model(observation, gold, visible, payments)
    win = model.pay(counts, golds, WinType.YOUJIN)
    wall = observation.wall_count
    climb = 0.0
    if wall >= 2:
        climb = model.pay(counts, golds - 1, WinType.SHUANGYOU) * (1.0 - hazard(wall))
    want = XiamenVerb.DISCARD_GOLD if climb > win else XiamenVerb.WIN
    return next((a for a in legal if a.kind is want), None)
