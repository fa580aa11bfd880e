"""The single-agent Gymnasium environment: one seat against a bot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from erren.bots.expert import ExpertBot
from erren.rl import action_index, gym_env
from erren.rl.gym import MahjongGymEnv

from ._support import FAMILIES, FAMILY_IDS


def _episode(env: MahjongGymEnv, seed: int) -> tuple[list[int], float, dict[str, Any]]:
    """One hand with the learner's moves drawn uniformly from the mask; its moves, the final
    reward and info.  Checks every step on the way."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    assert info == {}
    moves: list[int] = []
    while True:
        state = env.state
        assert state.actor == env.seat
        legal = {action_index(a) for a in state.legal_actions(env.seat)}
        assert set(np.flatnonzero(obs["action_mask"])) == legal
        np.testing.assert_array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        move = int(rng.choice(sorted(legal)))
        moves.append(move)
        obs, reward, terminated, truncated, info = env.step(move)
        assert truncated is False
        if terminated:
            return moves, reward, info
        assert reward == 0.0
        assert info == {}


@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")
@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_gymnasium_check_env_passes(rules: str, options: dict[str, Any]) -> None:
    check_env(gym_env(rules, opponent="random", illegal_reward=-1.0, **options))


@pytest.mark.parametrize(
    ("rules", "opponent", "seat"),
    [
        ("guobiao-2p", "random", 0),
        ("guobiao-2p", "novice", 1),
        ("guobiao-2p", ExpertBot(seed=1, budget_ms=0), 0),
        ("xiamen", "expert", 0),
        ("xiamen", "random", 1),
        ("arcade", "expert", 1),
        ("arcade", "efficiency", 0),
    ],
    ids=lambda value: str(value) if not isinstance(value, ExpertBot) else "expert-0ms",
)
def test_the_reward_is_the_learners_point_delta(rules: str, opponent: Any, seat: int) -> None:
    env = gym_env(rules, opponent=opponent, seat=seat)
    for seed in range(4):
        _moves, reward, info = _episode(env, seed)
        result = env.state.result
        assert result is not None
        assert reward == result.deltas[seat]
        assert info == {"points": result.deltas[seat], "opponent_points": result.deltas[1 - seat]}
        assert info["points"] + info["opponent_points"] == 0


@pytest.mark.parametrize("rules", ["guobiao-2p", "xiamen", "arcade"])
def test_the_same_seed_plays_the_same_hand(rules: str) -> None:
    first = gym_env(rules, opponent="efficiency")
    second = gym_env(rules, opponent="efficiency")
    assert _episode(first, 5) == _episode(second, 5)
    assert first.state.history == second.state.history


def test_opponents_by_bot_or_level_name() -> None:
    assert gym_env(opponent="入门").bot.name == "novice"
    assert gym_env(opponent="Normal").bot.name == "efficiency"
    assert gym_env(opponent="expert").bot.name == "expert"
    with pytest.raises(ValueError, match=r"unknown opponent 'grandmaster' \(bots: .*random"):
        gym_env(opponent="grandmaster")


def test_bad_input_gets_a_clear_error() -> None:
    with pytest.raises(ValueError, match="the learner's seat is 0 or 1, not 2"):
        gym_env(seat=2)
    with pytest.raises(ValueError, match="unknown ruleset 'mahjong'"):
        gym_env("mahjong")
    env = gym_env("guobiao-2p")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal for player_0 now"):
        env.step(illegal)
    _episode(env, 1)
    with pytest.raises(ValueError, match=r"the episode is over: call reset\(\)"):
        env.step(0)
    with pytest.raises(ValueError, match=r"the episode is over: call reset\(\)"):
        gym_env("xiamen").step(0)


def test_an_illegal_reward_ends_the_episode() -> None:
    env = gym_env("xiamen", illegal_reward=-50.0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-50.0, True, False, {"illegal": True})
    with pytest.raises(ValueError, match=r"the episode is over: call reset\(\)"):
        env.step(illegal)


def test_render_returns_the_table_in_text() -> None:
    env = gym_env("arcade", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text is not None
    assert text.startswith("arcade · phase ")
