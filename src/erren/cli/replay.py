"""``erren replay``: step through a recorded hand in the terminal.

Reads a record (``docs/records.md``) from a JSON file, or one line of a JSON-lines file written
by ``erren simulate --jsonl`` (``--hand N``).  Each step shows the action, what happened, and the
table with both hands face-up (``--seat`` shows only what that seat saw).  Enter = next step,
``b`` = back, ``q`` = quit; ``--all`` prints every step without asking.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from erren.display import Palette, board_lines, score_lines, seat_lines, use_color
from erren.engine import Action, Record
from erren.engine.actions import CHANCE
from erren.engine.record import replay_moves
from erren.errors import ErrenError

NAME = "replay"
HELP = "Step through a recorded hand (Enter next, b back, q quit)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a record file (.json, or .jsonl with --hand)")
    parser.add_argument(
        "--hand", type=int, default=1, help="which line of a JSON-lines file (default 1)"
    )
    parser.add_argument("--all", action="store_true", help="print every step, no questions")
    parser.add_argument(
        "--seat", type=int, choices=(0, 1), default=None, help="show only what this seat saw"
    )
    parser.add_argument("--ascii", action="store_true", help="tiles in the notation (5m, 7z)")
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")


def load_record(text: str, hand: int = 1) -> Record:
    """A record from a JSON document or line ``hand`` (1-based) of JSON lines."""
    try:
        return Record.from_json(text)
    except ErrenError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) <= 1:
            raise
    if not 1 <= hand <= len(lines):
        raise ValueError(f"--hand {hand}: the file holds {len(lines)} records")
    return Record.from_json(lines[hand - 1])


def frames(record: Record, pal: Palette, *, seat: int | None = None) -> list[str]:
    """One screen per move: the deal, then one after each player's action (the chance actions
    that follow a move, such as an arcade event roll, are part of it).

    The moves are the engine's own replay (:func:`erren.engine.record.replay_moves`, as the web
    replay's), so the dealer, the round wind and the dealer streak are the record's (a xiamen
    hand during 连庄 shows its 连庄数 and 底)."""
    actions = [Action.parse(text) for text in record.actions]
    setup = 0
    while setup < len(actions) and actions[setup].player == CHANCE:
        setup += 1
    total = sum(1 for action in actions[setup:] if action.player != CHANCE)
    title = f"{record.ruleset} · seed {record.seed} · dealer seat {record.dealer}"
    out: list[str] = []
    seen = 0
    for step, (state, move) in enumerate(replay_moves(record)):
        if move is None:
            label = f"setup ({setup} chance actions): the deal"
        else:
            label = f"step {step}/{total}: {move}"
        viewer = 0 if seat is None else seat
        events = state.events_since(viewer, seen) if seat is not None else state.events[seen:]
        seen = state.event_count
        lines = [pal.bold(f"── {title} · {label}")]
        for event in events:
            if event.kind not in ("shuffle", "end"):
                lines.append(pal.dim(f"   {event}"))
        if seat is None:
            for s in (0, 1):
                obs = state.observe(s)
                lines.extend(seat_lines(obs, s, pal, f"seat {s}", hand=obs.hand))
        else:
            obs = state.observe(seat)
            lines.extend(board_lines(obs, pal, names=(f"seat {seat}", f"seat {1 - seat}")))
            lines.append(f"  hand     {pal.tiles(obs.hand)}")
        lines.append(f"wall: {state.wall_count} tiles left")
        if state.result is not None:
            lines.append(pal.bold(f"result: {state.result}"))
            if state.result.detail is not None:
                lines.extend(f"  {line}" for line in score_lines(state.result.detail))
        out.append("\n".join(lines))
    return out


def browse(screens: list[str], inp: TextIO, out: TextIO) -> None:
    """Enter = next, b = back, q or end of input = quit."""
    i = 0
    while True:
        out.write(screens[i] + "\n")
        last = i == len(screens) - 1
        more = (
            "end of the record — b back, Enter/q quit" if last else "Enter next · b back · q quit"
        )
        out.write(f"[{i + 1}/{len(screens)}] {more}: ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return
        if not inp.isatty():  # a terminal echoes the Enter; keep piped output readable too
            out.write("\n")
        answer = line.strip().lower()
        if answer == "q" or (last and answer == ""):
            return
        if answer == "b":
            i = max(0, i - 1)
        elif answer == "":
            i += 1
        else:
            out.write(f"'{answer}' — press Enter for the next step, b to go back, q to quit\n")


def run(args: argparse.Namespace) -> int:
    err = sys.stderr
    try:
        with open(args.record, encoding="utf-8") as handle:
            text = handle.read()
        record = load_record(text, args.hand)
        pal = Palette(color=use_color(sys.stdout, disabled=args.no_color), ascii=args.ascii)
        screens = frames(record, pal, seat=args.seat)
    except (OSError, ValueError, ErrenError) as error:
        print(f"erren replay: {error}", file=err)
        return 2
    if args.all:
        for screen in screens:
            print(screen)
            print()
        return 0
    try:
        browse(screens, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        print()
    return 0
