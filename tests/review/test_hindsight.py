"""Hindsight (issue #31 point 4): the line that would have done best for a seat with every tile
known, against the record's wall and the opponent's recorded play.

The positions are dealt from crafted guobiao-2p walls and played out by a plain policy (pass
every claim, never win, throw the tile drawn) except for the moves a test names; the points
are worked out here from the table's rule (guobiao-2p §6.1): ``(F + base) × multiplier``,
``F`` the sum of the fans the rules list for the winning hand, with ``base_points`` 2 and one
multiplier 3 (the other 1), so that a wrong unit or multiplier shows and the win each test is
about stays the best there is (a later win lacks 地胡/天胡).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from erren.bots.base import find_bot, play_hand
from erren.engine import Action, ActionKind, Record, State, find_family
from erren.engine.record import replay
from erren.engine.result import ResultKind
from erren.review.hindsight import Hindsight, hindsight, play_line
from erren.review.hindsight_line import follow
from erren.testing.deals import start

BASE, BIG = 2, 3
ON_DISCARD = find_family("guobiao-2p", base_points=BASE, discard_multiplier=BIG)
SELF_DRAWN = find_family("guobiao-2p", base_points=BASE, self_drawn_multiplier=BIG)

# Fans of the 2p table (guobiao-2p §4) the hands below score.
DIHU, TIANHU, PURE_STRAIGHT, TERMINAL_PUNG = 28, 32, 16, 2

# Seat 1 waits on 5z alone (单钓) with 1-9m and 111z; the dealer holds the other three 5z.
DEALER = "555z234z67z123579m"
WAITING = "123456789m111z5z"


def _plain(state: State, script: dict[int, str]) -> Record:
    """Play the hand out: the moves of ``script`` (by the index of the decision), else pass a
    claim, else throw the tile drawn; a win only when the script says so."""
    n = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        move = Action.parse(script[n]) if n in script else _throw_back(state, legal)
        state.apply(move)
        n += 1
    return state.record()


def _throw_back(state: State, legal: list[Action]) -> Action:
    for a in legal:
        if a.kind is ActionKind.PASS:
            return a
    drawn = state.last_added[state.actor]
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    return next((a for a in discards if a.tile_kind() == drawn), discards[0])


def _replays(record: Record, found: Hindsight) -> None:
    """The line's record replays with the engine to the points claimed, and the seat's moves
    alone rebuild the same line."""
    end = replay(found.record(record))
    assert end.result is not None
    assert end.result.deltas[found.seat] == found.best
    assert end.result.kind.value == found.ending
    moves = [Action.parse(m) for m in found.moves]
    again = play_line(record, found.seat, moves)
    assert tuple(str(a) for a in again.state.history) == found.actions


def test_a_passed_win_is_the_line_that_takes_it() -> None:
    record = _plain(start(ON_DISCARD, DEALER, WAITING), {0: "0:discard:5z", 1: "1:pass"})
    end = replay(record).result
    assert end is not None
    assert end.kind is ResultKind.DRAW
    found = hindsight(record, 1)
    # 地胡 (a win on the dealer's first discard), 清龙 1-9m, 幺九刻 111z.
    fan = DIHU + PURE_STRAIGHT + TERMINAL_PUNG
    assert found.actual == 0
    assert found.best == (fan + BASE) * BIG
    assert found.unit == "fan"
    assert found.moves == ("1:hu",)
    assert found.departs_at == 0
    assert found.departs_action == 3  # shuffle, dice, the dealer's 5z, then the pass
    assert found.ending == "win"
    _replays(record, found)


def test_the_earliest_self_draw_is_its_own_hindsight() -> None:
    record = _plain(
        start(SELF_DRAWN, "123456789m111z55z", "2z3z4z6z7z2m4m6m8m1m3m5m7m"), {0: "0:zimo"}
    )
    found = hindsight(record, 0)
    # 天胡 (the dealer's dealt hand), 清龙, 幺九刻.
    points = (TIANHU + PURE_STRAIGHT + TERMINAL_PUNG + BASE) * BIG
    assert found.actual == points
    assert found.best == points
    assert found.departs_at is None
    assert found.departures == 0
    assert found.moves == ("0:zimo",)
    _replays(record, found)


def test_a_draw_beats_dealing_in() -> None:
    """The dealer throws seat 1's only winning tile; every other line keeps it and the hand
    runs dry: 荒庄 pays nothing (§6.6)."""
    record = _plain(start(ON_DISCARD, DEALER, WAITING), {0: "0:discard:5z", 1: "1:hu"})
    found = hindsight(record, 0)
    assert found.actual == -(DIHU + PURE_STRAIGHT + TERMINAL_PUNG + BASE) * BIG
    assert found.best == 0
    assert found.ending == ResultKind.DRAW.value
    assert found.departs_at == 0
    assert found.moves[0] != "0:discard:5z"
    _replays(record, found)


def test_a_small_budget_cuts_the_search_and_still_gives_a_line() -> None:
    record = _plain(start(ON_DISCARD, DEALER, WAITING), {0: "0:discard:5z", 1: "1:pass"})
    found = hindsight(record, 1, budget=1)
    assert not found.complete
    assert found.best == found.actual == 0
    assert found.departs_at is None
    # The record is always played, then the next pass walks to seat 1's first decision (the
    # shuffle, the dice, the dealer's 5z) and opens no departure there: the budget is spent.
    assert found.steps == len(record.actions) + 3
    assert found.lines == 1
    _replays(record, found)


def test_a_budget_large_enough_completes_the_search() -> None:
    record = _plain(start(ON_DISCARD, DEALER, WAITING), {0: "0:discard:5z", 1: "1:hu"})
    found = hindsight(record, 1, budget=10**9, max_departures=1)
    assert found.complete
    assert found.best == found.actual
    assert found.to_dict()["complete"] is True


def test_to_json_names_the_line() -> None:
    record = _plain(start(ON_DISCARD, DEALER, WAITING), {0: "0:discard:5z", 1: "1:pass"})
    text = hindsight(record, 1, max_departures=1).to_json()
    assert '"moves": ["1:hu"]' in text
    assert '"departs_at": 0' in text


def _simulated(family: str, seed: int) -> Record:
    rules = find_family(family)
    rng = random.Random(seed)
    bots = [find_bot("novice", seed=rng.randrange(10**6), ruleset=rules) for _ in (0, 1)]
    return play_hand(State.new(rules, seed=seed, dealer=seed % 2), bots).record()


@settings(max_examples=6, deadline=None)
@given(
    family=st.sampled_from(("guobiao-2p", "xiamen", "arcade")),
    seed=st.integers(0, 10_000),
    seat=st.sampled_from((0, 1)),
)
def test_every_line_replays_to_its_points(family: str, seed: int, seat: int) -> None:
    record = _simulated(family, seed)
    found = hindsight(record, seat, budget=600)
    end = replay(record).result
    assert end is not None
    assert found.actual == end.deltas[seat]
    assert found.best >= found.actual
    _replays(record, found)


def test_the_opponent_off_the_record_wins_when_he_can_else_follows_his_moves() -> None:
    state = start(ON_DISCARD, DEALER, WAITING)
    legal = state.legal_actions()
    nine, eight = Action.parse("0:discard:9m"), Action.parse("0:discard:8m")
    # The first of his next three recorded moves that is legal (8m is not in his hand).
    assert follow(state, legal, (eight, nine), 0) == (nine, 2)
    assert follow(state, legal, (eight, eight, eight, nine), 0)[1] == 0  # beyond the three
    state.apply(Action.parse("0:discard:5z"))
    legal = state.legal_actions()
    # Seat 1 recorded a pass here; off the record he takes the win.
    assert follow(state, legal, (Action.parse("1:pass"),), 0) == (Action.parse("1:hu"), 0)
