"""The PettingZoo environment: PettingZoo's own checks, the mask, the rewards, the seeds, the
render and the errors, in every family."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from erren.engine import State, observe
from erren.rl import AGENTS, MahjongEnv, action_index, encode_observation, env
from erren.rl.actions import index_action

from ._support import FAMILIES, FAMILY_IDS


def _play(e: Any, seed: int) -> dict[str, float]:
    """One hand with moves drawn uniformly from the mask (seeded); the final rewards by agent
    as ``last()`` reports them."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        assert not truncated
        if terminated:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


# PettingZoo's check advises a plain Box observation; the classic games' dict with an action
# mask draws the same two warnings.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_pettingzoo_api_test_passes(rules: str, options: dict[str, Any]) -> None:
    api_test(env(rules, **options), num_cycles=150)


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_pettingzoo_seed_test_passes(rules: str, options: dict[str, Any]) -> None:
    seed_test(lambda: env(rules, **options), num_cycles=100)


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_same_seed_deals_the_same_hand(rules: str, options: dict[str, Any]) -> None:
    first, second = env(rules, **options), env(rules, **options)
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.unwrapped.state.history == second.unwrapped.state.history
    for agent in AGENTS:
        a, b = first.observe(agent), second.observe(agent)
        np.testing.assert_array_equal(a["observation"], b["observation"])
        np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    second.reset(seed=12)
    assert first.unwrapped.state.history != second.unwrapped.state.history
    # Unseeded resets continue the sequence of the last seeded one.
    first.reset(seed=3)
    second.reset(seed=3)
    first.reset()
    second.reset()
    assert first.unwrapped.state.history == second.unwrapped.state.history


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_mask_is_exactly_the_legal_moves(rules: str, options: dict[str, Any]) -> None:
    e = env(rules, **options)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        raw = e.unwrapped
        while not raw.state.is_terminal:
            state: State = raw.state
            actor = AGENTS[state.actor]
            assert e.agent_selection == actor
            for agent in AGENTS:
                seat = AGENTS.index(agent)
                obs = e.observe(agent)
                legal = {action_index(a) for a in state.legal_actions(seat)}
                assert set(np.flatnonzero(obs["action_mask"])) == legal
                assert bool(legal) == (agent == actor)
                # The planes are the encoding of the seat's own observation.
                np.testing.assert_array_equal(
                    obs["observation"], encode_observation(observe(state, seat))
                )
            choice = int(rng.choice(np.flatnonzero(e.observe(actor)["action_mask"])))
            e.step(choice)
            assert state.history[-1] == index_action(choice, AGENTS.index(actor))


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_rewards_are_the_hands_point_deltas(rules: str, options: dict[str, Any]) -> None:
    paid = 0
    for seed in range(40):
        e = env(rules, **options)
        final = _play(e, seed)
        result = e.unwrapped.state.result
        assert result is not None
        assert final == {"player_0": result.deltas[0], "player_1": result.deltas[1]}
        assert sum(final.values()) == 0
        paid += final["player_0"] != 0
        assert e.agents == []
    # Some hands were won (the deltas were not all zero).
    assert paid > 0


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_end_of_a_hand_terminates_both_with_points(rules: str, options: dict[str, Any]) -> None:
    e = MahjongEnv(rules, **options)
    for seed in range(30):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not e.state.is_terminal:
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))
        result = e.state.result
        assert result is not None
        for seat, agent in enumerate(AGENTS):
            assert e.terminations[agent] is True
            assert e.truncations[agent] is False
            assert e.infos[agent] == {"points": result.deltas[seat]}
            assert e.rewards[agent] == result.deltas[seat]
            assert not e.observe(agent)["action_mask"].any()


def test_reset_options_choose_the_dealer() -> None:
    e = env("guobiao-2p")
    e.reset(seed=1, options={"dealer": 1})
    assert e.unwrapped.state.dealer == 1
    assert e.agent_selection == "player_1"
    e.reset(seed=1)
    assert e.unwrapped.state.dealer == 0
    with pytest.raises(ValueError, match="the dealer is seat 0 or 1, not 2"):
        e.reset(seed=1, options={"dealer": 2})


@pytest.mark.parametrize("rules", ["guobiao-2p", "xiamen", "arcade"])
def test_render_draws_both_seats_in_text(rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    e = env(rules, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str)
    assert text.startswith(f"{rules} · phase ")
    assert "player_0" in text
    assert "player_1" in text
    human = env(rules, render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    assert capsys.readouterr().out.count(text) == 2  # at reset, then render()


def test_bad_names_get_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown ruleset 'riichi'"):
        env("riichi")
    with pytest.raises(ValueError, match=r"unknown option\(s\) for guobiao-2p: fan_tabel"):
        env("guobiao-2p", fan_tabel="gb")
    with pytest.raises(ValueError, match="unknown render_mode 'rgb_array'"):
        env("xiamen", render_mode="rgb_array")
    e = env("guobiao-2p")
    e.reset(seed=1)
    with pytest.raises(ValueError, match="unknown agent 'player_2'"):
        e.observe("player_2")


def test_an_illegal_index_raises_or_ends_the_hand() -> None:
    e = env("guobiao-2p")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal for player_0 now"):
        e.step(illegal)
    raw = MahjongEnv("guobiao-2p")
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="player_0 is to act and must choose an action index"):
        raw.step(None)
    forgiving = env("guobiao-2p", illegal_reward=-100.0)
    forgiving.reset(seed=1)
    forgiving.step(illegal)
    assert forgiving.terminations == {"player_0": True, "player_1": True}
    assert forgiving.rewards["player_0"] == -100.0
