"""One hand of any family as a PettingZoo AEC environment, in the manner of PettingZoo's classic
games (``chess_v6``, ``leduc_holdem_v4``).

* Agents ``player_0`` and ``player_1`` are the seats 0 and 1; ``agent_selection`` is the seat to
  act, which may be the same agent several times in a row (a draw, then a kong, then a discard).
* Actions: ``Discrete(269)`` over :data:`erren.rl.actions.ACTIONS`, the same table in every
  family; observations ``{"observation": (NUM_PLANES, 34) float32, "action_mask": (269,)
  int8}`` built from the agent's own :class:`~erren.engine.Observation` only
  (:mod:`erren.rl.planes`; read from the state by :func:`~erren.rl.encoder.encode_state`,
  which equals encoding the observation).  The mask is exactly the legal moves; it is all zero
  for the agent that is not to act.
* An episode is one hand.  When it ends both agents are terminated and rewarded with their
  point deltas (``HandResult.deltas``, zero-sum; 0 for a 荒庄 without payment), also in
  ``infos[agent]["points"]``.  Every other reward is 0.  Nothing is ever truncated: every hand
  ends by a win or an exhausted wall.
* ``reset(seed=s)`` deals the hand ``State.new(ruleset, seed=s, dealer=d)`` (``d`` from
  ``options={"dealer": d}``, default 0): the same seed gives the same hand and observations.
  ``reset()`` without a seed takes the next seed from a generator seeded by the last seeded
  reset (from the system's entropy before one).
* ``env.unwrapped.state`` is the engine's :class:`~erren.engine.State` of the hand (it takes the
  place of PettingZoo's global-observation ``state()``, which this game does not offer).
* An index that is not a legal move raises :class:`ValueError` naming it (or, built with
  ``illegal_reward=r``, PettingZoo's ``TerminateIllegalWrapper`` ends the hand with ``r``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from erren.engine import Action, Family, State, find_family
from erren.engine.phases import Phase
from erren.rl.actions import NUM_ACTIONS, legal_move
from erren.rl.encoder import LegalMoves, encode_state
from erren.rl.render import render_as
from erren.rl.spaces import make_action_space, make_observation_space
from erren.rl.wrappers import BoundsChecked, OrderEnforced

__all__ = ["AGENTS", "MahjongEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
"""The agents, seat 0 then seat 1."""
_SEATS = {name: seat for seat, name in enumerate(AGENTS)}
_END = Phase.END

ObsDict = dict[str, npt.NDArray[Any]]


class MahjongEnv(AECEnv):
    """The raw environment (no wrappers); :func:`env` is the one to use."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "erren_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    agent_selection: str
    state: State
    """The engine's hand (PettingZoo's global ``state()`` is not offered)."""

    def __init__(
        self, rules: str = "guobiao-2p", *, render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (known: human, ansi, or None)")
        self.rules = rules
        self.ruleset: Family = find_family(rules, options)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._action_space = make_action_space()
        self._observation_space = make_observation_space()
        self._seeds = random.Random()
        self.last_action: Action | None = None
        self._moves: tuple[LegalMoves | None, State | None, int] = (None, None, -1)
        """The legal moves of the decision, the hand and the number of its actions then."""
        self.state = self._deal(self._seeds.getrandbits(64), 0)
        self._start()

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        self._seat(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        self._seat(agent)
        return self._action_space

    # ------------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new hand (``options={"dealer": 0 | 1}`` chooses the dealer; other keys are
        ignored, as PettingZoo's own checks pass arbitrary ones)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        dealer = 0 if options is None else options.get("dealer", 0)
        if dealer not in (0, 1):
            raise ValueError(f"the dealer is seat 0 or 1, not {dealer!r}")
        hand_seed = seed if seed is not None else self._seeds.getrandbits(64)
        self.state = self._deal(hand_seed, int(dealer))
        self._start()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> ObsDict:
        seat = _SEATS.get(agent)
        if seat is None:
            seat = self._seat(agent)  # raises
        state = self.state
        if seat == state.actor and state.phase is not _END:
            mask = self._legal_moves().mask()
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": encode_state(state, seat), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act and must choose an action index, not None")
        seat = _SEATS[agent]  # the agent to act
        state = self.state
        move = self._legal_moves().move(int(action)) if seat == state.actor else None
        if move is None:
            move = legal_move(int(action), seat, state.legal_actions(seat))
        self._cumulative_rewards[agent] = 0.0
        state.apply(move)
        self.last_action = move
        if state.phase is _END:
            self._clear_rewards()
            result = state.result
            deltas = result.deltas if result is not None else (0, 0)
            for seat_of, name in enumerate(AGENTS):
                self.rewards[name] = float(deltas[seat_of])
                self.terminations[name] = True
                self.infos[name] = {"points": deltas[seat_of]}
            self._accumulate_rewards()
        else:
            # every reward is 0 until the end: clearing and accumulating them changes nothing
            self.agent_selection = AGENTS[state.actor]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table in text: printed (``human``) or returned (``ansi``)."""
        return render_as(self.render_mode, self.state, self.rules, self.last_action)

    def close(self) -> None:
        return

    # ------------------------------------------------------------------ helpers
    def _legal_moves(self) -> LegalMoves:
        """The legal moves of the seat to act, built once per decision."""
        state = self.state
        moves, of, at = self._moves
        if of is not state or at != len(state.history) or moves is None:
            moves = LegalMoves(state.legal_actions())
            self._moves = (moves, state, len(state.history))
        return moves

    def _deal(self, seed: int, dealer: int) -> State:
        return State.new(self.ruleset, seed=seed, dealer=dealer)

    def _start(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in AGENTS}
        self.last_action = None
        self.agent_selection = AGENTS[self.state.actor]
        self._skip_agent_selection: str | None = None  # PettingZoo's, read by _was_dead_step

    @staticmethod
    def _seat(agent: str) -> int:
        seat = _SEATS.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r} (agents: player_0, player_1)")
        return seat

    def __str__(self) -> str:
        return f"erren_v0({self.rules})"


raw_env = MahjongEnv
"""PettingZoo's name for the unwrapped environment."""


def env(
    rules: str = "guobiao-2p",
    *,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
    **options: Any,
) -> AECEnv:
    """The environment of the family ``rules`` with its ``options`` (``fan_table="gb"``...),
    wrapped as PettingZoo's classic games are (out-of-bounds checks, call order: their
    subclasses of :mod:`erren.rl.wrappers`, the same checks made cheaply).  With
    ``illegal_reward`` an illegal index ends the hand with that reward for the offender instead
    of raising :class:`ValueError`."""
    wrapped: AECEnv = MahjongEnv(rules, render_mode=render_mode, **options)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    return OrderEnforced(BoundsChecked(wrapped, NUM_ACTIONS))
