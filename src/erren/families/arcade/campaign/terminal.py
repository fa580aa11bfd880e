"""The screens of ``erren arcade`` (:mod:`~erren.families.arcade.campaign.command`): a run of
stage mode (关卡模式, arcade §3) played in the terminal against the computer — the status panel,
the stake, each hand, its settlement, the stage and final screens.

The hands are played by the ``arcade`` engine; the screens reuse ``erren play``'s table, menu,
words and settlement (``cli/table.py``, ``cli/menu.py``, ``cli/words.py``, ``cli/settlement.py``).
"""

from __future__ import annotations

import random
from pathlib import Path

from erren.bots import Bot, find_bot
from erren.cli.console import Console
from erren.cli.menu import Choice, ask_menu, choices
from erren.cli.play import Opponent
from erren.cli.settlement import settlement_lines
from erren.cli.table import drawn_tile, hand_order, show_table
from erren.cli.words import describe, narrate
from erren.display import Palette, wild_of
from erren.engine import CHANCE, Action, ActionKind, Event, Observation, State
from erren.engine.phases import Phase
from erren.engine.result import ResultKind
from erren.engine.state import HandResult
from erren.errors import ErrenError
from erren.families.arcade.bot.stage import STAGE_STYLE
from erren.families.arcade.campaign import (
    COMPUTER,
    HUMAN,
    STAGES,
    Run,
    Settlement,
    StakeError,
    Status,
    stage_level,
    table,
)
from erren.families.arcade.campaign import save as saving
from erren.families.arcade.campaign.save import Save
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.vocabulary import ArcadeEvent, ArcadeVerb
from erren.notation import parse_tile, parse_tiles

__all__ = ["Campaign"]

AK = ActionKind
NAMES = ("You", "Computer")
_SEAT = ("you", "the computer")
_RULE = "═" * 24


_HELP = (
    "Type the key shown before a choice, e.g. 5 to discard tile number 5,",
    "t5 to discard it and declare 报听, h to win, p/c/g to claim,",
    "Enter to pass, q to save and quit (you resume right here).",
)
"""What ``?`` shows at a decision."""
_KEYS = "type one of the keys above, a, ? or q"


