"""The coach rating: the level of bot a player's play resembles (issue #31 point 3).

A player's reviewed hands (their summaries: decisions, matches, bad moves, loss) give three
figures — the match rate with 大师, the bad-move rate and the expected loss per hand — and the
same figures measured on bots of known strength (入门, 普通, 高手, 大师, and the learned policy
where it plays) make the calibration (:func:`calibrate`, shipped as ``coach_calibration.json``,
made by ``python -m benchmarks.bench_coach``).  :func:`coach_rating` places a player on the
levels' chain (docs/review.md, "Coach rating"):

* each figure is scaled by its spread over the family's four levels (the largest level's mean
  minus the smallest; a figure with no spread is left out), so each counts alike;
* the player's point is projected on each segment between consecutive levels (入门-普通,
  普通-高手, 高手-大师), clamped to the segment; the nearest projection (Euclidean, in the scaled
  figures; the first on a tie) gives the ``position``: the lower level's index (入门 0 ... 大师 3)
  plus the fraction ``t`` of the way to the upper one;
* ``t`` ≤ 1/4 rates the lower level, ``t`` ≥ 3/4 the upper one, and between the two "between";
* fewer than :data:`MIN_HANDS` hands: "not enough hands" (the figures are still given).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, Protocol

from erren.bots.base import Bot, find_bot, play_hand
from erren.bots.learned import LEARNT, rl_installed
from erren.bots.levels import Level, level_bot, parse_level
from erren.engine import Record, State, find_family
from erren.review.estimate import DEFAULT_ROLLOUTS
from erren.review.walk import deterministic, review_hand

__all__ = [
    "CALIBRATION_FILE",
    "FAMILIES",
    "MIN_HANDS",
    "SCHEMA",
    "Calibration",
    "CoachRating",
    "Figures",
    "HandFigures",
    "Interval",
    "Reference",
    "Verdict",
    "calibrate",
    "coach_rating",
    "figures_of",
    "load_calibration",
    "references",
]

SCHEMA = "erren-coach-calibration/1"
CALIBRATION_FILE = "coach_calibration.json"
"""The shipped calibration, in this package."""
FAMILIES = ("guobiao-2p", "xiamen", "arcade")
MIN_HANDS = 20
"""Below this many reviewed hands the rating is "not enough hands"."""
LEVELS: tuple[Level, ...] = (Level.NOVICE, Level.NORMAL, Level.STRONG, Level.MASTER)
"""The chain a player is placed on, weakest first (position 0 ... 3)."""
LEARNED = "learned"
"""The learned policy's id in the calibration; it plays its own network only in the family it
learnt (elsewhere it is 大师's fast policy, so it is not calibrated there)."""
NEAR = 0.25
"""``t`` at most this rates the lower level, at least ``1 - NEAR`` the upper one."""
BOOTSTRAP = 1000
"""Resamples of the hands for the 95 % intervals."""
METRICS = ("match_rate", "bad_rate", "loss_per_hand")


class HandFigures(Protocol):
    """What a hand's review gives the rating: :class:`erren.review.model.Summary`'s fields."""

    @property
    def decisions(self) -> int: ...
    @property
    def matches(self) -> int: ...
    @property
    def bad(self) -> int: ...
    @property
    def loss(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Row:
    """One reviewed hand, as the calibration file keeps it: ``[decisions, matches, bad, loss]``."""

    decisions: int
    matches: int
    bad: int
    loss: float


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's three figures over some hands: pooled match rate (matches / decisions, 1
    with no decision), bad-move rate (bad / decisions) and expected loss per hand."""

    match_rate: float
    bad_rate: float
    loss_per_hand: float

    def vector(self) -> tuple[float, float, float]:
        return (self.match_rate, self.bad_rate, self.loss_per_hand)


def figures_of(summaries: Sequence[HandFigures]) -> Figures:
    """The :class:`Figures` of per-hand summaries (all zero-loss with no hand)."""
    decisions = sum(s.decisions for s in summaries)
    matches = sum(s.matches for s in summaries)
    bad = sum(s.bad for s in summaries)
    loss = sum(s.loss for s in summaries)
    return Figures(
        match_rate=matches / decisions if decisions else 1.0,
        bad_rate=bad / decisions if decisions else 0.0,
        loss_per_hand=loss / len(summaries) if summaries else 0.0,
    )


@dataclass(frozen=True, slots=True)
class Interval:
    """A figure's mean and its 95 % interval (bootstrap percentiles over hands)."""

    mean: float
    low: float
    high: float


def intervals(rows: Sequence[HandFigures], *, seed: int) -> dict[str, Interval]:
    """Each figure of ``rows`` with its 95 % interval: :data:`BOOTSTRAP` resamples of the
    hands (with replacement, ``random.Random(seed)``), the 2.5th and 97.5th percentiles."""
    rng = random.Random(seed)
    whole = figures_of(rows)
    draws = [figures_of(rng.choices(rows, k=len(rows))).vector() for _ in range(BOOTSTRAP)]
    out = {}
    for i, name in enumerate(METRICS):
        ranked = sorted(d[i] for d in draws)
        low = ranked[int(0.025 * (BOOTSTRAP - 1))]
        high = ranked[math.ceil(0.975 * (BOOTSTRAP - 1))]
        out[name] = Interval(whole.vector()[i], low, high)
    return out


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference player of a family: its id (a :class:`Level` value or ``learned``), its
    figures with their intervals, and the hands they rest on."""

    player: str
    figures: Figures
    intervals: Mapping[str, Interval]
    hands: int
    rows: tuple[Row, ...] = ()

    @classmethod
    def of(cls, player: str, rows: Sequence[Row], *, seed: int) -> Reference:
        return cls(player, figures_of(rows), intervals(rows, seed=seed), len(rows), tuple(rows))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "hands": self.hands}
        for name, iv in self.intervals.items():
            out[name] = [iv.mean, iv.low, iv.high]
        out["rows"] = [[r.decisions, r.matches, r.bad, r.loss] for r in self.rows]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reference:
        rows = tuple(Row(int(d), int(m), int(b), float(x)) for d, m, b, x in data.get("rows", ()))
        ivs = {name: Interval(*(float(v) for v in data[name])) for name in METRICS}
        figures = Figures(*(ivs[name].mean for name in METRICS))
        return cls(str(data["player"]), figures, ivs, int(data["hands"]), rows)


@dataclass(frozen=True, slots=True)
class Calibration:
    """The reference players of each family, with how they were measured."""

    families: Mapping[str, tuple[Reference, ...]]
    seed: int = 0
    command: str = ""
    rollouts: int = DEFAULT_ROLLOUTS
    reviewer: str = Level.MASTER.value
    opponent: str = Level.NORMAL.value

    def level(self, family: str, level: Level) -> Reference:
        for ref in self.families.get(family, ()):
            if ref.player == level.value:
                return ref
        raise ValueError(f"no calibrated {level.value} in {family!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "seed": self.seed,
            "command": self.command,
            "rollouts": self.rollouts,
            "reviewer": self.reviewer,
            "opponent": self.opponent,
            "families": {f: [r.to_dict() for r in refs] for f, refs in self.families.items()},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibration:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a coach calibration (schema {data.get('schema')!r})")
        return cls(
            families={
                str(f): tuple(Reference.from_dict(r) for r in refs)
                for f, refs in data["families"].items()
            },
            seed=int(data["seed"]),
            command=str(data["command"]),
            rollouts=int(data["rollouts"]),
            reviewer=str(data["reviewer"]),
            opponent=str(data["opponent"]),
        )


@cache
def load_calibration() -> Calibration:
    """The calibration shipped in this package (:data:`CALIBRATION_FILE`)."""
    text = resources.files(__package__).joinpath(CALIBRATION_FILE).read_text(encoding="utf-8")
    return Calibration.from_dict(json.loads(text))


class Verdict(StrEnum):
    """What the rating says."""

    LEVEL = "level"
    """The play resembles one level (:attr:`CoachRating.level`)."""
    BETWEEN = "between"
    """Between :attr:`CoachRating.level` and the next, :attr:`CoachRating.upper`."""
    TOO_FEW = "too-few"
    """Fewer than :data:`MIN_HANDS` hands."""


@dataclass(frozen=True, slots=True)
class CoachRating:
    """A player's coach rating in a family, the figures it rests on and their hand count."""

    family: str
    verdict: Verdict
    hands: int
    figures: Figures
    level: Level | None = None
    upper: Level | None = None
    position: float | None = None
    """On the chain: 入门 0, 普通 1, 高手 2, 大师 3 (fractions between)."""
    distance: float | None = None
    """From the player's scaled figures to the nearest point of the chain."""

    def text(self, lang: str = "en") -> str:
        """``高手`` / ``介于普通和高手之间`` / ``手数不足（12/20）`` in ``zh``; ``Strong`` /
        ``between Normal and Strong`` / ``not enough hands (12 of 20)`` otherwise."""
        zh = lang == "zh"
        if self.verdict is Verdict.TOO_FEW or self.level is None:
            return (
                f"手数不足（{self.hands}/{MIN_HANDS}）"
                if zh
                else f"not enough hands ({self.hands} of {MIN_HANDS})"
            )
        if self.verdict is Verdict.BETWEEN and self.upper is not None:
            if zh:
                return f"介于{self.level.chinese}和{self.upper.chinese}之间"
            return f"between {self.level.english} and {self.upper.english}"
        return self.level.chinese if zh else self.level.english

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "verdict": self.verdict.value,
            "hands": self.hands,
            "level": None if self.level is None else self.level.value,
            "upper": None if self.upper is None else self.upper.value,
            "position": self.position,
            "distance": self.distance,
            "figures": {m: v for m, v in zip(METRICS, self.figures.vector(), strict=True)},
            "text": {"zh": self.text("zh"), "en": self.text("en")},
        }


