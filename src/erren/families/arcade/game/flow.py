"""arcade's flow helpers: the reserve, the exchange, pick-any, the pung offer, the 海底 draws.

Functions of the family (``rules``) and the hand; they change the hand through the state's
public transition API only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.events import EventKind
from erren.engine.state import HandResult, Origin, ResultKind
from erren.families.arcade.game.options import ArcadePhase, arcade_data
from erren.families.arcade.game.vocabulary import ArcadeEvent
from erren.melds import MeldKind

if TYPE_CHECKING:
    from erren.engine.state import State
    from erren.families.arcade.game.family import ArcadeFamily

__all__ = [
    "exchange",
    "haidi_discard",
    "haidi_next",
    "pick",
    "pool_positions",
    "receive",
    "seen_counts",
    "take_pung",
]


def seen_counts(rules: ArcadeFamily, state: State, p: int) -> list[int]:
    """The copies of each kind ``p`` can see (hand, pools, melds, flowers, indicator)."""
    seen = list(state.hands[p])
    for seat in (0, 1):
        claimed = state.claimed[seat]
        for i, t in enumerate(state.discards[seat]):
            if i not in claimed:
                seen[t] += 1
        for m in state.melds[seat]:
            if seat == p or m.kind is not MeldKind.AN_GANG:
                for t in m.tiles:
                    seen[t] += 1
        for t in state.flowers[seat]:
            seen[t] += 1
    seen[arcade_data(state).wild] += 1
    return seen


def pool_positions(rules: ArcadeFamily, state: State, kind: int) -> list[int]:
    """Stock positions of ``kind`` in the unseen pool: reserve copies first (front to back),
    then live-wall copies nearest the tail (R2.22 step 3, R2.23 step 3)."""
    wall = state.wall
    r = arcade_data(state).reserve
    out = [i for i in range(r, len(wall)) if wall[i] == kind]
    out += [i for i in range(state.tail, state.head - 1, -1) if wall[i] == kind]
    return out


def receive(rules: ArcadeFamily, state: State, p: int, *, why: str) -> int:
    """One tile from the front of the reserve into ``p``'s hand, flowers set aside and
    replaced from the reserve (R1.13)."""
    d = arcade_data(state)
    wall = state.wall
    replaced = False
    while True:
        t = wall[d.reserve]
        d.reserve += 1
        if t == d.flower:
            state.flowers[p].append(t)
            state.emit(EventKind.FLOWER, p, t, data={"during": why})
            replaced = True
            continue
        state.hands[p][t] += 1
        state.last_added[p] = t
        d.haidi_replaced = replaced
        return t


def exchange(rules: ArcadeFamily, state: State, p: int, give: list[int], auto: bool) -> None:
    """R2.21: the given tiles out, as many from the reserve's front in, then the given
    tiles into the reserve at random positions."""
    d = arcade_data(state)
    h = state.hands[p]
    for t in give:
        h[t] -= 1
    got = [receive(rules, state, p, why="exchange") for _ in give]
    rest = state.wall[d.reserve :]
    for t in give:
        rest.insert(d.rng.randrange(len(rest) + 1), t)
    d.reserve -= len(give)
    state.wall[d.reserve :] = rest
    d.exchanged[p] = True
    state.emit(
        ArcadeEvent.EXCHANGE,
        p,
        tiles=tuple(sorted(got)),
        private=True,
        auto=auto,
        data={"count": len(give)},
    )
    rules.next_exchange(state, 1 - p if p == state.dealer else p)


def pick(rules: ArcadeFamily, state: State, q: int, kind: int, auto: bool) -> None:
    """R2.23: swap a copy of ``kind`` (the reserve's first, else the live wall's nearest
    the tail) into the head, then the normal draw from the head (``F``: set aside and
    replaced from the tail).  With no copy left in the live wall or the reserve the draw
    is the ordinary one.  The ``pick`` event's ``tile`` is the named kind and its
    ``tiles`` what came of it: ``(kind,)`` a copy, ``()`` none left — both private, so the
    opponent sees the same event either way (whether a copy was left is about the hidden
    tiles)."""
    if kind >= 0:
        where = pool_positions(rules, state, kind)
        if where:
            src = where[0]
            wall = state.wall
            wall[src], wall[state.head] = wall[state.head], wall[src]
        got = (kind,) if where else ()
        state.emit(ArcadeEvent.PICK, q, kind, tiles=got, private=True, auto=auto)
    else:
        state.emit(EventKind.PASS, q, auto=auto)
    state.draw_turn(q)


def take_pung(rules: ArcadeFamily, state: State, p: int, give: list[int], auto: bool) -> None:
    """R2.22: the three offered tiles for the three given, position for position.  The
    offered tiles join the hand without being drawn: ``last_added`` stays the tile drawn
    (for 天听 and the timeout, R2.15, R2.16), or ``-1`` when every tile of its kind went in
    the swap; the offered kind is a self-draw's winning tile (R2.4, ``pung_kind``)."""
    d = arcade_data(state)
    k = d.offer[p]
    d.offer[p] = -1
    where = pool_positions(rules, state, k)[:3]
    h = state.hands[p]
    drawn = state.last_added[p]
    d.pung_kind[p] = k
    d.dealt_ready[p] = False
    if p != state.dealer and state.n_discards[p] == 0 and not state.melds[p] and drawn >= 0:
        dealt = list(h)
        dealt[drawn] -= 1
        d.dealt_ready[p] = rules.ready(state, p, dealt)
    for pos, t in zip(where, give, strict=True):
        state.wall[pos] = t
        h[t] -= 1
    h[k] += 3
    if drawn >= 0 and not h[drawn]:
        state.last_added[p] = -1  # the tile drawn went in the swap: none is left to show
    state.emit(ArcadeEvent.TAKE_PUNG, p, k, tiles=tuple(sorted(give)), private=True, auto=auto)


def haidi_next(rules: ArcadeFamily, state: State) -> None:
    """R2.19: the next post-draw draw; a completing tile asks, any other is discarded (with
    ``claim_privacy`` every draw asks, ``pass`` alone when it misses)."""
    d = arcade_data(state)
    w = d.haidi_player
    while d.haidi_left > 0 and d.reserve < len(state.wall):
        d.haidi_left -= 1
        t = receive(rules, state, w, why="haidi")
        state.emit(EventKind.DRAW, w, t, private=True, data={"from": "haidi"})
        if rules.claim_privacy or rules.hand_complete(state, w, state.hands[w]):
            state.enter(ArcadePhase.HAIDI, w, Origin.DRAW)
            return
        haidi_discard(rules, state, w, auto=True)
    state.emit(EventKind.HUANGZHUANG, -1)
    state.end(HandResult(ResultKind.DRAW))


def haidi_discard(rules: ArcadeFamily, state: State, w: int, *, auto: bool) -> None:
    t = state.last_added[w]
    state.hands[w][t] -= 1
    state.discards[w].append(t)
    state.visible[t] += 1
    state.n_discards[w] += 1
    state.emit(EventKind.DISCARD, w, t, auto=auto, data={"why": "haidi"})
