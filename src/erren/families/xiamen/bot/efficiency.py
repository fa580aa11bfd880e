"""The efficiency bot's xiamen play (a :class:`~erren.engine.XiamenView` with a gold).

It counts golds as wild and Whites as the gold kind, declares 三金倒/抢金胡 whenever offered,
goes for 游金 — with a complete hand it discards into 游金-ready instead of winning 自摸 while
the wall is long enough, and in the 游 chain discards a drawn gold to climb to 双游/三游 —,
never throws a gold while a natural tile serves as well, and only ever picks among the legal
discards, so it never breaks 跟打.
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis.golds import you_ready
from erren.analysis.shapes import XIAMEN
from erren.analysis.waits import discard_table
from erren.bots.common import best_claim, by_tile, choose_discard, kong_keeping_shanten, passing
from erren.bots.efficiency import seen_counts
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.xiamen.game.data import XiamenPhase
from erren.families.xiamen.game.view import XiamenView
from erren.families.xiamen.game.vocabulary import XiamenVerb

__all__ = [
    "YOU_MIN_WALL",
    "functional_kind",
    "gold_counts",
    "golds_choice",
    "physical_tile",
    "you_ready_after",
]

AK = ActionKind
_WHITE = 31
YOU_MIN_WALL = 8
"""Wall tiles needed to prefer 游金 (or a higher 游) to an immediate win."""


def golds_choice(obs: Observation, view: XiamenView, gold: int, legal: Sequence[Action]) -> Action:
    """The efficiency bot's move in a xiamen hand whose gold kind is ``gold``."""
    kinds = {a.kind for a in legal}
    if len(legal) == 1:
        return legal[0]
    if obs.phase is XiamenPhase.OPENING:  # 三金倒 / 抢金胡: a sure ×4 now
        return next((a for a in legal if a.kind is not AK.PASS), legal[0])
    if obs.phase is XiamenPhase.YOU_CHOICE:
        level = view.you_level[obs.player]
        climb = level >= 2 or obs.wall_count >= YOU_MIN_WALL
        want = XiamenVerb.DISCARD_GOLD if climb else XiamenVerb.WIN
        return next(a for a in legal if a.kind is want)
    if obs.phase is XiamenPhase.LAST_DRAW or AK.HU in kinds:
        return next(a for a in legal if a.kind in (AK.ZIMO, AK.HU))
    if obs.phase is Phase.TURN:
        return _gold_turn(obs, gold, legal)
    return _gold_claim(obs, gold, legal)


def _gold_turn(obs: Observation, gold: int, legal: Sequence[Action]) -> Action:
    c, k, visible = gold_counts(obs, gold)
    discards = by_tile(legal, AK.DISCARD)
    zimo = next((a for a in legal if a.kind is AK.ZIMO), None)
    if zimo is not None:
        if obs.wall_count >= YOU_MIN_WALL:
            for tile, action in discards.items():
                if you_ready_after(c, k, gold, tile):
                    return action
        return zimo
    rows = discard_table(c, wilds=k, shapes=XIAMEN, visible=visible)
    legal_rows, chosen = choose_discard(rows, discards, gold, lambda t: physical_tile(t, gold))
    if chosen is None:
        return next(iter(discards.values()), legal[0])
    best, tile = legal_rows[0][0], chosen
    if best.shanten == 0:  # prefer a discard that enters 游金 at once
        for row, t in legal_rows:
            if row.shanten == 0 and you_ready_after(c, k, gold, t):
                tile = t
                break
    kong = kong_keeping_shanten(
        legal,
        c,
        wilds=k,
        shapes=XIAMEN,
        target=best.shanten,
        functional=lambda t: functional_kind(t, gold),
    )
    if kong is not None:
        return kong
    return discards[tile]


def _gold_claim(obs: Observation, gold: int, legal: Sequence[Action]) -> Action:
    x = obs.pending
    if x is None or obs.phase is not Phase.CLAIM:
        return passing(legal)
    c, k, visible = gold_counts(obs, gold)
    fx = functional_kind(int(x), gold)
    return best_claim(legal, fx, c, visible, wilds=k, shapes=XIAMEN)


def gold_counts(observation: Observation, gold: int) -> tuple[list[int], int, list[int]]:
    """``(counts, golds, visible)`` with golds (``gold`` the gold kind): the concealed natural
    tiles by functional kind (a White counts as the gold kind, R-1.8), the golds held, and the
    functional copies the player can see (golds and the indicator are no kind's copies)."""
    hand, visible = seen_counts(observation)
    k = hand[gold]
    c = list(hand)
    seen = list(visible)
    for counts in (c, seen):
        counts[gold] = 0
        if gold != _WHITE:
            counts[gold] = counts[_WHITE]
            counts[_WHITE] = 0
    return c, k, seen


def functional_kind(tile: int, gold: int) -> int:
    """The kind ``tile`` plays as: a White stands for the gold kind (R-1.8)."""
    return gold if tile == _WHITE and gold != _WHITE else tile


def physical_tile(kind: int, gold: int) -> int:
    """The tile that plays as functional ``kind``: the White for the gold kind (R-1.8)."""
    return _WHITE if kind == gold and gold != _WHITE else kind


def you_ready_after(c: list[int], k: int, gold: int, tile: int) -> bool:
    """Whether discarding ``tile`` (a gold, or a natural tile) from the part ``c`` with ``k``
    golds (:func:`gold_counts`) leaves a 游金-ready hand (xiamen R-3.5)."""
    if tile == gold:
        return you_ready(c, k - 1)
    f = functional_kind(tile, gold)
    c[f] -= 1
    ok = you_ready(c, k)
    c[f] += 1
    return ok
