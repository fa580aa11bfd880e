"""``erren play``: a game of two-player mahjong against the computer in the terminal.

Everything the player needs is on the screen: the opponent's melds and discards, the tiles
left, the player's hand with a number under each tile, and the choices of the moment with their
keys (a number to discard, ``t``+number to discard and declare 报听, ``h`` to win, ``g`` kong,
``p`` pung, ``c`` chow, Enter to pass, ``a`` for advice, ``q`` to quit).  Bad input is answered
with a message and the same question.  After each hand a settlement screen lists the fans and the
points, and the match score runs on until ``q``, Ctrl-C or the end of input.

The human is seat 0, the computer seat 1; the computer receives only its observation.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from erren.analysis.shapes import ARCADE, GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots import Bot, EfficiencyBot, bot_names, find_bot
from erren.cli._display import (
    LEGEND,
    Palette,
    board_lines,
    gold_line,
    gold_of,
    golds_first,
    score_lines,
    use_color,
    wild_line,
    wild_of,
)
from erren.cli.simulate import add_ruleset_arguments, parse_option
from erren.engine import (
    Action,
    ActionKind,
    ArcadeView,
    Event,
    Match,
    Observation,
    Ruleset,
    State,
    find_ruleset,
    ruleset_names,
)
from erren.engine.events import EventKind
from erren.engine.state import HandResult
from erren.errors import IllegalActionError, NotationError
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS, Tile

NAME = "play"
HELP = "Play two-player mahjong against the computer in the terminal."

AK = ActionKind
HUMAN, COMPUTER = 0, 1
NAMES = ("You", "Computer")
_WIND = {Tile.EAST: "东 East", Tile.SOUTH: "南 South", Tile.WEST: "西 West", Tile.NORTH: "北 North"}
_HOW = {
    "zimo": "自摸 self-drawn",
    "discard": "点和 on a discard",
    "robbing": "抢杠和 robbing a kong",
    "youjin": "游金 swimming gold",
    "shuangyou": "双游 double swim",
    "sanyou": "三游 triple swim",
    "qiangjin": "抢金胡 robbing the gold",
    "sanjindao": "三金倒 three golds",
}
_XIAMEN_HOW = {"zimo": "自摸 self-drawn", "discard": "平和 on a discard", "robbing": "抢杠胡"}


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


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """``--bot``, ``--ascii`` and ``--no-color``: the opponent and the display."""
    parser.add_argument(
        "--bot", default="efficiency", help="the computer player (default %(default)s)"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="tiles in the notation (5m, 7z) instead of 5万, 中"
    )
    parser.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")


def known_bot(command: str, name: str) -> bool:
    """Whether ``name`` is a bot; if not, says so on stderr as ``erren <command>``."""
    if name in bot_names():
        return True
    print(
        f"erren {command}: unknown bot {name!r} (known: {', '.join(bot_names())})", file=sys.stderr
    )
    return False


def palette_of(args: argparse.Namespace) -> Palette:
    """The palette ``--ascii`` and ``--no-color`` ask for, on standard output."""
    return Palette(color=use_color(sys.stdout, disabled=args.no_color), ascii=args.ascii)


class QuitRequested(Exception):  # noqa: N818 - a signal, not an error
    """The player asked to stop (``q``, Ctrl-C or the end of input)."""


@dataclass
class Choice:
    key: str
    label: str
    action: Action


class Console:
    """Line-based input and output; echoes answers that do not come from a terminal."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out
        self.echo = not (getattr(inp, "isatty", None) and inp.isatty())

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise QuitRequested
        answer = line.strip()
        if self.echo:
            self.out.write(answer + "\n")
        if answer.lower() in ("q", "quit", "exit"):
            raise QuitRequested
        return answer


