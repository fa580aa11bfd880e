"""Many hands at once: :class:`BatchEnv` steps ``n`` games with one call and answers stacked
arrays, for self-play where one policy plays both seats.

>>> from erren.rl import BatchEnv
>>> games = BatchEnv(4, rules="guobiao-2p")
>>> batch = games.reset(seed=0)
>>> batch.observation.shape, batch.action_mask.shape, batch.player.shape
((4, 44, 34), (4, 269), (4,))
>>> batch = games.step(batch.action_mask.argmax(axis=1))

Each row is one game, seen by its seat to act (``player``): the planes and mask are exactly
those the AEC environment (:func:`erren.rl.env`) gives that agent.  ``step(actions)`` plays
row ``i``'s index ``actions[i]`` for that seat; every index is checked before any game moves
(an illegal one raises :class:`ValueError` naming the row and leaves every game as it was).

When a hand ends, its row has ``terminated`` set and ``reward`` holds both seats' point deltas
(``HandResult.deltas``; zero-sum; zero for a 荒庄 without payment) — every other reward is 0
— and the game is dealt its next hand at once (auto-reset): the row's observation is then the
new hand's first decision.  Nothing is ever truncated.

Seeds: ``reset(seed=s)`` deals row ``i`` the hand ``State.new(ruleset, seed=s + i)``, and each
of its later hands takes the next seed of ``random.Random(s + i)``: row ``i`` plays the hands an
AEC environment plays after ``reset(seed=s + i)`` and then ``reset()`` at each hand's end.
Without a seed the rows' seeds come from the system's entropy.  The dealer is seat 0.

The arrays are the environment's buffers, rewritten by the next call unless ``copy=True`` (the
default) hands out copies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from erren.engine import Action, Family, State, find_family
from erren.rl.actions import NUM_ACTIONS, legal_move
from erren.rl.encoder import PLANES_SHAPE, LegalMoves, encode_into, flat_cells

__all__ = ["Batch", "BatchEnv"]

_CELLS = PLANES_SHAPE[0] * PLANES_SHAPE[1]


@dataclass(frozen=True, slots=True)
class Batch:
    """What :class:`BatchEnv` answers, one row per game."""

    observation: npt.NDArray[np.float32]
    """``(n, NUM_PLANES, 34)``: each game's planes, as its seat to act sees it."""
    action_mask: npt.NDArray[np.int8]
    """``(n, NUM_ACTIONS)``: each game's legal indices for its seat to act."""
    player: npt.NDArray[np.int8]
    """``(n,)``: each game's seat to act (0 or 1)."""
    reward: npt.NDArray[np.float32]
    """``(n, 2)``: both seats' point deltas in the games whose hand just ended, else 0."""
    terminated: npt.NDArray[np.bool_]
    """``(n,)``: the game's hand ended at this step (its row now shows the next hand)."""


class BatchEnv:
    """``num_envs`` games of the family ``rules`` (with its ``options``) stepped together."""

    def __init__(
        self, num_envs: int, rules: str = "guobiao-2p", *, copy: bool = True, **options: Any
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"a batch has at least one game, not {num_envs}")
        self.num_envs = num_envs
        self.rules = rules
        self.ruleset: Family = find_family(rules, options)
        self.copy = copy
        self._observation = np.zeros((num_envs, *PLANES_SHAPE), dtype=np.float32)
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._player = np.zeros(num_envs, dtype=np.int8)
        self._reward = np.zeros((num_envs, 2), dtype=np.float32)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._cells = flat_cells(self._observation)
        self._marks = self._mask.data.cast("B").cast("b")
        self._seeds: list[random.Random] = []
        self.states: list[State] = []
        """Each game's hand (the engine's :class:`~erren.engine.State`)."""
        self._moves: list[LegalMoves] = []

    def reset(self, seed: int | None = None) -> Batch:
        """Deal every game a new hand (seeds: see the module's text)."""
        entropy = random.Random()
        self._seeds = [
            random.Random(entropy.getrandbits(64) if seed is None else seed + i)
            for i in range(self.num_envs)
        ]
        self.states = []
        self._moves = []
        for i in range(self.num_envs):
            state = self._deal(seed + i if seed is not None else self._seeds[i].getrandbits(64), i)
            self.states.append(state)
            self._moves.append(self._write(i, state))
        self._reward[:] = 0.0
        self._terminated[:] = False
        return self._answer()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Batch:
        """Play ``actions[i]`` in game ``i`` for its seat to act; deal a new hand where one
        ends."""
        if not self.states:
            raise ValueError("call reset() before step()")
        indices = np.asarray(actions).tolist()
        if len(indices) != self.num_envs:
            raise ValueError(f"{len(indices)} actions for {self.num_envs} games")
        chosen: list[Action] = []
        for i, (state, moves, index) in enumerate(
            zip(self.states, self._moves, indices, strict=True)
        ):
            move = moves.move(index)
            if move is None:
                try:
                    move = legal_move(int(index), state.actor, state.legal_actions())
                except ValueError as error:
                    raise ValueError(f"game {i}: {error}") from None
            chosen.append(move)
        reward, terminated = self._reward, self._terminated
        reward[:] = 0.0
        terminated[:] = False
        for i, move in enumerate(chosen):
            state = self.states[i]
            state.apply(move)
            if state.is_terminal:
                result = state.result
                if result is not None:
                    reward[i] = result.deltas
                terminated[i] = True
                state = self.states[i] = self._deal(self._seeds[i].getrandbits(64), i)
            self._moves[i] = self._write(i, state)
        return self._answer()

    # ------------------------------------------------------------------ helpers
    def _deal(self, seed: int, row: int) -> State:
        """A hand with a decision: one the deal itself ends (none of the built-in families
        has such a deal) is skipped for the row's next seed."""
        state = State.new(self.ruleset, seed=seed)
        while state.is_terminal:
            state = State.new(self.ruleset, seed=self._seeds[row].getrandbits(64))
        return state

    def _write(self, i: int, state: State) -> LegalMoves:
        """Row ``i``'s planes, mask and seat to act; the legal moves of its decision."""
        seat = state.actor
        encode_into(self._cells, i * _CELLS, state, seat)
        moves = LegalMoves(state.legal_actions())
        moves.mark(self._marks, i * NUM_ACTIONS)
        self._player[i] = seat
        return moves

    def _answer(self) -> Batch:
        arrays = (self._observation, self._mask, self._player, self._reward, self._terminated)
        if self.copy:
            arrays = tuple(a.copy() for a in arrays)  # type: ignore[assignment]
        return Batch(*arrays)
