"""The bot interface, the registry, the random bot and the efficiency bot's decisions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from erren.bots import Bot, EfficiencyBot, RandomBot, bot_names, find_bot
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.phases import Phase
from erren.sim import play_hand, simulate
from erren.testing.deals import start

RULES = find_family("guobiao-2p")


def act(state: State, *texts: str) -> None:
    for text in texts:
        state.apply(Action.parse(text))


def test_registry_names_and_unknown_bot() -> None:
    assert {"random", "efficiency"} <= set(bot_names())
    assert isinstance(find_bot("random", seed=1), RandomBot)
    assert isinstance(find_bot("efficiency"), EfficiencyBot)
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        find_bot("nope")


@pytest.mark.parametrize("name", ["random", "efficiency"])
def test_bots_only_choose_legal_actions_and_are_reproducible(name: str) -> None:
    def game(seed: int) -> list[str]:
        bots = [find_bot(name, seed=seed), find_bot(name, seed=seed + 1)]
        state = play_hand(State.new(RULES, seed=seed), bots)
        return list(state.record().actions)

    for seed in range(5):
        assert game(seed) == game(seed)  # apply() would have raised on an illegal action


def test_random_bot_blind_pick_equals_choose() -> None:
    state = State.new(RULES, seed=3)
    legal = state.legal_actions()
    a, b = RandomBot(seed=9), RandomBot(seed=9)
    assert a.pick(legal) is b.choose(state.observe(state.actor), legal)
    assert RandomBot.blind and not EfficiencyBot.blind


def test_a_bot_receives_its_own_observation() -> None:
    class Recorder(Bot):
        name = "recorder"

        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.inner = RandomBot(seed=seat)
            self.calls = 0

        def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
            assert observation.player == self.seat == observation.to_act
            assert tuple(legal_actions) == observation.legal_actions
            self.calls += 1
            return self.inner.pick(legal_actions)

    bots = [Recorder(0), Recorder(1)]
    play_hand(State.new(RULES, seed=4), bots)
    assert bots[0].calls and bots[1].calls
    with pytest.raises(NotImplementedError):
        bots[0].pick([])


def _choose(state: State) -> Action:
    seat = state.actor
    return EfficiencyBot().choose(state.observe(seat), state.legal_actions())


def test_efficiency_wins_when_it_can() -> None:
    state = start(RULES, "123m456m789m11122z", "1345678m1357z77z")
    # the dealer's 14 tiles already win (天胡)
    assert _choose(state).kind is ActionKind.ZIMO


def test_efficiency_discards_the_useless_tile_and_declares_ting() -> None:
    # dealer: 123m 456m 789m 11z 2z + 5z: throwing 5z or 2z leaves a ready hand
    state = start(RULES, "123m456m789m11z25z7z", "1345678m1357z77z")
    action = _choose(state)
    assert action.kind in (ActionKind.TING, ActionKind.DISCARD)
    assert str(action.tile) in ("2z", "5z", "7z")


def test_efficiency_claims_a_pung_that_lowers_shanten() -> None:
    # seat 1: three runs, a pair of 5z and two lone winds (1-shanten); pung 5z makes it ready
    state = start(RULES, "12345m9m666z12345z", "123m456m789m55z13z")
    act(state, "0:discard:5z")
    assert state.phase is Phase.CLAIM
    assert _choose(state).kind is ActionKind.PENG


def test_efficiency_passes_a_chow_that_changes_nothing() -> None:
    # seat 1 is ready on 5z/7z; chowing 1m would leave it just as ready
    state = start(RULES, "12345m9m666z12346z", "123m456m789m55z77z")
    act(state, "0:discard:1m")
    assert state.phase is Phase.CLAIM
    assert any(a.kind is ActionKind.CHI for a in state.legal_actions())
    assert _choose(state).kind is ActionKind.PASS


def test_efficiency_beats_random_by_a_wide_margin() -> None:
    for bots, eff in ((("efficiency", "random"), 0), (("random", "efficiency"), 1)):
        stats = simulate(RULES, bots, hands=200, seed=11)
        rnd = 1 - eff
        assert stats.wins[eff] >= 5 * max(1, stats.wins[rnd]), stats.table()
        assert stats.win_rate(eff) > 0.8
        assert stats.avg_points(eff) > 10
        assert stats.avg_points(rnd) < 0
