"""What a seat may do (guobiao-2p §2.3, §2.4): the shared moves of a ``TURN`` and the shared
claims on a discard, the lists a family's ``turn_actions``/``claim_options`` hook starts from.

Functions of the state on the hot path: :class:`~erren.engine.state.State` calls them directly
when the family keeps the shared behaviour, and offers them to the families as
:meth:`~erren.engine.state.State.base_turn_actions` and
:meth:`~erren.engine.state.State.base_claim_options`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.phases import Origin
from erren.engine.result import WinHow
from erren.engine.winning import ready_discards
from erren.engine.wins import ting_fan_ok
from erren.melds import MeldKind
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["claim_options", "turn_actions"]

AK = ActionKind
_O_CLAIM = Origin.CLAIM


def _table(kind: ActionKind) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(Action.make(kind, p, t) for t in range(NUM_KINDS)) for p in (0, 1))


_DISCARD = _table(AK.DISCARD)
_TING = _table(AK.TING)
_CHI = _table(AK.CHI)
_ANGANG = _table(AK.AN_GANG)
_JIAGANG = _table(AK.JIA_GANG)
_HU = tuple(Action.make(AK.HU, p) for p in (0, 1))
_ZIMO = tuple(Action.make(AK.ZIMO, p) for p in (0, 1))
_PASS = tuple(Action.make(AK.PASS, p) for p in (0, 1))
_PENG = tuple(Action.make(AK.PENG, p) for p in (0, 1))
_MINGGANG = tuple(Action.make(AK.MING_GANG, p) for p in (0, 1))


def turn_actions(state: State, p: int) -> list[Action]:
    """The shared moves of ``p``'s ``TURN`` (§2.3): 自摸, kongs, discards (through the
    family's ``discard_filter``), 报听."""
    h = state.hands[p]
    out: list[Action] = []
    free = state.origin is not _O_CLAIM
    if free and state.can_win(p, -1, WinHow.ZIMO):
        out.append(_ZIMO[p])
    if state.ting[p]:  # only reached when a hu is offered and not taken automatically
        out.append(_DISCARD[p][state.last_added[p]])
        return out
    wall_ok = state.head <= state.tail
    kinds = state.ruleset.kinds
    held = [k for k in kinds if h[k]]
    if free and wall_ok:
        for k in held:
            if h[k] == 4:
                out.append(_ANGANG[p][k])
        for m in state.melds[p]:
            if m.kind is MeldKind.PENG and h[m.tiles[0]]:
                out.append(_JIAGANG[p][m.tiles[0]])
    held = state.ruleset.discard_filter(state, p, held)
    disc = _DISCARD[p]
    out += [disc[k] for k in held]
    if state.ruleset.ting_enabled and wall_ok:
        melds = state.melds[p]
        mask = ready_discards(h, len(melds), state.meld_counts[p] if melds else None, kinds)
        if mask:
            ting = _TING[p]
            for k in held:
                if mask >> k & 1 and ting_fan_ok(state, p, k):
                    out.append(ting[k])
    return out


def claim_options(state: State, q: int, x: int) -> list[Action]:
    """The shared claims of ``q`` on the discard ``x`` (§2.4): hu, 明杠, peng, chows, and
    ``pass`` when there is any; empty when none."""
    out: list[Action] = []
    if state.can_win(q, x, WinHow.DISCARD):
        out.append(_HU[q])
    if not state.ting[q] and state.head <= state.tail:
        h = state.hands[q]
        c = h[x]
        if c == 3:
            out.append(_MINGGANG[q])
        if c >= 2:
            out.append(_PENG[q])
        if x < 27:
            r = x % 9
            chi = _CHI[q]
            if r >= 2 and h[x - 2] and h[x - 1]:
                out.append(chi[x - 2])
            if 1 <= r <= 7 and h[x - 1] and h[x + 1]:
                out.append(chi[x - 1])
            if r <= 6 and h[x + 1] and h[x + 2]:
                out.append(chi[x])
    if out:
        out.append(_PASS[q])
    return out
