"""arcade turn-flow rules played through the engine (issue 11): the versus escape (R2.25), 天听
after an accepted pung offer (R2.15, R2.22), the timeout and 托管 after one (R2.16, R2.17) and
the amended pick-any (R2.23)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from erren.engine import Action, ActionKind, Observation, Origin, Phase, State, find_family
from erren.engine.result import ResultKind, WinHow
from erren.families.arcade.game import ArcadePhase, arcade_data, stage_options
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS, Tile

from ._support import DEAL_ORDER, act, make_arcade_stock, start_arcade, tile_census

AK = ActionKind
DEALER = "119m119p19s223344z"
"""A dealer's hand that claims nothing useful and never wins early; it discards 9m first."""
W = 27
"""The wild kind of the crafted stocks (indicator 1z); the flower kind is then 5z."""
F = 31


def _view(state: State, seat: int) -> ArcadeView:
    """The arcade part of ``seat``'s observation."""
    view = state.observe(seat).view
    assert isinstance(view, ArcadeView)
    return view


def _kind(text: str) -> int:
    return int(parse_tiles(text)[0])


def _name(kind: int) -> str:
    return str(Tile(kind))


def _census_ok(state: State) -> None:
    assert tile_census(state) == Counter({k: 4 for k in range(NUM_KINDS)})


# ---------------------------------------------------------------------------- escape (R2.25)
@pytest.mark.parametrize(
    ("options", "base", "penalty"),
    [
        ({}, 1, 13),  # the defaults: versus_base_points 1, versus_escape_penalty_points 13
        ({"base_points": 5}, 5, 13),
        ({"base_points": 3, "escape_penalty_points": 7}, 3, 7),
    ],
)
@pytest.mark.parametrize("escaper", [0, 1])
def test_a_versus_escape_pays_the_penalty_times_base_points(
    options: dict[str, int], base: int, penalty: int, escaper: int
) -> None:
    points = penalty * base  # R2.25: versus_escape_penalty_points × versus_base_points
    state = State.new(find_family("arcade", options), seed=11, dealer=0)
    act(state, f"{escaper}:escape")  # at the dealer's first turn: the escaper need not act
    result = state.result
    assert result is not None and result.kind is ResultKind.ABORT
    assert result.loser == escaper and result.winner is None
    assert result.points == points
    expected = [points, points]
    expected[escaper] = -points
    assert result.deltas == tuple(expected)
    assert state.is_terminal


def test_an_escape_mid_hand_costs_the_same() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p", draws="9p", base_points=4)
    act(state, "0:discard:9m", "1:discard:9p", "0:discard:9p")
    act(state, "1:escape")
    assert state.result is not None and state.result.deltas == (13 * 4, -13 * 4)


@pytest.mark.parametrize("stage", [1, 2, 3, 4])
def test_a_stage_mode_escape_has_no_versus_penalty(stage: int) -> None:
    """R3.11 leaves R2.25 out: leaving a run costs the stake in play, booked by the campaign;
    the engine's escape carries no points."""
    state = State.new(find_family("arcade", stage_options(stage)), seed=5, dealer=1)
    act(state, "0:escape")
    assert state.result is not None and state.result.kind is ResultKind.ABORT
    assert state.result.loser == 0 and state.result.deltas == (0, 0)


def test_escape_penalty_points_is_validated() -> None:
    with pytest.raises(ValueError, match="escape_penalty_points"):
        find_family("arcade", escape_penalty_points=-1)
    assert find_family("arcade", escape_penalty_points=0).escape_penalty() == 0


# ---------------------------------------------------------------------------- pung offer
def _offered(other: str, draws: str, ok: Callable[[int], bool]) -> tuple[State, int]:
    """The non-dealer's first turn with a pung offer (probability 1) of a kind ``ok`` accepts:
    the first event seed that gives one."""
    for seed in range(200):
        state = start_arcade(DEALER, other, draws=draws, pung_offer_prob=1.0, seed=seed)
        act(state, "0:discard:9m")
        assert state.phase is Phase.TURN and state.actor == 1
        offer = _view(state, 1).offer
        assert offer is not None
        if ok(int(offer)):
            return state, int(offer)
    raise AssertionError("no seed offers such a pung")


READY = "234m567m234p45s77p"
"""A dealt 13 that is ready (waits 3s-6s)."""
NOT_READY = "234m567m234p4s7p6s3z"
"""A dealt 13 that is not ready (4s 6s 7p 3z loose)."""


