"""The wait reader: each kind's chance to be a winning tile of the opponent now (guobiao-2p).

A one-hidden-layer perceptron shared by the 16 playing kinds reads each kind's feature row
(:mod:`erren.bots.waitreader.features`) and gives the chance that the opponent's concealed
hand, as it is now, wins on that kind (a legal win on a discard: shape and, in the ``gb``
table, the 8-fan minimum).  Before his 报听 the chance folds in the chance that he is ready at
all.  Kinds that are certainly not a winning tile get exactly 0 (see
:func:`~erren.bots.waitreader.features.encode`), the kinds not in play too.

The weights (``weights.npz`` beside this module, 48 hidden units) were made by NumPy alone,
from 普通 self-play of seed 1, 30 % of the seats never declaring 报听 (the commands are in
:mod:`erren.bots.waitreader.train`; 349,396 positions, 69,942 of them after a 报听)::

    python -m erren.bots.waitreader.dataset --hands 30000 --seed 1 --out wr_train.npz
    python -m erren.bots.waitreader.train --data wr_train.npz \
        --out src/erren/bots/waitreader/weights.npz --seed 1

A documented position (``tests/bots/test_wait_reader.py``): the first position after a 报听 in
:func:`~erren.bots.waitreader.dataset.positions` ``(10, 7)`` (he is the dealer, declared with
his fifth discard; his real winning tiles are 白 and 中): the reader gives 白 0.287, 中 0.287,
发 0.235, 东 and 南 0.161, the ranks 0.000–0.081, his discarded 西 and 北 below 0.001.

    >>> from erren.bots.waitreader import load_reader
    >>> reader = load_reader()          # cached
    >>> # reader.chances(observation) -> numpy array (34,) of float64

Needs NumPy (the ``rl`` extra): a caller in the engine's core should import this package
lazily and fall back when it is missing.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from erren.bots.waitreader.features import NUM_FEATURES, encode
from erren.engine import Observation
from erren.tiles import NUM_KINDS

__all__ = ["WEIGHTS", "WaitReader", "load_reader"]

WEIGHTS = Path(__file__).resolve().parent / "weights.npz"
"""The shipped weights."""

Array = npt.NDArray[np.float64]


class WaitReader:
    """``chances(observation)``: for each of the 34 kinds, its chance to win for the
    opponent now.  Weights: ``w1`` (features × hidden), ``b1``, ``w2`` (hidden), ``b2``, and
    the features' ``mean``/``scale`` the inputs are standardised with."""

    def __init__(
        self,
        *,
        w1: Array,
        b1: Array,
        w2: Array,
        b2: float,
        mean: Array,
        scale: Array,
    ) -> None:
        if w1.shape[0] != NUM_FEATURES:
            raise ValueError(f"weights for {w1.shape[0]} features, the reader has {NUM_FEATURES}")
        # Standardisation folded into the first layer: (x - mean) / scale @ w1.
        self.w1 = (w1 / scale[:, None]).astype(np.float64)
        self.b1 = (b1 - (mean / scale) @ w1).astype(np.float64)
        self.w2 = w2.astype(np.float64)
        self.b2 = float(b2)

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> WaitReader:
        with np.load(path) as data:
            return cls(
                w1=data["w1"].astype(np.float64),
                b1=data["b1"].astype(np.float64),
                w2=data["w2"].astype(np.float64),
                b2=float(data["b2"]),
                mean=data["mean"].astype(np.float64),
                scale=data["scale"].astype(np.float64),
            )

    def logits(self, features: npt.NDArray[np.floating]) -> Array:
        """The model's logits of feature rows ``(n, NUM_FEATURES)``."""
        hidden = np.maximum(features @ self.w1 + self.b1, 0.0)
        out: Array = hidden @ self.w2 + self.b2
        return out

    def chances(
        self, observation: Observation, *, fan_table: str = "2p", ting_auto_hu: bool = True
    ) -> Array:
        """Shape ``(34,)``, float64: each kind's chance to be a winning tile of the opponent
        (``observation.opponent``) now; 0 exactly on the kinds that cannot be one.
        ``fan_table``: the table's fan table (``"2p"`` or ``"gb"``); ``ting_auto_hu``: the
        table's option (on by default: then a 报听 hand's later discards are safe)."""
        kinds, x, never = encode(observation, fan_table=fan_table, ting_auto_hu=ting_auto_hu)
        p = 1.0 / (1.0 + np.exp(-self.logits(x)))
        p[never] = 0.0
        out = np.zeros(NUM_KINDS, dtype=np.float64)
        out[kinds] = p
        return out


@lru_cache(maxsize=1)
def load_reader() -> WaitReader:
    """The reader with the shipped weights (loaded once)."""
    return WaitReader.load(WEIGHTS)
