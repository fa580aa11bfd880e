"""Which moves win (:attr:`AnyActionKind.is_win`: the shared 和 and 自摸 and each family's own
verbs registered with ``VerbRule(wins=True)``; the ``wins`` the server sends with ``legal``).

In every family a legal move is marked a win exactly when making it ends the hand with the
mover's own win, as the rules play it out on a copy of the state: on hands of each family played
by the efficiency bot (which wins often), and on crafted xiamen positions where 三金倒, 抢金 (the
other seat's, and the dealer's naming the tile he lays out) and the 游 chain's choice between
winning and throwing the gold (游金, ``discardgold``: a risk taken for a bigger win, not a win)
are on offer.  The kinds seen winning in each family are then exactly the family's ways to win,
written out here from the rules (guobiao-2p §5, xiamen R-2.2/R-2.3/R-2.9, arcade R2)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from erren.bots import find_bot
from erren.engine import Action, ActionKind, EventKind, State, find_family
from erren.engine.actions import AnyActionKind, verbs
from erren.engine.result import ResultKind
from erren.families.xiamen.game.vocabulary import XiamenVerb

from ._support import act, start_xiamen

AK = ActionKind
DEALER = "1m4m7m2m5m8m2z4z5z1m4m7m2z4z"
"""A xiamen dealer hand with no win, no gold of 3z/9m/5m/4z/7m and no 6z: it only discards."""

WAYS_TO_WIN: dict[str, set[AnyActionKind]] = {
    # 和 on a discard or a robbed 加杠, and 自摸
    "guobiao-2p": {AK.HU, AK.ZIMO},
    "arcade": {AK.HU, AK.ZIMO},
    # and 三金倒, 抢金, the 游 chain's win on a drawn gold
    "xiamen": {AK.HU, AK.ZIMO, XiamenVerb.SANJINDAO, XiamenVerb.QIANGJIN, XiamenVerb.WIN},
}
OPTIONS: dict[str, list[dict[str, object]]] = {
    "guobiao-2p": [{}, {"flowers": True, "ting_enabled": True}],
    "xiamen": [{}],
    "arcade": [{}, {"pung_offer_prob": 0.5, "pick_any_prob": 0.5, "haidi_draws": 5}],
}
HANDS = 40
"""Hands played per family and options."""
WIN_EVENTS = (EventKind.HU, EventKind.ZIMO)


def _wins_the_hand(state: State, action: Action) -> bool:
    """Whether ``action`` itself ends the hand with its mover's win (played on a copy): the
    hand is over, he won, and by this move — not by a win the engine made for him later (报听's
    automatic win on a tile the opponent's automatic moves brought)."""
    twin = state.clone()
    twin.apply(action)
    result = twin.result
    if not (twin.is_terminal and result is not None and result.kind is ResultKind.WIN):
        return False
    won = [e for e in twin.events_since(action.player, state.event_count) if e.kind in WIN_EVENTS]
    return result.winner == action.player and [e.auto for e in won] == [False]


def _check(state: State, winning: set[AnyActionKind], other: set[AnyActionKind]) -> None:
    """Every legal move of the seat to act is marked as what it does; note the kinds seen."""
    for action in state.legal_actions():
        wins = _wins_the_hand(state, action)
        assert action.kind.is_win == wins, (str(action), str(state))
        (winning if wins else other).add(action.kind)


def _play(name: str, options: dict[str, object], seeds: Iterable[int]) -> set[AnyActionKind]:
    """The kinds seen winning on hands played by the efficiency bot for both seats (without
    报听, so that the wins are moves offered)."""
    ruleset = find_family(name, options)
    winning: set[AnyActionKind] = set()
    other: set[AnyActionKind] = set()
    for seed in seeds:
        bot = find_bot("efficiency", seed=seed)
        bot.bind(ruleset)
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            _check(state, winning, other)
            seat = state.current_player()
            legal = state.legal_actions()
            # never 报听: its wins are the engine's (automatic), not a move offered
            calm = [a for a in legal if a.kind is not AK.TING] or legal
            state.apply(bot.choose(state.observe(seat), calm))
    assert other  # every hand offered moves that do not win
    return winning


def _xiamen_positions() -> list[State]:
    """Crafted xiamen positions, one for each of the family's own ways to win (and 游金)."""
    robbed = start_xiamen(DEALER, "123m567m999m22z77z", "4z")  # the other seat's 抢金
    act(robbed, "0:pass")
    dealer_robs = start_xiamen("234m456m888m11z55z3z", "123m456m789m444z6z", "2z")
    three_golds = start_xiamen("234m456m888m22z55z3z", "777m111z2m5m9m3z4z6z5z", "7m")
    act(three_golds, "0:pass")  # the dealer lets his 抢金 go: the other seat's 三金倒
    swimming = start_xiamen(DEALER, "234m567m111z9m777z", "9m", draws="9m3m9m6m")
    act(swimming, "0:pass", "1:pass", "0:discard:5z")  # the gold drawn: 游金胡 or throw it
    return [robbed, dealer_robs, three_golds, swimming]


@pytest.mark.parametrize("name", sorted(WAYS_TO_WIN))
def test_a_move_is_a_win_when_it_ends_the_hand_with_the_mover_s_win(name: str) -> None:
    winning: set[AnyActionKind] = set()
    for options in OPTIONS[name]:
        winning |= _play(name, options, range(HANDS))
    if name == "xiamen":
        other: set[AnyActionKind] = set()
        for state in _xiamen_positions():
            _check(state, winning, other)
        assert {XiamenVerb.DISCARD_GOLD, AK.PASS} <= other  # 游金 and passing are offered, not wins
    assert winning == WAYS_TO_WIN[name]


def test_the_crafted_positions_offer_what_they_are_for() -> None:
    """Each crafted xiamen position offers the move it stands for (so the test above checks it)."""
    offered = [{str(a).split(":", 1)[1] for a in s.legal_actions()} for s in _xiamen_positions()]
    assert offered[0] == {"qiangjin", "pass"}
    assert "qiangjin:3z" in offered[1]
    assert "sanjindao" in offered[2]
    assert offered[3] == {"win", "discardgold"}


def test_the_kinds_marked_are_the_ways_to_win_of_some_family() -> None:
    """No verb of any family is marked a win that no family wins with: chance, system and
    every other move are not."""
    marked = {k for k in verbs() if k.is_win}
    every: set[AnyActionKind] = set()
    for ways in WAYS_TO_WIN.values():
        every |= ways
    assert marked == every
