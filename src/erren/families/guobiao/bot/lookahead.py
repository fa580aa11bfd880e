"""What a guobiao-2p hand is worth to the player who holds it, from the observation alone: the
tiles he sees (:class:`Seen`), the discards that leave him ready and what their waits are
worth, what the draws of a hand one or two from ready lead to, and whether a win pays enough to
take.  The look-ahead the fast policy (:mod:`~erren.families.guobiao.bot.expert`) and its claim
rules (:mod:`~erren.families.guobiao.bot.claims`) weigh their choices with."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import DiscardOption, discard_table
from erren.bots.efficiency import seen_counts
from erren.bots.expert.knobs import Knobs
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.guobiao.bot.values import Valuer, unseen
from erren.melds import Meld
from erren.tiles import Tile

__all__ = [
    "ReadyDiscard",
    "Seen",
    "best_draws_value",
    "best_ready_value",
    "discard_values",
    "draws",
    "draws_value",
    "over_draws",
    "ready_discards",
    "takes_win",
]

AK = ActionKind
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


def takes_win(obs: Observation, valuer: Valuer, knobs: Knobs, win: Action) -> bool:
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


def draws_value(seen: Seen, valuer: Valuer, row: DiscardOption) -> float:
    """For a discard one from ready: Σ over its improving draws ``t`` of unseen(t) × (the
    best ready value after drawing ``t``)."""
    d = row.discard
    assert d is not None
    seen.hand[d] -= 1
    total, _ = draws(seen, valuer, row.effective)
    seen.hand[d] += 1
    return total


def draws(seen: Seen, valuer: Valuer, kinds: Iterable[int]) -> tuple[float, int]:
    """For a 13-form hand one from ready and its improving ``kinds``: Σ over them of
    unseen(t) × (the best ready value after drawing ``t``), and Σ unseen(t)."""
    return over_draws(seen, kinds, lambda: best_ready_value(seen, valuer))


def over_draws(seen: Seen, kinds: Iterable[int], worth: Callable[[], float]) -> tuple[float, int]:
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


def best_ready_value(seen: Seen, valuer: Valuer) -> float:
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


def best_draws_value(seen: Seen, valuer: Valuer) -> float:
    """The best :func:`draws_value` of a 14-tile hand one from ready (0 otherwise)."""
    rows = discard_table(seen.hand, shapes=_SHAPES, visible=seen.visible)
    return max((draws_value(seen, valuer, r) for r in rows if r.shanten == 1), default=0.0)


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
        return {r.discard: draws_value(seen, valuer, r) for r in same}  # type: ignore[misc]
    return {r.discard: float(r.remaining) for r in same}  # type: ignore[misc]