# ---------------------------------------------------------------------------- describing
_NAMED = {
    AK.DISCARD: "discard {}",
    AK.TING: "discard {} and declare 报听 (ready)",
    AK.AN_GANG: "暗杠 concealed kong of {}",
    AK.JIA_GANG: "加杠 add {} to your pung",
    AK.QIANGJIN: "抢金胡 — lay out {} and take the gold indicator: win!",
    AK.PICK: "搓牌 pick {} as your draw",
}
"""The words of an action that names its tile (``{}``: the tile's name)."""

_PLAIN = {
    AK.ZIMO: "自摸 — win on your own draw!",
    AK.HU: "胡 — win!",
    AK.PASS: "过 pass",
    AK.SANJINDAO: "三金倒 — win with the three golds!",
    AK.QIANGJIN: "抢金胡 — take the gold indicator: win!",
    AK.WIN: "win now with the gold you drew",
    AK.DISCARD_GOLD: "discard the gold and swim on (双游/三游: bigger win, if you get there)",
}
"""The words of an action that needs no tile named."""


def describe(action: Action, pal: Palette, pending: Tile | None = None) -> str:
    """An action in words, for menus and advice."""
    kind = action.kind
    tile = action.tile
    if tile is not None and kind in _NAMED:
        return _NAMED[kind].format(pal.name(tile))
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind is AK.PENG and pending is not None:
        return f"碰 pung {pal.tiles([pending] * 3)}"
    if kind is AK.MING_GANG and pending is not None:
        return f"杠 kong {pal.tiles([pending] * 4)}"
    if kind is AK.CHI and tile is not None:
        return f"吃 chow {pal.tiles([tile, tile + 1, tile + 2])}"
    if kind is AK.EXCHANGE:
        if not action.data:
            return "no exchange"
        return f"exchange {pal.tiles(action.data)} for tiles from the reserve"
    if kind is AK.TAKE_PUNG:
        return f"take the offered pung, giving up {pal.tiles(action.data)}"
    if kind is AK.GIVE and tile is not None:
        return f"give up {pal.name(tile)}"
    return str(action)


def narrate(event: Event, pal: Palette) -> str | None:
    """One line about an event, as the human may see it (``None``: not worth a line); read
    from the event's kind and data."""
    who = NAMES[event.player] if event.player in (0, 1) else ""
    verb = "draw" if event.player == HUMAN else "draws"
    tile = event.tile
    kind, data = event.kind, event.data
    auto = " (auto)" if event.auto else ""
    if kind is EventKind.DRAW:
        if tile is None:
            return None  # the opponent's draw: nothing to learn
        back = " from the back of the wall" if data["from"] == "back" else ""
        return f"{who} {verb} {pal.name(tile)}{back}"
    if kind in (EventKind.DISCARD, EventKind.TING) and tile is not None:
        s = "s" if event.player == COMPUTER else ""
        ting = f" and declare{s} 报听 (ready)" if kind is EventKind.TING else ""
        return f"{who} discard{s} {pal.name(tile)}{ting}{auto}"
    if kind in _MELD_WORDS:
        return f"{who}: {_MELD_WORDS[kind]} {pal.tiles(event.tiles)}"
    if kind is EventKind.AN_GANG:
        shown = pal.name(tile) if tile is not None else "a face-down kind"
        return f"{who}: 暗杠 concealed kong ({shown})"
    if kind is EventKind.JIA_GANG and tile is not None:
        return f"{who}: 加杠 adds {pal.name(tile)} to a pung"
    if kind is EventKind.FLOWER and tile is not None:
        if data["during"] == "gold_reveal":
            return f"{who}: 花 flower {pal.name(tile)} revealed for the gold (no replacement)"
        return f"{who}: 花 flower {pal.name(tile)}, replaced"
    if kind is EventKind.TRUSTEE:
        return f"{who}: 托管 auto-play {'on' if event.flag('on') else 'off'}"
    if kind is EventKind.GOLD and tile is not None:
        return f"金 the gold is {pal.name(tile)} (indicator turned face up)"
    if kind is EventKind.YOU:
        return f"{who}: {_YOU_WORDS[event.number('level')]} — swimming for the gold (游)"
    if kind is EventKind.WILD and tile is not None:
        return f"财神 the wild is {pal.name(tile)} (indicator turned face up)"
    if kind is EventKind.EXCHANGE:
        got = f": got {pal.tiles(event.tiles)}" if event.tiles else ""
        return f"{who}: opening exchange of {data['count']} tile(s){got}"
    if kind is EventKind.PUNG_OFFER and tile is not None:
        return f"{who}: 换牌 — a pung of {pal.name(tile)} is offered for three of your tiles"
    if kind is EventKind.PICK and tile is not None:
        return f"{who}: 搓牌 picks {pal.name(tile)}"
    if kind is EventKind.HAIDI:
        return f"{who}: 海底捞月 — {data['draws']} draws from the reserve"
    if kind is EventKind.HUANGZHUANG:
        return "流局 — nobody won"
    return None


