"""Defence that pays (guobiao-2p): against a 报听 opponent, each discard is weighed by what it
keeps for the player against what dealing in would cost him.

For each discard ``t`` the player could make (the fast policy's choice and every discard less
likely to win for the opponent), with ``r(t)`` the chance it wins for him
(:mod:`erren.bots.expert.risk`: 0 on the certainly-safe kinds)::

    score(t) = (1 − r(t)) × E(t) − r(t) × P

``P`` is what a win of his on the player's discard pays (:func:`deal_in_payment`: the mean fan
of such wins measured in self-play for the fan table, plus his flowers, settled by the table's
rules: minimum, cap, base, the 点和 multiplier).  ``E(t)`` is the player's expected gain from
the hand left after ``t`` (:func:`race_value`): his chance to win before the opponent draws his
own win or the wall runs out, times the mean payment of his win, from the expert's own valuation
— the ready value of the waits (unseen copies × the table's payment), or, one from ready, the
draws value (what the improving draws lead to); two or more from ready no win is counted — less
what the opponent's self-drawn win is expected to cost meanwhile (:func:`self_drawn_payment`):
a deal-in only costs what it adds to a loss that may come anyway.  The
discard of highest score is played, the fast choice on a tie; but a certainly-safe discard as
close to ready as the fast choice is always played before it (the most valuable such one), and
otherwise the hand folds (gives up shanten) when the risk it avoids outweighs what it gives up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import DiscardOption, discard_table
from erren.bots.common import by_tile
from erren.bots.expert.knobs import Knobs
from erren.bots.expert.risk import RiskModel
from erren.engine import Action, ActionKind, Observation
from erren.families.guobiao.bot.lookahead import Seen, draws_value
from erren.families.guobiao.bot.values import Valuer, unseen
from erren.families.guobiao.scoring.settlement import BelowMinimumError, settle_win

__all__ = [
    "DEAL_IN_FAN",
    "FLOWER_FAN",
    "TYPICAL_WAITS",
    "Option",
    "Pays",
    "deal_in_payment",
    "defend",
    "race_value",
    "self_drawn_payment",
]

AK = ActionKind
DEAL_IN_FAN = {"2p": 17, "gb": 11}
"""The fan (flowers aside) that settles to the mean payment of a 报听 hand's win on a discard,
by fan table, 大师 against 大师 over 300 guobiao-2p hands each (seeds 0–299): ``2p`` 17.4
points over 81 such wins; ``gb`` 10.75 points over 81 (mean fan 15.4, capped at 13)."""
FLOWER_FAN = {"2p": 2, "gb": 1}
"""Fan per exposed flower (补花 2 in ``2p``, 花牌 1 in ``gb``)."""
SELF_DRAWN_FAN = {"2p": 3, "gb": 1}
"""The mean extra fan of his win self-drawn (measured with :data:`DEAL_IN_FAN`: ``2p`` 20.3
points against 17.4, ``gb`` 11.4 against 10.75)."""
TYPICAL_WAITS = 5
"""Unseen winning copies assumed for the ready hand a one-from-ready hand reaches."""


def deal_in_payment(valuer: Valuer, observation: Observation) -> float:
    """What the 报听 opponent's win on the player's discard is expected to cost him."""
    options = valuer.options
    table = options.fan_table
    flowers = FLOWER_FAN.get(table, 1) * len(observation.flowers[observation.opponent])
    fan = max(DEAL_IN_FAN.get(table, 12), options.minimum) + flowers
    try:
        settled = settle_win(
            fan, winner=0, self_drawn=False, options=options, flower_points=flowers
        )
    except BelowMinimumError:
        return float(fan)
    return float(settled.deltas[0])


def self_drawn_payment(valuer: Valuer, observation: Observation) -> float:
    """What the 报听 opponent's self-drawn win is expected to cost the player: the deal-in fan
    and :data:`SELF_DRAWN_FAN` more, settled self-drawn."""
    options = valuer.options
    table = options.fan_table
    flowers = FLOWER_FAN.get(table, 1) * len(observation.flowers[observation.opponent])
    fan = max(DEAL_IN_FAN.get(table, 12), options.minimum) + SELF_DRAWN_FAN.get(table, 0) + flowers
    try:
        settled = settle_win(fan, winner=0, self_drawn=True, options=options, flower_points=flowers)
    except BelowMinimumError:
        return float(fan)
    return float(settled.deltas[0])


def race_value(
    *,
    ready_chance: float,
    win_chance: float,
    payment: float,
    their_chance: float,
    rounds: int,
    ready: bool,
    their_payment: float = 0.0,
) -> float:
    """The expected gain of a hand over ``rounds`` rounds (his draw, his discard, the player's
    draw): the opponent ends the hand with ``their_chance`` at each of his draws; a ready hand
    wins ``payment`` with ``win_chance`` on his discard and again on the player's draw; a hand
    one from ready becomes ready with ``ready_chance`` at each of the player's draws; the
    opponent's own win costs the player ``their_payment``, taken off the gain."""
    far, ready_p, gain = (0.0, 1.0, 0.0) if ready else (1.0, 0.0, 0.0)
    half = win_chance / 2
    for _ in range(rounds):
        gain -= (far + ready_p) * their_chance * their_payment
        far *= 1 - their_chance
        ready_p *= 1 - their_chance
        gain += ready_p * half * payment  # on his discard
        ready_p *= 1 - half
        gain += ready_p * half * payment  # on the player's draw
        ready_p *= 1 - half
        ready_p += far * ready_chance
        far *= 1 - ready_chance
    return gain


