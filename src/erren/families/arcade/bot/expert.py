"""The expert's arcade play: the efficiency bot's speed, with the decisions that change what a
win pays made by value (:class:`~erren.families.arcade.bot.value.ArcadeValuer`).

* **Ready discards and 报听.**  When the best discard leaves the hand ready, every discard that
  does so is valued by its waits (unseen copies × the real payment: patterns, yakuman, the
  13 cap, the wild as the best tile it can stand for), with 门清报听 where the ``ting`` knob
  lets it declare; the most valuable (discard, 报听) pair is played.  By default it never
  declares: the arena found the frozen hand (no better waits later, the drawn tile thrown
  whatever it is) costs more than the fan.
* **Claims.**  While the hand is concealed, a chi or peng gives up 门清, 门清自摸 and
  门清报听: it is taken only when it leaves the hand ready and its waits are worth at least
  ``claim_keep`` of what the concealed hand would be worth one draw later (``claims`` knob).
  In practice that passes nearly every claim of a concealed hand, and that is where most of
  the expert's lead over the efficiency bot comes from.
* **Opening exchange.**  Monte-Carlo over the reserve draws, each candidate ranked by the
  mean shanten after the swap (:mod:`.exchange`); with the expert's ``exchange_value`` knob
  by the expected points of the hands it leads to (:mod:`.exchange_value`: off by default,
  duplicate play measured +0.05 [−0.01, +0.10] and +0.01 [−0.04, +0.05] points per hand over
  the ranking by shanten, 2,000 deals each).
* **Pick-any.**  Ready, it names the kind whose win pays most, weighed by the chance that a
  copy is left in the stock (the wild completes every ready hand at its best).
* **Pung offer.**  Among the answers that make the hand complete, the one that pays most
  (the pung joins the concealed hand and the win is self-drawn: 三暗刻, 四暗刻...).

Arena (``erren arena --rules arcade --bots expert,efficiency --deals 1000``): +0.76 ± 0.15
points per hand (seed 1), +0.63 ± 0.16 (seed 2); with the events at 0.5 (pung offer,
pick-any) +2.18 ± 0.29, of which the pung answer is +1.2.

Everything else (far-from-ready discards, kongs, claims of an open hand, wins — always taken)
is the efficiency bot's: :func:`arcade_expert_choice` returns ``None`` there.  Decisions read
only the observation and are deterministic, unless the exchange search is cut short by
``budget_ms`` (it needs a few milliseconds).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Literal
from weakref import WeakKeyDictionary

from erren.analysis.shanten import shanten
from erren.analysis.shapes import ARCADE
from erren.bots.common import by_tile
from erren.bots.strategy import family_ruleset
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.arcade.bot.efficiency import wild_counts
from erren.families.arcade.bot.exchange import exchange_choice
from erren.families.arcade.bot.exchange_value import DEFAULT_OUTLOOK, Outlook
from erren.families.arcade.bot.value import ArcadeValuer, ReadyHand, unseen_counts
from erren.families.arcade.game import ArcadeFamily
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.families.arcade.scoring import Baoting
from erren.melds import Meld, MeldKind
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.bots.expert import ExpertBot

__all__ = ["STRONG", "ArcadeKnobs", "arcade_expert_choice", "configure"]

AK = ActionKind
_CLAIMS = frozenset({AK.CHI, AK.PENG, AK.MING_GANG})
_TILES = tuple(Tile(i) for i in range(NUM_KINDS))


@dataclass(frozen=True, slots=True)
class ArcadeKnobs:
    """Which arcade decisions the expert makes by value (each kept because the arena said so)."""

    ting: Literal["never", "rule", "concealed"] = "never"
    """When to declare 报听 with a ready discard: ``never`` (the arena's choice: a frozen
    hand's forced discards and lost flexibility cost more than 门清报听's fan); ``rule``:
    with at least ``ting_min_waits`` unseen winning tiles (wilds counted) or once the live
    wall is ``ting_late_wall`` tiles or fewer; ``concealed``: whenever concealed (it adds
    门清报听), else by ``rule``."""
    claims: bool = True
    """Weigh chi/peng of a concealed hand against 门清's value."""
    events: bool = True
    """Answer pick-any and the pung offer by value (else as the efficiency bot)."""
    exchange: bool = True
    """Choose the opening exchange by Monte-Carlo (:mod:`.exchange`)."""
    exchange_outlook: Outlook = DEFAULT_OUTLOOK
    """The value ranking's rollouts (the expert's ``exchange_value`` knob): the draws to reach
    a ready hand, a win's worth besides its payment, the payment of a hand not ready in time,
    the margin over the ranking by shanten."""
    exchange_samples: int = 96
    """Random draws each candidate exchange is valued over (by mean shanten)..."""
    exchange_value_samples: int = 64
    """...and by value (the rollouts cost more: :mod:`.exchange_value`)."""
    exchange_max: int = 8
    """The most tiles an exchange gives."""
    claim_keep: float = 1.0
    """A concealed hand claims when the open ready value ≥ this × the concealed one."""
    ting_min_waits: int = 9
    """Unseen winning tiles 报听 by ``rule`` needs…"""
    ting_late_wall: int = 8
    """…unless the live wall is this short."""


