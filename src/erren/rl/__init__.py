"""Reinforcement learning on erren's hands: PettingZoo and Gymnasium environments.

Needs the optional extra: ``pip install 'erren[rl]'`` (PettingZoo, Gymnasium, NumPy); the
engine itself never imports them.

>>> from erren.rl import env
>>> e = env(rules="guobiao-2p")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((44, 34), (269,))

* :mod:`~erren.rl.actions` — the fixed action encoding (one ``Discrete(269)`` for every family);
* :mod:`~erren.rl.planes` — one player's observation as planes;
* :mod:`~erren.rl.aec` — the multi-agent :func:`env` (a ``pettingzoo.AECEnv``, one hand per
  episode);
* :mod:`~erren.rl.gym` — :func:`gym_env`, one seat against a bot (a ``gymnasium.Env``);
* :mod:`~erren.rl.batch` — :class:`BatchEnv`, many hands stepped at once (stacked arrays,
  auto-reset) for self-play;
* :mod:`~erren.rl.encoder` — :func:`encode_state`, the planes read straight from the state
  (the environments' fast path, equal to encoding the observation);
* :mod:`~erren.rl.wrappers` — PettingZoo's wrappers with cheap checks;
* :mod:`~erren.rl.render` — the text render.

docs/rl.md documents both encodings.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from erren.rl.actions import ACTIONS, NUM_ACTIONS, action_index, describe, index_action
    from erren.rl.aec import AGENTS, MahjongEnv, env, raw_env
    from erren.rl.batch import Batch, BatchEnv
    from erren.rl.encoder import encode_state
    from erren.rl.gym import MahjongGymEnv, gym_env
    from erren.rl.planes import NUM_PLANES, PLANES, encode_observation

__all__ = [
    "ACTIONS",
    "AGENTS",
    "NUM_ACTIONS",
    "NUM_PLANES",
    "PLANES",
    "Batch",
    "BatchEnv",
    "MahjongEnv",
    "MahjongGymEnv",
    "action_index",
    "describe",
    "encode_observation",
    "encode_state",
    "env",
    "gym_env",
    "index_action",
    "raw_env",
]

_HOME = {
    **dict.fromkeys(
        ("ACTIONS", "NUM_ACTIONS", "action_index", "describe", "index_action"), "actions"
    ),
    **dict.fromkeys(("AGENTS", "MahjongEnv", "env", "raw_env"), "aec"),
    **dict.fromkeys(("MahjongGymEnv", "gym_env"), "gym"),
    **dict.fromkeys(("Batch", "BatchEnv"), "batch"),
    "encode_state": "encoder",
    **dict.fromkeys(("NUM_PLANES", "PLANES", "encode_observation"), "planes"),
}
"""The module of each public name, imported when the name is first asked: a family's ``rl``
part imports :mod:`erren.rl.layout` without the environments, and the layout is composed
from the registered families only once one is asked for."""


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
