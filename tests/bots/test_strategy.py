"""A family's computer play is found through its family (erren.bots.strategy): the shared bots
never ask which family an observation is of, and a family without a strategy plays the shared
game."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, ClassVar, Literal

import pytest

from erren.bots import EfficiencyBot, find_bot
from erren.bots.expert import ExpertBot
from erren.bots.strategy import Strategy, family_ruleset, strategy_of
from erren.engine import Observation, State, find_family
from erren.engine.registry import register_family, unregister_family
from erren.engine.views import ViewFacts
from erren.families.guobiao.game import GuobiaoFamily


def _first_observation(family: str) -> Observation:
    state = State.new(find_family(family), seed=7)
    return state.observe(state.actor)


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen", "arcade"])
def test_each_family_plays_through_the_strategy_its_family_returns(family: str) -> None:
    rules = find_family(family)
    assert strategy_of(_first_observation(family)) is rules.strategy()
    assert family_ruleset(_first_observation(family), None).name == family


@dataclasses.dataclass(frozen=True, slots=True)
class _PlainView(ViewFacts):
    """The view of a family that registers no strategy: nothing but the common core."""

    family: Literal["plain-test"] = "plain-test"


class _PlainFamily(GuobiaoFamily):
    """Guobiao-2p's rules under another name, with a view of its own and no strategy."""

    name: ClassVar[str] = "plain-test"

    def view(self, state: State, player: int) -> Any:
        return _PlainView()

    def strategy(self) -> None:  # guobiao's has one: this one none
        return None


@pytest.fixture
def plain_family() -> Iterator[None]:
    register_family("plain-test", _PlainFamily)
    yield
    unregister_family("plain-test")


@pytest.mark.usefixtures("plain_family")
def test_a_family_without_a_strategy_plays_the_shared_game() -> None:
    plain = find_family("plain-test")
    assert plain.strategy() is None
    state = State.new(plain, seed=11)
    observation = state.observe(state.actor)
    strategy = strategy_of(observation)
    assert type(strategy) is Strategy
    legal = state.legal_actions()
    assert strategy.efficiency(EfficiencyBot(), observation, legal) is None
    assert strategy.expert(ExpertBot(budget_ms=0), observation, legal, work=None) is None
    # the shared play alone: the expert's fast choice is the efficiency bot's, on the same
    # hand dealt under guobiao-2p's own name (whose strategy values ready hands instead)
    twin = State.new(find_family("guobiao-2p"), seed=11)
    same = find_bot("efficiency").choose(twin.observe(twin.actor), twin.legal_actions())
    assert ExpertBot(budget_ms=0).choose(observation, legal) == same
    while not state.is_terminal:  # and it plays a whole hand through the shared bots
        seat = state.actor
        state.apply(ExpertBot(budget_ms=0).choose(state.observe(seat), state.legal_actions()))
    assert state.result is not None
