"""The computer's levels as players know them: 入门, 普通, 高手, 大师.

A :class:`Level` is what a player chooses at a table against the computer (``erren play
--level``, the web client's level chooser, the arcade campaign's stages); :func:`level_bot`
builds its bot.  The wire and command-line id is the value (``novice``, ``normal``,
``strong``, ``master``); the names shown are :attr:`Level.chinese` and :attr:`Level.english`,
and the computer's seat reads :meth:`Level.computer` (``电脑·高手``, ``Computer (Strong)``).

=========  ======  ========  ==================================================
id         中文     English   bot
=========  ======  ========  ==================================================
novice     入门     Beginner  ``novice``: sane random play (:mod:`erren.bots.novice`)
normal     普通     Normal    ``efficiency``: tile efficiency
strong     高手     Strong    ``expert`` with :data:`STRONG_KNOBS`, :data:`STRONG_BUDGET_MS`
master     大师     Master    ``expert`` as it is, :data:`MASTER_BUDGET_MS` budget
=========  ======  ========  ==================================================

>>> parse_level("高手"), parse_level("Master").computer("zh")
(Level.STRONG, '电脑·大师')
"""

from __future__ import annotations

from enum import StrEnum

from erren.bots.base import Bot, find_bot
from erren.bots.expert import DEFAULT_BUDGET_MS, ExpertBot
from erren.bots.expert.knobs import Knobs
from erren.engine import Family

__all__ = [
    "DEFAULT_LEVEL",
    "MASTER_BUDGET_MS",
    "STRONG_BUDGET_MS",
    "STRONG_KNOBS",
    "Level",
    "bot_level",
    "level_bot",
    "level_names",
    "parse_level",
]

STRONG_BUDGET_MS = 30.0
"""高手's time per decision, in milliseconds."""
STRONG_KNOBS = Knobs(
    lookahead=False, two_away_width=0, break_factor=0.0, claim_two_away_factor=-1.0, pays=False
)
"""高手 in guobiao-2p values its ready hands (discards, claims, 报听) like 大师 but does not look
ahead from one or two tiles away (nor weigh claims two from ready, nor defend against a 报听
hand): a level between 普通 and 大师
(the search is off at every budget, so the budget alone would not tell 高手 from 大师;
``python -m benchmarks.bench_arena``).  In the other families 高手 plays its strategy's
``STRONG`` knobs (``ExpertBot(strong=True)``: xiamen's and arcade's ``bot.expert.STRONG``)."""
MASTER_BUDGET_MS = DEFAULT_BUDGET_MS
"""大师's time per decision (the expert's own budget)."""


class Level(StrEnum):
    """A level of the computer; the value is its id on the wire and the command line."""

    NOVICE = "novice"
    NORMAL = "normal"
    STRONG = "strong"
    MASTER = "master"

    @property
    def chinese(self) -> str:
        return _NAMES[self][0]

    @property
    def english(self) -> str:
        return _NAMES[self][1]

    def computer(self, lang: str = "en") -> str:
        """The computer's seat name at this level: ``电脑·高手`` (``zh``) or ``Computer
        (Strong)`` (any other language)."""
        if lang == "zh":
            return f"电脑·{self.chinese}"
        return f"Computer ({self.english})"

    def __repr__(self) -> str:
        return f"Level.{self.name}"


_NAMES: dict[Level, tuple[str, str]] = {
    Level.NOVICE: ("入门", "Beginner"),
    Level.NORMAL: ("普通", "Normal"),
    Level.STRONG: ("高手", "Strong"),
    Level.MASTER: ("大师", "Master"),
}

DEFAULT_LEVEL = Level.NORMAL
"""The level of a table against the computer when none is chosen."""


_BOT_LEVELS: dict[str, Level] = {
    "novice": Level.NOVICE,
    "efficiency": Level.NORMAL,
    "expert": Level.MASTER,
}


def bot_level(bot: str) -> Level | None:
    """The level a bot named ``bot`` plays at (``efficiency`` is 普通), for naming a computer
    seat chosen by its bot's name; ``None`` for a bot no level uses (``random``).

    >>> bot_level("efficiency"), bot_level("random")
    (Level.NORMAL, None)
    """
    return _BOT_LEVELS.get(bot)


def level_names() -> str:
    """Every level with its names, for messages: ``novice (入门, Beginner), ...``."""
    return ", ".join(f"{lv.value} ({lv.chinese}, {lv.english})" for lv in Level)


def parse_level(text: str) -> Level:
    """The level named ``text``: its id, its Chinese or its English name (case and
    surrounding space do not matter); :class:`ValueError` naming ``text`` and the known
    levels otherwise."""
    key = text.strip().casefold()
    for level in Level:
        if key in (level.value, level.chinese, level.english.casefold()):
            return level
    raise ValueError(f"unknown level {text!r} (known: {level_names()})")


def level_bot(level: Level, *, seed: int | None = None, ruleset: Family | None = None) -> Bot:
    """The bot that plays ``level``, seeded and, with ``ruleset``, bound to those rules."""
    bot: Bot
    if level is Level.NOVICE:
        bot = find_bot("novice", seed=seed)
    elif level is Level.NORMAL:
        bot = find_bot("efficiency", seed=seed)
    elif level is Level.STRONG:
        bot = ExpertBot(seed=seed, budget_ms=STRONG_BUDGET_MS, knobs=STRONG_KNOBS, strong=True)
    else:
        bot = ExpertBot(seed=seed, budget_ms=MASTER_BUDGET_MS)
    if ruleset is not None:
        bot.bind(ruleset)
    return bot
