"""Duplicate matches between two bots: every deal played twice, with the seats swapped.

>>> from erren.engine import find_family
>>> result = arena(find_family("guobiao-2p"), ("efficiency", "efficiency"), deals=4, seed=1)
>>> result.games, result.mean
(8, 0.0)

Deals.  One generator seeded with ``seed`` hands out, for deal ``i`` in turn, the hand's seed
and the bots' seed; deal ``i`` is dealt by seat ``i % 2``.  So deal ``i`` is a function of
``(seed, i)`` alone, whichever worker plays it, and ``workers`` changes nothing but the speed.
Game 1 of a deal seats A at 0 and B at 1; game 2 deals the same wall with the same dealer and
seats B at 0 and A at 1.  Each game builds both bots afresh (:func:`make_bot`) with the deal's
bot seed, so a bot starts both games of a deal in the same state, and the two sides are
interchangeable: a bot against itself (random too) plays game 2 as the mirror of game 1, and
``arena(B, A)`` plays the games of ``arena(A, B)`` in the other order, with the sign flipped.

The figure.  Points are zero-sum (``HandResult.deltas``), so deal ``i``'s advantage of A over B
per hand is ``d_i = (A's points in game 1 + A's points in game 2) / 2``.  The table prints the
mean ``m`` of the ``d_i`` and the normal 95 % interval ``m ± 1.96·s/√n``, ``s`` the sample
standard deviation (divisor ``n − 1``); with fewer than two deals there is no interval.  The
luck of the wall cancels out of ``d_i``: a bot against itself has every ``d_i`` exactly 0.

Per side (A, B, over both games of every deal): wins, 自摸 among them, deal-ins (the opponent
won on this side's discard or robbed its kong: ``how`` in :data:`DEALT_IN`), the points and
fan (xiamen: 水) of the wins, and the time of every decision (``choose``/``pick`` alone, not
the engine's observation).  Every line of :meth:`ArenaResult.table` but the timing lines is a
function of the seed.
"""

from __future__ import annotations

import math
import random
import time
import unicodedata
from array import array
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, TextIO

from erren.bots import Bot, BotError, bot_names, find_bot
from erren.bots.base import Ears, timeout_of
from erren.bots.expert import ExpertBot
from erren.bots.expert.knobs import Knobs
from erren.bots.levels import MASTER_BUDGET_MS, level_bot, level_names, parse_level
from erren.engine import Family, State, find_family
from erren.engine.result import ResultKind, WinHow
from erren.mjai.bot import DEFAULT_TIMEOUT_S, MjaiBot, mjai_command
from erren.scoring.detail import ScoreUnit
from erren.sim.simulator import Progress, per_win

__all__ = [
    "DEALT_IN",
    "Z95",
    "ArenaResult",
    "Deal",
    "SideStats",
    "arena",
    "deals_of",
    "make_bot",
]

DEALT_IN = frozenset({WinHow.DISCARD, WinHow.ROBBING})
EXPERT_VARIANT = "expert["
"""How a bot name that changes 大师's knobs starts: ``expert[one_away_flex=0]``."""
"""The ``how`` of a win made on the loser's own tile: his discard, or his added kong robbed.
Every family names these two so (xiamen's 游金, 三金倒, 抢金 and the rest are self-drawn)."""

Z95 = 1.96
"""The normal quantile of a two-sided 95 % interval."""

_CHUNKS_PER_WORKER = 4
"""Deals go to the workers in at least this many pieces each, so the progress bar moves..."""
_CHUNK_MAX = 50
"""... and in pieces of at most this many deals."""


