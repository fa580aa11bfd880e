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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import DiscardOption, discard_table, improving
from erren.bots.common import best_claim, by_tile, kong_keeping_shanten, passing
from erren.bots.efficiency import seen_counts
from erren.bots.expert.knobs import Knobs
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.guobiao.bot.values import Valuer, unseen
from erren.melds import Meld, MeldKind
from erren.tiles import Tile

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
_TILES = tuple(Tile(i) for i in range(42))
_SHAPES = GUOBIAO_2P


@dataclass(slots=True)
class Seen:
    """What the player knows of the tiles: his concealed counts (mutated and restored while
    trying moves), the copies he can see, his melds and the win context."""

    hand: list[int]
    visible: list[int]
    melds: tuple[Meld, ...]
    flowers: int
    round_wind: Tile
    dealer: bool
    best_ready: dict[tuple[object, ...], float] = field(default_factory=dict)
    """The best ready value of hands met while looking ahead (one decision's memo)."""
    evaluations: int = 0
    """How many hands the look-ahead has valued (the memo's misses): the decision's work."""

    @classmethod
    def of(cls, obs: Observation) -> Seen:
        hand, visible = seen_counts(obs)
        return cls(
            hand,
            visible,
            obs.melds[obs.player],
            len(obs.flowers[obs.player]),
            obs.round_wind,
            obs.player == obs.dealer,
        )

    def ready_value(
        self, valuer: Valuer, waits: Sequence[int], melds: tuple[Meld, ...], *, ting: bool
    ) -> float:
        """The worth of the current 13-form ``hand`` with ``melds``, ready on ``waits``."""
        return valuer.ready_value(
            self.hand,
            melds,
            waits,
            self.visible,
            ting=ting,
            flowers=self.flowers,
            round_wind=self.round_wind,
            dealer=self.dealer,
        )


@dataclass(frozen=True, slots=True)
class ReadyDiscard:
    """A discard that leaves the hand ready, with its waits and their worth."""

    tile: int
    waits: tuple[int, ...]
    value: float


def ready_discards(
    seen: Seen,
    valuer: Valuer,
    tiles: Iterable[int],
    *,
    melds: tuple[Meld, ...] | None = None,
    ting: bool = False,
) -> list[ReadyDiscard]:
    """The discards among ``tiles`` that leave ``seen.hand`` ready, most valuable first."""
    allowed = set(tiles)
    hand = seen.hand
    melds = seen.melds if melds is None else melds
    out: list[ReadyDiscard] = []
    for row in discard_table(hand, shapes=_SHAPES, visible=seen.visible):
        if row.shanten != 0 or row.discard is None or row.discard not in allowed:
            continue
        hand[row.discard] -= 1
        value = seen.ready_value(valuer, row.effective, melds, ting=ting)
        hand[row.discard] += 1
        out.append(ReadyDiscard(row.discard, row.effective, value))
    out.sort(key=lambda r: (-r.value, r.tile))
    return out


def _takes_win(obs: Observation, valuer: Valuer, knobs: Knobs, win: Action) -> bool:
    """Whether to take ``win`` now: always, unless it pays less than ``min_win_points`` while
    the wall is longer than ``small_win_wall`` (self-drawn or on a discard, not a robbed kong)."""
    if knobs.min_win_points <= 0 or obs.wall_count <= knobs.small_win_wall:
        return True
    seen = Seen.of(obs)
    self_drawn = win.kind is AK.ZIMO
    tile = obs.last_drawn if self_drawn else obs.pending
    if tile is None or obs.phase not in (Phase.TURN, Phase.CLAIM):
        return True
    w = int(tile)
    if self_drawn:
        seen.hand[w] -= 1
    points = valuer.pay(
        seen.hand,
        seen.melds,
        w,
        self_drawn=self_drawn,
        ting=obs.ting[obs.player],
        flowers=seen.flowers,
        round_wind=seen.round_wind,
        dealer=seen.dealer,
    )
    return points >= knobs.min_win_points


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
    if win is not None and _takes_win(obs, valuer, knobs, win):
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
    """One from ready: the discard of highest :func:`_draws_value` (with
    :data:`Knobs.one_away_flex`, plus the worth of the draws that improve the shape, unless
    it would take the decision past ``work`` ready-hand evaluations)."""
    kong = kong_keeping_shanten(legal, seen.hand, wilds=0, shapes=_SHAPES, target=1)
    if kong is not None:
        return kong
    scored: list[tuple[float, int, DiscardOption]] = []
    for row in rows:
        if row.shanten != 1 or row.discard is None or row.discard not in discards:
            continue
        scored.append((_draws_value(seen, valuer, row), -row.discard, row))
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
        better = _best_draws_value(seen, valuer) - value
        hand[t] -= 1
        visible[t] -= 1
        if better > 0:
            gain += left * better
    hand[d] += 1
    return gain / max(pool, 1)


