"""xiamen's refusals: the rule an illegal action breaks, from the sender's own situation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.state import Origin, Phase
from erren.errors import IllegalActionError
from erren.families.xiamen.game.data import TILES, XiamenPhase, func_kind, natural_of, xiamen_data
from erren.families.xiamen.game.vocabulary import XiamenVerb

if TYPE_CHECKING:
    from erren.engine.state import State
    from erren.families.xiamen.game.family import XiamenFamily

__all__ = ["diagnose"]

AK = ActionKind


def diagnose(rules: XiamenFamily, state: State, action: Action) -> IllegalActionError | None:
    """Why the acting seat's ``action`` is refused, from its own tiles and choices (the
    state answers a seat that is not to act)."""
    kind, p = action.kind, action.player
    phase = state.phase
    d = xiamen_data(state)
    g = d.gold
    h = state.hands[p]
    t = -1 if action.tile is None else int(action.tile)
    if kind in (XiamenVerb.SANJINDAO, XiamenVerb.QIANGJIN):
        if phase is not XiamenPhase.OPENING:
            return IllegalActionError(
                "opening-closed",
                f"{action}: 三金倒 and 抢金胡 exist only in the opening window (R-2.3)",
            )
        if kind is XiamenVerb.SANJINDAO:
            return IllegalActionError(
                "not-three-golds", f"{action}: 三金倒 needs all three golds (R-2.3)"
            )
        return IllegalActionError(
            "not-ready-for-gold",
            f"{action}: the hand plus the indicator is not complete (R-2.3)",
        )
    if kind in (XiamenVerb.WIN, XiamenVerb.DISCARD_GOLD):
        return IllegalActionError(
            "no-gold-choice",
            f"{action}: only a player in the 游 chain who drew a gold chooses (R-2.9.2)",
        )
    if phase in (XiamenPhase.YOU_CHOICE, XiamenPhase.LAST_DRAW, XiamenPhase.OPENING):
        legal = ", ".join(str(a) for a in state.legal_actions(p))
        return IllegalActionError(
            "not-now", f"{action}: you may only choose among {legal} now (R-2.1)"
        )
    if kind in (AK.PENG, AK.CHI, AK.MING_GANG, AK.HU):
        return _claim_refusal(state, action, t)
    if phase is not Phase.TURN:
        return None
    if kind is AK.DISCARD and t >= 0 and h[t]:
        follow = rules.follow_kinds(state, p)
        if follow and t not in follow:
            names = " or ".join(str(TILES[k]) for k in follow)
            return IllegalActionError(
                "follow-discard",
                f"{action}: 跟打 — the opponent discarded {names} and you hold exactly one; "
                f"discard {names} (R-2.5)",
            )
    if kind in (AK.AN_GANG, AK.JIA_GANG) and t == g:
        return IllegalActionError(
            "gold-in-meld", f"{action}: golds are never used in a kong (R-1.7)"
        )
    if kind is AK.ZIMO and state.origin is Origin.DEAL:
        return IllegalActionError(
            "no-heavenly-win",
            f"{action}: the dealer's complete opening hand is 抢金胡, not 自摸 (R-2.2, D-17)",
        )
    return None


def _claim_refusal(state: State, action: Action, t: int) -> IllegalActionError | None:
    """Why a claim or a win on a tile (``t``: the chow's first kind, or -1) is refused for the
    golds: a dead discarded gold (R-2.8), a gold holder's win on a discard or a kong (R-2.6,
    R-2.7), a gold needed in the meld (R-1.7); ``None`` if not for them."""
    kind, p = action.kind, action.player
    phase = state.phase
    d = xiamen_data(state)
    g = d.gold
    h = state.hands[p]
    last = state.discards[1 - p][-1] if state.discards[1 - p] else -1
    if phase is not Phase.CLAIM and last == g:
        return IllegalActionError(
            "dead-gold", f"{action}: a discarded gold can never be claimed (R-2.8)"
        )
    if phase is Phase.CLAIM:
        x = state.pending
        if kind is AK.HU and h[g]:
            return IllegalActionError(
                "gold-holder-no-pinghu",
                f"{action}: a player holding a gold cannot win on a discard (R-2.6)",
            )
        if kind in (AK.PENG, AK.MING_GANG) and h[x] + h[g] >= (2 if kind is AK.PENG else 3):
            return IllegalActionError(
                "gold-in-meld", f"{action}: a gold is never part of a meld (R-1.7)"
            )
        if kind is AK.CHI and t >= 0:
            need = [k for k in (t, t + 1, t + 2) if k != func_kind(d, x)]
            if len(need) == 2 and all(h[natural_of(d, k)] or k == g for k in need):
                return IllegalActionError(
                    "gold-in-meld", f"{action}: a gold is never part of a chow (R-1.7)"
                )
    if phase is Phase.ROB and kind is AK.HU and h[g]:
        return IllegalActionError(
            "gold-holder-no-pinghu",
            f"{action}: a player holding a gold cannot rob a kong (R-2.7)",
        )
    return None