def test_baoting_on_the_offered_tile_is_not_tianting() -> None:
    """R2.15: the non-dealer's 天听 discard is the tile just drawn; an offered tile was not
    drawn (the dealt 13 were ready here, so only that condition decides)."""
    state, k = _offered(READY, "6z", lambda k: k != _kind("6z"))
    act(state, "1:takepung:6z77p")  # the drawn 6z and the 77p pair for k k k
    assert state.hands[1][k] == 3 and state.hands[1][_kind("6z")] == 0
    state.apply(Action.make(AK.TING, 1, k))  # 234m567m234p45s + kk: ready
    assert state.ting[1] and not state.tianting[1]
    assert arcade_data(state).baoting_kind[1] == "menqing"
    assert _view(state, 0).baoting == ("", "menqing")
    _census_ok(state)


def test_baoting_on_the_drawn_tile_after_a_pung_with_a_ready_deal_is_tianting() -> None:
    """R2.15 holds: the discard is the tile just drawn and the dealt 13 were ready."""
    state, k = _offered(READY, "6z", lambda k: k != _kind("6z"))
    act(state, "1:takepung:234m")
    assert state.hands[1][k] >= 3 and state.origin is Origin.DRAW
    state.apply(Action.make(AK.TING, 1, _kind("6z")))  # 567m234p45s77p + kkk: ready
    assert state.tianting[1] and arcade_data(state).baoting_kind[1] == "tianting"
    _census_ok(state)


def test_a_pung_that_makes_the_hand_ready_gives_no_tianting() -> None:
    """The dealt 13 were not ready: a 报听 on the drawn tile after the pung is 门清报听."""
    bad = {_kind(t) for t in ("6z", "6s", "5s", "7s", "4s", "3z", "7p")}
    state, k = _offered(NOT_READY, "6z", lambda k: k not in bad)
    act(state, "1:takepung:4s7p3z")
    assert state.hands[1][k] >= 3 and state.origin is Origin.DRAW
    state.apply(Action.make(AK.TING, 1, _kind("6z")))  # 234m567m234p6s + kkk: ready on 6s
    assert not state.tianting[1] and arcade_data(state).baoting_kind[1] == "menqing"


def test_without_an_offer_the_drawn_tile_declares_tianting() -> None:
    state = start_arcade(DEALER, READY, draws="6z")
    act(state, "0:discard:9m", "1:ting:6z")
    assert arcade_data(state).baoting_kind[1] == "tianting"


def test_the_drawn_tile_stays_the_drawn_tile_after_a_pung() -> None:
    """The offered tiles were not drawn: the observation still shows the tile drawn apart
    (``last_drawn``), or none once it went in the swap."""
    state, _k = _offered(READY, "9p", lambda k: k != _kind("9p"))
    act(state, "1:takepung:234m")
    assert state.observe(1).last_drawn == Tile(_kind("9p"))
    state, _k = _offered(READY, "6z", lambda k: k != _kind("6z"))
    act(state, "1:takepung:6z77p")
    assert state.observe(1).last_drawn is None


def test_a_self_draw_after_a_pung_wins_on_the_offered_kind() -> None:
    """R2.4: completed by the pung offer, the winning tile is a tile of the offered kind."""
    state, k = _offered(READY, "6z", lambda k: k not in (_kind("6z"), W))
    act(state, "1:takepung:6z45s")  # 234m567m234p77p + k k k: complete
    assert Action.make(AK.ZIMO, 1) in state.legal_actions()
    act(state, "1:zimo")
    result = state.result
    assert result is not None and result.winner == 1 and result.how is WinHow.ZIMO
    assert result.hand is not None and result.hand.winning == Tile(k)
    kept = [int(t) for t in parse_tiles("234m567m234p77p")]
    assert list(result.hand.concealed).count(Tile(k)) == kept.count(k) + 2
    assert len(result.hand.concealed) == 13


def _rightmost(state: State, p: int) -> int:
    """R2.16's fallback: the rightmost concealed tile in canonical order (wilds leftmost,
    then m, p, s, z by index)."""
    h = state.hands[p]
    seen = _view(state, p).wild
    assert seen is not None
    wild = int(seen)
    natural = [k for k in range(NUM_KINDS) if h[k] and k != wild]
    return max(natural) if natural else wild


