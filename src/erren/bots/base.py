"""The bot interface and the registry of bots by name.

A bot sees exactly what a player sees: ``choose(observation, legal_actions)`` receives the
player's :class:`~erren.engine.Observation` and the moves he may make, and returns one of them.
It never receives the :class:`~erren.engine.State`.  Bots are found by name, each built with a
seed so that a simulation is reproducible::

    >>> from erren.bots import find_bot, bot_names
    >>> bot = find_bot("random", seed=1)
    >>> "efficiency" in bot_names()
    True

A bot that decides from the legal actions alone sets ``blind = True`` and implements
:meth:`Bot.pick`; the simulator then skips building the observation (it is the costliest part of
a random game).  Both paths make the same choice from the same generator state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import ClassVar

from erren.engine import Action, Observation, Ruleset, State

__all__ = ["Bot", "BotFactory", "bot_names", "find_bot", "play_hand", "register_bot"]


class Bot(ABC):
    """One computer player.  Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str] = ""
    blind: ClassVar[bool] = False
    """True if :meth:`choose` ignores its observation (then :meth:`pick` is implemented)."""
    deliberate: ClassVar[bool] = False
    """True if a decision may take milliseconds (a search with a time budget): a server runs
    it in a worker thread rather than on its event loop; a quick bot is cheaper inline."""

    @abstractmethod
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions`` (never empty) for the player of ``observation``."""

    def bind(self, ruleset: Ruleset) -> None:
        """Learn the rules of the table (its minimum, cap and fan table) before play; a bot that
        plays the same whatever the options ignores it.  Called by :func:`find_bot` when given
        a ruleset, and again whenever the bot changes table."""
        return

    def pick(self, legal_actions: Sequence[Action]) -> Action:
        """The choice of a blind bot, without an observation."""
        raise NotImplementedError(f"bot {self.name!r} needs an observation")

    def __repr__(self) -> str:
        return f"find_bot({self.name!r})"


def play_hand(state: State, bots: Sequence[Bot]) -> State:
    """Play ``state`` to its end with ``bots[seat]`` deciding for each seat (the simulator's
    hands, the arena's games and a searching bot's rollouts)."""
    while not state.is_terminal:
        seat = state.actor
        bot = bots[seat]
        legal = state.legal_actions()
        if bot.blind:
            state.apply(bot.pick(legal))
        else:
            state.apply(bot.choose(state.observe(seat), legal))
    return state


BotFactory = Callable[..., Bot]
"""``factory(seed=...)`` builds a bot."""

_REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``find_bot(name, seed=s)`` call ``factory(seed=s)``."""
    _REGISTRY[name] = factory


def bot_names() -> tuple[str, ...]:
    """The registered bot names, sorted."""
    _load_builtin()
    return tuple(sorted(_REGISTRY))


def find_bot(name: str, *, seed: int | None = None, ruleset: Ruleset | None = None) -> Bot:
    """The bot registered as ``name``, seeded and, with ``ruleset``, bound to those rules
    (:meth:`Bot.bind`); an unknown name raises :class:`ValueError`."""
    _load_builtin()
    factory = _REGISTRY.get(name)
    if factory is None:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    bot = factory(seed=seed)
    if ruleset is not None:
        bot.bind(ruleset)
    return bot


def _load_builtin() -> None:
    # The built-in bots register themselves on import.
    import erren.bots.efficiency  # noqa: PLC0415
    import erren.bots.expert  # noqa: PLC0415
    import erren.bots.novice  # noqa: PLC0415
    import erren.bots.random_bot  # noqa: F401, PLC0415
