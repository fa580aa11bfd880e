"""A bot over the network plays exactly as a local one: the efficiency bot, given the
observation decoded from the server's JSON, chooses the same move in every family (the arcade
wild, the xiamen gold and 游 levels, the pung offer all reach it through the view)."""

from __future__ import annotations

import json

import pytest

from erren.bots import EfficiencyBot
from erren.engine import Observation, State, find_family
from erren.families.arcade.game import stage_options
from erren.server.protocol import observation_from_json, observation_json


def _over_the_wire(obs: Observation) -> Observation:
    return observation_from_json(json.loads(json.dumps(observation_json(obs))))


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("guobiao-2p", {}),
        ("xiamen", {}),
        ("arcade", {"pung_offer_prob": 0.5, "pick_any_prob": 0.5}),
        ("arcade", stage_options(3)),
    ],
)
def test_the_efficiency_bot_plays_the_same_over_the_wire(
    name: str, options: dict[str, object]
) -> None:
    bot = EfficiencyBot()
    decisions = 0
    for seed in range(12):
        state = State.new(find_family(name, options), seed=seed, dealer=seed % 2)
        while not state.is_terminal:
            obs = state.observe(state.current_player())
            local = bot.choose(obs, obs.legal_actions)
            remote = _over_the_wire(obs)
            assert remote == obs
            assert bot.choose(remote, remote.legal_actions) == local
            state.apply(local)
            decisions += 1
    assert decisions > 100
