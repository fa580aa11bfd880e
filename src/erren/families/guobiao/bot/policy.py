"""Which decisions the expert searches, and the few moves it compares there (guobiao-2p).

Most decisions are the fast policy's (:mod:`.expert`).  Searched: a claim
window with a claim to make (pass, and up to three claims), and a turn whose hand can stay ready
(the most valuable ready discards, each plain and, when the table allows, declared 报听).
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import discard_table
from erren.bots.common import by_tile
from erren.engine import Action, ActionKind, Observation
from erren.engine.phases import Phase
from erren.families.guobiao.bot.expert import Knobs, Seen, ready_discards
from erren.families.guobiao.bot.values import Valuer

__all__ = ["MAX_CANDIDATES", "search_candidates"]

AK = ActionKind
_CLAIMS = (AK.CHI, AK.PENG, AK.MING_GANG)
MAX_CANDIDATES = 4
"""Moves compared at most in one search."""


def _first(seq: Sequence[Action], fast: Action) -> list[Action]:
    out = [fast]
    for action in seq:
        if action not in out:
            out.append(action)
    return out[:MAX_CANDIDATES]


def search_candidates(
    obs: Observation, legal: Sequence[Action], fast: Action, valuer: Valuer, knobs: Knobs
) -> list[Action]:
    """The moves worth searching (the fast choice first); fewer than two: do not search."""
    kinds = {a.kind for a in legal}
    if AK.HU in kinds or AK.ZIMO in kinds or len(legal) < 2:
        return []
    if obs.phase is Phase.CLAIM:
        if not knobs.search_claims or not kinds.intersection(_CLAIMS):
            return []
        passes = [a for a in legal if a.kind is AK.PASS]
        return _first([*passes, *(a for a in legal if a.kind in _CLAIMS)], fast)
    if obs.phase is not Phase.TURN or obs.ting[obs.player] or not knobs.search_turns:
        return []
    discards = by_tile(legal, AK.DISCARD)
    tings = by_tile(legal, AK.TING)
    seen = Seen.of(obs)
    rows = discard_table(seen.hand, shapes=GUOBIAO_2P, visible=seen.visible)
    best = next((r for r in rows if r.discard in discards), None)
    if best is None or best.shanten != 0:
        return []
    ready = ready_discards(seen, valuer, discards)
    moves: list[Action] = []
    for r in ready[:3]:
        if r.tile in tings:
            moves.append(tings[r.tile])
        moves.append(discards[r.tile])
    cands = _first(moves, fast)
    return cands if len(cands) >= 2 else []