def _draws_value(seen: Seen, valuer: Valuer, row: DiscardOption) -> float:
    """For a discard one from ready: Σ over its improving draws ``t`` of unseen(t) × (the
    best ready value after drawing ``t``)."""
    d = row.discard
    assert d is not None
    seen.hand[d] -= 1
    total, _ = _draws(seen, valuer, row.effective)
    seen.hand[d] += 1
    return total


def _draws(seen: Seen, valuer: Valuer, kinds: Iterable[int]) -> tuple[float, int]:
    """For a 13-form hand one from ready and its improving ``kinds``: Σ over them of
    unseen(t) × (the best ready value after drawing ``t``), and Σ unseen(t)."""
    return _over_draws(seen, kinds, lambda: _best_ready_value(seen, valuer))


def _over_draws(seen: Seen, kinds: Iterable[int], worth: Callable[[], float]) -> tuple[float, int]:
    """Σ over the draws ``t`` of ``kinds`` of unseen(t) × ``worth()`` of ``seen`` with ``t``
    drawn (and seen), and Σ unseen(t)."""
    hand, visible = seen.hand, seen.visible
    total = 0.0
    copies = 0
    for t in kinds:
        left = unseen(visible, t)
        if not left:
            continue
        copies += left
        hand[t] += 1
        visible[t] += 1
        total += left * worth()
        hand[t] -= 1
        visible[t] -= 1
    return total, copies


def _best_ready_value(seen: Seen, valuer: Valuer) -> float:
    """The value of the best ready discard of the 14-tile ``seen.hand`` (0: none), memoised
    for the decision: looking ahead meets the same hands by several orders of draws."""
    key = (tuple(seen.hand), tuple(seen.visible), seen.melds)
    found = seen.best_ready.get(key)
    if found is None:
        seen.evaluations += 1
        hand = seen.hand
        ready = ready_discards(seen, valuer, (k for k in range(len(hand)) if hand[k]))
        found = ready[0].value if ready else 0.0
        seen.best_ready[key] = found
    return found


def _best_draws_value(seen: Seen, valuer: Valuer) -> float:
    """The best :func:`_draws_value` of a 14-tile hand one from ready (0 otherwise)."""
    rows = discard_table(seen.hand, shapes=_SHAPES, visible=seen.visible)
    return max((_draws_value(seen, valuer, r) for r in rows if r.shanten == 1), default=0.0)


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
        total, _ = _over_draws(seen, row.effective, lambda: _best_draws_value(seen, valuer))
        hand[d] += 1
        if best is None or (total, -d) > best:
            best = (total, -d)
    return None if best is None else discards[-best[1]]


def discard_values(seen: Seen, valuer: Valuer, tiles: Iterable[int]) -> dict[int, float]:
    """The discards among ``tiles`` of the lowest shanten, each with its worth on the scale of
    that shanten: ready value, draws value (one from ready) or unseen improving tiles."""
    allowed = set(tiles)
    rows = [
        r
        for r in discard_table(seen.hand, shapes=_SHAPES, visible=seen.visible)
        if r.discard is not None and r.discard in allowed
    ]
    if not rows:
        return {}
    low = min(r.shanten for r in rows)
    if low == 0:
        return {r.tile: r.value for r in ready_discards(seen, valuer, allowed)}
    same = [r for r in rows if r.shanten == low]
    if low == 1:
        return {r.discard: _draws_value(seen, valuer, r) for r in same}  # type: ignore[misc]
    return {r.discard: float(r.remaining) for r in same}  # type: ignore[misc]


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
        per_draw = _draws_value(seen, valuer, row) / max(pool, 1)
        if per_draw > factor * ready_value and (best is None or (per_draw, -row.discard) > best):
            best = (per_draw, -row.discard)
    return None if best is None else discards[-best[1]]


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
    if win is not None and _takes_win(obs, valuer, knobs, win):
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
        draws_now, copies_now = _draws(seen, valuer, kinds)
        with _claimed(seen, *made):
            held = [k for k in range(len(hand)) if hand[k]]
            ready = ready_discards(seen, valuer, held)
            if ready:
                return ready[0].value >= factor * draws_now / max(copies_now, 1)
            return _best_draws_value(seen, valuer) >= factor * draws_now
    if now == 2 and knobs.claim_two_away_factor >= 0:
        total, copies = _over_draws(seen, kinds, lambda: _best_draws_value(seen, valuer))
        with _claimed(seen, *made):
            after = _best_draws_value(seen, valuer)
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