def _concealed(melds: Sequence[Meld]) -> bool:
    return all(m.kind is MeldKind.AN_GANG for m in melds)


@dataclass(slots=True)
class _Seat:
    """One bot's arcade state: its knobs and the valuer of the current wild kind."""

    knobs: ArcadeKnobs
    valuer: ArcadeValuer | None = None
    plans: dict[str, list[int]] = field(default_factory=dict)
    """The exchange plans worked out (:func:`exchange_choice`'s ``memo``)."""


STRONG = ArcadeKnobs(exchange=False, events=False)
"""高手 (``ExpertBot(strong=True)``) keeps its concealed hand and values its ready hands, but
exchanges, picks and answers the pung offer as 普通 does."""

_SEATS: WeakKeyDictionary[ExpertBot, _Seat] = WeakKeyDictionary()


def _default(bot: ExpertBot) -> ArcadeKnobs:
    return STRONG if bot.strong else ArcadeKnobs()


def configure(bot: ExpertBot, knobs: ArcadeKnobs) -> None:
    """Make ``bot`` play arcade with ``knobs`` (default :class:`ArcadeKnobs`)."""
    _SEATS[bot] = _Seat(knobs)


def knobs_of(bot: ExpertBot) -> ArcadeKnobs:
    """The arcade knobs ``bot`` plays with."""
    seat = _SEATS.get(bot)
    return _default(bot) if seat is None else seat.knobs


def _valuer(bot: ExpertBot, observation: Observation, wild: int) -> tuple[ArcadeValuer, _Seat]:
    seat = _SEATS.get(bot)
    if seat is None:
        seat = _SEATS[bot] = _Seat(_default(bot))
    if seat.valuer is None or seat.valuer.wild != wild:
        rules = family_ruleset(observation, bot.ruleset)
        base = rules.options.base_points if isinstance(rules, ArcadeFamily) else 1
        seat.valuer = ArcadeValuer(wild, base)
    return seat.valuer, seat


def arcade_expert_choice(
    bot: ExpertBot, observation: Observation, legal: Sequence[Action]
) -> Action | None:
    """The value-aware choice in an arcade hand, or ``None`` to let the efficiency policy
    decide.  Searches stop at ``bot.budget_ms``."""
    view = observation.view
    if not isinstance(view, ArcadeView) or view.wild is None or len(legal) < 2:
        return None
    valuer, seat = _valuer(bot, observation, int(view.wild))
    knobs = seat.knobs
    # a bot given a clock of its own (a review's tick clock) does not read the real time
    real_time = bot.clock is time.perf_counter
    deadline = time.perf_counter() + bot.budget_ms / 1000 if real_time else math.inf
    if any(a.kind in (AK.HU, AK.ZIMO) for a in legal):
        return None  # a win is always taken
    phase = observation.phase
    if phase is ArcadePhase.EXCHANGE:
        if not knobs.exchange:
            return None
        by_value = bot.knobs.exchange_value
        samples = knobs.exchange_value_samples if by_value else knobs.exchange_samples
        plan = (samples, knobs.exchange_max)
        return exchange_choice(
            observation,
            view,
            int(view.wild),
            legal,
            plan_size=plan,
            deadline=deadline,
            valuer=valuer if by_value else None,
            outlook=knobs.exchange_outlook,
            memo=seat.plans,
        )
    if phase is Phase.TURN and view.giving:
        return _pung_answer(valuer, observation, view, legal) if knobs.events else None
    if phase is Phase.TURN:
        if view.offer is not None and knobs.events:
            chosen = _pung_answer(valuer, observation, view, legal)
            if chosen is not None:
                return chosen
        return _ready_turn(valuer, knobs, observation, view, legal)
    if phase is ArcadePhase.PICK:
        return _pick(valuer, observation, view, legal) if knobs.events else None
    if phase is Phase.CLAIM and knobs.claims:
        return _claim(valuer, knobs, observation, view, legal)
    return None


