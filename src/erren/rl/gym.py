"""One seat of a hand against a bot, as a single-agent Gymnasium environment.

``gym_env(rules="xiamen", opponent="expert")``: the learner plays ``seat`` (default 0); the
opponent is a bot (:func:`erren.bots.find_bot`: ``random``, ``novice``, ``efficiency``,
``expert``), a level (``novice``, ``normal``, ``strong``, ``master``, also by its Chinese or
English name) or a :class:`~erren.bots.Bot` you built.  The bot decides from its own
observation between the learner's decisions, inside ``reset`` and ``step``.

Spaces, observation planes and the action encoding are those of the AEC environment
(:mod:`erren.rl.aec`); the mask is also returned by ``action_masks()`` (sb3-contrib's
``MaskablePPO`` reads it).  An episode is one hand; the reward is 0 until its end, then the
learner's point delta (``info["points"]``; ``info["opponent_points"]`` is the bot's).  Nothing
is ever truncated.  A hand that ends before the learner's first decision (the bot's 天胡) is
not an episode: the next hand of the same seeded sequence is dealt instead.

An illegal index raises :class:`ValueError`, or, built with ``illegal_reward=r``, ends the
episode with reward ``r`` and ``info["illegal"] = True`` (Gymnasium's ``check_env`` samples
actions without the mask).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from erren.bots import Bot, find_bot, level_bot, parse_level
from erren.bots.base import bot_names
from erren.engine import Action, Family, State, find_family, observe
from erren.rl.actions import action_mask, index_action, legal_move
from erren.rl.encoder import LegalMoves, encode_state
from erren.rl.render import render_as
from erren.rl.spaces import make_action_space, make_observation_space

__all__ = ["MahjongGymEnv", "gym_env"]

ObsDict = dict[str, Any]
"""``{"observation": planes, "action_mask": mask}`` (``spaces.Dict`` types its values Any)."""
Info = dict[str, Any]


class MahjongGymEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat against a bot; build it with :func:`gym_env`."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: str = "guobiao-2p",
        *,
        opponent: str | Bot = "random",
        seat: int = 0,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        **options: Any,
    ) -> None:
        if seat not in (0, 1):
            raise ValueError(f"the learner's seat is 0 or 1, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (known: human, ansi, or None)")
        self.rules = rules
        self.ruleset: Family = find_family(rules, options)
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.opponent = opponent
        self.bot = _opponent(opponent, seed=0, ruleset=self.ruleset)
        self.action_space = make_action_space()
        self.observation_space = make_observation_space()
        self._seeds = random.Random()
        self.last_action: Action | None = None
        self.state = State.new(self.ruleset, seed=self._seeds.getrandbits(64))
        self._over = True
        """The episode ended (the hand, or an illegal index with ``illegal_reward``)."""

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, Info]:
        """Deal a hand (``options={"dealer": 0 | 1}`` chooses the dealer, default 0) and let
        the bot play until the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            if isinstance(self.opponent, str):
                self.bot = _opponent(self.opponent, seed=seed, ruleset=self.ruleset)
        dealer = 0 if options is None else options.get("dealer", 0)
        if dealer not in (0, 1):
            raise ValueError(f"the dealer is seat 0 or 1, not {dealer!r}")
        hand_seed = seed
        while True:
            if hand_seed is None:
                hand_seed = self._seeds.getrandbits(64)
            self.state = State.new(self.ruleset, seed=hand_seed, dealer=int(dealer))
            self.last_action = None
            self._bot_plays()
            if not self.state.is_terminal:
                break
            hand_seed = None
        self._over = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def step(self, action: int | np.integer[Any]) -> tuple[ObsDict, float, bool, bool, Info]:
        if self._over:
            raise ValueError("the episode is over: call reset() to deal the next hand")
        legal = self.state.legal_actions(self.seat)
        index = int(action)
        if self.illegal_reward is not None and _row_move(index, self.seat) not in legal:
            self._over = True
            return self._observation(), float(self.illegal_reward), True, False, {"illegal": True}
        move = legal_move(index, self.seat, legal)
        self.state.apply(move)
        self.last_action = move
        self._bot_plays()
        if self.render_mode == "human":
            self.render()
        if not self.state.is_terminal:
            return self._observation(), 0.0, False, False, {}
        self._over = True
        result = self.state.result
        deltas = result.deltas if result is not None else (0, 0)
        info = {"points": deltas[self.seat], "opponent_points": deltas[1 - self.seat]}
        return self._observation(), float(deltas[self.seat]), True, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves of the learner now (sb3-contrib's ``MaskablePPO`` convention)."""
        return action_mask(self.state.legal_actions(self.seat)).astype(np.bool_)

    def render(self) -> str | None:
        """The table in text: printed (``human``) or returned (``ansi``)."""
        return render_as(self.render_mode, self.state, self.rules, self.last_action)

    # ------------------------------------------------------------------ helpers
    def _bot_plays(self) -> None:
        state = self.state
        other = 1 - self.seat
        while not state.is_terminal and state.actor == other:
            legal = state.legal_actions(other)
            bot = self.bot
            move = bot.pick(legal) if bot.blind else bot.choose(observe(state, other), legal)
            state.apply(move)
            self.last_action = move

    def _observation(self) -> ObsDict:
        state = self.state
        return {
            "observation": encode_state(state, self.seat),
            "action_mask": LegalMoves(state.legal_actions(self.seat)).mask(),
        }


def _row_move(index: int, seat: int) -> Action | None:
    """The move of row ``index``, or ``None`` outside the table."""
    try:
        return index_action(index, seat)
    except ValueError:
        return None


def _opponent(opponent: str | Bot, *, seed: int, ruleset: Family) -> Bot:
    if isinstance(opponent, Bot):
        opponent.bind(ruleset)
        return opponent
    if opponent in bot_names():
        return find_bot(opponent, seed=seed, ruleset=ruleset)
    try:
        level = parse_level(opponent)
    except ValueError:
        raise ValueError(
            f"unknown opponent {opponent!r} (bots: {', '.join(bot_names())}; "
            "levels: novice, normal, strong, master)"
        ) from None
    return level_bot(level, seed=seed, ruleset=ruleset)


def gym_env(
    rules: str = "guobiao-2p",
    *,
    opponent: str | Bot = "random",
    seat: int = 0,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
    **options: Any,
) -> MahjongGymEnv:
    """The family ``rules`` with its ``options``, the learner at ``seat`` against
    ``opponent`` (see the module's text)."""
    return MahjongGymEnv(
        rules,
        opponent=opponent,
        seat=seat,
        render_mode=render_mode,
        illegal_reward=illegal_reward,
        **options,
    )
