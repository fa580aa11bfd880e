"""The expert's decisions as a data set for :mod:`erren.bots.learned.train`.

``python -m erren.bots.learned.dataset --hands 4000 --seed 1 --out data.npz`` deals ``hands``
guobiao-2p hands (2p fan table) from ``seed`` and plays each with 大师 (``master``) on both
seats.  Every decision with more than one legal move is recorded: the acting player's
observation planes (:func:`erren.rl.planes.encode_observation`, stored as ``round(255·x)``
bytes), its legal-move mask (:func:`erren.rl.actions.action_mask`) and the index of the move
the expert chose (:func:`erren.rl.actions.action_index`).  Needs NumPy (``erren[rl]``), not
PyTorch.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from erren.bots.base import Bot, play_hand
from erren.bots.learned import LEARNT
from erren.bots.levels import Level, level_bot
from erren.engine import Action, Observation, State, find_family
from erren.rl.actions import action_index, action_mask
from erren.rl.planes import encode_observation

__all__ = ["Recorder", "Samples", "generate", "quantize"]

RULES = LEARNT


def quantize(planes: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """The planes as bytes, ``round(255·x)``: the network's input at training and play."""
    out: npt.NDArray[np.uint8] = np.rint(planes * 255.0).astype(np.uint8)
    return out


@dataclass
class Samples:
    """Recorded decisions: planes (bytes), legal masks, chosen indices."""

    planes: list[npt.NDArray[np.uint8]] = field(default_factory=list)
    masks: list[npt.NDArray[np.int8]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)

    def save(self, path: str) -> None:
        np.savez_compressed(
            path,
            planes=np.stack(self.planes),
            masks=np.stack(self.masks),
            chosen=np.asarray(self.chosen, dtype=np.int16),
        )


class Recorder(Bot):
    """Plays as ``inner`` and records its non-trivial decisions into ``samples``."""

    name = "recorder"

    def __init__(self, inner: Bot, samples: Samples) -> None:
        self.inner = inner
        self.samples = samples

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        chosen = self.inner.choose(observation, legal_actions)
        if len(legal_actions) > 1:
            self.samples.planes.append(quantize(encode_observation(observation)))
            self.samples.masks.append(action_mask(legal_actions))
            self.samples.chosen.append(action_index(chosen))
        return chosen


def generate(hands: int, seed: int, *, progress: bool = False) -> Samples:
    """The expert's decisions over ``hands`` self-play hands dealt from ``seed``."""
    ruleset = find_family(RULES)
    rng = random.Random(seed)
    samples = Samples()
    start = time.perf_counter()
    for i in range(hands):
        hand_seed, bot_seed = rng.getrandbits(63), rng.getrandbits(63)
        bots = [
            Recorder(level_bot(Level.MASTER, seed=bot_seed + seat, ruleset=ruleset), samples)
            for seat in (0, 1)
        ]
        play_hand(State.new(ruleset, seed=hand_seed, dealer=i % 2), bots)
        if progress and (i + 1) % 200 == 0:
            elapsed = time.perf_counter() - start
            print(f"{i + 1} hands, {len(samples.chosen)} decisions, {elapsed:.0f} s", flush=True)
    return samples


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="the .npz to write")
    args = parser.parse_args(argv)
    generate(args.hands, args.seed, progress=True).save(args.out)


if __name__ == "__main__":
    main()