def test_a_timeout_after_a_pung_discards_the_drawn_tile() -> None:
    state, k = _offered(READY, "9p", lambda k: k != _kind("9p"))
    act(state, "1:takepung:234m", "1:timeout")
    assert state.discards[1] == [_kind("9p")]  # the tile just drawn, not an offered one
    assert state.hands[1][k] == 3
    assert not state.ting[1]  # no 报听 is declared on a timeout


def test_a_timeout_after_giving_the_drawn_tile_away_discards_the_rightmost() -> None:
    """The drawn 6z went in the swap: there is no drawn tile, so the rightmost concealed tile
    goes (here a suited tile: the offered kind is a character, left of 5s)."""
    state, k = _offered(READY, "6z", lambda k: k < 9)
    act(state, "1:takepung:6z77p")
    expected = _rightmost(state, 1)
    assert expected == _kind("5s") != k
    held = state.hands[1][k]
    act(state, "1:timeout")
    assert state.discards[1] == [expected]
    assert state.hands[1][k] == held


def test_trustee_after_a_pung_discards_the_drawn_tile() -> None:
    """R2.17: 托管 discards the tile just drawn, or the R2.16 fallback — the same rule."""
    state, k = _offered(READY, "9p", lambda k: k != _kind("9p"))
    act(state, "1:takepung:234m")
    state.apply_system(Action.trustee(1, True))
    assert state.discards[1] == [_kind("9p")]
    assert state.hands[1][k] == 3


def test_a_timeout_with_the_offer_open_declines_it_and_discards_the_drawn_tile() -> None:
    state, k = _offered(READY, "9p", lambda k: k != _kind("9p"))
    act(state, "1:timeout")
    assert state.discards[1] == [_kind("9p")]
    assert arcade_data(state).offer[1] == -1 and state.hands[1][k] == 0


# ---------------------------------------------------------------------------- pick-any (R2.23)
def _deal_positions(seat: int) -> list[int]:
    """The stock positions of the dealer's (``seat`` 0) or the non-dealer's deal (R1.14)."""
    out: list[int] = []
    pos = 0
    for who, n in DEAL_ORDER:
        if who == seat:
            out.extend(range(pos, pos + n))
        pos += n
    return out


def _start(stock: tuple[int, ...], **options: object) -> State:
    opts: dict[str, object] = {"opening_exchange": False, "pung_offer_prob": 0, "pick_any_prob": 1}
    opts.update(options)
    state = State(find_family("arcade", opts), dealer=0)
    state.apply(Action.shuffle(stock))
    state.apply(Action.dice(1, 2, 3, 4))
    state.apply(Action.seed(0))
    return state


OTHER = "234m567m234p45s2z7p"
"""The non-dealer: one 2z (the dealer holds the other three below)."""
DEALER_2Z = "119m119p19s222z344z"
"""The dealer: three 2z, so every 2z the non-dealer cannot see is in the dealer's hand."""


