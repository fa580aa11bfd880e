"""Why a move is refused (guobiao-2p §2): the :class:`~erren.errors.IllegalActionError` that
names the rule an illegal action breaks.

A refusal names only the sender's own situation: a seat that is not to act always hears the same
sentence, the acting seat hears about its own tiles and choices.  The family's
``Family.diagnose`` answers first; the shared rules below answer the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.phases import Origin, Phase
from erren.errors import IllegalActionError
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["diagnose"]

AK = ActionKind
_CLAIM, _ROB = Phase.CLAIM, Phase.ROB
_O_CLAIM = Origin.CLAIM
_TILES = tuple(Tile(i) for i in range(42))

_KONG_NEEDS = {
    AK.AN_GANG: ("kong-needs-four", "{action}: 暗杠 needs four concealed {tile} (§2.3)"),
    AK.JIA_GANG: (
        "kong-needs-peng",
        "{action}: 加杠 needs an exposed peng and the fourth tile in hand (§2.3, D12)",
    ),
}
"""Why a concealed or added kong of the action's ``{tile}`` is refused: ``(code, message)``."""
_CLAIM_NEEDS = {
    AK.MING_GANG: ("kong-needs-four", "{action}: 明杠 needs three concealed {tile}"),
    AK.PENG: ("peng-needs-pair", "{action}: peng needs two concealed {tile}"),
    AK.CHI: ("chi-not-a-run", "{action}: the chow must contain {tile} and two held tiles (§2.4)"),
}
"""Why a claim of the discard ``{tile}`` is refused: ``(code, message)``."""
_CLAIM_KINDS = frozenset({AK.HU, AK.PASS, AK.PENG, AK.MING_GANG, AK.CHI})
_TURN_KINDS = frozenset({AK.DISCARD, AK.TING, AK.ZIMO, AK.AN_GANG, AK.JIA_GANG})


def diagnose(state: State, action: Action) -> IllegalActionError:
    """Name the rule ``action`` breaks (it is known not to be legal), from the sender's own
    situation only: a seat not to act always gets the same answer, whatever the opponent
    holds or may do; the acting seat hears about its own tiles and choices."""
    kind, p = action.kind, action.player
    if p != state.actor:
        return IllegalActionError(
            "out-of-turn", f"{action}: it is not your turn; the opponent is deciding (§2.2)"
        )
    family = state.ruleset.diagnose(state, action)
    if family is not None:
        return family
    phase = state.phase
    if kind in _CLAIM_KINDS and phase not in (_CLAIM, _ROB):
        return IllegalActionError(
            "claim-window-closed", f"{action}: no claim window is open for you (§2.4)"
        )
    h = state.hands[p]
    t = -1 if action.tile is None else int(action.tile)
    if phase in (_CLAIM, _ROB) and kind in _TURN_KINDS:
        return IllegalActionError(
            "claim-or-pass", f"{action}: you may only claim or pass now (§2.4)"
        )
    if state.ting[p] and kind not in (AK.HU, AK.ZIMO, AK.PASS):
        return IllegalActionError("ting-locked", f"{action}: the hand is locked after 报听 (§2.8)")
    if kind in (AK.DISCARD, AK.TING) and (t < 0 or h[t] == 0):
        return IllegalActionError("tile-not-held", f"{action}: you hold no {action.tile} (§2.3)")
    if kind is AK.DISCARD:
        return IllegalActionError(
            "discard-not-allowed", f"{action}: this discard is not allowed now"
        )
    if kind is AK.TING:
        if not state.ruleset.ting_enabled:
            return IllegalActionError("ting-disabled", "报听 is switched off (§2.8)")
        if state.head > state.tail:
            return IllegalActionError("wall-empty", f"{action}: the wall is empty (§2.3)")
        return IllegalActionError(
            "not-ready", f"{action}: the 13 tiles left would not be ready (§3.4)"
        )
    if kind in (AK.AN_GANG, AK.JIA_GANG, AK.MING_GANG) and state.head > state.tail:
        return IllegalActionError("wall-empty", f"{action}: no kong on an empty wall (§1.7)")
    if kind in (AK.AN_GANG, AK.JIA_GANG) and state.origin is _O_CLAIM:
        return IllegalActionError(
            "discard-after-claim", f"{action}: after a chi or peng only a discard is allowed"
        )
    if kind in _KONG_NEEDS:
        code, text = _KONG_NEEDS[kind]
        return IllegalActionError(code, text.format(action=action, tile=action.tile))
    if kind in _CLAIM_NEEDS:
        code, text = _CLAIM_NEEDS[kind]
        return IllegalActionError(code, text.format(action=action, tile=_TILES[state.pending]))
    if kind in (AK.HU, AK.ZIMO):
        if kind is AK.ZIMO and state.origin is _O_CLAIM:
            return IllegalActionError(
                "discard-after-claim", "no self-drawn win right after a chi or peng (§2.3)"
            )
        return IllegalActionError(
            "not-a-win", f"{action}: the hand does not win (shape §3 or 起和 §3.5)"
        )
    if kind in (AK.PENG, AK.MING_GANG, AK.CHI) and state.ting[p]:
        return IllegalActionError("ting-locked", "no claims after 报听 (§2.8)")
    return IllegalActionError("illegal", f"{action} is not legal now")