def make_bot(
    name: str, seed: int, ruleset: Family, *, mjai_timeout: float = DEFAULT_TIMEOUT_S
) -> Bot:
    """The bot ``name`` with its seed, bound to ``ruleset`` — the one place the arena builds
    bots.  ``name`` is a registered bot (``efficiency``, ``expert``...), a player's level
    (``novice``, ``normal``, ``strong``, ``master``, also 入门/高手... or their English names:
    :mod:`erren.bots.levels`) or ``mjai:COMMAND``, an external program
    (:class:`~erren.mjai.bot.MjaiBot`, ``mjai_timeout`` seconds a decision; it starts at its
    first message) or ``expert[NAME=VALUE;...]``, 大师 with some :class:`Knobs` changed (for
    ablations).  An unknown name or knob, or a command not found, raises :class:`ValueError`."""
    command = mjai_command(name)
    if command is not None:
        bot: Bot = MjaiBot(command, timeout=mjai_timeout, label=name)
        bot.bind(ruleset)
        return bot
    if name in bot_names():
        return find_bot(name, seed=seed, ruleset=ruleset)
    if name.startswith(EXPERT_VARIANT) and name.endswith("]"):
        knobs = Knobs.parse(name[len(EXPERT_VARIANT) : -1])
        variant = ExpertBot(seed=seed, budget_ms=MASTER_BUDGET_MS, knobs=knobs)
        variant.bind(ruleset)
        return variant
    try:
        level = parse_level(name)
    except ValueError:
        known = ", ".join(bot_names())
        raise ValueError(f"unknown bot {name!r} (bots: {known}; levels: {level_names()})") from None
    return level_bot(level, seed=seed, ruleset=ruleset)


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal ``index``: the hand's ``seed``, its ``dealer`` and the seed both bots are built
    with in both games."""

    index: int
    seed: int
    dealer: int
    bot_seed: int


def deals_of(seed: int, count: int) -> list[Deal]:
    """The first ``count`` deals of a run seeded with ``seed`` (module docstring)."""
    rng = random.Random(seed)
    deals = []
    for i in range(count):
        hand_seed = rng.getrandbits(63)
        deals.append(Deal(i, hand_seed, i % 2, rng.getrandbits(63)))
    return deals


@dataclass
class SideStats:
    """What one side (bot A or bot B) did over both games of every deal."""

    games: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    """Hands the opponent won on this side's discard or robbed kong (:data:`DEALT_IN`)."""
    points: int = 0
    """Sum of this side's score changes."""
    win_points: int = 0
    """Sum of what this side's wins paid it."""
    win_fan: int = 0
    """Sum of the fan totals (xiamen: 水) of this side's wins."""
    times: array[float] = field(default_factory=lambda: array("d"))
    """Seconds of every decision, in play order."""

    def merge(self, other: SideStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.self_drawn += other.self_drawn
        self.deal_ins += other.deal_ins
        self.points += other.points
        self.win_points += other.win_points
        self.win_fan += other.win_fan
        self.times.extend(other.times)

    def _per_game(self, count: int) -> float:
        return count / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self._per_game(self.wins)

    @property
    def deal_in_rate(self) -> float:
        return self._per_game(self.deal_ins)

    @property
    def avg_win_points(self) -> float:
        return self.win_points / self.wins if self.wins else 0.0

    @property
    def avg_win_fan(self) -> float:
        return self.win_fan / self.wins if self.wins else 0.0

    @property
    def decisions(self) -> int:
        return len(self.times)

    def time_ms(self, quantile: float) -> float:
        """The decision time at ``quantile`` (nearest rank), in milliseconds; 0 without any."""
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        rank = max(1, math.ceil(quantile * len(ordered)))
        return 1000 * ordered[rank - 1]

    @property
    def mean_time_ms(self) -> float:
        return 1000 * sum(self.times) / len(self.times) if self.times else 0.0


@dataclass
class ArenaResult:
    """A duplicate run: per deal A's points in its two games, per side :class:`SideStats`."""

    ruleset: str
    bots: tuple[str, str]
    seed: int
    a_points: list[tuple[int, int]] = field(default_factory=list)
    """A's points in game 1 and game 2 of every deal, in deal order (B's are their negation)."""
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))
    draws: int = 0
    aborts: int = 0
    elapsed: float = 0.0
    """Seconds of the whole run (varies run to run, like the decision times)."""
    unit: ScoreUnit = ScoreUnit.FAN
    """What the winners' totals count (the family's :attr:`~erren.engine.Family.score_unit`)."""

    # ------------------------------------------------------------------ statistics
    @property
    def deals(self) -> int:
        return len(self.a_points)

    @property
    def games(self) -> int:
        return 2 * self.deals

    @property
    def advantages(self) -> list[float]:
        """``d_i``: A's points over B per hand in deal ``i``."""
        return [(first + second) / 2 for first, second in self.a_points]

    @property
    def mean(self) -> float:
        """A − B: mean points per hand over the deals (0 without any)."""
        d = self.advantages
        return sum(d) / len(d) if d else 0.0

    @property
    def stdev(self) -> float | None:
        """Sample standard deviation of the ``d_i`` (``None`` below two deals)."""
        d = self.advantages
        if len(d) < 2:
            return None
        m = sum(d) / len(d)
        return math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))

    @property
    def half_width(self) -> float | None:
        """Half the 95 % interval, ``1.96·s/√n`` (``None`` below two deals)."""
        s = self.stdev
        return None if s is None else Z95 * s / math.sqrt(self.deals)

    @property
    def draw_rate(self) -> float:
        return self.draws / self.games if self.games else 0.0

    def merge(self, other: ArenaResult) -> None:
        """Append ``other``'s deals, which follow this result's."""
        self.a_points.extend(other.a_points)
        for mine, theirs in zip(self.sides, other.sides, strict=True):
            mine.merge(theirs)
        self.draws += other.draws
        self.aborts += other.aborts

    # ------------------------------------------------------------------ printing
    def headline(self) -> str:
        """``A − B (x − y): +1.23 points per hand ± 0.45 (95% CI +0.78 to +1.68)``."""
        a, b = self.bots
        text = f"A − B ({a} − {b}): {self.mean:+.2f} points per hand"
        hw = self.half_width
        if hw is None:
            return text + " (no interval below 2 deals)"
        low, high = self.mean - hw, self.mean + hw
        return text + f" ± {hw:.2f} (95% CI {low:+.2f} to {high:+.2f})"

    def cells(self) -> str:
        """Markdown table cells: A − B, its 95 % interval and both deal-in rates
        (``+0.62 | [+0.39, +0.85] | 2.3% / 7.3%``)."""
        half = self.half_width or 0.0
        a, b = self.sides
        interval = f"[{self.mean - half:+.2f}, {self.mean + half:+.2f}]"
        return f"{self.mean:+.2f} | {interval} | {a.deal_in_rate:.1%} / {b.deal_in_rate:.1%}"

    def table(self, *, timings: bool = True) -> str:
        """The readable summary; every line but the timing lines is a function of the seed."""
        a, b = self.sides
        fan = f"avg {per_win(self.unit)} per win"

        width = max(14, 2 + max(len(name) for name in self.bots))  # a long mjai: command

        def row(label: str, left: str, right: str) -> str:
            return f"{_pad(label, 20)}{left:>{width}}{right:>{width}}"

        lines = [
            f"{self.ruleset} · {self.deals} deals × 2 games, seats swapped · seed {self.seed}",
            "",
            self.headline(),
            "",
            row("", "A", "B"),
            row("bot", *self.bots),
            row("points/hand", *(f"{s._per_game(s.points):+.2f}" for s in (a, b))),
            row("win rate", _pct(a.win_rate), _pct(b.win_rate)),
            row("  self-drawn", str(a.self_drawn), str(b.self_drawn)),
            row("deal-in rate", _pct(a.deal_in_rate), _pct(b.deal_in_rate)),
            row("avg points per win", f"{a.avg_win_points:.2f}", f"{b.avg_win_points:.2f}"),
            row(fan, f"{a.avg_win_fan:.2f}", f"{b.avg_win_fan:.2f}"),
            row("decisions", f"{a.decisions:,}", f"{b.decisions:,}"),
        ]
        if timings:
            lines += [
                row("decision p50 ms", f"{a.time_ms(0.5):.3f}", f"{b.time_ms(0.5):.3f}"),
                row("decision p99 ms", f"{a.time_ms(0.99):.3f}", f"{b.time_ms(0.99):.3f}"),
                row("decision mean ms", f"{a.mean_time_ms:.3f}", f"{b.mean_time_ms:.3f}"),
            ]
        lines += ["", _pad("draws (荒庄)", 20) + f"{self.draws} ({_pct(self.draw_rate)})"]
        if self.aborts:
            lines.append(_pad("aborted", 20) + str(self.aborts))
        if timings:
            rate = self.games / self.elapsed if self.elapsed > 0 else 0.0
            lines.append(_pad("speed", 20) + f"{rate:,.0f} hands/s ({self.elapsed:.2f} s)")
        return "\n".join(lines)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _pad(label: str, columns: int) -> str:
    """``label`` padded to ``columns`` terminal columns (a CJK character takes two)."""
    wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in label)
    return label + " " * max(0, columns - len(label) - wide)


