"""``erren play``: a game of two-player mahjong against the computer in the terminal.

Everything the player needs is on the screen: the opponent's melds and discards, the tiles
left, the player's hand with a number under each tile, and the choices of the moment with their
keys (a number to discard, ``t``+number to discard and declare 报听, ``h`` to win, ``g`` kong,
``p`` pung, ``c`` chow, Enter to pass, ``a`` for advice, ``q`` to quit).  Bad input is answered
with a message and the same question.  After each hand a settlement screen lists the fans and the
points, and the match score runs on until ``q``, Ctrl-C or the end of input.

The human is seat 0, the computer seat 1; the computer receives only its observation.  It
plays a level (``--level``: ``novice`` 入门, ``normal`` 普通 (the default), ``strong`` 高手,
``master`` 大师) and is shown as ``Computer (Strong)``; ``--bot`` seats any registered bot
instead.  The advice (``a``) is the ``expert`` bot's.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from dataclasses import dataclass
from typing import TextIO

from erren.bots import Bot, Level, bot_names, find_bot, level_bot, parse_level
from erren.bots.levels import DEFAULT_LEVEL, level_names
from erren.cli.console import Console, QuitRequested
from erren.cli.menu import (
    ask_menu,
    choices,
    follow_note,
    free_choice,
    key_list,
    offer_of,
    situation,
)
from erren.cli.settlement import settlement_lines
from erren.cli.simulate import add_ruleset_arguments, parse_option
from erren.cli.table import hand_lines, show_table
from erren.cli.words import COMPUTER, HUMAN, NAMES, narrate
from erren.display import LEGEND, Palette, use_color, view_line
from erren.engine import Family, Match, State, family_names, find_family
from erren.engine.phases import Phase
from erren.engine.result import ResultKind
from erren.tiles import Tile

NAME = "play"
HELP = "Play two-player mahjong against the computer in the terminal."

_WIND = {Tile.EAST: "东 East", Tile.SOUTH: "南 South", Tile.WEST: "西 West", Tile.NORTH: "北 North"}

_HELP = (
    "Type the key shown before a choice, e.g. 5 to discard tile number 5,",
    "t5 to discard it and declare 报听 (then the computer plays your draws",
    "and wins for you), h to win, p/c/g to claim, Enter to pass, q to quit.",
)
"""What ``?`` shows at a decision."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset_arguments(parser)
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the match (default: random)"
    )
    add_table_arguments(parser)


def add_table_arguments(parser: argparse.ArgumentParser, *, level_default: str = "normal") -> None:
    """``--level``, ``--bot``, ``--ascii`` and ``--no-color``: the opponent and the display."""
    parser.add_argument(
        "--level",
        default=None,
        help="the computer's level: novice (入门), normal (普通), strong (高手) or master (大师), "
        f"by its id, Chinese or English name (default: {level_default})",
    )
    parser.add_argument(
        "--bot",
        default=None,
        help=f"instead of a level, any registered bot by its name ({', '.join(bot_names())})",
    )
    parser.add_argument(
        "--ascii", action="store_true", help="tiles in the notation (5m, 7z) instead of 5万, 中"
    )
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")


@dataclass(frozen=True, slots=True)
class Opponent:
    """Who plays the computer: a :class:`~erren.bots.Level`, or a bot named with ``--bot``
    (neither: the caller decides, as the arcade campaign does stage by stage)."""

    level: Level | None = DEFAULT_LEVEL
    bot: str | None = None

    def make(self, *, seed: int | None, ruleset: Family, level: Level | None = None) -> Bot:
        """The computer's bot, bound to ``ruleset``; ``level`` when none was chosen."""
        if self.bot is not None:
            return find_bot(self.bot, seed=seed, ruleset=ruleset)
        chosen = self.level or level or DEFAULT_LEVEL
        return level_bot(chosen, seed=seed, ruleset=ruleset)

    def label(self, level: Level | None = None) -> str:
        """The computer's name on the screen: ``Computer (Strong)``, ``Computer (random)``."""
        if self.bot is not None:
            return f"Computer ({self.bot})"
        return (self.level or level or DEFAULT_LEVEL).computer("en")


def opponent_of(command: str, args: argparse.Namespace, default: Level | None) -> Opponent | None:
    """The opponent ``--level`` or ``--bot`` asks for (``default`` level without either); if
    they are wrong, says why on stderr as ``erren <command>`` and returns ``None``."""
    level_text: str | None = args.level
    bot: str | None = args.bot
    if bot is not None and level_text is not None:
        print(
            f"erren {command}: --bot and --level both choose the computer; give one of them",
            file=sys.stderr,
        )
        return None
    if bot is not None:
        if bot not in bot_names():
            known = ", ".join(bot_names())
            print(f"erren {command}: unknown bot {bot!r} (known: {known})", file=sys.stderr)
            return None
        return Opponent(level=None, bot=bot)
    if level_text is None:
        return Opponent(level=default)
    try:
        return Opponent(level=parse_level(level_text))
    except ValueError:
        print(
            f"erren {command}: unknown level {level_text!r} (known: {level_names()})",
            file=sys.stderr,
        )
        return None


def palette_of(args: argparse.Namespace) -> Palette:
    """The palette ``--ascii`` and ``--no-color`` ask for, on standard output."""
    return Palette(color=use_color(sys.stdout, disabled=args.no_color), ascii=args.ascii)