def _hand(obs: Observation, view: ArcadeView, w: int) -> tuple[list[int], int]:
    c, k, _ = wild_counts(obs, view, w)
    return c, k


def _ready_turn(
    valuer: ArcadeValuer,
    knobs: ArcadeKnobs,
    obs: Observation,
    view: ArcadeView,
    legal: Sequence[Action],
) -> Action | None:
    """The most valuable ready (discard, 报听) pair, when some discard leaves the hand ready."""
    w = valuer.wild
    c, k = _hand(obs, view, w)
    melds = obs.melds[obs.player]
    if shanten(c, wilds=k, shapes=ARCADE) > 0:
        return None
    discards = by_tile(legal, AK.DISCARD)
    tings = by_tile(legal, AK.TING)
    if not discards and not tings:
        return None
    unseen = unseen_counts(obs, view, w)
    flowers = len(obs.flowers[obs.player])
    concealed = _concealed(melds)
    plain = valuer.ready_discards(c, k, melds, flowers=flowers, unseen=unseen)
    best: tuple[float, int, Action] | None = None
    for value, outs, t in plain:
        if t in discards and (best is None or (value, outs) > best[:2]):
            best = (value, outs, discards[t])
    if tings and knobs.ting != "never":
        kind = Baoting.MENQING if concealed else Baoting.NONE
        declared = (
            plain
            if kind is Baoting.NONE
            else valuer.ready_discards(c, k, melds, flowers=flowers, unseen=unseen, baoting=kind)
        )
        late = obs.wall_count <= knobs.ting_late_wall
        for value, outs, t in declared:
            if t not in tings:
                continue
            by_waits = knobs.ting == "rule" or not concealed
            if by_waits and not (late or outs >= knobs.ting_min_waits):
                continue
            if best is None or (value, outs) >= best[:2]:
                best = (value, outs, tings[t])
    return None if best is None else best[2]


def _claim(
    valuer: ArcadeValuer,
    knobs: ArcadeKnobs,
    obs: Observation,
    view: ArcadeView,
    legal: Sequence[Action],
) -> Action | None:
    """A concealed hand passes a chi or peng that does not leave it ready with waits worth at
    least ``claim_keep`` × the concealed hand's own ready value (its best discard after a draw
    of the claimed tile instead).  ``None``: the efficiency bot decides (an open hand, a
    ming gang)."""
    melds = obs.melds[obs.player]
    claims = [a for a in legal if a.kind in _CLAIMS]
    x = obs.pending
    if not claims or x is None or not _concealed(melds):
        return None
    w = valuer.wild
    c, k = _hand(obs, view, w)
    unseen = unseen_counts(obs, view, w)
    flowers = len(obs.flowers[obs.player])
    # the concealed hand, had it drawn the tile instead: its best ready value (with 门清报听
    # when it would declare)
    kind = Baoting.NONE if knobs.ting == "never" else Baoting.MENQING
    c[int(x)] += 1
    keep = valuer.ready_discards(c, k, melds, flowers=flowers, unseen=unseen, baoting=kind)
    c[int(x)] -= 1
    kept = max((v for v, _, _ in keep), default=0.0)
    best: tuple[float, Action] | None = None
    for action in claims:
        after = _after_claim(obs, action, int(x), c, melds)
        if after is None:
            continue
        c2, melds2 = after
        if action.kind is AK.MING_GANG:
            continue  # the replacement draw comes first: leave kongs to the efficiency bot
        options = valuer.ready_discards(c2, k, melds2, flowers=flowers, unseen=unseen)
        value = max((v for v, _, _ in options), default=0.0)
        if value > 0 and (best is None or value > best[0]):
            best = (value, action)
    if best is not None and best[0] >= knobs.claim_keep * kept:
        return best[1]
    if any(a.kind is AK.MING_GANG for a in claims):
        return None
    return next((a for a in legal if a.kind is AK.PASS), None)


