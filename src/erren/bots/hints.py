"""What a player's own view says about his hand, for the hints a player expects at the table.

Everything here is a function of one :class:`~erren.engine.Observation`: his concealed tiles, his
melds, every tile lying face-up (both discard pools, both players' exposed melds, flowers) and the
family's public facts (the gold, the wild).  The opponent's concealed tiles and the wall never
enter, so a hint says nothing a careful player could not count himself.

* :func:`ready_hints`: for each legal discard (or 报听 discard) that leaves the hand ready, its
  waits and how many copies of each the player has not seen — the "ready hints" of 雀魂;
* :func:`hand_waits`: the waits of the hand he holds between turns (after 报听, say);
* :func:`reason`: why a move is good in one short phrase, as a code and numbers for the client to
  word in its language (``keeps-useful`` 8 tiles, ``ready-waits`` 3 kinds 7 left, ``win``...).

Counting is the efficiency bot's (:mod:`erren.bots.common`, :mod:`erren.bots.efficiency`, and
the family's strategy, :meth:`erren.bots.strategy.Strategy.hand_view`): a White plays as the
gold kind in xiamen, golds and 财神 are wilds, the wild kind and arcade's flower kind are never
waits.  A wait is a kind that completes a winning
*shape* of the family; whether the win also has the points the rules ask for is not judged.  In a
family with wilds, a ready hand also wins on a drawn wild: the wild tile is listed last with the
wilds still unseen (three copies in play less those seen).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from erren.analysis.shanten import shanten
from erren.analysis.shapes import ShapeSet
from erren.analysis.waits import discard_table, improving, waits
from erren.bots.efficiency import seen_counts
from erren.bots.strategy import strategy_of
from erren.engine import Action, ActionKind, Observation
from erren.errors import AnalysisError
from erren.tiles import NUM_KINDS, Tile

__all__ = ["HandView", "Reason", "Wait", "hand_view", "hand_waits", "ready_hints", "reason"]

AK = ActionKind
_CLAIMS = (AK.CHI, AK.PENG, AK.MING_GANG)

Wait = tuple[Tile, int]
"""A winning tile and the copies of it the player has not seen."""


def _same(kind: int) -> int:
    return kind


def _no_seen() -> tuple[list[int], int]:
    return [0] * NUM_KINDS, 0


@dataclass(frozen=True, slots=True)
class HandView:
    """The player's hand as the analysis counts it: ``counts`` of his concealed natural tiles by
    functional kind, ``wilds`` held, ``held`` the tiles of his melds by functional kind, the
    family's ``shapes``, the physical ``wild`` tile (``None`` without wilds); ``visible`` (copies
    of each functional kind he can see) and ``wilds_left`` (the wilds he has not seen) are worked
    out by ``seen`` on first use: the table asks for the waits of both seats' hands after every
    move, and most hands have none, so the count of the pools and melds is rarely needed.
    ``physical``/``functional`` map a kind to a tile and back (a White is the gold kind)."""

    counts: list[int]
    wilds: int
    held: list[int]
    shapes: ShapeSet
    wild: int | None = None
    physical: Callable[[int], int] = field(default=_same)
    functional: Callable[[int], int] = field(default=_same)
    seen: Callable[[], tuple[list[int], int]] = field(default=_no_seen, repr=False)
    _seen: list[tuple[list[int], int]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def _counted(self) -> tuple[list[int], int]:
        if not self._seen:
            self._seen.append(self.seen())
        return self._seen[0]

    @property
    def visible(self) -> list[int]:
        return self._counted()[0]

    @property
    def wilds_left(self) -> int:
        return self._counted()[1]

    def unseen(self, kind: int) -> int:
        return max(0, 4 - self.visible[kind])

    def waits(self, counts: Sequence[int], wilds: int) -> list[Wait]:
        """The waits of the 3n+1 hand ``counts`` + ``wilds`` (empty: not ready), physical tiles
        with their unseen copies, the wild tile last."""
        kinds = waits(counts, wilds=wilds, shapes=self.shapes, held=self.held, max_copies=4)
        if not kinds:
            return []
        out = [(Tile(self.physical(k)), self.unseen(k)) for k in kinds if k != self.wild]
        if out and self.wild is not None and self.wilds_left > 0:
            out.append((Tile(self.wild), self.wilds_left))
        return out

    def without(self, tile: int) -> tuple[list[int], int]:
        """``(counts, wilds)`` after throwing the physical ``tile``."""
        if tile == self.wild:
            return list(self.counts), self.wilds - 1
        counts = list(self.counts)
        counts[self.functional(tile)] -= 1
        return counts, self.wilds


def _hand_counts(obs: Observation) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in obs.hand:
        counts[t] += 1
    return counts


def hand_view(obs: Observation) -> HandView:
    """The family's count of ``obs``'s hand (see :class:`HandView`)."""
    held = [0] * NUM_KINDS
    for meld in obs.melds[obs.player]:
        for t in meld.tiles:
            held[t] += 1
    counts = _hand_counts(obs)
    strategy = strategy_of(obs)
    own = strategy.hand_view(obs, counts, held)
    if own is not None:
        return own
    return HandView(counts, 0, held, strategy.shapes, seen=lambda: (seen_counts(obs)[1], 0))


def _discard_tiles(obs: Observation) -> list[int]:
    """The distinct tiles the player may throw now (discard, 报听, a drawn gold), ascending."""
    return sorted({int(a.tile) for a in obs.legal_actions if a.kind.throws and a.tile is not None})


def ready_hints(obs: Observation) -> dict[Tile, list[Wait]]:
    """For each tile the player may throw now (discard or 报听) that leaves his hand ready: its
    waits with the copies of each he has not seen.  Empty when none does, when it is not his
    turn, or for a hand the kernel cannot count (a hint never stops the game)."""
    try:
        return _ready_hints(obs)
    except AnalysisError:
        return {}


def _ready_hints(obs: Observation) -> dict[Tile, list[Wait]]:
    tiles = _discard_tiles(obs)
    if not tiles:
        return {}
    view = hand_view(obs)
    out: dict[Tile, list[Wait]] = {}
    for tile in tiles:
        counts, wilds = view.without(tile)
        found = view.waits(counts, wilds)
        if found:
            out[Tile(tile)] = found
    return out


def hand_waits(obs: Observation) -> list[Wait] | None:
    """The waits of the hand the player holds when it is ready and he has no tile to throw
    (between turns, after 报听); ``None`` otherwise."""
    if _discard_tiles(obs) or obs.result is not None:
        return None
    view = hand_view(obs)
    if (sum(view.counts) + view.wilds) % 3 != 1:
        return None
    try:
        return view.waits(view.counts, view.wilds) or None
    except AnalysisError:
        return None


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is good, for a person: ``code`` and its numbers.

    ==========  ===================================================================
    code        params
    ==========  ===================================================================
    win         —
    ready       ``kinds``, ``left``: the hand is ready on ``kinds`` kinds, ``left`` tiles unseen
    ting        the same, declaring 报听
    keeps       ``shanten`` (tiles from ready), ``kinds`` and ``left``: the draws that help
    claim       ``shanten`` after the claim and the best discard (0: ready)
    pass        ``shanten`` now: no claim brings the hand closer (or one would cost value)
    kong        ``shanten`` after the kong, which costs none
    other       — (an exchange, a pick, a give: the expert's choice)
    ==========  ===================================================================
    """

    code: str
    params: dict[str, int] = field(default_factory=dict)


