"""The moves arcade makes for a seat: 报听 and 托管 auto-play (R2.13, R2.17), the default move
of a timeout (R2.16) and the tile such a move discards.

Functions of the family (``rules``) and the hand, called by
:class:`~erren.families.arcade.game.family.ArcadeFamily`'s ``auto_move``, ``default_move`` and
``auto_discard`` hooks; they only read the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.state import Origin, Phase
from erren.families.arcade.game.options import ArcadePhase, arcade_data
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine.state import State
    from erren.families.arcade.game.family import ArcadeFamily

__all__ = ["auto_discard", "auto_move", "default_move"]

AK = ActionKind


def auto_move(rules: ArcadeFamily, state: State, p: int) -> Action | None:
    """R2.13 (报听: every win is asked, the rest is played) and R2.17 (托管: wins, never
    claims, kongs or declares, discards the drawn tile, declines events)."""
    trustee = state.trustee[p]
    phase = state.phase
    legal = state.legal_actions(p)
    wins = [a for a in legal if a.kind in (AK.ZIMO, AK.HU)]
    if wins:
        return wins[0] if trustee else None
    if phase is Phase.TURN:
        if state.ting[p] and not trustee:
            return Action.make(AK.DISCARD, p, state.last_added[p])
        return Action.make(AK.DISCARD, p, rules.auto_discard(state, p))
    if phase is ArcadePhase.EXCHANGE:
        return Action.make(ArcadeVerb.EXCHANGE, p)
    return Action.make(AK.PASS, p)


def default_move(rules: ArcadeFamily, state: State, p: int) -> Action:
    """R2.16: a win prompt times out into the win, an ACTION into the drawn tile (or the
    rightmost tile), every other prompt into pass / no exchange."""
    phase = state.phase
    legal = state.legal_actions(p)
    if phase is Phase.TURN:
        if state.ting[p]:
            return legal[0]  # the asked 自摸, or the drawn tile
        return Action.make(AK.DISCARD, p, rules.auto_discard(state, p))
    wins = [a for a in legal if a.kind in (AK.ZIMO, AK.HU)]
    if wins:
        return wins[0]
    if phase is ArcadePhase.EXCHANGE:
        return Action.make(ArcadeVerb.EXCHANGE, p)
    return Action.make(AK.PASS, p)


def auto_discard(state: State, p: int) -> int:
    """R2.16: the tile just drawn (still the drawn one after an accepted pung offer, never
    an offered tile; none if all of its kind went in the swap); else the rightmost in
    canonical order (wilds leftmost, then m, p, s, z by index)."""
    h = state.hands[p]
    last = state.last_added[p]
    if state.origin in (Origin.DRAW, Origin.REPLACEMENT) and last >= 0 and h[last]:
        return last
    w = arcade_data(state).wild
    for k in range(NUM_KINDS - 1, -1, -1):
        if h[k] and k != w:
            return k
    return w
