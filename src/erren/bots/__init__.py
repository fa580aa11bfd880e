"""Computer players behind one interface: ``choose(observation, legal_actions) -> Action``.

* :mod:`~erren.bots.base` — the :class:`Bot` interface and the registry (``find_bot(name)``);
* :mod:`~erren.bots.strategy` — a family's own play (its ``bot`` package's strategy, found
  through its :class:`~erren.engine.Family`), which the bots below ask before the shared play;
* :mod:`~erren.bots.random_bot` — ``random``, uniform over the legal actions;
* :mod:`~erren.bots.efficiency` — ``efficiency``, tile efficiency: least shanten, most
  effective tiles, sensible claims and 报听;
* :mod:`~erren.bots.expert` — ``expert``, play for value (大师);
* :mod:`~erren.bots.learned` — ``learned``, a small network imitating the expert in guobiao-2p,
  run in NumPy (registered when the ``rl`` extra is installed).
"""

from __future__ import annotations

from erren.bots.base import Bot, BotError, BotFactory, bot_names, find_bot, register_bot
from erren.bots.efficiency import EfficiencyBot
from erren.bots.levels import Level, level_bot, parse_level
from erren.bots.novice import NoviceBot
from erren.bots.random_bot import RandomBot

__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "EfficiencyBot",
    "Level",
    "NoviceBot",
    "RandomBot",
    "bot_names",
    "find_bot",
    "level_bot",
    "parse_level",
    "register_bot",
]
