"""The batch environment: stacked arrays of the right shapes, each row the game an AEC
environment plays with the same seeds (auto-reset included), deterministic, and an illegal
index refused before any game moves."""

from __future__ import annotations

import doctest
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import erren.rl.batch
from erren.rl import AGENTS, Batch, BatchEnv, MahjongEnv
from erren.rl.actions import NUM_ACTIONS
from erren.rl.planes import NUM_PLANES

from ._support import FAMILIES, FAMILY_IDS


def _choose(batch: Batch, rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """A legal index per row, uniformly."""
    keys = rng.random(batch.action_mask.shape) * batch.action_mask
    chosen: npt.NDArray[np.intp] = keys.argmax(axis=1)
    return chosen


def test_the_arrays_have_one_row_per_game() -> None:
    games = BatchEnv(5)
    batch = games.reset(seed=0)
    assert batch.observation.shape == (5, NUM_PLANES, 34)
    assert batch.observation.dtype == np.float32
    assert batch.action_mask.shape == (5, NUM_ACTIONS)
    assert batch.action_mask.dtype == np.int8
    assert batch.player.shape == (5,)
    assert batch.reward.shape == (5, 2)
    assert batch.reward.dtype == np.float32
    assert batch.terminated.shape == (5,)
    assert batch.terminated.dtype == np.bool_
    assert not batch.terminated.any()
    assert (batch.action_mask.sum(axis=1) > 0).all()
    # The dealer (seat 0) opens every hand.
    assert (batch.player == 0).all()


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_each_row_is_the_game_of_an_aec_env_with_the_same_seeds(
    rules: str, options: dict[str, Any]
) -> None:
    """A few hundred steps of three games, each beside an AEC env reset with the row's seed
    (then ``reset()`` at each hand's end)."""
    games = BatchEnv(3, rules, **options)
    singles = [MahjongEnv(rules, **options) for _ in range(3)]
    batch = games.reset(seed=20)
    for i, single in enumerate(singles):
        single.reset(seed=20 + i)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(250):
        for i, single in enumerate(singles):
            agent = single.agent_selection
            assert batch.player[i] == AGENTS.index(agent)
            obs = single.observe(agent)
            assert batch.observation[i].tobytes() == obs["observation"].tobytes()
            np.testing.assert_array_equal(batch.action_mask[i], obs["action_mask"])
        actions = _choose(batch, rng)
        batch = games.step(actions)
        for i, single in enumerate(singles):
            single.step(int(actions[i]))
            if single.state.is_terminal:
                ended += 1
                assert batch.terminated[i]
                expected = [single.rewards[agent] for agent in AGENTS]
                np.testing.assert_array_equal(batch.reward[i], expected)
                single.reset()
            else:
                assert not batch.terminated[i]
                assert not batch.reward[i].any()
    assert ended >= 3  # hands ended and the rows went on with their next hands


def test_the_same_seed_and_actions_give_the_same_batches() -> None:
    def play(seed: int) -> list[bytes]:
        games = BatchEnv(4, "xiamen")
        batch = games.reset(seed=seed)
        rng = np.random.default_rng(9)
        seen = []
        for _ in range(120):
            seen.append(batch.observation.tobytes() + batch.reward.tobytes())
            batch = games.step(_choose(batch, rng))
        return seen

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_an_illegal_index_is_refused_before_any_game_moves() -> None:
    games = BatchEnv(3)
    batch = games.reset(seed=2)
    actions = batch.action_mask.argmax(axis=1)
    illegal = int(np.flatnonzero(batch.action_mask[2] == 0)[0])
    actions[2] = illegal
    moved = [len(state.history) for state in games.states]
    with pytest.raises(ValueError, match=rf"game 2: action {illegal} .* is not legal"):
        games.step(actions)
    assert [len(state.history) for state in games.states] == moved
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        games.step([0, 0])


def test_rewards_are_zero_sum_point_deltas_of_the_hands_that_ended() -> None:
    games = BatchEnv(6)
    batch = games.reset(seed=0)
    rng = np.random.default_rng(0)
    paid = 0
    for _ in range(400):
        batch = games.step(_choose(batch, rng))
        assert (batch.reward.sum(axis=1) == 0).all()
        assert not batch.reward[~batch.terminated].any()
        paid += int(batch.reward[batch.terminated].any(axis=1).sum())
    assert paid > 0


def test_copies_or_the_environments_buffers() -> None:
    copied = BatchEnv(2)
    first = copied.reset(seed=0)
    second = copied.step(first.action_mask.argmax(axis=1))
    assert first.observation is not second.observation
    shared = BatchEnv(2, copy=False)
    first = shared.reset(seed=0)
    second = shared.step(first.action_mask.argmax(axis=1))
    assert first.observation is second.observation


def test_bad_uses_get_clear_errors() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        BatchEnv(0)
    with pytest.raises(ValueError, match="reset"):
        BatchEnv(1).step([0])


def test_the_modules_example_runs() -> None:
    failed, tried = doctest.testmod(erren.rl.batch)
    assert (failed, tried) == (0, 5)
