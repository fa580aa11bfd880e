"""Support code of the engine tests (not a test module): random play, crafted walls, invariants."""

from __future__ import annotations

import random
from collections import Counter

from erren.engine import Action, ActionKind, Family, State
from erren.engine.phases import FamilyPhase, Phase
from erren.families.arcade.game import ArcadeData
from erren.families.xiamen.game import XiamenData
from erren.notation import parse_tiles
from erren.testing.deals import DEAL_ORDER, make_wall, start
from erren.tiles import NUM_KINDS

__all__ = ["DEAL_ORDER", "act", "make_wall", "start", "tile_census"]


def phase_of(state: State) -> Phase | FamilyPhase:
    """The hand's phase now: read through a call, so that a check after a move is not judged
    by what an earlier check narrowed ``state.phase`` to."""
    return state.phase


def act(state: State, *texts: str) -> None:
    for text in texts:
        state.apply_recorded(Action.parse(text))


def tile_census(state: State) -> Counter[int]:
    """Every physical tile where it is now: hands, melds, pools, flowers, the live wall, and a
    tile in flight (an unclaimed pending discard is in the pool already; a robbed 加杠 tile is
    counted where it is).  (Gathered in one list and counted once: it runs after every step
    of the random games.)"""
    tiles: list[int] = []
    for p in (0, 1):
        for k, n in enumerate(state.hands[p]):
            if n:
                tiles += [k] * n
        for meld in state.melds[p]:
            tiles += map(int, meld.tiles)
        claimed = state.claimed[p]
        if claimed:
            taken = set(claimed)
            tiles += (t for i, t in enumerate(state.discards[p]) if i not in taken)
        else:
            tiles += state.discards[p]
        tiles += state.flowers[p]
    if state.wall:
        tiles += state.wall[state.head : state.tail + 1]
    data = state.data
    if isinstance(data, ArcadeData) and data.wild >= 0:
        tiles += state.wall[data.reserve :]  # arcade: the face-down reserve (R1.3)
        tiles.append(data.wild)  # and the indicator, stock[71]
    if isinstance(data, XiamenData) and data.indicator >= 0 and not data.indicator_taken:
        tiles.append(data.indicator)  # xiamen's face-up gold indicator, out of play
    if state.phase is Phase.ROB:
        tiles.append(state.pending)  # the 加杠 tile, between hand and meld
    return Counter(tiles)


def resample_hidden(state: State, viewer: int, rng: random.Random) -> State:
    """A state ``viewer`` cannot tell apart: the opponent's concealed tiles and the unseen
    playing tiles of the wall shuffled among themselves (flowers stay where they are)."""
    other = 1 - viewer
    twin = state.clone()
    positions = [i for i in range(state.head, state.tail + 1) if state.wall[i] < NUM_KINDS]
    data = state.data
    if isinstance(data, ArcadeData):  # arcade: the face-down reserve is unseen too (R1.6)
        positions += range(data.reserve, len(state.wall))
    pool = [state.wall[i] for i in positions]
    for k in range(NUM_KINDS):
        pool.extend([k] * state.hands[other][k])
    rng.shuffle(pool)
    size = sum(state.hands[other])
    hand = [0] * NUM_KINDS
    for t in pool[:size]:
        hand[t] += 1
    twin.hands[other] = hand
    for i, t in zip(positions, pool[size:], strict=True):
        twin.wall[i] = t
    twin.last_added[other] = -1
    return twin


