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

A bot that follows the hand event by event (an external program fed mjai messages) sets
``listens = True``: every driver then calls :meth:`Bot.hear` with the events its seat has seen
before each of its decisions and once when the hand ends (:class:`Ears`), and
:meth:`Bot.close` when the run is over.  A bot that cannot give a move raises
:class:`BotError`; the driver then plays the spec's default move for the seat exactly as a
table does when a player's clock runs out (the ``timeout`` system action, guobiao-2p §2.9).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import ClassVar

from erren.engine import Action, ActionKind, Event, Family, Observation, State

__all__ = [
    "BUILT_IN",
    "Bot",
    "BotError",
    "BotFactory",
    "Ears",
    "bot_names",
    "find_bot",
    "play_hand",
    "register_bot",
    "timeout_of",
]


class BotError(Exception):
    """A bot could not give a move (an external program answered late, wrongly or not at
    all; it has said why).  The driver plays the default move for its seat
    (:func:`timeout_of`); ``gone`` is true when the bot will never answer again."""

    def __init__(self, message: str, *, gone: bool = False) -> None:
        super().__init__(message)
        self.gone = gone


class Bot(ABC):
    """One computer player.  Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str] = ""
    blind: ClassVar[bool] = False
    """True if :meth:`choose` ignores its observation (then :meth:`pick` is implemented)."""
    deliberate: ClassVar[bool] = False
    """True if a decision may take milliseconds (a search with a time budget): a server runs
    it in a worker thread rather than on its event loop; a quick bot is cheaper inline."""
    listens: ClassVar[bool] = False
    """True if the bot follows the hand's events (:meth:`hear`); drivers skip the work for
    the others."""

    @abstractmethod
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions`` (never empty) for the player of ``observation``."""

    ruleset: Family | None = None
    """The rules the bot was last bound to (:meth:`bind`); ``None`` before.  A family's
    strategy reads it where the table's options change the play (arcade's stage mode)."""

    def bind(self, ruleset: Family) -> None:
        """Learn the rules of the table (its minimum, cap and fan table) before play: kept in
        :attr:`ruleset`.  Called by :func:`find_bot` when given a ruleset, and again whenever
        the bot changes table."""
        self.ruleset = ruleset

    def hear(self, observation: Observation, events: Sequence[Event]) -> None:
        """The events the bot's seat has seen since it last heard (each ``seen_by`` that seat,
        in order, a hand's from its first) and the seat's observation after them; called
        before each decision and once when the hand is over (``observation.result``).  Only
        for a bot that ``listens``."""
        return

    def close(self) -> None:
        """Let go of what the bot holds (an external program); drivers call it when the bot's
        run or match is over.  Nothing for an ordinary bot."""
        return

    def pick(self, legal_actions: Sequence[Action]) -> Action:
        """The choice of a blind bot, without an observation."""
        raise NotImplementedError(f"bot {self.name!r} needs an observation")

    def __repr__(self) -> str:
        return f"find_bot({self.name!r})"


def timeout_of(seat: int) -> Action:
    """The system action a driver applies for ``seat`` when its bot raised
    :class:`BotError`: a ``timeout``, for which the engine plays the ruleset's default move
    (``Family.default_move``; :mod:`erren.engine.autoplay`), as at a server table."""
    return Action.make(ActionKind.TIMEOUT, seat)


class Ears:
    """Tells the listening bots of one hand what their seats have seen (:meth:`Bot.hear`)."""

    def __init__(self, bots: Sequence[Bot]) -> None:
        self.bots = bots
        self.heard = [0, 0]

    def tell(self, state: State, seat: int, observation: Observation) -> None:
        """Before ``seat`` decides: the events since it last heard, and ``observation``."""
        bot = self.bots[seat]
        if bot.listens:
            events = state.events_since(seat, self.heard[seat])
            self.heard[seat] = state.event_count
            bot.hear(observation, events)

    def finish(self, state: State) -> None:
        """After the hand: every listening seat hears the rest, the end included."""
        for seat in (0, 1):
            if self.bots[seat].listens:
                self.tell(state, seat, state.observe(seat))


def play_hand(state: State, bots: Sequence[Bot]) -> State:
    """Play ``state`` to its end with ``bots[seat]`` deciding for each seat (the simulator's
    hands, the arena's games and a searching bot's rollouts); a listening bot hears its
    seat's events, a :class:`BotError` makes a ``timeout`` (:func:`timeout_of`)."""
    ears = Ears(bots) if bots[0].listens or bots[1].listens else None
    while not state.is_terminal:
        seat = state.actor
        bot = bots[seat]
        legal = state.legal_actions()
        if bot.blind:
            state.apply(bot.pick(legal))
            continue
        observation = state.observe(seat)
        if ears is not None:
            ears.tell(state, seat, observation)
        try:
            action = bot.choose(observation, legal)
        except BotError:
            state.apply_system(timeout_of(seat))
            continue
        state.apply(action)
    if ears is not None:
        ears.finish(state)
    return state


BotFactory = Callable[..., Bot]
"""``factory(seed=...)`` builds a bot."""

_REGISTRY: dict[str, BotFactory] = {}

BUILT_IN: tuple[str, ...] = (
    "erren.bots.efficiency",
    "erren.bots.expert",
    "erren.bots.learned",
    "erren.bots.novice",
    "erren.bots.random_bot",
)
"""The modules that register the built-in bots (each calls :func:`register_bot` on import);
a family's own play is no bot of its own but its strategy (:mod:`erren.bots.strategy`)."""


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``find_bot(name, seed=s)`` call ``factory(seed=s)``."""
    _REGISTRY[name] = factory


def bot_names() -> tuple[str, ...]:
    """The registered bot names, sorted."""
    _load_builtin()
    return tuple(sorted(_REGISTRY))


def find_bot(name: str, *, seed: int | None = None, ruleset: Family | None = None) -> Bot:
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
    """Import every module of :data:`BUILT_IN`, so each registers its bots (cheap after the
    first)."""
    for module in BUILT_IN:
        importlib.import_module(module)
