"""The Gymnasium spaces of :mod:`erren.rl`, the same for every family, agent and environment."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from erren.rl.actions import NUM_ACTIONS
from erren.rl.planes import NUM_PLANES
from erren.tiles import NUM_KINDS

__all__ = ["make_action_space", "make_observation_space"]


def make_action_space() -> spaces.Discrete:
    """``Discrete(NUM_ACTIONS)``: one index per row of :data:`erren.rl.actions.ACTIONS`."""
    return spaces.Discrete(NUM_ACTIONS)


def make_observation_space() -> spaces.Dict:
    """``{"observation": Box(0, 1, (NUM_PLANES, 34), float32), "action_mask": Box(0, 1,
    (NUM_ACTIONS,), int8)}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0.0, high=1.0, shape=(NUM_PLANES, NUM_KINDS), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )
