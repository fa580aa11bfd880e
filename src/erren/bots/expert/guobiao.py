"""The fast value-aware policy of guobiao-2p: every decision in microseconds, from the
observation alone.

* A win is taken when offered (the engine offers only wins that reach the minimum).
* Own turn: the lowest shanten first, as ``efficiency``; among the discards that leave the hand
  ready, the one whose waits are worth most (:meth:`~erren.bots.expert.values.Valuer.ready_value`:
  unseen copies × the table's real payment), declared 报听 when the table allows it.
* Claims: a claim is taken only when the hand after it is ready and worth more than the
  concealed hand it replaces is likely to be (:func:`claim_choice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from erren.analysis.shanten import shanten
from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import DiscardOption, discard_table, improving
from erren.bots.common import best_claim, kong_keeping_shanten, passing
from erren.bots.efficiency import seen_counts
from erren.bots.expert.values import Valuer, unseen
from erren.engine import Action, ActionKind, Observation
from erren.melds import Meld, MeldKind
from erren.tiles import Tile

__all__ = ["Knobs", "ReadyDiscard", "claim_choice", "ready_discards", "turn_choice"]

AK = ActionKind
_WIN = (AK.HU, AK.ZIMO)
_TILES = tuple(Tile(i) for i in range(42))


@dataclass(frozen=True, slots=True)
class Knobs:
    """The tunable choices of the fast policy (measured in duplicate play)."""

    always_ting: bool = False
    """Declare 报听 with every ready discard (else as ``efficiency``: 3+ unseen waits)."""
    claim_min_value: float = 0.0
    """A claim that makes the hand ready must be worth at least this many points × waits."""
    claim_only_ready: bool = True
    """Claim only when the hand after the claim is ready."""
    claim_mode: str = "ready"
    """``ready`` (value), ``never``, ``no_chi``, ``pairs`` (efficiency's claims, but a concealed
    hand with 4+ pairs passes)."""
    value_claims: bool = False
    """Claims by value (else as ``efficiency``)."""
    lookahead: bool = True
    """At shanten 1, discard for the most valuable ready hands one draw away."""
    value_turn: bool = True
    """Ready discards by value (else as ``efficiency``)."""


@dataclass(frozen=True, slots=True)
class ReadyDiscard:
    """A discard that leaves the hand ready, with its waits and their worth."""

    tile: int
    waits: tuple[int, ...]
    value: float


def _context(obs: Observation) -> dict[str, object]:
    return {
        "flowers": len(obs.flowers[obs.player]),
        "round_wind": obs.round_wind,
        "dealer": obs.player == obs.dealer,
    }


def ready_discards(
    obs: Observation,
    valuer: Valuer,
    hand: list[int],
    visible: Sequence[int],
    melds: tuple[Meld, ...],
    tiles: Sequence[int],
    *,
    ting: bool,
) -> list[ReadyDiscard]:
    """The discards among ``tiles`` that leave ``hand`` ready, most valuable first."""
    rows = discard_table(hand, shapes=GUOBIAO_2P, visible=visible)
    out: list[ReadyDiscard] = []
    ctx = _context(obs)
    for row in rows:
        if row.shanten != 0 or row.discard is None or row.discard not in tiles:
            continue
        hand[row.discard] -= 1
        value = valuer.ready_value(hand, melds, row.effective, visible, ting=ting, **ctx)  # type: ignore[arg-type]
        hand[row.discard] += 1
        out.append(ReadyDiscard(row.discard, row.effective, value))
    out.sort(key=lambda r: (-r.value, r.tile))
    return out


def turn_choice(
    obs: Observation, legal: Sequence[Action], valuer: Valuer, knobs: Knobs
) -> Action | None:
    """The fast policy's move in the player's turn (``None``: let ``efficiency`` decide)."""
    for action in legal:
        if action.kind in _WIN:
            return action
    if len(legal) == 1:
        return legal[0]
    discards: dict[int, Action] = {}
    tings: dict[int, Action] = {}
    for action in legal:
        if action.kind is AK.DISCARD:
            discards[int(action.tile)] = action  # type: ignore[arg-type]
        elif action.kind is AK.TING:
            tings[int(action.tile)] = action  # type: ignore[arg-type]
    hand, visible = seen_counts(obs)
    rows = discard_table(hand, shapes=GUOBIAO_2P, visible=visible)
    best = next((r for r in rows if r.discard in discards), None)
    if best is None:
        return None
    if best.shanten == 1 and knobs.lookahead:
        return _one_away(obs, legal, valuer, hand, visible, rows, discards)
    if best.shanten != 0:
        return None
    kong = kong_keeping_shanten(legal, hand, wilds=0, shapes=GUOBIAO_2P, target=0)
    if kong is not None:
        return kong
    melds = obs.melds[obs.player]
    declare = bool(tings) and knobs.always_ting
    ready = ready_discards(obs, valuer, hand, visible, melds, list(discards), ting=declare)
    if not ready:
        return None
    choice = ready[0]
    if choice.tile in tings and (
        knobs.always_ting or sum(max(0, 4 - visible[t]) for t in choice.waits) >= 3
    ):
        return tings[choice.tile]
    return discards[choice.tile]


def _one_away(
    obs: Observation,
    legal: Sequence[Action],
    valuer: Valuer,
    hand: list[int],
    visible: list[int],
    rows: Sequence[DiscardOption],
    discards: dict[int, Action],
) -> Action | None:
    """At shanten 1: the discard whose improving draws lead to the most valuable ready hands,
    Σ unseen(t) × (best ready value after drawing t)."""
    kong = kong_keeping_shanten(legal, hand, wilds=0, shapes=GUOBIAO_2P, target=1)
    if kong is not None:
        return kong
    melds = obs.melds[obs.player]
    best: tuple[float, int] | None = None
    for row in rows:
        if row.shanten != 1 or row.discard is None or row.discard not in discards:
            continue
        d = row.discard
        hand[d] -= 1
        total = 0.0
        for t in row.effective:
            left = unseen(visible, t)
            if not left:
                continue
            hand[t] += 1
            visible[t] += 1
            tiles = [k for k in range(len(hand)) if hand[k]]
            ready = ready_discards(obs, valuer, hand, visible, melds, tiles, ting=False)
            hand[t] -= 1
            visible[t] -= 1
            if ready:
                total += left * ready[0].value
        hand[d] += 1
        key = (total, -d)
        if best is None or key > best:
            best = key
    if best is None:
        return None
    return discards[-best[1]]


def _claim_melds(
    obs: Observation, action: Action, pending: int
) -> tuple[list[int], Meld] | None:
    """The tiles a claim takes from the hand, and the meld it makes."""
    if action.kind is AK.PENG:
        used = [pending, pending]
        meld = Meld(MeldKind.PENG, (_TILES[pending],) * 3, _TILES[pending])
    elif action.kind is AK.MING_GANG:
        used = [pending] * 3
        meld = Meld(MeldKind.MING_GANG, (_TILES[pending],) * 4, _TILES[pending])
    elif action.kind is AK.CHI:
        start = int(action.tile)  # type: ignore[arg-type]
        used = [t for t in (start, start + 1, start + 2) if t != pending]
        meld = Meld(MeldKind.CHI, tuple(_TILES[t] for t in range(start, start + 3)), _TILES[pending])
    else:
        return None
    return used, meld


def claim_choice(
    obs: Observation, legal: Sequence[Action], valuer: Valuer, knobs: Knobs
) -> Action:
    """Claim (chi, peng, 明杠) only for a ready hand worth the concealed hand it gives up."""
    for action in legal:
        if action.kind in _WIN:
            return action
    x = obs.pending
    choice = passing(legal)
    if x is None or obs.phase != "claim":
        return choice
    pending = int(x)
    hand, visible = seen_counts(obs)
    mode = knobs.claim_mode
    if mode == "never":
        return choice
    if mode != "ready":
        allowed = [a for a in legal if not (mode == "no_chi" and a.kind is AK.CHI)]
        if mode == "pairs" and not obs.melds[obs.player] and sum(c >= 2 for c in hand) >= 4:
            return choice
        return best_claim(allowed, pending, hand, visible, wilds=0, shapes=GUOBIAO_2P)
    now, kinds = improving(hand, shapes=GUOBIAO_2P)
    melds = obs.melds[obs.player]
    ctx = _context(obs)
    best_value = knobs.claim_min_value
    for action in legal:
        made = _claim_melds(obs, action, pending)
        if made is None:
            continue
        used, meld = made
        for t in used:
            hand[t] -= 1
        after_melds = (*melds, meld)
        if action.kind is AK.MING_GANG:
            after = shanten(hand, shapes=GUOBIAO_2P)
            value = 0.0
            if after == 0:
                waits = improving(hand, shapes=GUOBIAO_2P)[1]
                value = valuer.ready_value(
                    hand, after_melds, waits, visible, ting=False, **ctx  # type: ignore[arg-type]
                )
            ok = after <= now
        else:
            tiles = [t for t in range(len(hand)) if hand[t]]
            ready = ready_discards(obs, valuer, hand, visible, after_melds, tiles, ting=False)
            value = ready[0].value if ready else 0.0
            ok = bool(ready) or not knobs.claim_only_ready
        for t in used:
            hand[t] += 1
        if ok and value > best_value:
            best_value, choice = value, action
    del kinds
    return choice