# ---------------------------------------------------------------------- playing
def _play(state: State, bots: Sequence[Bot], clocks: Sequence[array[float]]) -> State:
    """Play ``state`` to its end, ``bots[seat]`` deciding and ``clocks[seat]`` timing it (a
    listening bot hears its seat's events; a :class:`BotError` makes a ``timeout``, as in
    :func:`~erren.bots.base.play_hand`)."""
    clock = time.perf_counter
    ears = Ears(bots) if bots[0].listens or bots[1].listens else None
    while not state.is_terminal:
        seat = state.actor
        bot = bots[seat]
        legal = state.legal_actions()
        if bot.blind:
            start = clock()
            action = bot.pick(legal)
        else:
            observation = state.observe(seat)
            start = clock()
            if ears is not None:
                ears.tell(state, seat, observation)
            try:
                action = bot.choose(observation, legal)
            except BotError:
                clocks[seat].append(clock() - start)
                state.apply_system(timeout_of(seat))
                continue
        clocks[seat].append(clock() - start)
        state.apply(action)
    if ears is not None:
        ears.finish(state)
    return state


def _book(result: ArenaResult, state: State, seats: tuple[int, int]) -> int:
    """Count one finished game where side A sat at ``seats[0]`` and B at ``seats[1]``;
    returns A's points."""
    outcome = state.result
    if outcome is None:
        raise ValueError("the hand is not finished")
    if outcome.kind is ResultKind.DRAW:
        result.draws += 1
    elif outcome.kind is not ResultKind.WIN:
        result.aborts += 1
    for side, seat in zip(result.sides, seats, strict=True):
        side.games += 1
        side.points += outcome.deltas[seat]
        if outcome.kind is not ResultKind.WIN:
            continue
        if outcome.winner == seat:
            side.wins += 1
            side.self_drawn += outcome.how is WinHow.ZIMO
            side.win_points += outcome.deltas[seat]
            side.win_fan += outcome.fan_total
        elif outcome.loser == seat and outcome.how in DEALT_IN:
            side.deal_ins += 1
    return outcome.deltas[seats[0]]


