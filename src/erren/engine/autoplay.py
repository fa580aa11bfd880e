"""The moves the engine makes for a seat (guobiao-2p §2.8, §2.9): the default move of a
timeout and the move of 报听 or 托管 auto-play.

Functions of the state, behind :meth:`~erren.engine.state.State.base_default_move` and
:meth:`~erren.engine.state.State.base_auto_move` (the shared behaviour a family's
``default_move``/``auto_move`` hook extends); :meth:`~erren.engine.state.State.run_auto` plays
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.phases import Origin, Phase
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["auto_move", "default_discard", "default_move"]

AK = ActionKind
_TURN, _CLAIM, _ROB = Phase.TURN, Phase.CLAIM, Phase.ROB
_DISCARD = tuple(tuple(Action.make(AK.DISCARD, p, t) for t in range(NUM_KINDS)) for p in (0, 1))
_HU = tuple(Action.make(AK.HU, p) for p in (0, 1))
_ZIMO = tuple(Action.make(AK.ZIMO, p) for p in (0, 1))
_PASS = tuple(Action.make(AK.PASS, p) for p in (0, 1))


def default_discard(state: State, p: int) -> int:
    """§2.9: the tile most recently added; after a claim, the highest-index tile."""
    h = state.hands[p]
    last = state.last_added[p]
    if state.origin is not Origin.CLAIM and last >= 0 and h[last]:
        return last
    for k in range(NUM_KINDS - 1, -1, -1):
        if h[k]:
            return k
    raise AssertionError("a player in TURN holds tiles")


def default_move(state: State, p: int) -> Action:
    """§2.9: the shared default move when ``p``'s timer runs out."""
    if state.phase is _TURN:
        if state.ting[p]:  # an offered hu under 报听 (ting_auto_hu off): no answer = yes
            return _ZIMO[p]
        return _DISCARD[p][default_discard(state, p)]
    if state.ting[p] and state.phase in (_CLAIM, _ROB) and _HU[p] in state.legal_actions(p):
        return _HU[p]
    return _PASS[p]


def auto_move(state: State, p: int, legal: list[Action]) -> Action | None:
    """The shared move of 报听 (§2.8) or 托管 (§2.9) auto-play for ``p`` (in one of them) among
    his ``legal`` moves, or ``None`` when ``p`` decides himself (a hu offer under 报听 with
    ting_auto_hu off)."""
    take_hu = state.trustee[p] or state.ruleset.ting_auto_hu
    if state.phase is _TURN:
        if legal and legal[0].kind is AK.ZIMO:
            return legal[0] if take_hu else None
        if state.ting[p]:
            return _DISCARD[p][state.last_added[p]]
        return _DISCARD[p][default_discard(state, p)]
    if legal and legal[0].kind is AK.HU:
        return legal[0] if take_hu else None
    return _PASS[p]
