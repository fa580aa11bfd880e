"""The batch simulator: many hands (or matches) between two bots, seeded and reproducible.

>>> from erren.engine import find_family
>>> stats = simulate(find_family("guobiao-2p"), ("random", "random"), hands=20, seed=1)
>>> stats.hands, sum(stats.wins) + stats.draws + stats.aborts
(20, 20)

Seeds: one generator seeded with ``seed`` hands out each bot's seed and then each hand's seed
(or each match's), so a run is a function of ``seed`` alone.  Without ``match_length`` hand
``i`` is dealt by seat ``i % 2``; with it, the hands are grouped into matches of that many hands
played with :class:`~erren.engine.Match` (dealer rotation and 连庄 as the family says).

The hot loop gives each bot ``state.observe(seat)`` and the legal actions — never the state; a
``blind`` bot (random) skips the observation, which it would not read anyway.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from erren.bots.base import Bot, find_bot, play_hand
from erren.display import pad
from erren.engine import Family, Match, State
from erren.engine.result import AnyWinHow, ResultKind, WinHow
from erren.mjai.bot import DEFAULT_TIMEOUT_S, MjaiBot, mjai_command
from erren.scoring.detail import ScoreUnit

__all__ = ["Progress", "Stats", "per_win", "play_hand", "simulate"]

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called after every hand."""


@dataclass
class Stats:
    """What a simulation counted.  Per-seat lists are indexed by seat (0, 1)."""

    ruleset: str
    bots: tuple[str, str]
    seed: int
    hands: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    self_drawn: list[int] = field(default_factory=lambda: [0, 0])
    dealer_wins: int = 0
    draws: int = 0
    aborts: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    """Sum of each seat's score changes."""
    fan_total: int = 0
    """Sum of the winners' fan totals."""
    actions: int = 0
    """Player actions (decisions given to ``apply``), summed over hands."""
    discards: int = 0
    matches: int = 0
    match_wins: list[int] = field(default_factory=lambda: [0, 0])
    match_ties: int = 0
    by_how: dict[AnyWinHow, int] = field(default_factory=dict)
    """Wins by how they were made (``zimo``, ``discard``, xiamen's ``youjin``...)."""
    elapsed: float = 0.0
    """Seconds spent playing (the only figure that differs run to run)."""
    unit: ScoreUnit = ScoreUnit.FAN
    """What the winners' totals count (the family's :attr:`~erren.engine.Family.score_unit`)."""
    win_names: Mapping[AnyWinHow, str] = field(default_factory=dict)
    """The family's names of its own ways to win (:attr:`~erren.engine.Family.win_names`)."""

    # ------------------------------------------------------------------ derived
    def _per_hand(self, value: float) -> float:
        return value / self.hands if self.hands else 0.0

    def win_rate(self, seat: int) -> float:
        return self._per_hand(self.wins[seat])

    def avg_points(self, seat: int) -> float:
        return self._per_hand(self.points[seat])

    @property
    def avg_actions(self) -> float:
        return self._per_hand(self.actions)

    @property
    def avg_discards(self) -> float:
        return self._per_hand(self.discards)

    @property
    def avg_fan(self) -> float:
        won = sum(self.wins)
        return self.fan_total / won if won else 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.elapsed if self.elapsed > 0 else 0.0

    def add(self, state: State) -> None:
        """Count one finished hand."""
        result = state.result
        if result is None:
            raise ValueError("the hand is not finished")
        self.hands += 1
        if result.kind is ResultKind.WIN and result.winner is not None:
            w = result.winner
            self.wins[w] += 1
            self.fan_total += result.fan_total
            if result.how is WinHow.ZIMO:
                self.self_drawn[w] += 1
            if result.how is not None:
                self.by_how[result.how] = self.by_how.get(result.how, 0) + 1
            if w == state.dealer:
                self.dealer_wins += 1
        elif result.kind is ResultKind.DRAW:
            self.draws += 1
        else:
            self.aborts += 1
        self.points[0] += result.deltas[0]
        self.points[1] += result.deltas[1]
        n = 0
        for action in state.history:
            if action.player >= 0:
                n += 1
        self.actions += n
        self.discards += len(state.discards[0]) + len(state.discards[1])

    # ------------------------------------------------------------------ printing
    def table(self, *, timings: bool = True) -> str:
        """The readable summary; every line but the last (timings) is a function of the seed."""
        h = self.hands
        lines = [
            f"{self.ruleset} · {h} hands · seed {self.seed}",
            "",
            f"{'':<18}{'seat 0':>12}{'seat 1':>12}",
            f"{'bot':<18}{self.bots[0]:>12}{self.bots[1]:>12}",
            f"{'wins':<18}{self.wins[0]:>12}{self.wins[1]:>12}",
            f"{'win rate':<18}{_pct(self.win_rate(0)):>12}{_pct(self.win_rate(1)):>12}",
            f"{'  self-drawn':<18}{self.self_drawn[0]:>12}{self.self_drawn[1]:>12}",
            f"{'points':<18}{self.points[0]:>12}{self.points[1]:>12}",
            f"{'avg points/hand':<18}{self.avg_points(0):>12.2f}{self.avg_points(1):>12.2f}",
        ]
        if self.matches:
            lines.append(f"{'matches won':<18}{self.match_wins[0]:>12}{self.match_wins[1]:>12}")
        lines += [
            "",
            f"draws (荒庄)        {self.draws} ({_pct(self._per_hand(self.draws))})",
        ]
        if self.aborts:
            lines.append(f"aborted            {self.aborts}")
        if self.matches:
            lines.append(f"matches            {self.matches} ({self.match_ties} tied)")
        lines += [
            f"dealer wins        {self.dealer_wins}",
            f"{pad(f'avg {per_win(self.unit)} per win', 19)}{self.avg_fan:.2f}",
            f"avg hand length    {self.avg_actions:.1f} actions, {self.avg_discards:.1f} discards",
        ]
        if set(self.by_how) - set(WinHow):  # a family's own ways: in its words
            names = self.win_names
            parts = [
                f"{names.get(how, how)} {n}"
                for how, n in sorted(self.by_how.items(), key=lambda kv: (-kv[1], kv[0]))
            ]
            lines.append(f"win types          {', '.join(parts)}")
        if timings:
            lines.append(
                f"speed              {self.hands_per_second:,.0f} hands/s ({self.elapsed:.2f} s)"
            )
        return "\n".join(lines)