_MELD_WORDS = {EventKind.CHI: "吃 chow", EventKind.PENG: "碰 pung", EventKind.MING_GANG: "杠 kong"}
_YOU_WORDS = ("", "游金", "双游", "三游")


# ---------------------------------------------------------------------------- choices
def drawn_tile(obs: Observation) -> Tile | None:
    """The tile the player just drew (not after a chi or peng, where nothing was drawn)."""
    if obs.phase in ("you_choice", "last_draw", "haidi"):
        return obs.last_drawn
    if obs.phase != "turn" or obs.origin == "claim":
        return None
    return obs.last_drawn


def hand_order(obs: Observation) -> list[Tile]:
    """The hand as shown: sorted, the tile just drawn set apart at the end."""
    gold = gold_of(obs)
    tiles = golds_first(obs.hand, gold if gold is not None else wild_of(obs))
    drawn = drawn_tile(obs)
    if drawn is not None and drawn in tiles:
        del tiles[len(tiles) - 1 - tiles[::-1].index(drawn)]
        tiles.append(drawn)
    return tiles


def hand_lines(obs: Observation, pal: Palette, *, numbered: bool) -> list[str]:
    tiles = hand_order(obs)
    apart = drawn_tile(obs) is not None
    cells: list[str] = []
    keys: list[str] = []
    gold, wild = gold_of(obs), wild_of(obs)
    for i, t in enumerate(tiles):
        gap = "  " if apart and i == len(tiles) - 1 else ""
        if gold is not None and t == gold:  # golds marked 金
            cells.append(gap + pal.paint("金", "1;33") + pal.tile(t))
            keys.append(gap + f"{i + 1:>5}")
            continue
        if wild is not None and t == wild:  # R1.9a: wilds marked 财
            cells.append(gap + pal.paint("财", "1;33") + pal.tile(t))
            keys.append(gap + f"{i + 1:>5}")
            continue
        cells.append(gap + pal.tile(t))
        keys.append(gap + f"{i + 1:>3}")
    lines = ["Your hand  " + " ".join(cells)]
    if numbered:
        lines.append("           " + " ".join(keys))
    return lines