Tune = Callable[[Sequence[Bot], State], None]
"""A hook that sees each game's bots (by seat) and its state before play: a benchmark tells a
bot something no player knows (``benchmarks/bench_defence_ceiling.py``'s oracle)."""


def _play_deals(
    ruleset: Family,
    names: tuple[str, str],
    deals: Sequence[Deal],
    records: bool,
    mjai_timeout: float = DEFAULT_TIMEOUT_S,
    *,
    tune: Tune | None = None,
) -> tuple[ArenaResult, list[str]]:
    """Play ``deals`` (both games each); the counts and, with ``records``, the records of the
    games in order.  Each game's bots are closed after it (an external program ends)."""
    result = ArenaResult(ruleset.name, names, 0, unit=ruleset.score_unit)
    lines: list[str] = []
    for deal in deals:
        a_points = []
        for seats in ((0, 1), (1, 0)):
            side_at = (seats.index(0), seats.index(1))  # the side (0: A, 1: B) of each seat
            bots = [
                make_bot(names[k], deal.bot_seed, ruleset, mjai_timeout=mjai_timeout)
                for k in side_at
            ]
            clocks = [result.sides[k].times for k in side_at]
            state = State.new(ruleset, seed=deal.seed, dealer=deal.dealer)
            if tune is not None:
                tune(bots, state)
            try:
                _play(state, bots, clocks)
            finally:
                for bot in bots:
                    bot.close()
            a_points.append(_book(result, state, seats))
            if records:
                lines.append(state.record().to_json())
        result.a_points.append((a_points[0], a_points[1]))
    return result, lines


