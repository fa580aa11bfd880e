"""The fast value-aware policy of guobiao-2p, from the observation alone: most decisions in a
few milliseconds, a one-from-ready turn in tens (it looks at every draw of three discards).

* A win is taken when offered (the engine offers only wins that reach the minimum).
* Own turn, ready: among the discards that keep the hand ready, the one whose waits are worth
  most (:meth:`~erren.families.guobiao.bot.values.Valuer.ready_value`: unseen copies × the table's
  real
  payment); 报听 only with 5+ unseen waits (``efficiency``: 3), so a ready hand keeps
  improving its waits; it even leaves ready when a one-from-ready discard leads, per unseen
  tile, to more than half the ready value (:data:`Knobs.break_factor`).
* Own turn, one from ready: the discard whose improving draws lead to the most valuable ready
  hands, Σ over draws ``t`` of unseen(t) × (best ready value after ``t``); the three best are
  then weighed by their shape as well: what the other draws add by leading to a better
  one-from-ready hand (:data:`Knobs.one_away_flex`).
* Two from ready: among ``efficiency``'s three best discards, the one whose draws lead to the
  most valuable one-from-ready hands.  Further: ``efficiency``'s discard (the caller's
  fallback).
* Claims: ``efficiency``'s claim, unless the hand is ready already and the claim would leave
  it ready for less (门前清, 不求人, 七对 thrown away), or it is one from ready and the claim
  leads to less than :data:`Knobs.claim_value_factor` of what the draws lead to, or two from
  ready and the claim leads to less than :data:`Knobs.claim_two_away_factor` of it: then
  pass.
* Kongs: any that keeps the shanten.

Measured without gain on the same 2,000 deals and left out: a kong only when the hand after it
is worth the best ready discard (−0.01 points/hand), and with 8 wall tiles or fewer the ready
discard of the most unseen waits rather than the most valuable (±0.00).

This module makes the turn's choice; the values it weighs are in
:mod:`~erren.families.guobiao.bot.lookahead`, the answer to a discard in
:mod:`~erren.families.guobiao.bot.claims` (both re-exported here).
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import DiscardOption, discard_table
from erren.bots.common import by_tile, kong_keeping_shanten
from erren.bots.expert.knobs import Knobs
from erren.engine import Action, ActionKind, Observation
from erren.families.guobiao.bot.claims import claim_choice
from erren.families.guobiao.bot.lookahead import (
    ReadyDiscard,
    Seen,
    best_draws_value,
    discard_values,
    draws_value,
    over_draws,
    ready_discards,
    takes_win,
)
from erren.families.guobiao.bot.values import Valuer, unseen

__all__ = [
    "Knobs",
    "ReadyDiscard",
    "Seen",
    "claim_choice",
    "discard_values",
    "ready_discards",
    "turn_choice",
]

AK = ActionKind
_WIN = (AK.HU, AK.ZIMO)
_SHAPES = GUOBIAO_2P


def turn_choice(
    obs: Observation,
    legal: Sequence[Action],
    valuer: Valuer,
    knobs: Knobs,
    *,
    work: int | None = None,
) -> Action | None:
    """The fast policy's move in the player's turn (``None``: let ``efficiency`` decide); the
    one-from-ready shape look is dropped when it would take more than ``work`` ready-hand
    evaluations in all (``None``: no limit)."""
    win = next((a for a in legal if a.kind in _WIN), None)
    if win is not None and takes_win(obs, valuer, knobs, win):
        return win
    if len(legal) == 1:
        return legal[0]
    discards = by_tile(legal, AK.DISCARD)
    tings = by_tile(legal, AK.TING)
    seen = Seen.of(obs)
    rows = discard_table(seen.hand, shapes=_SHAPES, visible=seen.visible)
    best = next((r for r in rows if r.discard in discards), None)
    if best is None:
        return win
    if best.shanten == 1 and knobs.lookahead:
        return _one_away(seen, legal, valuer, rows, discards, knobs=knobs, work=work)
    if best.shanten == 2 and knobs.two_away_width > 0:
        return _two_away(seen, valuer, rows, discards, knobs.two_away_width)
    if best.shanten != 0:
        return None
    kong = kong_keeping_shanten(legal, seen.hand, wilds=0, shapes=_SHAPES, target=0)
    if kong is not None:
        return kong
    declare = bool(tings) and knobs.always_ting
    ready = ready_discards(seen, valuer, discards, ting=declare)
    if not ready:
        return win
    choice = ready[0]
    if knobs.break_factor > 0 and not obs.ting[obs.player]:
        broken = _break_for_value(
            seen, valuer, rows, discards, ready_value=choice.value, factor=knobs.break_factor
        )
        if broken is not None:
            return broken
    if choice.tile in tings and (
        knobs.always_ting
        or sum(unseen(seen.visible, t) for t in choice.waits) >= knobs.ting_min_waits
        or obs.wall_count <= knobs.ting_late_wall
    ):
        return tings[choice.tile]
    return discards[choice.tile]


def _one_away(
    seen: Seen,
    legal: Sequence[Action],
    valuer: Valuer,
    rows: Sequence[DiscardOption],
    discards: dict[int, Action],
    *,
    knobs: Knobs,
    work: int | None,
) -> Action | None:
    """One from ready: the discard of highest :func:`draws_value` (with
    :data:`Knobs.one_away_flex`, plus the worth of the draws that improve the shape, unless
    it would take the decision past ``work`` ready-hand evaluations)."""
    kong = kong_keeping_shanten(legal, seen.hand, wilds=0, shapes=_SHAPES, target=1)
    if kong is not None:
        return kong
    scored: list[tuple[float, int, DiscardOption]] = []
    for row in rows:
        if row.shanten != 1 or row.discard is None or row.discard not in discards:
            continue
        scored.append((draws_value(seen, valuer, row), -row.discard, row))
    if not scored:
        return None
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    if knobs.one_away_flex > 0 and len(scored) > 1:
        looked: list[tuple[float, int, DiscardOption]] = []
        for v, d, row in scored[: knobs.one_away_width]:
            gain = _flex(seen, valuer, row, v, work)
            if gain is None:
                return discards[-scored[0][1]]
            looked.append((v + knobs.one_away_flex * gain, d, row))
        scored = sorted(looked, key=lambda s: (s[0], s[1]), reverse=True)
    return discards[-scored[0][1]]


def _flex(
    seen: Seen,
    valuer: Valuer,
    row: DiscardOption,
    value: float,
    work: int | None,
) -> float | None:
    """Σ over the draws ``t`` that leave the hand after ``row`` one from ready of
    unseen(t)/pool × (the best draws value after ``t`` − ``value``); ``None`` when
    the decision's ready-hand evaluations pass ``work`` before the end."""
    d = row.discard
    assert d is not None
    hand, visible = seen.hand, seen.visible
    hand[d] -= 1
    pool = sum(unseen(visible, k) for k in range(len(hand)))
    skip = set(row.effective)
    gain = 0.0
    for t in range(len(hand)):
        left = unseen(visible, t)
        if not left or t in skip or hand[t] >= 4:
            continue
        if work is not None and seen.evaluations > work:
            hand[d] += 1
            return None
        hand[t] += 1
        visible[t] += 1
        better = best_draws_value(seen, valuer) - value
        hand[t] -= 1
        visible[t] -= 1
        if better > 0:
            gain += left * better
    hand[d] += 1
    return gain / max(pool, 1)


