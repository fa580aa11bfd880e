"""One test per kind of illegal action: the error names the rule and the state is unchanged."""

from __future__ import annotations

import pytest

from erren.engine import Action, State, find_family
from erren.errors import IllegalActionError, NotationError

from ._support import act, start

RULES = find_family("guobiao-2p")
# The dealer (seat 0) throws 9m and seat 1 holds 99m for a peng.
DEALER = "1234567m 9m 11z 222z 3z"
OTHER = "99m 333z 444z 55z 6z 7z 1m"


def _fresh() -> State:
    return start(RULES, DEALER, OTHER, draws="7z 9m")


def _refused(state: State, text: str, rule: str) -> None:
    before = state.fingerprint()
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Action.parse(text))
    assert caught.value.rule == rule, caught.value
    assert state.fingerprint() == before
    assert state.legal_actions() == legal


def test_out_of_turn() -> None:
    _refused(_fresh(), "1:discard:9m", "out-of-turn")


def test_a_tile_not_held() -> None:
    _refused(_fresh(), "0:discard:5z", "tile-not-held")
    _refused(_fresh(), "0:ting:9p", "tile-not-held")


def test_a_chi_on_tiles_that_are_no_run() -> None:
    state = _fresh()
    act(state, "0:discard:9m", "1:peng", "1:discard:1m")  # the dealer may chi 1m with 2m3m
    assert Action.parse("0:chi:123m") in state.legal_actions()
    _refused(state, "0:chi:567m", "chi-not-a-run")  # does not contain the discard
    _refused(state, "0:chi:789m", "chi-not-a-run")
    with pytest.raises(NotationError):  # a chow that is not a run does not even parse
        Action.parse("0:chi:135m")


def test_a_kong_without_four_tiles() -> None:
    _refused(_fresh(), "0:angang:2z", "kong-needs-four")  # three 2z only
    state = _fresh()
    act(state, "0:discard:9m")
    _refused(state, "1:minggang", "kong-needs-four")  # two 9m only
    _refused(_fresh(), "0:jiagang:2z", "kong-needs-peng")


def test_a_win_on_a_hand_that_does_not_win() -> None:
    _refused(_fresh(), "0:zimo", "not-a-win")
    state = _fresh()
    act(state, "0:discard:9m", "1:peng", "1:discard:1m")
    _refused(state, "0:hu", "not-a-win")


def test_a_claim_after_the_window_closed() -> None:
    state = _fresh()
    act(state, "0:discard:9m", "1:pass")  # seat 1 let the 9m go and drew
    assert state.current_player() == 1
    _refused(state, "1:peng", "claim-window-closed")
    _refused(state, "1:hu", "claim-window-closed")
    _refused(state, "0:pass", "out-of-turn")


def test_claims_that_are_not_yours_and_turn_moves_in_a_claim_window() -> None:
    state = _fresh()
    act(state, "0:discard:9m")
    _refused(state, "0:peng", "out-of-turn")  # the discarder cannot claim
    _refused(state, "1:discard:9m", "claim-or-pass")


def test_after_a_claim_only_a_discard() -> None:
    state = _fresh()
    act(state, "0:discard:9m", "1:peng")
    _refused(state, "1:angang:3z", "discard-after-claim")
    _refused(state, "1:zimo", "discard-after-claim")


def test_ting_needs_a_ready_hand() -> None:
    _refused(_fresh(), "0:ting:1z", "not-ready")


def test_nothing_after_the_end_and_chance_in_order() -> None:
    state = _fresh()
    act(state, "0:escape")
    _refused(state, "1:discard:9m", "hand-over")
    fresh = State(RULES)
    before = fresh.fingerprint()
    with pytest.raises(IllegalActionError) as caught:
        fresh.apply(Action.dice(1, 2))
    assert caught.value.rule == "chance-out-of-order"
    with pytest.raises(IllegalActionError) as caught:
        fresh.apply(Action.shuffle((0,) * 64))
    assert caught.value.rule == "not-a-shuffle"
    assert fresh.fingerprint() == before
    with pytest.raises(IllegalActionError) as caught:
        fresh.apply(Action.parse("0:discard:1m"))
    assert caught.value.rule == "deal-not-done"