def _work(
    rules: tuple[str, dict[str, Any]],
    names: tuple[str, str],
    deals: Sequence[Deal],
    records: bool,
    mjai_timeout: float,
) -> tuple[ArenaResult, list[str]]:
    """:func:`_play_deals` in a worker process: the ruleset travels as its name and options."""
    return _play_deals(find_family(*rules), names, deals, records, mjai_timeout)


def _chunks(deals: Sequence[Deal], size: int) -> Iterator[Sequence[Deal]]:
    for start in range(0, len(deals), size):
        yield deals[start : start + size]


def arena(
    ruleset: Family,
    bots: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    jsonl: TextIO | None = None,
    progress: Progress | None = None,
    mjai_timeout: float = DEFAULT_TIMEOUT_S,
) -> ArenaResult:
    """Play ``deals`` duplicate deals between the bots named ``bots`` = (A, B) (names as
    :func:`make_bot` reads them; an ``mjai:`` program runs once per game, per worker).

    ``workers`` > 1 splits the deals over that many processes (the result is the same);
    ``jsonl`` receives every game's record (``docs/records.md``), one a line, in deal order,
    game 1 (A at seat 0) before game 2; ``progress(done, total)`` counts hands (two a deal).
    Bad arguments raise :class:`ValueError`.
    """
    if len(bots) != 2:
        raise ValueError("an arena needs two bots, A and B")
    if deals < 1:
        raise ValueError("deals must be ≥ 1")
    if workers < 1:
        raise ValueError("workers must be ≥ 1")
    names = (bots[0], bots[1])
    for name in names:
        # an unknown name fails here, before any process starts (an mjai program starts
        # at its first message: this one never does)
        make_bot(name, 0, ruleset, mjai_timeout=mjai_timeout)
    rules = (ruleset.name, ruleset.options_dict())
    plan = deals_of(seed, deals)
    total = ArenaResult(ruleset.name, names, seed, unit=ruleset.score_unit)
    records = jsonl is not None
    start = time.perf_counter()

    def take(part: ArenaResult, lines: list[str]) -> None:
        total.merge(part)
        if jsonl is not None:
            jsonl.writelines(line + "\n" for line in lines)
        if progress is not None:
            progress(total.games, 2 * deals)

    if workers == 1:
        for deal in plan:
            take(*_play_deals(ruleset, names, (deal,), records, mjai_timeout))
    else:
        size = max(1, min(_CHUNK_MAX, math.ceil(deals / (workers * _CHUNKS_PER_WORKER))))
        context = get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures: list[Future[tuple[ArenaResult, list[str]]]] = [
                pool.submit(_work, rules, names, chunk, records, mjai_timeout)
                for chunk in _chunks(plan, size)
            ]
            try:
                for future in futures:  # in deal order
                    take(*future.result())
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    total.elapsed = time.perf_counter() - start
    return total