def choices(obs: Observation, legal: Sequence[Action], pal: Palette) -> list[Choice]:
    """The keyed menu of the legal actions, in the order of the spec (hu, gang, peng, chi,
    pass), discards by the tile numbers of :func:`hand_lines`."""
    out: list[Choice] = []
    by_kind: dict[ActionKind, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    pending = obs.pending
    for kind in (AK.ZIMO, AK.HU, AK.WIN, AK.SANJINDAO):
        for action in by_kind.get(kind, []):
            key = "s" if kind is AK.SANJINDAO else "h"
            out.append(Choice(key, describe(action, pal), action))
    robs = by_kind.get(AK.QIANGJIN, [])
    for i, action in enumerate(robs):
        key = "j" if len(robs) == 1 else f"j{i + 1}"
        out.append(Choice(key, describe(action, pal), action))
    for action in by_kind.get(AK.DISCARD_GOLD, []):
        out.append(Choice("d", describe(action, pal), action))
    kongs = by_kind.get(AK.MING_GANG, []) + by_kind.get(AK.AN_GANG, [])
    kongs += by_kind.get(AK.JIA_GANG, [])
    for i, action in enumerate(kongs):
        key = "g" if len(kongs) == 1 else f"g{i + 1}"
        out.append(Choice(key, describe(action, pal, pending), action))
    for action in by_kind.get(AK.PENG, []):
        out.append(Choice("p", describe(action, pal, pending), action))
    chis = by_kind.get(AK.CHI, [])
    for i, action in enumerate(chis):
        key = "c" if len(chis) == 1 else f"c{i + 1}"
        out.append(Choice(key, describe(action, pal, pending), action))
    tiles = hand_order(obs)
    discards = {int(a.tile): a for a in by_kind.get(AK.DISCARD, []) if a.tile is not None}
    tings = {int(a.tile): a for a in by_kind.get(AK.TING, []) if a.tile is not None}
    if obs.ting[obs.player] and discards:  # 报听 with a win offered: the drawn tile goes
        only = next(iter(discards.values()))
        out.append(Choice("x", f"pass — {describe(only, pal)}", only))
        return out
    listed_ting: set[int] = set()
    for i, t in enumerate(tiles):
        if int(t) in discards:
            out.append(Choice(str(i + 1), describe(discards[int(t)], pal), discards[int(t)]))
        if int(t) in tings:
            label = describe(tings[int(t)], pal)
            if int(t) not in listed_ting:
                label += f" — waiting on {_waits_text(obs, int(t), pal)}"
                listed_ting.add(int(t))
            out.append(Choice(f"t{i + 1}", label, tings[int(t)]))
    gives = by_kind.get(AK.GIVE, []) if obs.phase == "turn" else []
    for action in gives[:1]:  # the pung offer: its three tiles are typed at once
        out.append(
            Choice(
                "u",
                f"换牌 take the offered pung of {pal.name(_offer(obs) or 0)}: "
                "u + three tile numbers, e.g. u 1 2 3",
                action,
            )
        )
    exchanges = by_kind.get(AK.EXCHANGE, [])
    if exchanges:
        out.append(
            Choice("e", "exchange: e + tile numbers, e.g. e 1 5 9 (Enter: none)", exchanges[0])
        )
        out.append(Choice("x", "no exchange", exchanges[0]))
    picks = by_kind.get(AK.PICK, [])
    if picks:
        out.append(
            Choice("k", "搓牌 pick any kind: k + tile, e.g. k 5m (Enter: draw blind)", picks[0])
        )
    for action in by_kind.get(AK.PASS, []):
        out.append(Choice("x", describe(action, pal), action))
    return out


def free_choice(obs: Observation, answer: str) -> Action | None:
    """Arcade's multi-tile answers: ``e 1 5 9`` (exchange), ``u 1 2 3`` (take the pung),
    ``k 5m`` (pick); ``None`` if ``answer`` is not one of them or names no held tiles.  The
    exchange and the pung are the composite forms, applied as their ``give`` steps."""
    parts = answer.replace(",", " ").split()
    if not parts or parts[0] not in ("e", "u", "k") or len(parts) < 2:
        return None
    if parts[0] == "k":
        try:
            tiles = parse_tiles(parts[1])
        except NotationError:
            return None
        return Action.make(AK.PICK, obs.player, int(tiles[0])) if len(tiles) == 1 else None
    order = hand_order(obs)
    picked: list[int] = []
    for word in parts[1:]:
        if not word.isdigit() or not 1 <= int(word) <= len(order):
            return None
        picked.append(int(order[int(word) - 1]))
    if len(set(parts[1:])) != len(parts) - 1:
        return None
    if parts[0] == "u":
        return Action.tiles_action(AK.TAKE_PUNG, obs.player, picked) if len(picked) == 3 else None
    return Action.tiles_action(AK.EXCHANGE, obs.player, picked)


def _waits_text(obs: Observation, discard: int, pal: Palette) -> str:
    counts = [0] * NUM_KINDS
    for t in obs.hand:
        counts[t] += 1
    counts[discard] -= 1
    held = [0] * NUM_KINDS
    for meld in obs.melds[obs.player]:
        for t in meld.tiles:
            held[t] += 1
    wild = wild_of(obs)
    if wild is not None:
        w = int(wild)
        k = counts[w]
        counts[w] = 0
        kinds = waits(counts, wilds=k, shapes=ARCADE, held=held, max_copies=4)
    else:
        kinds = waits(counts, shapes=GUOBIAO_2P, held=held)
    return " ".join(pal.name(k) for k in kinds) or "?"


def menu_lines(menu: Sequence[Choice]) -> list[str]:
    """The menu: discards summarised in one line, every other choice on its own line."""
    lines: list[str] = []
    numbers = [c.key for c in menu if c.key.isdigit()]
    if numbers:
        lines.append(f"  {numbers[0]}-{numbers[-1]}  discard that tile (numbers under your hand)")
    for c in menu:
        if c.key.isdigit():
            continue
        if c.key.startswith("t") and " — waiting on " not in c.label:
            continue  # the same 报听 discard again (a second copy of the tile)
        lines.append(f"  {c.key:<4} {c.label}")
    return lines


_PROMPTS = {
    "opening": "Opening window — declare a gold win now, or pass (Enter).",
    "exchange": "Opening exchange — give up any tiles for tiles from the reserve?",
    "pick": "搓牌 — you may name the kind of this draw!",
    "last_draw": "三游 test: your single draw completes your hand — win (h)?",
}
"""What a phase asks of the human, where no tile is named."""


def situation(obs: Observation, pal: Palette) -> str:
    """What the human is asked to decide, in a line."""
    phase = obs.phase
    drawn = drawn_tile(obs)
    if phase == "claim" and obs.pending is not None:
        return f"The computer discarded {pal.name(obs.pending)}. Claim it?"
    if phase == "rob" and obs.pending is not None:
        return f"The computer adds {pal.name(obs.pending)} to a pung — rob the kong?"
    if phase == "you_choice" and drawn is not None:
        return f"You drew a gold ({pal.name(drawn)}): win now, or discard it?"
    if phase == "haidi" and drawn is not None:
        return f"海底捞月 — you drew {pal.name(drawn)}: it completes your hand!"
    if phase in _PROMPTS:
        return _PROMPTS[phase]
    if phase == "turn" and drawn is not None:
        return f"Your turn — you drew {pal.name(drawn)} (shown last)."
    return "Your turn — discard a tile."


# ---------------------------------------------------------------------------- a decision
def show_table(
    io: Console,
    pal: Palette,
    obs: Observation,
    *,
    header: str,
    note: str | None,
    hand: Sequence[str],
) -> None:
    """The screen before a decision: the header, a note (the gold or wild), the board and
    the hand."""
    io.say("")
    io.say(pal.dim("─" * 78))
    io.say(header)
    if note is not None:
        io.say(note)
    io.say("")
    for line in board_lines(obs, pal, names=NAMES):
        io.say(line)
    io.say("")
    for line in hand:
        io.say(line)
    io.say("")


_TYPED = ("e", "u", "k")
"""Menu keys whose action needs tiles typed after the key (see :func:`free_choice`)."""


def ask_menu(
    io: Console,
    pal: Palette,
    state: State,
    obs: Observation,
    menu: Sequence[Choice],
    *,
    adviser: Bot,
    help_lines: Sequence[str],
    keys_hint: str,
    free: Callable[[str], Action | None] | None = None,
) -> None:
    """Show the menu, ask until the answer is a choice (or ``free`` reads a legal action from
    it) and apply it; ``a`` asks ``adviser``, ``?`` shows ``help_lines``, an unknown answer
    is told ``keys_hint``."""
    for line in menu_lines(menu):
        io.say(line)
    keys = {c.key: c for c in menu}
    passing = keys.get("x")
    hint = "Enter = pass, " if passing is not None else ""
    prompt = f"Your choice ({hint}a = advice, ? = help, q = quit): "
    while True:
        answer = io.ask(prompt).lower()
        if answer == "" and passing is not None:
            state.apply(passing.action)
            return
        if answer in ("?", "help"):
            for line in help_lines:
                io.say(line)
            continue
        if answer in ("a", "advice"):
            advice = adviser.choose(obs, obs.legal_actions)
            key = next((c.key for c in menu if c.action == advice), "")
            io.say(
                f"Advice: {describe(advice, pal, obs.pending)}" + (f" (key {key})" if key else "")
            )
            continue
        action = free(answer) if free is not None else None
        if action is not None:
            try:
                for step in state.ruleset.steps_of(state, action):  # e 1 5 9: one give each
                    state.apply(step)
            except IllegalActionError as error:
                io.say(f"Not allowed: {error}")
                continue
            return
        choice = keys.get(answer)
        if free is not None and choice is not None and choice.key in _TYPED:
            io.say("Add the tiles, e.g. e 1 5 9 / u 1 2 3 / k 5m")
            continue
        if choice is None:
            said = f"'{answer}' is not one of the choices" if answer else "Nothing typed"
            io.say(f"{said} — {keys_hint}")
            continue
        state.apply(choice.action)
        return


# ---------------------------------------------------------------------------- the game
class Game:
    """One match between the human (seat 0) and a bot (seat 1)."""

    def __init__(
        self, ruleset: Ruleset, bot: Bot, console: Console, pal: Palette, *, seed: int | None
    ) -> None:
        self.ruleset = ruleset
        self.bot = bot
        self.io = console
        self.pal = pal
        self.match = Match(ruleset, seed=seed)
        self.adviser = EfficiencyBot()
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
            f"{state.wall_count} tiles left · score You {s0:+d} : Computer {s1:+d}"
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
            note=gold_line(obs, pal) or wild_line(obs, pal),
            hand=hand_lines(obs, pal, numbered=numbered),
        )
        turn = obs.phase == "turn"
        io.say(pal.bold(situation(obs, pal)))
        offer = _offer(obs)
        if offer is not None and turn:
            io.say(f"换牌: a pung of {pal.name(offer)} is offered for any three of your tiles.")
        follow = _follow_note(obs, legal, pal)
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
            keys_hint=f"type one of: {_key_list(menu)}",
            free=lambda answer: free_choice(obs, answer),
        )

    def settlement(self, state: State) -> None:
        io, pal = self.io, self.pal
        result = state.result
        io.say("")
        io.say(pal.bold("═" * 20 + f" Hand {len(self.match.hands)} — settlement " + "═" * 20))
        if result is None:
            return
        for line in settlement_lines(result, pal, family=self.match.ruleset.name):
            io.say(line)
        if result.kind == "draw" and self.match.ruleset.name == "arcade":
            io.say("(arcade: 流局 — the same dealer deals again, R1.17)")
        if result.kind == "draw" and self.match.ruleset.name == "xiamen":
            io.say("(xiamen: after 荒庄 the same dealer deals again, 连庄数 unchanged)")
        s0, s1 = self.match.scores
        io.say("")
        io.say(pal.bold(f"Match score   You {s0:+d}   Computer {s1:+d}"))
        if self.match.streak:
            who = NAMES[self.match.dealer]
            io.say(f"{who} deal{'s' if who != 'You' else ''} again (连庄 ×{self.match.streak}).")