def _two_away(
    seen: Seen,
    valuer: Valuer,
    rows: Sequence[DiscardOption],
    discards: dict[int, Action],
    width: int,
) -> Action | None:
    """Two from ready: among the ``width`` best discards of ``efficiency``, the one of highest
    Σ unseen(t) × (best one-from-ready value after drawing ``t``)."""
    hand = seen.hand
    best: tuple[float, int] | None = None
    tried = 0
    for row in rows:
        if row.shanten != 2 or row.discard is None or row.discard not in discards:
            continue
        tried += 1
        if tried > width:
            break
        d = row.discard
        hand[d] -= 1
        total, _ = over_draws(seen, row.effective, lambda: best_draws_value(seen, valuer))
        hand[d] += 1
        if best is None or (total, -d) > best:
            best = (total, -d)
    return None if best is None else discards[-best[1]]


def _break_for_value(
    seen: Seen,
    valuer: Valuer,
    rows: Sequence[DiscardOption],
    discards: dict[int, Action],
    *,
    ready_value: float,
    factor: float,
) -> Action | None:
    """Leave ready for a bigger hand: the one-from-ready discard whose draws value, per unseen
    tile, beats ``factor`` × the best ready value; ``None`` if none does."""
    pool = sum(unseen(seen.visible, k) for k in range(len(seen.hand)))
    best: tuple[float, int] | None = None
    for row in rows:
        if row.shanten != 1 or row.discard is None or row.discard not in discards:
            continue
        per_draw = draws_value(seen, valuer, row) / max(pool, 1)
        if per_draw > factor * ready_value and (best is None or (per_draw, -row.discard) > best):
            best = (per_draw, -row.discard)
    return None if best is None else discards[-best[1]]