# ---------------------------------------------------------------------------- the game
class Game:
    """One match between the human (seat 0) and a bot (seat 1)."""

    def __init__(
        self,
        ruleset: Family,
        bot: Bot,
        console: Console,
        pal: Palette,
        *,
        seed: int | None,
        computer: str = NAMES[COMPUTER],
    ) -> None:
        self.ruleset = ruleset
        self.bot = bot
        self.io = console
        self.pal = pal
        self.match = Match(ruleset, seed=seed)
        self.adviser = find_bot("expert", seed=seed, ruleset=ruleset)
        self.computer = computer
        """The computer's name on the screen (``Computer (Strong)``)."""
        self.seen = 0

    def run(self) -> None:
        io = self.io
        io.say(self.pal.bold("erren — two-player mahjong (二人麻将) against the computer"))
        io.say(
            LEGEND
            if not self.pal.ascii
            else "Tiles: 1m..9m characters · 1z..4z winds · 5z..7z dragons"
        )
        io.say(
            "Make 4 sets (runs like 3万4万5万 or triples) and a pair to win. q quits at any prompt."
        )
        io.say(f"Your opponent: {self.pal.bold(self.computer)}.")
        while not self.match.over:
            state = self.match.new_hand()
            self.seen = 0
            self.play_hand(state)
            self.match.finish_hand(state)
            self.settlement(state)
            self.io.ask("[Enter] next hand · q quit: ")

    def header(self, state: State) -> str:
        match = self.match
        n = len(match.hands) + 1
        dealer = "you deal" if state.dealer == HUMAN else "the computer deals"
        s0, s1 = match.scores
        return (
            f"Hand {n} · {dealer} · round wind {_WIND.get(state.round_wind, '')} · "
            f"{state.wall_count} tiles left · score You {s0:+d} : {self.computer} {s1:+d}"
        )

    def news(self, state: State) -> None:
        for event in state.events_since(HUMAN, self.seen):
            line = narrate(event, self.pal)
            if line:
                self.io.say("  · " + line)
        self.seen = state.event_count

    def play_hand(self, state: State) -> None:
        self.io.say("")
        self.io.say(self.pal.bold("═" * 20 + f" Hand {len(self.match.hands) + 1} " + "═" * 20))
        while not state.is_terminal:
            seat = state.actor
            if seat == COMPUTER:
                obs = state.observe(COMPUTER)
                state.apply(self.bot.choose(obs, obs.legal_actions))
                continue
            legal = state.legal_actions()
            if state.phase.value == "opening" and len(legal) == 1:
                state.apply(legal[0])  # nothing to declare in the opening window
                continue
            self.news(state)
            self.human_turn(state)
        self.news(state)

    def human_turn(self, state: State) -> None:
        io, pal = self.io, self.pal
        obs = state.observe(HUMAN)
        legal = obs.legal_actions
        menu = choices(obs, legal, pal)
        numbered = any(c.key.isdigit() for c in menu)
        show_table(
            io,
            pal,
            obs,
            header=self.header(state),
            note=view_line(obs, pal),
            hand=hand_lines(obs, pal, numbered=numbered),
            names=(NAMES[HUMAN], self.computer),
        )
        turn = obs.phase is Phase.TURN
        io.say(pal.bold(situation(obs, pal)))
        offer = offer_of(obs)
        if offer is not None and turn:
            io.say(f"换牌: a pung of {pal.name(offer)} is offered for any three of your tiles.")
        follow = follow_note(obs, legal, pal)
        if follow:
            io.say(follow)
        ask_menu(
            io,
            pal,
            state,
            obs,
            menu,
            adviser=self.adviser,
            help_lines=_HELP,
            keys_hint=f"type one of: {key_list(menu)}",
            free=lambda answer: free_choice(obs, answer),
        )

    def settlement(self, state: State) -> None:
        io, pal = self.io, self.pal
        result = state.result
        io.say("")
        io.say(pal.bold("═" * 20 + f" Hand {len(self.match.hands)} — settlement " + "═" * 20))
        if result is None:
            return
        family = self.match.ruleset
        for line in settlement_lines(result, pal, words=family.win_words):
            io.say(line)
        if result.kind is ResultKind.DRAW and family.draw_note:
            io.say(family.draw_note)
        s0, s1 = self.match.scores
        io.say("")
        io.say(pal.bold(f"Match score   You {s0:+d}   {self.computer} {s1:+d}"))
        if self.match.streak:
            who = NAMES[self.match.dealer]
            io.say(f"{who} deal{'s' if who != 'You' else ''} again (连庄 ×{self.match.streak}).")


# ---------------------------------------------------------------------------- entry point
def play(
    inp: TextIO,
    out: TextIO,
    *,
    ruleset: Family,
    bot: Bot,
    seed: int | None,
    palette: Palette,
    computer: str = NAMES[COMPUTER],
) -> int:
    """Run a match on the given streams until the player quits; returns the exit code.
    ``computer`` is the computer's name on the screen."""
    console = Console(inp, out)
    game = Game(ruleset, bot, console, palette, seed=seed, computer=computer)
    with contextlib.suppress(QuitRequested, KeyboardInterrupt):
        game.run()
    s0, s1 = game.match.scores
    hands = len(game.match.hands)
    out.write(
        f"\nBye! {hands} hand{'s' if hands != 1 else ''} played · "
        f"final score You {s0:+d} · {game.computer} {s1:+d}\n"
    )
    out.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    opponent = opponent_of("play", args, DEFAULT_LEVEL)
    if opponent is None:
        return 2
    try:
        if args.rules not in family_names():
            raise ValueError(f"unknown ruleset {args.rules!r} (known: {', '.join(family_names())})")
        ruleset = find_family(args.rules, dict(parse_option(o) for o in args.option))
    except (ValueError, TypeError) as error:
        print(f"erren play: {error}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    palette = palette_of(args)
    bot = opponent.make(seed=seed, ruleset=ruleset)
    return play(
        sys.stdin,
        sys.stdout,
        ruleset=ruleset,
        bot=bot,
        seed=seed,
        palette=palette,
        computer=opponent.label(),
    )
