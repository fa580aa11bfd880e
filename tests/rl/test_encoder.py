"""The fast path of the environments: the planes read straight from the state are those of the
player's observation, byte for byte; the legal moves by index are the mask; PettingZoo's
checks still hold with the cheap wrappers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from erren.engine import State, find_family, observe
from erren.rl import env
from erren.rl.actions import NUM_ACTIONS, action_index, action_mask, index_action
from erren.rl.encoder import PLANES_SHAPE, LegalMoves, encode_into, encode_state, flat_cells
from erren.rl.planes import encode_observation

from ._support import FAMILIES, FAMILY_IDS, random_hands


def _states(rules: str, options: dict[str, Any], hands: int) -> list[State]:
    """Clones of every decision of ``hands`` random hands, and each hand's end."""
    out: list[State] = []
    last: State | None = None
    for state in random_hands(rules, options, hands):
        if last is not None and state is not last:
            out.append(last.clone())  # the previous hand, now over
        out.append(state.clone())
        last = state
    return out


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_planes_of_the_state_are_those_of_the_observation(
    rules: str, options: dict[str, Any]
) -> None:
    states = _states(rules, options, 15)
    assert any(state.is_terminal for state in states)
    for state in states:
        for seat in (0, 1):
            expected = encode_observation(observe(state, seat))
            planes = encode_state(state, seat)
            assert planes.dtype == np.float32
            assert planes.shape == expected.shape == PLANES_SHAPE
            assert planes.tobytes() == expected.tobytes()


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_planes_written_into_an_array_overwrite_every_cell(
    rules: str, options: dict[str, Any]
) -> None:
    stack = np.full((3, *PLANES_SHAPE), 7.0, dtype=np.float32)
    cells = flat_cells(stack)
    size = PLANES_SHAPE[0] * PLANES_SHAPE[1]
    for state in _states(rules, options, 3)[::5]:
        seat = state.actor if state.actor in (0, 1) else 0
        expected = encode_observation(observe(state, seat))
        encode_into(cells, size, state, seat)
        np.testing.assert_array_equal(stack[1], expected)
        out = np.full(PLANES_SHAPE, 7.0, dtype=np.float32)
        assert encode_state(state, seat, out) is out
        np.testing.assert_array_equal(out, expected)
    # The rows around the one written are untouched.
    assert (stack[0] == 7.0).all()
    assert (stack[2] == 7.0).all()


def test_the_planes_refuse_a_bad_seat_or_array() -> None:
    state = State.new(find_family("guobiao-2p"), seed=1)
    with pytest.raises(ValueError, match="seat 0 or 1"):
        encode_state(state, 2)
    with pytest.raises(ValueError, match="shape"):
        encode_state(state, 0, np.zeros((3, 34), dtype=np.float32))
    with pytest.raises(ValueError, match="float32"):
        encode_state(state, 0, np.zeros(PLANES_SHAPE, dtype=np.float64))


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_legal_moves_by_index_are_the_mask(rules: str, options: dict[str, Any]) -> None:
    marks = np.full((2, NUM_ACTIONS), 5, dtype=np.int8)
    flat = marks.data.cast("B").cast("b")
    for state in random_hands(rules, options, 4):
        legal = state.legal_actions()
        moves = LegalMoves(legal)
        assert moves.indices == [action_index(a) for a in legal]
        for index in range(NUM_ACTIONS):
            move = moves.move(index)
            if index in moves.indices:
                assert move == index_action(index, state.actor)
            else:
                assert move is None
        np.testing.assert_array_equal(moves.mask(), action_mask(legal))
        moves.mark(flat, NUM_ACTIONS)
        np.testing.assert_array_equal(marks[1], action_mask(legal))
    assert (marks[0] == 5).all()


def test_the_cheap_wrappers_keep_pettingzoos_checks() -> None:
    e = env("guobiao-2p")
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    e.reset(seed=4)
    for bad in (-1, NUM_ACTIONS, 2.5):
        with pytest.raises(AssertionError, match="action space"):
            e.step(bad)
    agents = iter(e.agent_iter())
    agent = next(agents)
    with pytest.raises(AssertionError, match="call step"):
        next(agents)
    obs, reward, terminated, truncated, info = e.last()
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})
    index = np.int64(np.flatnonzero(obs["action_mask"])[0])
    e.step(index)  # a NumPy integer goes through PettingZoo's own check
    state = e.unwrapped.state
    assert state.history[-1] == index_action(int(index), 0)
    assert agent == "player_0"