def settlement_lines(result: HandResult, pal: Palette, *, family: str = "") -> list[str]:
    """The settlement screen: who won how (in ``family``'s words), the winning hand, the rows
    of the score (:class:`~erren.scoring.detail.FamilyScore`: fans, 水 or patterns, each
    family alike), its total and steps, and the points."""
    if result.kind == "draw":
        return ["荒庄 — the wall is empty and nobody won. No points; the deal passes."]
    if result.kind == "abort":
        return [f"The hand was aborted ({NAMES[result.loser or 0]} left the table)."]
    winner = result.winner if result.winner is not None else 0
    lines = []
    names = dict(_HOW)
    if family == "xiamen":
        names.update(_XIAMEN_HOW)
    how = names.get(result.how or "", result.how)
    if winner == HUMAN:
        lines.append(pal.paint(f"You win — {how}!", "1;32"))
    else:
        lines.append(pal.paint(f"The computer wins — {how}.", "1;31"))
    hand = result.hand
    if hand is not None:
        text = pal.tiles(hand.concealed)
        if hand.melds:
            text += "   " + pal.melds(hand.melds)
        if hand.winning is not None:
            text += "   + " + pal.tile(hand.winning)
        lines.append("Winning hand  " + text)
    lines.append("")
    if result.detail is not None:
        lines += score_lines(result.detail)
        lines.append("")
    lines.append(_points_line(result))
    return lines