def random_hand(ruleset: Family, seed: int, *, chaos: float = 0.0) -> State:
    """Play one hand with uniformly random legal actions; with ``chaos`` > 0 some decisions
    are timeouts and some trustee switches, to exercise the system actions."""
    rng = random.Random(seed)
    state = State.new(ruleset, seed=seed)
    while not state.is_terminal:
        p = state.current_player()
        roll = rng.random() if chaos else 1.0
        if roll < chaos / 2:
            state.apply_system(Action.make(ActionKind.TIMEOUT, p))
        elif roll < chaos:
            q = rng.randrange(2)
            state.apply_system(Action.trustee(q, not state.trustee[q]))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def make_xiamen_wall(
    dealer: str,
    other: str,
    gold: str,
    draws: str = "",
    back: str = "",
    *,
    dice: tuple[int, int] = (1, 1),
    seed: int = 0,
) -> tuple[int, ...]:
    """A 72-tile xiamen wall (R-1.3, R-1.4): ``dealer`` (14) and ``other`` (13) dealt, then the
    front draws ``draws`` in order, the back draws ``back`` in order (补花 and kong
    replacements), and the indicator ``gold`` at live-wall index ``7 + 2s`` of the reveal
    (R-1.6, W[34 + 2s]); the rest filled at random, with no flower or tile of the gold kind
    before the indicator."""
    from erren.engine import find_family  # noqa: PLC0415

    ruleset = find_family("xiamen")
    hands = [list(parse_tiles(dealer)), list(parse_tiles(other))]
    assert len(hands[0]) == 14 and len(hands[1]) == 13, (len(hands[0]), len(hands[1]))
    front: list[int] = []
    for who, n in DEAL_ORDER:
        front.extend(int(t) for t in hands[who][:n])
        del hands[who][:n]
    indicator = int(parse_tiles(gold)[0])
    later = [int(t) for t in parse_tiles(draws)]
    tail = [int(t) for t in parse_tiles(back)]
    rest = Counter(ruleset.tiles)
    rest.subtract(front + later + tail + [indicator])
    assert all(v >= 0 for v in rest.values()), "more copies than the ruleset has"
    q = 7 + 2 * sum(dice)
    rng = random.Random(seed)
    while len(later) < q:  # filler before the indicator: neither flowers nor golds
        pool = sorted(k for k, v in rest.items() if v > 0 and k < NUM_KINDS and k != indicator)
        t = rng.choice(pool)
        rest[t] -= 1
        later.append(t)
    later.insert(q, indicator)
    middle = list(rest.elements())
    rng.shuffle(middle)
    return tuple(front + later + middle + tail[::-1])


def start_xiamen(
    dealer: str,
    other: str,
    gold: str,
    draws: str = "",
    back: str = "",
    *,
    dice: tuple[int, int] = (1, 1),
    seat: int = 0,
    streak: int = 0,
    **options: object,
) -> State:
    """A xiamen hand from a crafted wall, dealer at ``seat``, up to the opening window."""
    from erren.engine import find_family  # noqa: PLC0415

    ruleset = find_family("xiamen", options)
    state = State(ruleset, dealer=seat, streak=streak)
    state.apply(Action.shuffle(make_xiamen_wall(dealer, other, gold, draws, back, dice=dice)))
    state.apply(Action.dice(*dice))
    return state


def make_arcade_stock(
    dealer: str,
    other: str,
    draws: str = "",
    back: str = "",
    *,
    wild: str = "1z",
    reserve: str = "",
    seed: int = 0,
) -> tuple[int, ...]:
    """A 136-tile arcade stock (R1.3): ``dealer`` (14) and ``other`` (13) dealt from the head,
    then the head draws ``draws``, the tail draws ``back`` (flower and kong replacements, in
    order), the indicator ``wild`` at position 71 and the reserve starting with ``reserve``.
    The other live tiles are random, with no flower and no wild among them."""
    hands = [list(parse_tiles(dealer)), list(parse_tiles(other))]
    assert len(hands[0]) == 14 and len(hands[1]) == 13, (len(hands[0]), len(hands[1]))
    front: list[int] = []
    for who, n in DEAL_ORDER:
        front.extend(int(t) for t in hands[who][:n])
        del hands[who][:n]
    front.extend(int(t) for t in parse_tiles(draws))
    tail = [int(t) for t in parse_tiles(back)]
    w = int(parse_tiles(wild)[0])
    flower = 33 if w == 31 else 31
    res = [int(t) for t in parse_tiles(reserve)]
    rest: Counter[int] = Counter(k for k in range(NUM_KINDS) for _ in range(4))
    rest.subtract([*front, *tail, *res, w])
    assert all(v >= 0 for v in rest.values()), "more copies than the stock has"
    rng = random.Random(seed)
    filler = [k for k in rest.elements() if k not in (w, flower)]
    rng.shuffle(filler)
    n_fill = 71 - len(front) - len(tail)
    assert n_fill >= 0
    live = front + filler[:n_fill] + tail[::-1]
    later = filler[n_fill:] + [k for k in rest.elements() if k in (w, flower)]
    rng.shuffle(later)
    return (*live, w, *res, *later)


def start_arcade(
    dealer: str,
    other: str,
    draws: str = "",
    back: str = "",
    *,
    wild: str = "1z",
    reserve: str = "",
    seat: int = 0,
    seed: int = 0,
    **options: object,
) -> State:
    """An arcade hand from a crafted stock, dealer at ``seat``; the random events are off
    unless ``options`` turn them on."""
    from erren.engine import find_family  # noqa: PLC0415

    opts: dict[str, object] = {"opening_exchange": False, "pung_offer_prob": 0, "pick_any_prob": 0}
    opts.update(options)
    state = State(find_family("arcade", opts), dealer=seat)
    state.apply(
        Action.shuffle(make_arcade_stock(dealer, other, draws, back, wild=wild, reserve=reserve))
    )
    state.apply(Action.dice(1, 2, 3, 4))
    state.apply(Action.seed(seed))
    return state
