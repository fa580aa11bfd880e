"""What the efficiency bot's three families share: counting the seen tiles, choosing a discard
among the legal ones (a wild goes last), a kong that costs no shanten, and the best claim.

The helpers work on count arrays by *functional* kind (a White is the gold kind in xiamen); the
caller says how a physical tile maps to its functional kind and back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from erren.analysis.shanten import shanten
from erren.analysis.shapes import ShapeSet
from erren.analysis.waits import DiscardOption, discard_table, improving
from erren.engine import Action, ActionKind, Observation
from erren.engine.actions import AnyActionKind
from erren.tiles import NUM_KINDS

__all__ = [
    "best_claim",
    "by_tile",
    "choose_discard",
    "kong_keeping_shanten",
    "passing",
    "visible_counts",
]

AK = ActionKind


def _same(tile: int) -> int:
    return tile


def visible_counts(
    observation: Observation, *, flowers: bool = False
) -> tuple[list[int], list[int]]:
    """``(hand, visible)``: the player's concealed counts, and the copies of each kind he can
    see (his hand, every exposed meld, his own concealed kongs, unclaimed discards and, with
    ``flowers``, both players' flowers)."""
    hand = [0] * NUM_KINDS
    for t in observation.hand:
        hand[t] += 1
    visible = list(hand)
    for seat in (0, 1):
        claimed = observation.claimed[seat]
        for i, t in enumerate(observation.discards[seat]):
            if i not in claimed:
                visible[t] += 1
        for meld in observation.melds[seat]:
            for t in meld.tiles:
                visible[t] += 1
        if flowers:
            for t in observation.flowers[seat]:
                visible[t] += 1
    return hand, visible


def by_tile(legal: Sequence[Action], kind: AnyActionKind) -> dict[int, Action]:
    """The actions of ``kind`` among ``legal``, by their tile (discards, 报听, gives, picks)."""
    return {a.tile_kind(): a for a in legal if a.kind is kind}


def passing(legal: Sequence[Action]) -> Action:
    """The pass among ``legal``, else the last action."""
    return next((a for a in legal if a.kind is AK.PASS), legal[-1])


def choose_discard(
    rows: Sequence[DiscardOption],
    discards: dict[int, Action],
    wild: int,
    physical: Callable[[int], int] = _same,
) -> tuple[list[tuple[DiscardOption, int]], int | None]:
    """``(keyed, tile)``: the rows of :func:`~erren.analysis.waits.discard_table` whose physical
    tile is a legal discard, best first, each with that tile (a row without a discard throws
    the ``wild`` tile); and the tile to throw — the best row's, but a wild goes only when no
    natural tile does as well.  ``tile`` is ``None`` when no row is legal."""
    keyed = [(row, wild if row.discard is None else physical(row.discard)) for row in rows]
    keyed = [(row, t) for row, t in keyed if t in discards]
    if not keyed:
        return keyed, None
    best, tile = keyed[0]
    if tile == wild:
        for row, t in keyed[1:]:
            if row.shanten == best.shanten:
                return keyed, t
    return keyed, tile


def kong_keeping_shanten(
    legal: Sequence[Action],
    counts: list[int],
    *,
    wilds: int,
    shapes: ShapeSet,
    target: int,
    functional: Callable[[int], int] = _same,
) -> Action | None:
    """The first concealed or added kong in ``legal`` after which the shanten is at most
    ``target``, or ``None``."""
    for action in legal:
        if action.kind is AK.AN_GANG or action.kind is AK.JIA_GANG:
            f = functional(action.tile_kind())
            used = 4 if action.kind is AK.AN_GANG else 1
            counts[f] -= used
            after = shanten(counts, wilds=wilds, shapes=shapes)
            counts[f] += used
            if after <= target:
                return action
    return None


def best_claim(
    legal: Sequence[Action],
    pending: int,
    counts: list[int],
    visible: Sequence[int],
    *,
    wilds: int,
    shapes: ShapeSet,
) -> Action:
    """The claim of ``pending`` (a functional kind) that brings the hand closest to ready, or as
    close with more unseen effective tiles; the pass when none improves it."""
    now, kinds = improving(counts, wilds=wilds, shapes=shapes)
    now_left = sum(max(0, 4 - visible[t]) for t in kinds)
    best: tuple[int, int, int] | None = None
    choice = passing(legal)
    for order, action in enumerate(legal):
        if action.kind is AK.MING_GANG:
            counts[pending] -= 3
            after, left = shanten(counts, wilds=wilds, shapes=shapes), now_left
            counts[pending] += 3
        elif action.kind is AK.PENG or action.kind is AK.CHI:
            if action.kind is AK.PENG:
                used = [pending, pending]
            else:
                start = action.tile_kind()
                used = [t for t in (start, start + 1, start + 2) if t != pending]
            for t in used:
                counts[t] -= 1
            row = discard_table(counts, wilds=wilds, shapes=shapes, visible=visible)[0]
            for t in used:
                counts[t] += 1
            after, left = row.shanten, row.remaining
        else:
            continue
        if after < now or (after == now and left > now_left):
            key = (after, -left, order)
            if best is None or key < best:
                best, choice = key, action
    return choice
