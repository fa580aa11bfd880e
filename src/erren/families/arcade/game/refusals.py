"""arcade's refusals: the rule an illegal action breaks, from the sender's own situation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.state import Phase
from erren.errors import IllegalActionError
from erren.families.arcade.game.options import TILES, ArcadePhase, arcade_data
from erren.families.arcade.game.vocabulary import ArcadeVerb

if TYPE_CHECKING:
    from erren.engine.state import State
    from erren.families.arcade.game.family import ArcadeFamily

__all__ = ["diagnose", "wild_meld"]

AK = ActionKind


def diagnose(rules: ArcadeFamily, state: State, action: Action) -> IllegalActionError | None:
    """Why the acting seat's ``action`` is refused, from its own tiles and choices (the
    state answers a seat that is not to act)."""
    kind, p = action.kind, action.player
    d = arcade_data(state)
    phase = state.phase
    t = -1 if action.tile is None else int(action.tile)
    if (
        kind in (ArcadeVerb.EXCHANGE, ArcadeVerb.PICK, ArcadeVerb.TAKE_PUNG, ArcadeVerb.GIVE)
        or d.giving
        or phase in (ArcadePhase.EXCHANGE, ArcadePhase.PICK, ArcadePhase.HAIDI)
    ):
        return _event_refusal(state, action, t)
    wild = _wild_refusal(rules, state, action)
    if wild is not None:
        return wild
    if kind is AK.AN_GANG and t == d.wild:
        return IllegalActionError(
            "wild-in-meld", f"{action}: wild tiles are never used in a kong (R1.9c)"
        )
    h = state.hands[p]
    if kind is AK.TING and phase is Phase.TURN and not state.ting[p] and t >= 0 and h[t]:
        return IllegalActionError(
            "not-ready", f"{action}: the 13 tiles left would not be ready (R2.4, R2.26)"
        )
    return None


def _event_refusal(state: State, action: Action, t: int) -> IllegalActionError:
    """The refusal of a move of the events (exchange R2.21, pung offer R2.22, pick-any R2.23,
    海底 R2.18), or of another move while one of them is open; ``t`` the action's tile (-1)."""
    kind, p = action.kind, action.player
    d = arcade_data(state)
    phase = state.phase
    offered = phase is Phase.TURN and d.offer[p] >= 0
    if kind is ArcadeVerb.EXCHANGE and phase is not ArcadePhase.EXCHANGE:
        return IllegalActionError(
            "no-exchange", f"{action}: the opening exchange is over or off (R2.21)"
        )
    if kind is ArcadeVerb.PICK and phase is not ArcadePhase.PICK:
        return IllegalActionError(
            "no-pick-offer", f"{action}: pick-any was not offered for this draw (R2.23)"
        )
    if kind is ArcadeVerb.TAKE_PUNG and not offered:
        return IllegalActionError(
            "no-pung-offer", f"{action}: no pung offer was made this turn (R2.22)"
        )
    if kind is ArcadeVerb.GIVE and phase is not ArcadePhase.EXCHANGE and not offered:
        return IllegalActionError(
            "nothing-to-give",
            f"{action}: no exchange or pung offer is open for you (R2.21, R2.22)",
        )
    if kind is ArcadeVerb.TAKE_PUNG or action.data:
        return IllegalActionError(
            "one-tile-at-a-time",
            f"{action}: give up the tiles one at a time (give:X), in order (R2.21, R2.22)",
        )
    if kind is ArcadeVerb.GIVE:
        given = d.giving
        if given and t < given[-1]:
            return IllegalActionError(
                "give-in-order",
                f"{action}: give up the tiles in canonical order (after {TILES[given[-1]]})",
            )
        return IllegalActionError(
            "tile-not-held", f"{action}: you hold no other {action.tile} to give up"
        )
    if d.giving and phase is Phase.TURN:
        return IllegalActionError(
            "pung-answer-open",
            f"{action}: first give up the rest of the three tiles for the offered pung (R2.22)",
        )
    legal = ", ".join(str(a) for a in state.legal_actions(p)[:8])
    return IllegalActionError("not-now", f"{action}: you may only choose among {legal}… now (§2.2)")


def _wild_refusal(rules: ArcadeFamily, state: State, action: Action) -> IllegalActionError | None:
    """A claim or win refused for the wild (R1.9c): a wild needed in the meld, a dead
    discarded wild; the last discard may only be won on (R2.7)."""
    kind, p = action.kind, action.player
    phase = state.phase
    if kind in (AK.PENG, AK.CHI, AK.MING_GANG, AK.HU) and phase is Phase.CLAIM:
        if wild_meld(rules, state, action, state.pending):
            return IllegalActionError(
                "wild-in-meld", f"{action}: a wild 财神 is never part of a meld (R1.9c)"
            )
        if kind is not AK.HU and state.head > state.tail:
            return IllegalActionError(
                "last-discard", f"{action}: the last discard may only be won on (R2.7)"
            )
    if kind in (AK.PENG, AK.CHI, AK.MING_GANG, AK.HU) and phase is Phase.TURN:
        last = state.discards[1 - p][-1] if state.discards[1 - p] else -1
        if last == arcade_data(state).wild:
            return IllegalActionError(
                "dead-wild", f"{action}: a discarded wild is dead: no claim, no win (R1.9c)"
            )
        if last >= 0 and wild_meld(rules, state, action, last):
            return IllegalActionError(
                "wild-in-meld", f"{action}: a wild 财神 is never part of a meld (R1.9c)"
            )
    return None


def wild_meld(rules: ArcadeFamily, state: State, action: Action, x: int) -> bool:
    """Whether claiming ``x`` with ``action`` would need a wild tile (R1.9c)."""
    w = arcade_data(state).wild
    h = state.hands[action.player]
    if action.kind is AK.CHI:
        t = action.tile_kind()
        others = [k for k in (t, t + 1, t + 2) if k != x]
        return len(others) == 2 and w in others and all(h[k] for k in others)
    if action.kind in (AK.PENG, AK.MING_GANG):
        need = 2 if action.kind is AK.PENG else 3
        return h[x] < need <= h[x] + h[w]
    return False
