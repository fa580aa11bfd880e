"""Wins (guobiao-2p §3): the :class:`WinClaim` a seat would make now (what the family scores),
the hand it is made of, the 起和 test of a 报听 (§3.4), and the end of a hand by a win.

Functions of the state, behind :meth:`~erren.engine.state.State.win_claim`,
:meth:`~erren.engine.state.State.win` and the shared 报听 moves of :mod:`~erren.engine.moves`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.events import EventKind
from erren.engine.phases import Origin
from erren.engine.result import AnyWinHow, WinClaim, WinHow
from erren.engine.winning import waits_mask
from erren.hand import Hand
from erren.tiles import NUM_KINDS, Tile

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["finish_win", "hand_with", "ting_fan_ok", "win_claim"]

_TILES = tuple(Tile(i) for i in range(42))
_O_DEAL, _O_REPL = Origin.DEAL, Origin.REPLACEMENT
_ZIMO = WinHow.ZIMO


def win_claim(state: State, p: int, tile: int, how: AnyWinHow) -> WinClaim:
    """The win ``p`` would make now: on ``tile`` (a discard or robbed tile), or self-drawn
    (``tile`` -1: the tile last added, or none for a 天胡)."""
    dealer = p == state.dealer
    flowers = tuple(_TILES[f] for f in sorted(state.flowers[p]))
    h = state.hands[p]
    if how is _ZIMO:
        tianhu = state.origin is _O_DEAL
        win = -1 if tianhu else state.last_added[p]
        counts = list(h)
        if win >= 0:
            counts[win] -= 1
        concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(counts[k]))
        hand = Hand(concealed, tuple(state.melds[p]), None if win < 0 else _TILES[win], flowers)
        last_copy = win >= 0 and state.visible[win] == 3 and h[win] == 1
        return WinClaim(
            p,
            how,
            hand,
            dealer,
            kong_replacement=state.kong_draw and state.origin is _O_REPL,
            last_tile=state.head > state.tail,
            last_copy=last_copy,
            ting=state.ting[p],
            tianting=state.tianting[p],
            tianhu=tianhu,
            round_wind=state.round_wind,
        )
    concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))
    hand = Hand(concealed, tuple(state.melds[p]), _TILES[tile], flowers)
    robbing = how is WinHow.ROBBING
    d = 1 - p
    dihu = not robbing and d == state.dealer and state.n_discards[d] == 1 and state.n_kongs[d] == 0
    return WinClaim(
        p,
        how,
        hand,
        dealer,
        last_tile=not robbing and state.head > state.tail,
        last_copy=not robbing and state.visible[tile] - 1 == 3 and h[tile] == 0,
        ting=state.ting[p],
        tianting=state.tianting[p],
        dihu=dihu,
        round_wind=state.round_wind,
    )


def hand_with(state: State, p: int, tile: int) -> Hand:
    """``p``'s concealed 13-form plus the winning ``tile``."""
    h = state.hands[p]
    concealed = tuple(_TILES[k] for k in range(NUM_KINDS) for _ in range(h[k]))
    flowers = tuple(_TILES[f] for f in sorted(state.flowers[p]))
    return Hand(concealed, tuple(state.melds[p]), _TILES[tile], flowers)


def ting_fan_ok(state: State, p: int, x: int) -> bool:
    """§3.4: some wait reaches ``min_fan`` as a 报听 win (discard or self-drawn) once ``p``
    discards ``x``."""
    if state.ruleset.min_fan <= 0:
        return True
    h = state.hands[p]
    h[x] -= 1
    try:
        mask = waits_mask(h, len(state.melds[p]), state.meld_counts[p])
        for t in range(NUM_KINDS):
            if not mask >> t & 1:
                continue
            hand = hand_with(state, p, t)
            for how in (WinHow.DISCARD, _ZIMO):
                claim = WinClaim(p, how, hand, p == state.dealer, ting=True)
                value = state.ruleset.win_value(state, claim)
                if value is None or value >= state.ruleset.min_fan:
                    return True
        return False
    finally:
        h[x] += 1


def finish_win(state: State, p: int, tile: int, how: AnyWinHow, auto: bool) -> None:
    """End the hand with ``p``'s win by ``how`` (``discard``, ``robbing``: on ``tile``;
    ``zimo``: ``tile`` -1): the tile joins his hand (a winning discard leaves the pool), the
    family scores the claim, the ``hu``/``zimo`` event and the end follow."""
    claim = win_claim(state, p, tile, how)
    if how is not _ZIMO:
        state.hands[p][tile] += 1
        if how is WinHow.DISCARD:
            state.claimed[1 - p].append(len(state.discards[1 - p]) - 1)
    result = state.ruleset.score_win(state, claim)
    state.emit(
        EventKind.ZIMO if how is _ZIMO else EventKind.HU,
        p,
        tile,
        auto=auto,
        data={"how": how.value},  # the event's data is plain JSON values
    )
    state.end(result)