def _scales(points: Sequence[tuple[float, ...]]) -> list[float]:
    """Each figure's spread over the levels (0: the figure is left out)."""
    return [max(p[i] for p in points) - min(p[i] for p in points) for i in range(len(METRICS))]


def _scaled(point: Sequence[float], scales: Sequence[float]) -> list[float]:
    return [x / s for x, s in zip(point, scales, strict=True) if s > 0]


def place(point: Sequence[float], chain: Sequence[Sequence[float]]) -> tuple[float, float]:
    """``(position, distance)`` of ``point`` on the polyline ``chain`` (already scaled): the
    nearest clamped projection on a segment, the first on a tie."""
    best = (0.0, math.inf)
    for i in range(len(chain) - 1):
        a, b = chain[i], chain[i + 1]
        v = [y - x for x, y in zip(a, b, strict=True)]
        vv = sum(x * x for x in v)
        w = [p - x for p, x in zip(point, a, strict=True)]
        t = min(1.0, max(0.0, sum(x * y for x, y in zip(w, v, strict=True)) / vv)) if vv else 0.0
        gap = math.dist(point, [x + t * y for x, y in zip(a, v, strict=True)])
        if gap < best[1]:
            best = (i + t, gap)
    return best


def coach_rating(
    family: str, summaries: Sequence[HandFigures], *, calibration: Calibration | None = None
) -> CoachRating:
    """The level of bot a player's play in ``family`` resembles, from his per-hand review
    summaries (:attr:`erren.review.HandReview.summary`), by ``calibration`` (the shipped one
    by default); the method is in this module's docstring."""
    cal = calibration if calibration is not None else load_calibration()
    figures = figures_of(summaries)
    hands = len(summaries)
    if hands < MIN_HANDS:
        return CoachRating(family, Verdict.TOO_FEW, hands, figures)
    levels = [cal.level(family, lv).figures.vector() for lv in LEVELS]
    scales = _scales(levels)
    chain = [_scaled(p, scales) for p in levels]
    position, distance = place(_scaled(figures.vector(), scales), chain)
    lower = min(int(position), len(LEVELS) - 2)
    t = position - lower
    if t <= NEAR:
        verdict, level, upper = Verdict.LEVEL, LEVELS[lower], None
    elif t >= 1 - NEAR:
        verdict, level, upper = Verdict.LEVEL, LEVELS[lower + 1], None
    else:
        verdict, level, upper = Verdict.BETWEEN, LEVELS[lower], LEVELS[lower + 1]
    return CoachRating(family, verdict, hands, figures, level, upper, position, distance)


