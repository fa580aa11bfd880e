"""``erren arcade``: stage mode (关卡模式, arcade §3) in the terminal, against the computer.

A run is four stages.  Before each hand you choose a stake multiplier (Enter keeps the last);
the stake is taken when the hand starts, a win pays it back with ``m × base``, a computer win
costs just the stake, a draw returns it (R3.3, R3.4).  Every third win in a row as dealer pays
double (三连庄拍分, R3.5).  Empty the computer's purse to clear a stage; clear stage 4 to finish
the run; fall below one unit stake and the game is over.  The computer grows stronger from
stage to stage (入门, 普通, 高手, 大师: :data:`erren.families.arcade.campaign.STAGE_LEVELS`) unless
``--level`` or
``--bot`` fixes it; the stage banner names it.

Progress is saved (atomically) after every hand and when you quit — ``q``, Ctrl-C or the end
of input — in the user data folder, ``$ERREN_DATA_DIR`` or ``--save FILE``; ``erren arcade``
resumes where you left off, in the middle of a hand if that is where you stopped.  ``--new``
starts over (asking before a run in progress is discarded).

The arcade family adds this command to ``erren`` through its ``cli_commands`` hook
(:data:`erren.families.arcade.cli.COMMANDS`); the screens are
:class:`~erren.families.arcade.campaign.terminal.Campaign`'s.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TextIO

from erren.cli.console import Console, QuitRequested
from erren.cli.play import Opponent, add_table_arguments, opponent_of, palette_of
from erren.display import Palette
from erren.families.arcade.campaign import (
    Run,
    Status,
)
from erren.families.arcade.campaign import save as saving
from erren.families.arcade.campaign.save import SaveError
from erren.families.arcade.campaign.terminal import Campaign

NAME = "arcade"
HELP = "Stage mode (关卡模式): four stages against the computer with a bankroll; resumable."

__all__ = ["HELP", "NAME", "add_arguments", "arcade", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help="the save file (default: arcade-campaign.json in $ERREN_DATA_DIR or the user "
        "data folder)",
    )
    parser.add_argument(
        "--new", action="store_true", help="start a new run (asks before discarding one)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of a new run")
    add_table_arguments(parser, level_default="one per stage: novice, normal, strong, master")


def _describe_run(run: Run) -> str:
    played = run.hands - (run.status is Status.IN_HAND)
    hands = f"{played} hand{'s' if played != 1 else ''} played"
    if run.status is Status.IN_HAND:
        hands += f", hand {run.hands} in play"
    return f"stage {run.stage}, bankroll {run.bankroll:,}, purse {run.purse:,}, {hands}"


def _confirm(console: Console, question: str) -> bool:
    return console.ask(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def arcade(
    inp: TextIO,
    out: TextIO,
    *,
    path: Path,
    new: bool = False,
    seed: int | None = None,
    opponent: Opponent | None = None,
    palette: Palette | None = None,
) -> int:
    """Play (or resume) the run saved at ``path`` on the given streams; the exit code.
    ``opponent``: a fixed level or bot (default: each stage's level)."""
    pal = palette if palette is not None else Palette()
    bot = opponent if opponent is not None else Opponent(level=None)
    io = Console(inp, out)
    game: Campaign | None = None
    try:
        io.say(pal.bold("erren arcade — 二人麻将 stage mode (关卡模式) against the computer"))
        try:
            saved = saving.read(path)
        except SaveError as err:
            io.say(f"The save file cannot be used: {err}")
            if not new:
                io.say("It is left as it is. Move it away, or start over with --new.")
                return 2
            if not _confirm(io, "Set it aside (renamed *.unreadable) and start a new run?"):
                io.say("Nothing changed.")
                return 1
            io.say(f"Set aside as {saving.set_aside(path)}.")
            saved = None
        if saved is not None and saved.run.over:
            if not new:
                word = "was completed" if saved.run.status is Status.COMPLETE else "ended"
                io.say(f"Your last run {word} ({_describe_run(saved.run)}). A new one starts.")
            saved = None
        elif saved is not None and new:
            if _confirm(io, f"Discard your run in progress ({_describe_run(saved.run)})?"):
                saved = None
            else:
                io.say("Kept — resuming it.")
        if saved is None:
            run_seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
            game = Campaign(Run.new(seed=run_seed), path, io, pal, bot)
            game.introduce()
            game.save()
        else:
            io.say(f"Welcome back — resuming your run ({_describe_run(saved.run)}).")
            game = Campaign(saved.run, path, io, pal, bot)
            game.saved_hand = saved.hand
        game.play()
    except (QuitRequested, KeyboardInterrupt):
        if game is not None:
            try:
                game.save()
            except SaveError as err:
                out.write(f"\nProgress could NOT be saved: {err}\n")
                return 1
            where = " (in the middle of a hand)" if game.state is not None else ""
            out.write(f"\nProgress saved{where} to {path}. Run `erren arcade` to resume.\n")
        out.flush()
        return 0
    except SaveError as err:
        out.write(f"\nerren arcade: the save file cannot be written: {err}\n")
        return 1
    out.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    opponent = opponent_of("arcade", args, None)
    if opponent is None:
        return 2
    path = args.save if args.save is not None else saving.default_path()
    palette = palette_of(args)
    return arcade(
        sys.stdin,
        sys.stdout,
        path=path,
        new=args.new,
        seed=args.seed,
        opponent=opponent,
        palette=palette,
    )