@dataclass(frozen=True, slots=True)
class Option:
    """A discard weighed: its shanten after, expected gain, risk and score."""

    tile: int
    shanten: int
    gain: float
    risk: float

    def score(self, payment: float) -> float:
        return (1 - self.risk) * self.gain - self.risk * payment


@dataclass(frozen=True, slots=True)
class Pays:
    """How :func:`defend` plays: the expert's ``pays_*`` knobs (:meth:`of`)."""

    ratio: float = 0.0
    """Weigh the alternatives of risk at most this share of the choice's (the certainly-safe
    ones always)."""
    fold: bool = True
    """Allow a discard that leaves the hand further from ready."""
    safe_first: bool = True
    """A certainly-safe discard as close to ready goes before any weighing."""
    before: bool = False
    """Defend against an opponent who has not declared 报听 too…"""
    before_shanten: int = 8
    """…while the choice leaves the hand at most this many tiles from ready."""
    min_risk: float = 0.0
    """Only when the choice's risk is at least this."""

    @classmethod
    def of(cls, knobs: Knobs) -> Pays:
        return cls(
            ratio=knobs.pays_ratio,
            fold=knobs.pays_fold,
            safe_first=knobs.pays_safe_first,
            before=knobs.pays_before,
            before_shanten=knobs.pays_before_shanten,
            min_risk=knobs.pays_min_risk,
        )


def defend(
    observation: Observation,
    legal: Sequence[Action],
    chosen: Action,
    valuer: Valuer,
    risk_model: RiskModel,
    *,
    pays: Pays = Pays(),
) -> Action:
    """``chosen``, or the discard that pays more against a 报听 opponent (see the module),
    played as ``pays`` says."""
    if (
        not (observation.ting[observation.opponent] or pays.before)
        or chosen.kind not in (AK.DISCARD, AK.TING)
        or len(legal) < 2
    ):
        return chosen
    risk = risk_model.chances(observation)
    tile = chosen.tile_kind()
    if risk[tile] <= 0 or risk[tile] < pays.min_risk:
        return chosen
    discards = by_tile(legal, AK.DISCARD)
    options = weigh(observation, valuer, discards, risk, chosen=tile, ratio=pays.ratio)
    mine = next((o for o in options if o.tile == tile), None)
    if mine is None or (
        not observation.ting[observation.opponent] and mine.shanten > pays.before_shanten
    ):
        return chosen
    if not pays.fold:
        options = [o for o in options if o.shanten <= mine.shanten]
    if len(options) < 2:
        return chosen
    safe = [o for o in options if o.risk <= 0 and o.shanten <= mine.shanten]
    if safe and pays.safe_first:
        best = max(safe, key=lambda o: (-o.shanten, o.gain, -o.tile))
    else:
        payment = deal_in_payment(valuer, observation)
        best = max(options, key=lambda o: (o.score(payment), o.tile == tile, -o.shanten, o.gain))
        if best.tile == tile or best.score(payment) <= mine.score(payment):
            return chosen
    tings = by_tile(legal, AK.TING)
    if chosen.kind is AK.TING and best.tile in tings and best.shanten == 0:
        return tings[best.tile]
    return discards[best.tile]


def weigh(
    observation: Observation,
    valuer: Valuer,
    discards: dict[int, Action],
    risk: Sequence[float],
    *,
    chosen: int,
    ratio: float,
    threat: bool = True,
) -> list[Option]:
    """The chosen discard and every discard of risk at most ``ratio`` × its risk (the
    certainly-safe ones at least), each weighed."""
    seen = Seen.of(observation)
    rows = discard_table(seen.hand, shapes=GUOBIAO_2P, visible=seen.visible)
    pool = max(1, observation.wall_count + observation.concealed_count[observation.opponent])
    their = sum(risk[k] * unseen(seen.visible, k) for k in range(len(risk))) / pool
    rounds = max(0, observation.wall_count // 2)
    theirs = self_drawn_payment(valuer, observation) if threat else 0.0
    out: list[Option] = []
    for row in rows:
        t = row.discard
        if t is None or t not in discards:
            continue
        if t != chosen and risk[t] > 0 and risk[t] > ratio * risk[chosen]:
            continue
        gain = _gain(
            seen, valuer, row, pool=pool, their=min(1.0, their), rounds=rounds, theirs=theirs
        )
        out.append(Option(t, row.shanten, gain, float(risk[t])))
    return out


def _gain(
    seen: Seen,
    valuer: Valuer,
    row: DiscardOption,
    *,
    pool: int,
    their: float,
    rounds: int,
    theirs: float,
) -> float:
    """The expected gain of the hand after ``row``'s discard, less what the opponent's own win
    is expected to cost (two or more from ready, only that loss)."""
    d = row.discard
    assert d is not None
    copies = sum(unseen(seen.visible, t) for t in row.effective)
    if row.shanten >= 2 or copies == 0:
        return race_value(
            ready_chance=0.0,
            win_chance=0.0,
            payment=0.0,
            ready=False,
            their_chance=their,
            rounds=rounds,
            their_payment=theirs,
        )
    if row.shanten == 0:
        seen.hand[d] -= 1
        value = seen.ready_value(valuer, row.effective, seen.melds, ting=False)
        seen.hand[d] += 1
        return race_value(
            ready_chance=0.0,
            win_chance=min(1.0, 2 * copies / pool),
            payment=value / copies,
            ready=True,
            their_chance=their,
            rounds=rounds,
            their_payment=theirs,
        )
    mean_ready = draws_value(seen, valuer, row) / copies
    return race_value(
        ready_chance=min(1.0, copies / pool),
        win_chance=min(1.0, 2 * TYPICAL_WAITS / pool),
        payment=mean_ready / TYPICAL_WAITS,
        ready=False,
        their_chance=their,
        rounds=rounds,
        their_payment=theirs,
    )