def _points_line(result: HandResult) -> str:
    d0, d1 = result.deltas
    return f"Points: {result.points}   You {d0:+d}   Computer {d1:+d}"


def _follow_note(obs: Observation, legal: Sequence[Action], pal: Palette) -> str | None:
    """xiamen R-2.5: why only some tiles may be discarded (跟打)."""
    if gold_of(obs) is None or obs.phase != "turn":
        return None
    allowed = {int(a.tile) for a in legal if a.kind is AK.DISCARD and a.tile is not None}
    if not allowed or allowed == {int(t) for t in obs.hand}:
        return None
    names = " or ".join(pal.name(t) for t in sorted(allowed))
    return (
        f"跟打: the computer discarded {names} and you hold exactly one — "
        f"you must discard {names} (a win or a kong stays allowed)."
    )


def _offer(obs: Observation) -> Tile | None:
    """The kind of the pung offered to the player this turn (arcade R2.22)."""
    return obs.view.offer if isinstance(obs.view, ArcadeView) else None


def _key_list(menu: Sequence[Choice]) -> str:
    numbers = [c.key for c in menu if c.key.isdigit()]
    others = [c.key for c in menu if not c.key.isdigit() and not c.key.startswith("t")]
    tings = [c.key for c in menu if c.key.startswith("t")]
    parts = []
    if numbers:
        parts.append(f"{numbers[0]}-{numbers[-1]}")
    if tings:
        parts.append("t+number")
    parts += others
    return ", ".join(parts) + ", a, ?, q"