def _twin_stocks() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two stocks that differ only in the dealer's concealed tiles (swapped with reserve
    tiles): the same non-dealer, the same discards, the same visible tiles."""
    a = make_arcade_stock(DEALER_2Z, OTHER, draws="6p")
    b = list(a)
    keep = 26  # the dealer's last tile (his first discard) stays
    reserve = [i for i in range(72, 136) if b[i] not in (W, F)]
    for pos, src in zip((p for p in _deal_positions(0) if p != keep), reserve, strict=False):
        b[pos], b[src] = b[src], b[pos]
    return a, tuple(b)


def test_pick_any_offers_do_not_depend_on_the_opponents_tiles() -> None:
    a_stock, b_stock = _twin_stocks()
    states = []
    for stock in (a_stock, b_stock):
        state = _start(stock)
        act(state, f"0:discard:{_name(stock[26])}")
        assert state.phase is ArcadePhase.PICK and state.actor == 1
        states.append(state)
    a, b = states
    assert a.hands[0] != b.hands[0] and a.hands[1] == b.hands[1]
    assert a.legal_actions() == b.legal_actions()
    assert a.observe(1) == b.observe(1)
    offered = {x.tile_kind() for x in a.legal_actions() if x.kind is ArcadeVerb.PICK}
    # every kind of which seat 1 cannot see four copies: his hand, both rivers, the indicator
    visible = list(a.hands[1])
    for t in a.discards[0]:
        visible[t] += 1
    visible[W] += 1
    assert offered == {k for k in range(NUM_KINDS) if visible[k] < 4}
    assert _kind("2z") in offered  # all three unseen 2z are in the dealer's hand (in a)
    assert W in offered and F in offered


def test_pick_any_with_none_left_is_the_ordinary_draw() -> None:
    a_stock, _ = _twin_stocks()
    state = _start(a_stock)
    act(state, f"0:discard:{_name(a_stock[26])}")
    head, tail, reserve = state.head, state.tail, arcade_data(state).reserve
    wall = list(state.wall)
    act(state, "1:pick:2z")
    assert state.head == head + 1 and state.tail == tail and arcade_data(state).reserve == reserve
    assert list(state.wall) == wall  # nothing swapped
    assert state.hands[1][_kind("6p")] == 1 and state.hands[1][_kind("2z")] == 1
    pick = [e for e in state.events if e.kind == "pick"][-1]
    assert pick.tile is not None and int(pick.tile) == _kind("2z")
    assert pick.tiles == ()  # none left: the event says so (to the picker only)
    assert pick.seen_by(0).tile is None and pick.seen_by(0).tiles == ()
    _census_ok(state)


def test_the_opponent_sees_the_same_pick_event_either_way() -> None:
    a_stock, b_stock = _twin_stocks()
    views = []
    for stock in (a_stock, b_stock):
        state = _start(stock)
        act(state, f"0:discard:{_name(stock[26])}", "1:pick:2z")
        views.append([e for e in state.events_since(0) if e.kind == "pick"])
    assert views[0] == views[1] and views[0][0].data == {}
    b = _start(b_stock)
    act(b, f"0:discard:{_name(b_stock[26])}", "1:pick:2z")
    assert b.hands[1][_kind("2z")] == 2  # in b a 2z was left, in the reserve


def test_pick_any_takes_the_reserve_copy_first() -> None:
    stock = make_arcade_stock(DEALER, READY, draws="6p", back="8s3z", reserve="3z")
    state = _start(stock)
    act(state, "0:discard:9m")
    head = state.head
    live_3z = [i for i in range(state.head, state.tail + 1) if state.wall[i] == _kind("3z")]
    res = [i for i in range(arcade_data(state).reserve, 136) if state.wall[i] == _kind("3z")]
    assert res[0] == 72 and live_3z, "a 3z in the reserve's front and in the live wall"
    act(state, "1:pick:3z")
    assert state.wall[72] == _kind("6p")  # the head tile went where the named copy was
    assert state.head == head + 1 and state.hands[1][_kind("3z")] == 1
    _census_ok(state)


def test_pick_any_takes_the_live_copy_nearest_the_tail() -> None:
    stock = make_arcade_stock(DEALER, READY, draws="6p", seed=4)
    state = _start(stock)
    act(state, "0:discard:9m")
    head, reserve = state.head, arcade_data(state).reserve
    wall = state.wall
    in_reserve = Counter(wall[reserve:])
    live = Counter(wall[head + 1 : state.tail + 1])
    kind = next(k for k in range(NUM_KINDS) if live[k] and not in_reserve[k] and k not in (W, F))
    src = max(i for i in range(head, state.tail + 1) if wall[i] == kind)
    before = state.hands[1][kind]
    act(state, f"1:pick:{_name(kind)}")
    assert state.wall[src] == _kind("6p") and state.head == head + 1
    assert state.hands[1][kind] == before + 1
    _census_ok(state)


def test_picking_the_flower_kind_sets_it_aside_and_replaces_from_the_tail() -> None:
    stock = make_arcade_stock(DEALER, READY, draws="6p", back="8s", reserve="5z")
    state = _start(stock)
    act(state, "0:discard:9m")
    head, tail = state.head, state.tail
    act(state, "1:pick:5z")
    assert state.flowers[1] == [F]
    assert state.hands[1][_kind("8s")] == 1  # the replacement from the tail
    assert state.head == head + 1 and state.tail == tail - 1
    assert state.wall[72] == _kind("6p")
    assert state.phase is Phase.TURN and state.actor == 1
    _census_ok(state)


def _swap_opponent_tiles(state: State, viewer: int, rng: random.Random) -> State:
    """A twin ``viewer`` cannot tell apart: the opponent's concealed tiles and the unseen pool
    (live wall and reserve, R1.6) shuffled among themselves (flowers stay where they are)."""
    other = 1 - viewer
    twin = state.clone()
    wall = twin.wall
    flower = arcade_data(state).flower
    unseen = [*range(state.head, state.tail + 1), *range(arcade_data(state).reserve, len(wall))]
    positions = [i for i in unseen if wall[i] != flower]
    pool = [wall[i] for i in positions]
    pool += [k for k in range(NUM_KINDS) for _ in range(state.hands[other][k])]
    rng.shuffle(pool)
    size = sum(state.hands[other])
    hand = [0] * NUM_KINDS
    for t in pool[:size]:
        hand[t] += 1
    twin.hands[other] = hand
    for i, t in zip(positions, pool[size:], strict=True):
        wall[i] = t
    return twin


def _unseen_kinds(obs: Observation) -> set[int]:
    """R2.23 from the player's own view: the kinds of which he cannot see all four copies —
    his hand, the melds shown (his, and the opponent's open ones), both rivers, the indicator
    and the set-aside flowers."""
    seen = Counter(int(t) for t in obs.hand)
    for seat in (0, 1):
        seen.update(int(t) for meld in obs.melds[seat] for t in meld.tiles)
        claimed = set(obs.claimed[seat])
        seen.update(int(t) for i, t in enumerate(obs.discards[seat]) if i not in claimed)
        seen.update(int(t) for t in obs.flowers[seat])
    view = obs.view
    assert isinstance(view, ArcadeView) and view.wild is not None
    seen[int(view.wild)] += 1
    return {k for k in range(NUM_KINDS) if seen[k] < 4}


def test_random_pick_offers_never_depend_on_hidden_tiles() -> None:
    """At every pick-any offer of 60 random hands: the same offer after the opponent's hand and
    the unseen pool are shuffled together; naming a kind then gives a copy or, with none left
    in the wall and the reserve, the ordinary draw."""
    rules = find_family("arcade", pick_any_prob=1.0, pung_offer_prob=0.2)
    rng = random.Random(7)
    offers = none_left = 0
    for seed in range(60):
        state = State.new(rules, seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            if state.phase is ArcadePhase.PICK:
                offers += 1
                p = state.actor
                twin = _swap_opponent_tiles(state, p, rng)
                assert twin.legal_actions() == legal
                named = {a.tile_kind() for a in legal if a.kind is ArcadeVerb.PICK}
                assert named == _unseen_kinds(state.observe(p))
                choice = rng.choice([a for a in legal if a.kind is ArcadeVerb.PICK])
                kind = choice.tile_kind()
                pool = Counter(state.wall[state.head : state.tail + 1])
                pool.update(state.wall[arcade_data(state).reserve :])
                state.apply(choice)
                pick = next(e for e in reversed(state.events) if e.kind == "pick")
                assert pick.tiles == ((Tile(kind),) if pool[kind] else ())
                none_left += not pool[kind]
                continue
            state.apply(rng.choice(legal))
    assert offers > 1000 and none_left > 10, (offers, none_left)


def test_random_timeouts_after_a_pung_follow_r2_16() -> None:
    """Random hands where every normal draw brings a pung offer: after taking it, a timeout (or
    托管) discards the tile drawn (its ``draw`` event) if a tile of that kind is still held,
    else the rightmost concealed tile — never a tile for having been offered."""
    rules = find_family("arcade", pung_offer_prob=1.0, pick_any_prob=0.0)
    rng = random.Random(3)
    checked = fallback = 0
    for seed in range(80):
        state = State.new(rules, seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            offer = state.phase is Phase.TURN  # a give then answers the pung offer
            takes = [a for a in legal if a.kind is ArcadeVerb.GIVE] if offer else []
            if not takes or rng.random() < 0.3:
                state.apply(rng.choice([a for a in legal if a.kind is not ArcadeVerb.GIVE]))
                continue
            p = state.actor
            draw = next(e for e in reversed(state.events) if e.kind == "draw" and e.player == p)
            assert draw.tile is not None
            for _ in range(3):  # the three tiles given up for the pung, one at a time
                state.apply(rng.choice(takes))
                takes = [a for a in state.legal_actions() if a.kind is ArcadeVerb.GIVE]
            assert next(e for e in reversed(state.events)).kind == "takepung"
            drawn = int(draw.tile)
            expected = drawn if state.hands[p][drawn] else _rightmost(state, p)
            fallback += not state.hands[p][drawn]
            n = len(state.discards[p])
            if rng.random() < 0.5:
                state.apply_system(Action.make(AK.TIMEOUT, p))
            else:
                state.apply_system(Action.trustee(p, True))
                if not state.is_terminal:
                    state.apply_system(Action.trustee(p, False))
            if len(state.discards[p]) > n:  # (托管 may have won instead)
                assert state.discards[p][n] == expected
                checked += 1
    assert checked > 100 and fallback > 5, (checked, fallback)