def references(family: str) -> tuple[str, ...]:
    """The reference players calibrated in ``family``: the four levels, and ``learned`` in
    the family its network learnt (when the ``rl`` extra is installed)."""
    extra = {LEARNT: (LEARNED,)} if rl_installed() else {}
    return tuple(lv.value for lv in LEVELS) + extra.get(family, ())


def _player_bot(player: str, *, seed: int) -> Bot:
    if player == LEARNED:
        return find_bot(LEARNED, seed=seed)
    return deterministic(level_bot(parse_level(player), seed=seed))


def reference_rows(
    family: str, player: str, *, hands: int, seed: int, rollouts: int = DEFAULT_ROLLOUTS
) -> list[Row]:
    """``hands`` hands of ``player`` (seat 0) against 普通 (seat 1), deals seeded from
    ``seed`` (hand ``i``: ``seed * 100_003 + i``, dealer ``i % 2``, as the review benchmark),
    each reviewed by 大师 (a tick clock for every searching bot, so the run is the same on
    every machine); a row per hand, the loss rounded to 4 decimals."""
    ruleset = find_family(family)
    asked = deterministic(level_bot(Level.MASTER, seed=seed))
    rows = []
    for i in range(hands):
        state = State.new(ruleset, seed=seed * 100_003 + i, dealer=i % 2)
        bots = [_player_bot(player, seed=i), deterministic(level_bot(Level.NORMAL, seed=i))]
        for bot in bots:
            bot.bind(ruleset)
        play_hand(state, bots)
        summary = review_hand(Record.of(state), 0, asked, hand=i, rollouts=rollouts, seed=seed)
        s = summary.summary
        rows.append(Row(s.decisions, s.matches, s.bad, round(s.loss, 4)))
    return rows


def calibrate(
    families: Iterable[str] = FAMILIES,
    *,
    hands: int = 200,
    seed: int = 1,
    rollouts: int = DEFAULT_ROLLOUTS,
    command: str = "",
    players: Sequence[str] | None = None,
    progress: Callable[[str, str, Reference], None] | None = None,
) -> Calibration:
    """Measure every reference player (:func:`references`, or ``players`` where it plays)
    of each family over ``hands`` hands (:func:`reference_rows`); ``progress`` hears each
    cell as it is done."""
    out: dict[str, tuple[Reference, ...]] = {}
    for family in families:
        refs = []
        for player in references(family):
            if players is not None and player not in players:
                continue
            rows = reference_rows(family, player, hands=hands, seed=seed, rollouts=rollouts)
            ref = Reference.of(player, rows, seed=seed)
            refs.append(ref)
            if progress is not None:
                progress(family, player, ref)
        out[family] = tuple(refs)
    return Calibration(out, seed=seed, command=command, rollouts=rollouts)