def _after(view: HandView, counts: list[int], wilds: int) -> Reason:
    found = view.waits(counts, wilds)
    if found:
        return Reason("ready", {"kinds": len(found), "left": sum(n for _, n in found)})
    now, kinds = improving(counts, wilds=wilds, shapes=view.shapes)
    left = sum(view.unseen(k) for k in kinds) + (view.wilds_left if view.wild is not None else 0)
    return Reason("keeps", {"shanten": now, "kinds": len(kinds), "left": left})


def reason(obs: Observation, action: Action) -> Reason:
    """Why ``action`` (the expert's, among ``obs.legal_actions``) is good, from ``obs`` alone
    (``other`` for a hand the kernel cannot count)."""
    try:
        return _reason(obs, action)
    except AnalysisError:
        return Reason("other")


def _reason(obs: Observation, action: Action) -> Reason:
    kind = action.kind
    if kind.is_win:
        return Reason("win")
    if kind.throws and action.tile is not None:
        view = hand_view(obs)
        counts, wilds = view.without(int(action.tile))
        out = _after(view, counts, wilds)
        if kind is AK.TING and out.code == "ready":
            return Reason("ting", out.params)
        return out
    if kind in _CLAIMS and obs.pending is not None:
        view = hand_view(obs)
        pending = view.functional(int(obs.pending))
        counts = list(view.counts)
        if kind is AK.CHI:
            start = view.functional(action.tile_kind())
            used = [t for t in (start, start + 1, start + 2) if t != pending]
        else:
            used = [pending] * (3 if kind is AK.MING_GANG else 2)
        for t in used:
            counts[t] -= 1
        if min(counts) < 0:
            return Reason("other")
        if kind is AK.MING_GANG:
            value = shanten(counts, wilds=view.wilds, shapes=view.shapes)
        else:
            value = discard_table(
                counts, wilds=view.wilds, shapes=view.shapes, visible=view.visible
            )[0].shanten
        return Reason("claim", {"shanten": value})
    if kind is AK.PASS:
        view = hand_view(obs)
        return Reason("pass", {"shanten": _now(view)})
    if kind is AK.AN_GANG or kind is AK.JIA_GANG:
        view = hand_view(obs)
        counts = list(view.counts)
        counts[view.functional(action.tile_kind())] -= 4 if kind is AK.AN_GANG else 1
        if min(counts) < 0:
            return Reason("other")
        return Reason("kong", {"shanten": _best(view, counts)})
    return Reason("other")


def _best(view: HandView, counts: list[int]) -> int:
    """The shanten after the best discard of a 3n+2 hand (that of a 3n+1 hand as it is)."""
    if (sum(counts) + view.wilds) % 3 == 1:
        return shanten(counts, wilds=view.wilds, shapes=view.shapes)
    return discard_table(counts, wilds=view.wilds, shapes=view.shapes)[0].shanten


def _now(view: HandView) -> int:
    return _best(view, view.counts)