def per_win(unit: ScoreUnit) -> str:
    """What the summaries average per win, in their English lines: the unit's English name
    (``fan``), but 水 as players write it: the unit's ``per_win`` word."""
    return unit.words.per_win


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _bots(
    names: Sequence[str | Bot], rng: random.Random, ruleset: Family, mjai_timeout: float
) -> tuple[list[Bot], tuple[str, str], list[Bot]]:
    """The two bots, their names, and those built here (closed by :func:`simulate`)."""
    if len(names) != 2:
        raise ValueError("a simulation needs two bots, one per seat")
    bots: list[Bot] = []
    built: list[Bot] = []
    labels: list[str] = []
    for item in names:
        seed = rng.getrandbits(63)
        if isinstance(item, Bot):
            bot = item
        else:
            command = mjai_command(item)
            if command is not None:
                bot = MjaiBot(command, timeout=mjai_timeout, label=item)
            else:
                bot = find_bot(item, seed=seed)
            built.append(bot)
        bot.bind(ruleset)
        bots.append(bot)
        labels.append(item if isinstance(bot, MjaiBot) and isinstance(item, str) else bot.name)
    return bots, (labels[0], labels[1]), built


def simulate(
    ruleset: Family,
    bots: Sequence[str | Bot],
    *,
    hands: int,
    seed: int = 0,
    match_length: int | None = None,
    jsonl: TextIO | None = None,
    progress: Progress | None = None,
    mjai_timeout: float = DEFAULT_TIMEOUT_S,
) -> Stats:
    """Play ``hands`` hands between ``bots`` (seat 0, seat 1) and count what happened.

    ``bots``: bots, or names for :func:`~erren.bots.find_bot`, or ``mjai:COMMAND`` for an
    external program (:class:`~erren.mjai.bot.MjaiBot`, ``mjai_timeout`` seconds a
    decision), which plays the whole run as one mjai game and is ended with it.

    ``match_length``: group the hands into matches of that many hands (the last one may be
    shorter).  ``jsonl``: write each hand's record (``docs/records.md``) as one line.
    """
    if hands < 0:
        raise ValueError("hands must be ≥ 0")
    if match_length is not None and match_length < 1:
        raise ValueError("match_length must be ≥ 1")
    rng = random.Random(seed)
    players, names, built = _bots(bots, rng, ruleset, mjai_timeout)
    try:
        return _run(
            ruleset,
            players,
            names,
            rng,
            seed=seed,
            hands=hands,
            match_length=match_length,
            jsonl=jsonl,
            progress=progress,
        )
    finally:
        for bot in built:
            bot.close()


def _run(
    ruleset: Family,
    players: list[Bot],
    names: tuple[str, str],
    rng: random.Random,
    *,
    seed: int,
    hands: int,
    match_length: int | None,
    jsonl: TextIO | None,
    progress: Progress | None,
) -> Stats:
    stats = Stats(ruleset.name, names, seed, unit=ruleset.score_unit, win_names=ruleset.win_names)
    start = time.perf_counter()
    match: Match | None = None
    for i in range(hands):
        if match_length is None:
            state = State.new(ruleset, seed=rng.getrandbits(63), dealer=i % 2)
        else:
            if match is None or len(match.hands) >= match_length or match.over:
                match = Match(ruleset, seed=rng.getrandbits(63))
            state = match.new_hand()
        play_hand(state, players)
        stats.add(state)
        if match is not None and match_length is not None:
            match.finish_hand(state)
            if len(match.hands) >= match_length or match.over or i == hands - 1:
                _book_match(stats, match)
        if jsonl is not None:
            jsonl.write(state.record().to_json() + "\n")
        if progress is not None:
            progress(i + 1, hands)
    stats.elapsed = time.perf_counter() - start
    return stats


def _book_match(stats: Stats, match: Match) -> None:
    stats.matches += 1
    a, b = match.scores
    if a > b:
        stats.match_wins[0] += 1
    elif b > a:
        stats.match_wins[1] += 1
    else:
        stats.match_ties += 1