def _after_claim(
    obs: Observation, action: Action, x: int, c: list[int], melds: tuple[Meld, ...]
) -> tuple[list[int], tuple[Meld, ...]] | None:
    """The natural counts and melds after a chi or peng of ``x`` (the 14-form to discard
    from)."""
    c2 = list(c)
    if action.kind is AK.PENG:
        used = [x, x]
        tiles = (x, x, x)
        kind = MeldKind.PENG
    elif action.kind is AK.CHI:
        start = action.tile_kind()
        tiles = (start, start + 1, start + 2)
        used = [t for t in tiles if t != x]
        kind = MeldKind.CHI
    else:
        return None
    for t in used:
        if c2[t] <= 0:
            return None
        c2[t] -= 1
    meld = Meld(kind, tuple(_TILES[t] for t in tiles), _TILES[x])
    return c2, (*melds, meld)


def _pick(
    valuer: ArcadeValuer, obs: Observation, view: ArcadeView, legal: Sequence[Action]
) -> Action | None:
    """Ready: the kind whose self-drawn win pays most, times the chance a copy is left in the
    stock (not all unseen copies in the opponent's hand, :func:`_all_held`, over the pool of
    :func:`unseen_counts`), the wild on equal terms.  ``None`` when not ready."""
    w = valuer.wild
    c, k = _hand(obs, view, w)
    if shanten(c, wilds=k, shapes=ARCADE) != 0:
        return None
    picks = by_tile(legal, ArcadeVerb.PICK)
    unseen = unseen_counts(obs, view, w)
    hand = ReadyHand(tuple(c), k, obs.melds[obs.player], len(obs.flowers[obs.player]))
    baoting = Baoting.NONE  # a 报听 seat is never offered the event (R2.12)
    pool = sum(unseen)
    theirs = obs.concealed_count[obs.opponent]
    best: tuple[tuple[float, bool], Action] | None = None
    for t, action in picks.items():
        n = unseen[t]
        if n <= 0:
            continue
        pay = valuer.pay(hand, t, self_drawn=True, baoting=baoting)
        if pay <= 0:
            continue
        key = ((1.0 - _all_held(n, theirs, pool)) * pay, t == w)
        if best is None or key > best[0]:
            best = (key, action)
    return None if best is None else best[1]


def _all_held(n: int, held: int, pool: int) -> float:
    """The chance that all ``n`` unseen copies of a kind are among the opponent's ``held``
    concealed tiles, the ``pool`` unseen tiles dealt uniformly."""
    if n > held or pool <= 0:
        return 0.0
    p = 1.0
    for i in range(n):
        p *= (held - i) / (pool - i)
    return p


def _pung_answer(
    valuer: ArcadeValuer, obs: Observation, view: ArcadeView, legal: Sequence[Action]
) -> Action | None:
    """Among the three tiles to give for the offered pung that make the hand complete, those
    whose self-drawn win on the offered kind pays most: the next give of them.  ``None`` (the
    efficiency bot's answer) when no answer completes the hand."""
    if view.offer is None:
        return None
    x = int(view.offer)
    w = valuer.wild
    c, k = _hand(obs, view, w)
    melds = obs.melds[obs.player]
    flowers = len(obs.flowers[obs.player])
    kinds = [t for t in range(NUM_KINDS) if c[t]] + ([w] if k else [])
    best: tuple[int, tuple[int, ...]] | None = None
    for give in combinations_with_replacement(kinds, 3):
        if any(give.count(t) > (k if t == w else c[t]) for t in set(give)):
            continue
        c2 = list(c)
        k2 = k
        for t in give:
            if t == w:
                k2 -= 1
            else:
                c2[t] -= 1
        if c2[x] + 3 > 4:
            continue
        c2[x] += 2  # two of the offered kind join the hand, the third is the winning tile
        pay = valuer.pay(ReadyHand(tuple(c2), k2, melds, flowers), x, self_drawn=True)
        if pay > 0 and (best is None or pay > best[0]):
            best = (pay, give)
    if best is None:
        return None
    rest = list(best[1])
    for given in view.giving:
        if int(given) in rest:
            rest.remove(int(given))
        else:
            return None
    gives = by_tile(legal, ArcadeVerb.GIVE)
    for t in rest:
        if t in gives:
            return gives[t]
    return None