class Campaign:
    """The session: the run, its save file, the hand in play and the screens."""

    def __init__(
        self, run: Run, path: Path, console: Console, pal: Palette, opponent: Opponent
    ) -> None:
        self.run = run
        self.path = path
        self.io = console
        self.pal = pal
        self.opponent = opponent
        self.state: State | None = None
        self.saved_hand: dict[str, object] | None = None
        self.seen = 0
        self.wild: int | None = None
        self.adviser = find_bot("expert", seed=run.seed)

    # ------------------------------------------------------------------ saving
    def save(self) -> None:
        hand = self.state.record().to_dict() if self.state is not None else self.saved_hand
        saving.write(self.path, Save(self.run, hand))

    # ------------------------------------------------------------------ the loop
    def play(self) -> None:
        run = self.run
        while not run.over:
            if run.status is Status.READY:
                self.status_panel()
                multiplier = self.ask_stake()
                start = run.start_hand(multiplier)
                self.state = table.new_hand(start)
                self.save()
                self.io.say("")
                for line in start.lines():
                    self.io.say(line)
            else:
                self.state = self.restore()
                if self.state is None:
                    continue
            self.seen = 0
            self.wild = None
            self.play_hand(self.state)
            result = self.state.result
            settlement = run.settle(table.outcome_of(self.state))
            self.state = None
            self.saved_hand = None
            self.save()
            self.settlement(settlement, result)
            if run.over:
                break
            if settlement.cleared:
                self.stage_screen(settlement)
            self.io.ask("[Enter] next hand · q quit: ")
        self.final_screen()

    def restore(self) -> State | None:
        """The saved hand in play, replayed; ``None`` (hand called off) if it cannot be."""
        run = self.run
        start = run.current
        assert start is not None
        record = self.saved_hand
        try:
            if record is None:
                raise ValueError("the save holds no record of it")
            state = table.resume_hand(record, start)
        except ValueError as err:
            for line in run.void_hand(str(err)):
                self.io.say(line)
            self.saved_hand = None
            self.save()
            return None
        self.io.say("")
        self.io.say(f"Back to hand {start.hand} where you left it (stake {start.stake}).")
        return state

    def play_hand(self, state: State) -> None:
        run = self.run
        bot = self.bot(run.current.seed if run.current else 0, state)
        self.adviser.bind(state.ruleset)
        chance = random.Random(state.seed)
        self.io.say("")
        self.io.say(
            self.pal.bold(
                f"{_RULE} Stage {run.stage} · hand {run.stage_hands} · {self.computer()} {_RULE}"
            )
        )
        while not state.is_terminal:
            seat = state.actor
            if seat == CHANCE:
                state.apply(state.sample_chance(chance))
            elif seat == COMPUTER:
                obs = state.observe(COMPUTER)
                state.apply(bot.choose(obs, obs.legal_actions))
            else:
                self.news(state)
                self.human_turn(state)
        self.news(state)

    def narrate(self, event: Event) -> str | None:
        """A line about an event: arcade's own (the wild, the exchange, pick-any, 海底捞月),
        else ``erren play``'s; read from the event's kind and data."""
        pal = self.pal
        who = NAMES[event.player] if event.player in (0, 1) else ""
        mine = event.player == HUMAN
        kind, tile, data = event.kind, event.tile, event.data
        if kind is ArcadeEvent.WILD and tile is not None:
            flower = pal.name(parse_tile(event.word("flower")))
            return (
                f"财神 the wild is {pal.name(tile)} (indicator turned face up); "
                f"the flowers are {flower}"
            )
        if kind is ArcadeEvent.EXCHANGE:
            got = f": you receive {pal.tiles(event.tiles)}" if mine and event.tiles else ""
            return f"{who}: 起始换牌 exchange of {data['count']} tile(s){got}"
        if kind is ArcadeEvent.PICK_OFFER:
            return None  # the pick prompt says it
        if kind is ArcadeEvent.PICK:
            if not mine:
                return f"{who} picks a tile (搓牌)"
            named = pal.name(tile) if tile is not None else "?"
            left = " — none left, an ordinary draw" if not event.tiles else ""
            return f"{who} pick {named}{left}"
        if kind is ArcadeEvent.HAIDI:
            return f"海底捞月: {who} has {data['draws']} draws from the reserve"
        if kind is ArcadeEvent.PUNG_OFFER and tile is not None and mine:
            return f"游戏中换牌: a pung of {pal.name(tile)} is offered to you"
        return narrate(event, pal)

    def bot(self, seed: int, state: State) -> Bot:
        """The computer of this stage, bound to the hand's rules."""
        return self.opponent.make(
            seed=seed, ruleset=state.ruleset, level=stage_level(self.run.stage)
        )

    def computer(self) -> str:
        """The computer's name on the screen: ``Computer (Beginner)`` in stage 1."""
        return self.opponent.label(stage_level(self.run.stage))

    def introduce(self) -> None:
        """A new run's first words: the bankroll, the goal, the first stage's opponent."""
        self.io.say(
            f"A new run: bankroll {self.run.bankroll:,}, four stages; empty the computer's "
            "purse to clear each. q saves and quits at any prompt."
        )
        self.io.say(self.opponent_line())

    def opponent_line(self) -> str:
        """Who the computer is this stage and, when it plays a level, how it plays
        (:data:`~erren.families.arcade.bot.stage.STAGE_STYLE`)."""
        line = f"Your opponent now: {self.computer()}."
        if self.opponent.bot is not None:
            return line
        level = self.opponent.level or stage_level(self.run.stage)
        return f"{line} {STAGE_STYLE[level].en}"

    def news(self, state: State) -> None:
        for event in state.events_since(HUMAN, self.seen):
            if event.kind is ArcadeEvent.WILD and event.tile is not None:
                self.wild = int(event.tile)
            line = self.narrate(event)
            if line:
                self.io.say("  · " + line)
        self.seen = state.event_count

    # ------------------------------------------------------------------ a decision
    def header(self, state: State) -> str:
        run = self.run
        start = run.current
        stake = start.stake if start is not None else 0
        deals = "you deal" if state.dealer == HUMAN else "the computer deals"
        return (
            f"Stage {run.stage}/{STAGES} · {deals} · {state.wall_count} tiles left · "
            f"stake {stake:,} · bankroll {run.bankroll:,} · purse {run.purse:,} · "
            f"streak {run.streak}/{run.params.streak_length}"
        )

    def human_turn(self, state: State) -> None:
        io, pal = self.io, self.pal
        obs = state.observe(HUMAN)
        legal = obs.legal_actions
        menu = choices(obs, legal, pal) + self.extra_choices(obs, legal)
        show_table(
            io,
            pal,
            obs,
            header=self.header(state),
            note=self.wild_line(obs),
            hand=self.hand_lines(obs),
        )
        phase = obs.phase
        if phase is ArcadePhase.EXCHANGE:
            self.exchange(state, obs, legal)
            return
        if phase is ArcadePhase.PICK:
            self.pick(state, obs, legal)
            return
        io.say(pal.bold(self.situation(obs)))
        ask_menu(io, pal, state, obs, menu, adviser=self.adviser, help_lines=_HELP, keys_hint=_KEYS)

    def situation(self, obs: Observation) -> str:
        pal = self.pal
        if obs.phase is Phase.CLAIM and obs.pending is not None:
            return f"The computer discarded {pal.name(obs.pending)}. Claim it?"
        if obs.phase is Phase.ROB and obs.pending is not None:
            return f"The computer adds {pal.name(obs.pending)} to a pung — rob the kong?"
        if obs.phase is ArcadePhase.HAIDI:
            drawn = obs.last_drawn
            tile = f" {pal.name(drawn)}" if drawn is not None else ""
            return f"海底捞月: your post-draw draw{tile} completes your hand — win?"
        drawn = drawn_tile(obs)
        if drawn is not None:
            return f"Your turn — you drew {pal.name(drawn)} (shown last)."
        return "Your turn — discard a tile."

    def extra_choices(self, obs: Observation, legal: tuple[Action, ...]) -> list[Choice]:
        """Legal actions ``erren play``'s menu does not know (arcade's own), under keys
        ``e1``, ``e2``, ... so that nothing legal is ever out of reach."""
        known = {c.action for c in choices(obs, legal, self.pal)}
        skip = (
            {ArcadeVerb.EXCHANGE, ArcadeVerb.PICK}
            if obs.phase in (ArcadePhase.EXCHANGE, ArcadePhase.PICK)
            else set()
        )
        skip.add(ArcadeVerb.GIVE)  # the pung offer's tiles are typed at once (u 1 2 3)
        extra = [a for a in legal if a not in known and a.kind not in skip]
        return [Choice(f"e{i + 1}", str(a), a) for i, a in enumerate(extra)]

    def exchange(self, state: State, obs: Observation, legal: tuple[Action, ...]) -> None:
        """R2.21 / R3.7: give up any of the concealed tiles for tiles from the reserve."""
        io, pal = self.io, self.pal
        tiles = hand_order(obs)
        io.say(pal.bold("起始换牌 opening exchange: swap any of your tiles for unseen ones."))
        io.say("Type the numbers of the tiles to give up (e.g. 2 7 11), Enter to keep your hand.")
        while True:
            answer = io.ask("Exchange: ").replace(",", " ").split()
            try:
                picked = sorted({int(a) for a in answer})
            except ValueError:
                io.say("Type tile numbers separated by spaces, or just Enter.")
                continue
            if any(not 1 <= n <= len(tiles) for n in picked):
                io.say(f"Tile numbers go from 1 to {len(tiles)}.")
                continue
            action = Action.tiles_action(
                ArcadeVerb.EXCHANGE, HUMAN, [int(tiles[n - 1]) for n in picked]
            )
            try:
                for step in state.ruleset.steps_of(state, action):  # one give per tile
                    state.apply(step)
            except ErrenError as err:
                io.say(f"Not allowed: {err}")
                continue
            return

    def pick(self, state: State, obs: Observation, legal: tuple[Action, ...]) -> None:
        """R2.23 / R3.9: name the tile to draw, or draw blind."""
        io, pal = self.io, self.pal
        picks = {a.tile_kind(): a for a in legal if a.kind is ArcadeVerb.PICK}
        blind = next((a for a in legal if a.kind is not ArcadeVerb.PICK), None)
        io.say(pal.bold("搓牌 pick-any: you may name the tile you draw this time!"))
        io.say("Type a tile (e.g. 5m, 9p, 1z east, 5z white), Enter to draw blind.")
        while True:
            answer = io.ask("Pick: ").strip()
            if not answer and blind is not None:
                state.apply(blind)
                return
            if answer in ("a", "advice"):
                advice = self.adviser.choose(obs, legal)
                words = (
                    describe(advice, pal)
                    if advice.kind is ArcadeVerb.PICK
                    else "draw blind (Enter)"
                )
                io.say(f"Advice: {words}")
                continue
            try:
                kinds = parse_tiles(answer)
            except ErrenError:
                io.say(f"'{answer}' is not a tile (write it like 5m, 7p, 3s, 6z)")
                continue
            if len(kinds) != 1 or int(kinds[0]) not in picks:
                io.say("That tile cannot be picked now (none left unseen).")
                continue
            state.apply(picks[int(kinds[0])])
            return

    # ------------------------------------------------------------------ display
    def wild_kind(self, obs: Observation) -> int | None:
        """The hand's 财神 kind (the observation's arcade view, else the public ``wild``
        event)."""
        wild = wild_of(obs)
        return int(wild) if wild is not None else self.wild

    def wild_line(self, obs: Observation) -> str | None:
        wild = self.wild_kind(obs)
        if wild is None:
            return None
        return f"财神 wild: {self.pal.name(wild)} (marked 财 in your hand; stands for any tile)"

    def hand_lines(self, obs: Observation) -> list[str]:
        pal = self.pal
        tiles = hand_order(obs)
        apart = drawn_tile(obs) is not None
        wild = self.wild_kind(obs)
        cells: list[str] = []
        keys: list[str] = []
        for i, t in enumerate(tiles):
            gap = "  " if apart and i == len(tiles) - 1 else ""
            if wild is not None and int(t) == wild:
                cells.append(gap + pal.paint("财", "1;33") + pal.tile(t))
                keys.append(gap + f"{i + 1:>5}")
            else:
                cells.append(gap + pal.tile(t))
                keys.append(gap + f"{i + 1:>3}")
        return ["Your hand  " + " ".join(cells), "           " + " ".join(keys)]

    # ------------------------------------------------------------------ screens
    def status_panel(self) -> None:
        io, pal, run = self.io, self.pal, self.run
        io.say("")
        io.say(
            pal.bold(
                f"{_RULE} Stage {run.stage} of {STAGES} · hand {run.stage_hands + 1} · "
                f"{self.computer()} {_RULE}"
            )
        )
        purse = run.params.purse(run.stage)
        dealer = "you deal" if run.dealer == HUMAN else "the computer deals"
        io.say(
            f"Bankroll {run.bankroll:,} · computer purse {run.purse:,} of {purse:,} · {dealer} · "
            f"三连庄 streak {run.streak}/{run.params.streak_length}"
        )
        io.say("Features: " + " · ".join(run.features.names()))

    def ask_stake(self) -> int:
        run, io = self.run, self.io
        default = run.default_multiplier()
        unit = run.params.stake_unit
        top = run.affordable()
        if default < run.multiplier:
            io.say(
                f"Your bankroll covers at most {top} × {unit}: the stake is lowered to "
                f"{default} unless you choose less."
            )
        prompt = f"Stake multiplier m (1–{top}; stake m × {unit}; Enter = {default}): "
        while True:
            answer = io.ask(prompt)
            if not answer:
                return default
            try:
                m = int(answer)
            except ValueError:
                io.say(f"'{answer}' is not a number — type 1 to {top}, or Enter for {default}.")
                continue
            try:
                run.check_stake(m)
            except StakeError as err:
                io.say(f"{err}.")
                continue
            return m

    def settlement(self, settlement: Settlement, state_result: HandResult | None) -> None:
        io, pal = self.io, self.pal
        io.say("")
        io.say(pal.bold(f"{_RULE} Hand {settlement.start.hand} — settlement {_RULE}"))
        if state_result is not None:
            if state_result.kind is ResultKind.WIN and state_result.winner == COMPUTER:
                io.say(pal.paint("The computer wins.", "1;31") + " (its fan is not counted)")
                hand = state_result.hand
                if hand is not None:
                    io.say("Its hand  " + pal.tiles(hand.concealed))
            else:
                lines = [
                    x for x in settlement_lines(state_result, pal) if not x.startswith("Points:")
                ]
                while lines and not lines[-1]:
                    lines.pop()
                for line in lines:
                    io.say(line)
        io.say("")
        for line in settlement.lines():
            io.say("  " + line)
        io.say("")
        io.say(pal.bold(f"Bankroll {self.run.bankroll:,}   gain {settlement.gain:+,d}"))

    def stage_screen(self, settlement: Settlement) -> None:
        io, pal, run = self.io, self.pal, self.run
        io.say("")
        io.say(pal.paint(f"★ ★ ★  Stage {settlement.start.stage} cleared!  ★ ★ ★", "1;32"))
        io.say(f"On to stage {run.stage}: the computer's purse is {run.purse:,}.")
        io.say(self.opponent_line())
        io.say("Features: " + " · ".join(run.features.names()))
        io.say(f"First dealer (random): {_SEAT[run.dealer]}.")

    def final_screen(self) -> None:
        io, pal, run = self.io, self.pal, self.run
        io.say("")
        if run.status is Status.COMPLETE:
            io.say(pal.paint("★ ★ ★  通关 — all four stages cleared!  ★ ★ ★", "1;32"))
            io.say(f"Final bankroll (your score): {run.bankroll:,}")
        else:
            io.say(pal.paint("游戏失败 — GAME OVER", "1;31"))
            io.say(
                f"Your bankroll {run.bankroll:,} cannot cover the smallest stake "
                f"({run.params.stake_unit})."
            )
        io.say(
            f"Stage reached: {run.stage} · hands played: {run.hands} · "
            f"best payout: {run.best_payout:,}"
        )
        io.say("Start a new run with: erren arcade")