# ---------------------------------------------------------------------------- entry point
def play(
    inp: TextIO,
    out: TextIO,
    *,
    ruleset: Ruleset,
    bot: Bot,
    seed: int | None,
    palette: Palette,
) -> int:
    """Run a match on the given streams until the player quits; returns the exit code."""
    console = Console(inp, out)
    game = Game(ruleset, bot, console, palette, seed=seed)
    with contextlib.suppress(QuitRequested, KeyboardInterrupt):
        game.run()
    s0, s1 = game.match.scores
    hands = len(game.match.hands)
    out.write(
        f"\nBye! {hands} hand{'s' if hands != 1 else ''} played · "
        f"final score You {s0:+d} · Computer {s1:+d}\n"
    )
    out.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    if not known_bot("play", args.bot):
        return 2
    try:
        if args.rules not in ruleset_names():
            raise ValueError(
                f"unknown ruleset {args.rules!r} (known: {', '.join(ruleset_names())})"
            )
        ruleset = find_ruleset(args.rules, dict(parse_option(o) for o in args.option))
    except (ValueError, TypeError) as error:
        print(f"erren play: {error}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    palette = palette_of(args)
    bot = find_bot(args.bot, seed=seed)
    return play(sys.stdin, sys.stdout, ruleset=ruleset, bot=bot, seed=seed, palette=palette)
