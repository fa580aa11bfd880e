"""``learned``: a small network that imitates 大师 (the expert) in guobiao-2p, run in NumPy.

The network (trained by :mod:`erren.bots.learned.train` on the expert's self-play decisions
recorded by :mod:`erren.bots.learned.dataset`; docs/notes/learned-policy.md) reads the acting
player's observation planes (:func:`erren.rl.planes.encode_observation`, as bytes / 255) and
scores the 269 moves of :mod:`erren.rl.actions`; the bot plays the best-scored legal move
(the lowest index on a tie), and always wins when it may (the expert does, in every recorded
decision).  Outside guobiao-2p it plays the expert's fast policy.  Observation only,
deterministic, no search: a decision is one encoding and three matrix products.

``learned-raw`` is the network alone.  ``learned`` (the default) lets it choose its discard
(or 报听) only among the tiles that leave the least shanten: a guard against the network's
rare shape-breaking discards, worth +0.7 points a hand against 大师 (docs/notes).

Needs NumPy and :mod:`erren.rl` (``pip install 'erren[rl]'``), imported when the bot is built;
both names are registered only when they are installed (:func:`rl_installed`).  The weights
(``policy.npz``, float16, 1.1 MB) ship in the package.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from importlib import resources
from importlib.util import find_spec
from typing import TYPE_CHECKING, ClassVar

from erren.analysis.shanten import shanten
from erren.bots.base import Bot, register_bot
from erren.bots.efficiency import seen_counts
from erren.bots.expert import ExpertBot
from erren.engine import Action, ActionKind, Family, Observation
from erren.engine.phases import Phase

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["WEIGHTS", "LearnedBot", "Network", "rl_installed"]

WEIGHTS = "policy.npz"
"""The weights' file in this package."""
LEARNT = "guobiao-2p"
"""The family whose decisions the network learnt (:data:`erren.bots.learned.dataset.RULES`):
its observations carry that family's view (``view.family``)."""
WINS = (ActionKind.HU, ActionKind.ZIMO)
DISCARDS = (ActionKind.DISCARD, ActionKind.TING)


class Network:
    """The trained perceptron: ``x @ w0 + b0``, ReLU, ..., the last layer without ReLU."""

    def __init__(
        self,
        keep: npt.NDArray[np.intp],
        layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
    ) -> None:
        self.keep = keep
        """The indices of the flattened planes the first layer reads."""
        self.layers = list(layers)

    @classmethod
    def load(cls, path: str | None = None) -> Network:
        """The network of ``path`` (an ``.npz`` written by :func:`train.save`), by default
        the package's own."""
        import numpy as np  # noqa: PLC0415

        if path is None:
            raw = resources.files(__package__).joinpath(WEIGHTS).read_bytes()
        else:
            with open(path, "rb") as file:
                raw = file.read()
        data = np.load(io.BytesIO(raw))
        count = sum(1 for name in data.files if name.startswith("w"))
        return cls(
            data["keep"].astype(np.intp),
            [
                (
                    np.ascontiguousarray(data[f"w{i}"], dtype=np.float32),
                    data[f"b{i}"].astype(np.float32),
                )
                for i in range(count)
            ],
        )

    def logits(self, planes: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The 269 move scores of one observation's planes."""
        import numpy as np  # noqa: PLC0415

        x: npt.NDArray[np.float32] = np.rint(planes.reshape(-1)[self.keep] * 255.0) / np.float32(
            255.0
        )
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        return x.astype(np.float32)


@cache
def _package_network() -> Network:
    return Network.load()


class LearnedBot(Bot):
    """The network's choice in guobiao-2p; the expert's fast policy elsewhere."""

    name: ClassVar[str] = "learned"

    def __init__(
        self, *, seed: int | None = None, network: Network | None = None, guard: bool = True
    ) -> None:
        from erren.rl.actions import action_index  # noqa: PLC0415
        from erren.rl.planes import encode_observation  # noqa: PLC0415

        self.network = network if network is not None else _package_network()
        self.fallback = ExpertBot(seed=seed, budget_ms=0)
        self.guard = guard
        """Discard (or 报听) only among the tiles that leave the least shanten."""
        self._index = action_index
        self._encode = encode_observation

    def bind(self, ruleset: Family) -> None:
        self.fallback.bind(ruleset)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.view.family != LEARNT:
            return self.fallback.choose(observation, legal_actions)
        for action in legal_actions:
            if action.kind in WINS:
                return action
        candidates = legal_actions
        if self.guard and observation.phase is Phase.TURN:
            candidates = self._least_shanten(observation, legal_actions)
        scores = self.network.logits(self._encode(observation))
        return max(candidates, key=lambda a: (scores[self._index(a)], -self._index(a)))

    def _least_shanten(self, observation: Observation, legal: Sequence[Action]) -> list[Action]:
        """``legal`` without the discards and 报听 that leave more than the least shanten."""
        hand, _ = seen_counts(observation)
        after: dict[int, int] = {}
        for action in legal:
            if action.kind in DISCARDS:
                tile = action.tile_kind()
                if tile not in after:
                    hand[tile] -= 1
                    after[tile] = shanten(hand, shapes=self.fallback.shapes)
                    hand[tile] += 1
        if not after:
            return list(legal)
        least = min(after.values())
        return [a for a in legal if a.kind not in DISCARDS or after[a.tile_kind()] == least]


def _unguarded(*, seed: int | None = None) -> LearnedBot:
    return LearnedBot(seed=seed, guard=False)


def rl_installed() -> bool:
    """True if the ``rl`` extra (NumPy, and the PettingZoo and Gymnasium that importing
    :mod:`erren.rl` needs) is installed: only then are ``learned`` and ``learned-raw``
    registered, so that a server without it never offers them."""
    return all(find_spec(name) is not None for name in ("numpy", "gymnasium", "pettingzoo"))


if rl_installed():
    register_bot("learned", LearnedBot)
    register_bot("learned-raw", _unguarded)
