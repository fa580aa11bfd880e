"""How the fast guobiao-2p policy answers a discard: a win when it pays (see
:func:`~erren.families.guobiao.bot.lookahead.takes_win`), else ``efficiency``'s claim unless
:data:`Knobs.claim_mode` is ``never`` or, with ``keep_value``, the claim would leave a ready
hand ready for less (:func:`_claim_pays`) or lead to less than the draws would
(:func:`_claim_worth`).  The claim part of :mod:`~erren.families.guobiao.bot.expert`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import improving
from erren.bots.common import best_claim, passing
from erren.bots.expert.knobs import Knobs
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.guobiao.bot.lookahead import (
    Seen,
    best_draws_value,
    draws,
    over_draws,
    ready_discards,
    takes_win,
)
from erren.families.guobiao.bot.values import Valuer
from erren.melds import Meld, MeldKind
from erren.tiles import Tile

__all__ = ["claim_choice"]

AK = ActionKind
_WIN = (AK.HU, AK.ZIMO)
_TILES = tuple(Tile(i) for i in range(42))
_SHAPES = GUOBIAO_2P


def _claim_meld(action: Action, pending: int) -> tuple[list[int], Meld] | None:
    """The tiles a claim takes from the hand, and the meld it makes."""
    x = _TILES[pending]
    if action.kind is AK.PENG:
        return [pending] * 2, Meld(MeldKind.PENG, (x,) * 3, x)
    if action.kind is AK.MING_GANG:
        return [pending] * 3, Meld(MeldKind.MING_GANG, (x,) * 4, x)
    if action.kind is AK.CHI:
        start = action.tile_kind()
        used = [t for t in (start, start + 1, start + 2) if t != pending]
        return used, Meld(MeldKind.CHI, tuple(_TILES[t] for t in range(start, start + 3)), x)
    return None


def claim_choice(obs: Observation, legal: Sequence[Action], valuer: Valuer, knobs: Knobs) -> Action:
    """A win when offered (but see :data:`Knobs.min_win_points`); else the claim of
    :data:`Knobs.claim_mode` and :data:`Knobs.claim_value_factor`."""
    win = next((a for a in legal if a.kind in _WIN), None)
    if win is not None and takes_win(obs, valuer, knobs, win):
        return win
    x = obs.pending
    if x is None or obs.phase is not Phase.CLAIM or knobs.claim_mode == "never":
        return passing(legal)
    pending = int(x)
    seen = Seen.of(obs)
    claim = best_claim(legal, pending, seen.hand, seen.visible, wilds=0, shapes=_SHAPES)
    if knobs.claim_mode != "keep_value":
        return claim
    if not _claim_pays(seen, valuer, claim, pending):
        return passing(legal)
    if not _claim_worth(seen, valuer, claim, pending, knobs):
        return passing(legal)
    return claim


@contextmanager
def _claimed(seen: Seen, used: Sequence[int], meld: Meld) -> Iterator[None]:
    """``seen`` with a claim made: ``used`` out of the hand, ``meld`` added (undone after)."""
    saved = seen.melds
    for t in used:
        seen.hand[t] -= 1
    seen.melds = (*saved, meld)
    try:
        yield
    finally:
        seen.melds = saved
        for t in used:
            seen.hand[t] += 1


def _claim_worth(seen: Seen, valuer: Valuer, claim: Action, pending: int, knobs: Knobs) -> bool:
    """Not ready now: whether the hand after ``claim`` is worth its share of the hand now.

    * One from ready now (:data:`Knobs.claim_value_factor`): ready after, its best ready value
      against the mean ready value of a draw now; one from ready after, its draws value against
      the draws value now.
    * Two from ready now (:data:`Knobs.claim_two_away_factor`): its best draws value against
      the mean, over the draws now, of the best draws value they lead to.

    Always worth it further from ready, or with a negative factor."""
    made = _claim_meld(claim, pending)
    if made is None or claim.kind is AK.MING_GANG:
        return True
    hand = seen.hand
    now, kinds = improving(hand, shapes=_SHAPES)
    if now == 1 and knobs.claim_value_factor >= 0:
        factor = knobs.claim_value_factor
        draws_now, copies_now = draws(seen, valuer, kinds)
        with _claimed(seen, *made):
            held = [k for k in range(len(hand)) if hand[k]]
            ready = ready_discards(seen, valuer, held)
            if ready:
                return ready[0].value >= factor * draws_now / max(copies_now, 1)
            return best_draws_value(seen, valuer) >= factor * draws_now
    if now == 2 and knobs.claim_two_away_factor >= 0:
        total, copies = over_draws(seen, kinds, lambda: best_draws_value(seen, valuer))
        with _claimed(seen, *made):
            after = best_draws_value(seen, valuer)
        return after >= knobs.claim_two_away_factor * total / max(copies, 1)
    return True


def _claim_pays(seen: Seen, valuer: Valuer, claim: Action, pending: int) -> bool:
    """Whether ``claim`` is worth more than staying as is: always, unless the hand is ready
    now and would be ready for less after the claim."""
    made = _claim_meld(claim, pending)
    if made is None:
        return True
    hand = seen.hand
    now, waits = improving(hand, shapes=_SHAPES)
    if now != 0:
        return True
    keep = seen.ready_value(valuer, waits, seen.melds, ting=False)
    used, meld = made
    melds = (*seen.melds, meld)
    for t in used:
        hand[t] -= 1
    if claim.kind is AK.MING_GANG:
        after = seen.ready_value(valuer, improving(hand, shapes=_SHAPES)[1], melds, ting=False)
    else:
        held = (k for k in range(len(hand)) if hand[k])
        ready = ready_discards(seen, valuer, held, melds=melds)
        after = ready[0].value if ready else 0.0
    for t in used:
        hand[t] += 1
    return after > keep
