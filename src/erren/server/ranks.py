"""Ranks and seasons (段位): the visible ladder of a registered player in each family.

What a player sees is his rank and his rank points (PT), never his rating (the openskill
``mu``/``sigma`` of :mod:`erren.server.rating` stays internal, for matchmaking).  Every bean-room
hand between two registered players quick-matched there moves both players' PT in the hand's
family, by the room's tier and the player's result; the ladder is kept per season.

The ladder (:data:`LADDER`, step 0 first): six ranks, the first five in three steps
(一级 → 二级 → 三级), the top one in one step:

======  ===========  =======================  ==========================  ==========
rank    English      thresholds 一/二/三级     start after promotion       loss ×
======  ===========  =======================  ==========================  ==========
新人    Newcomer     20 / 40 / 60             10 / 20 / 30                50 %
雀士    Adept        80 / 100 / 120           40 / 50 / 60                100 %
雀杰    Expert       160 / 200 / 240          80 / 100 / 120              120 %
雀豪    Master       300 / 360 / 420          150 / 180 / 210             140 %
雀圣    Saint        500 / 600 / 700          250 / 300 / 350             160 %
雀神    Celestial    — (no ceiling)           0                           180 %
======  ===========  =======================  ==========================  ==========

The rule (:func:`apply`), for one player after one hand:

* **Gain** (:data:`GAINS`, by the room's tier): a win earns the tier's ``win`` PT, a draw its
  ``draw`` PT; a loss costs its ``loss`` PT and an escape (leaving a running hand) its
  ``escape`` PT, both times the rank's loss percentage (rounded down to a whole PT).  The one
  who stayed when the other escaped gets nothing (as for the rating: a puppet's escape must
  not lift anybody).  The hands of guests, practice and computer tables move no PT, nor
  do those of a friend's private bean table (opened by invite: it moves beans by the room's
  rule, never ranks — an invite bypasses quick match's rule against pairing the same two
  accounts again and again, so two friends could otherwise lift a rank by dumping hands).
* **Promotion**: when the points reach the step's threshold, the player moves up one step and
  starts it at that step's ``start`` (half its threshold; surplus points are not carried).
  One hand promotes one step at most.  雀神 has no threshold: its points just grow.
* **Demotion**: when the points fall below 0, the player moves down one step and starts it
  at that step's ``start`` — except on a **protected** step: the first step (一级) of 雀士,
  雀杰, 雀豪 and 雀圣 (and 新人一级, the floor), where the points stop at 0 and the player
  stays.  So nobody ever drops out of a rank he reached, within a season; 新人 二/三级 and
  雀神 are not protected (雀神 falls to 雀圣三级 at 350).
* **Seasons** (:class:`Seasons`): the ladder is kept per season, :data:`SEASON_WEEKS` weeks
  from :data:`SEASON_EPOCH` by default (``ERREN_SEASON_WEEKS``, ``ERREN_SEASON_EPOCH``:
  :meth:`Seasons.from_env`), on the store's injectable clock (``store.ranks.now``).
  A player's first hand of a season starts from his most recent earlier season's step, minus
  :data:`SEASON_DROP` steps (never below 新人一级), at that step's ``start``
  (:func:`carry`); a player new to the family starts at 新人一级 with 0 PT.

Points are never negative and never shown raw otherwise.

Worked example, a 雀士一级 player (step 3) with 70 PT in the 初级场 (junior: win +30, loss
−30), then a loss in the 高级场 (senior: loss 50 × 100 % = −50):

>>> s = Standing(step=3, points=70)
>>> s = apply(s, "junior", Outcome.WIN)       # 100 ≥ 80: promoted to 雀士二级 at 50
>>> (step_name(s.step), s.points)
('雀士二级', 50)
>>> s = apply(s, "senior", Outcome.LOSS)      # 50 − 50 = 0: stays
>>> (step_name(s.step), s.points)
('雀士二级', 0)
>>> s = apply(s, "novice", Outcome.LOSS)      # 0 − 10 < 0: demoted to 雀士一级 at 40
>>> (step_name(s.step), s.points)
('雀士一级', 40)
>>> s = apply(s, "senior", Outcome.ESCAPE)    # 40 − 150 < 0, but 雀士一级 is protected
>>> (step_name(s.step), s.points)
('雀士一级', 0)
>>> step_name(carry(s).step)                  # next season: three steps down
'新人一级'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Final

__all__ = [
    "GAINS",
    "LADDER",
    "SEASON_DROP",
    "SEASON_EPOCH",
    "SEASON_WEEKS",
    "Gains",
    "Outcome",
    "Rank",
    "Season",
    "Seasons",
    "Standing",
    "Step",
    "apply",
    "carry",
    "change",
    "move_json",
    "standing_json",
    "step_name",
]


class Outcome(StrEnum):
    """A player's result in one hand, as the ladder counts it."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    ESCAPE = "escape"


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank of the ladder: its Chinese and English names and the share of a loss it pays
    (percent)."""

    id: str
    name: str
    english: str
    loss_percent: int


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the ladder: its rank, its level (1–3; 1 for the top rank), the points that
    promote (``None``: the top, no ceiling), where the points start after a promotion or a
    demotion into it, and whether it is protected (no demotion out of it)."""

    rank: Rank
    level: int
    threshold: int | None
    start: int
    protected: bool


@dataclass(frozen=True, slots=True)
class Gains:
    """What a hand in a tier moves: PT won by a win and a draw, PT lost by a loss and an escape
    (before the rank's loss percentage)."""

    win: int
    draw: int
    loss: int
    escape: int


_RANKS: Final = (
    (Rank("newcomer", "新人", "Newcomer", 50), (20, 40, 60)),
    (Rank("adept", "雀士", "Adept", 100), (80, 100, 120)),
    (Rank("expert", "雀杰", "Expert", 120), (160, 200, 240)),
    (Rank("master", "雀豪", "Master", 140), (300, 360, 420)),
    (Rank("saint", "雀圣", "Saint", 160), (500, 600, 700)),
)
_TOP: Final = Rank("celestial", "雀神", "Celestial", 180)

LADDER: Final[tuple[Step, ...]] = (
    *(
        Step(rank, level, threshold, threshold // 2, level == 1)
        for rank, thresholds in _RANKS
        for level, threshold in enumerate(thresholds, start=1)
    ),
    Step(_TOP, 1, None, 0, False),
)
"""Every step, lowest first; a player's step is its index here (0: 新人一级, 15: 雀神)."""

GAINS: Final[dict[str, Gains]] = {
    "novice": Gains(win=10, draw=2, loss=10, escape=30),
    "normal": Gains(win=20, draw=4, loss=20, escape=60),
    "junior": Gains(win=30, draw=6, loss=30, escape=90),
    "intermediate": Gains(win=40, draw=8, loss=40, escape=120),
    "senior": Gains(win=50, draw=10, loss=50, escape=150),
}
"""PT per hand by room tier id (:data:`erren.server.rooms.TIERS`): higher stakes, larger swings."""

SEASON_WEEKS: Final = 8
"""A season's default length."""
SEASON_EPOCH: Final = datetime(2026, 1, 5, tzinfo=UTC)
"""When season 1 starts (a Monday, 00:00 UTC), by default."""
SEASON_DROP: Final = 3
"""How many steps a player's rank drops from one season to the next (the soft reset)."""

_LEVELS: Final = ("一级", "二级", "三级")
_ROMAN: Final = ("I", "II", "III")


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands in a family's ladder: his ``step`` (an index of :data:`LADDER`)
    and his ``points`` on it (never negative)."""

    step: int = 0
    points: int = 0

    @property
    def rank(self) -> Rank:
        return LADDER[self.step].rank

    @property
    def threshold(self) -> int | None:
        return LADDER[self.step].threshold


def step_name(step: int) -> str:
    """A step's Chinese name: ``新人一级`` … ``雀圣三级``, ``雀神``."""
    found = LADDER[step]
    if found.threshold is None:
        return found.rank.name
    return found.rank.name + _LEVELS[found.level - 1]


def step_english(step: int) -> str:
    """A step's English name: ``Newcomer I`` … ``Saint III``, ``Celestial``."""
    found = LADDER[step]
    if found.threshold is None:
        return found.rank.english
    return f"{found.rank.english} {_ROMAN[found.level - 1]}"


def standing_json(step: int, points: int) -> dict[str, object]:
    """A standing as the client shows it: the step (index, rank id, level, names in both
    languages), the points and the step's threshold (``None`` at the top)."""
    found = LADDER[step]
    return {
        "step": step,
        "rank": found.rank.id,
        "level": found.level,
        "zh": step_name(step),
        "en": step_english(step),
        "points": points,
        "threshold": found.threshold,
    }


def move_json(
    step_before: int, points_before: int, step_after: int, points_after: int, change: int
) -> dict[str, object]:
    """One hand's move of a rank as the client shows it: the PT the hand moved, the standing
    before and after, and whether it promoted or demoted."""
    return {
        "change": change,
        "before": standing_json(step_before, points_before),
        "after": standing_json(step_after, points_after),
        "promoted": step_after > step_before,
        "demoted": step_after < step_before,
    }


def change(step: int, tier: str, outcome: Outcome) -> int:
    """The PT a hand moves at ``step`` in the room tier ``tier`` (signed)."""
    gains = GAINS[tier]
    percent = LADDER[step].rank.loss_percent
    if outcome is Outcome.WIN:
        return gains.win
    if outcome is Outcome.DRAW:
        return gains.draw
    lost = gains.loss if outcome is Outcome.LOSS else gains.escape
    return -(lost * percent // 100)


def apply(standing: Standing, tier: str, outcome: Outcome) -> Standing:
    """The standing after one hand in the room tier ``tier`` with ``outcome`` (the module
    docstring's rule: gain, promotion at the threshold, demotion below 0, protection)."""
    step = LADDER[standing.step]
    points = standing.points + change(standing.step, tier, outcome)
    if step.threshold is not None and points >= step.threshold:
        return Standing(standing.step + 1, LADDER[standing.step + 1].start)
    if points < 0:
        if step.protected or standing.step == 0:
            return Standing(standing.step, 0)
        return Standing(standing.step - 1, LADDER[standing.step - 1].start)
    return Standing(standing.step, points)


def carry(last: Standing) -> Standing:
    """A player's standing at the start of a new season, from where he stood at the end of his
    most recent earlier one: :data:`SEASON_DROP` steps down (never below 0), at its start."""
    step = max(0, last.step - SEASON_DROP)
    return Standing(step, LADDER[step].start)


@dataclass(frozen=True, slots=True)
class Season:
    """A season: its number (1: the first) and when it starts and ends (exclusive)."""

    number: int
    start: datetime
    end: datetime


@dataclass(frozen=True, slots=True)
class Seasons:
    """The season calendar: seasons of ``weeks`` weeks from ``epoch`` (before it: season 1)."""

    epoch: datetime = SEASON_EPOCH
    weeks: int = SEASON_WEEKS

    def __post_init__(self) -> None:
        if self.weeks < 1:
            raise ValueError("a season lasts at least one week")
        if self.epoch.tzinfo is None:
            raise ValueError("the season epoch is an aware datetime")

    @property
    def length(self) -> timedelta:
        return timedelta(weeks=self.weeks)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Seasons:
        """The calendar the server uses: ``ERREN_SEASON_WEEKS`` (a whole number of weeks) and
        ``ERREN_SEASON_EPOCH`` (an ISO date or time, UTC unless it says otherwise) when set,
        else the defaults (:data:`SEASON_WEEKS` from :data:`SEASON_EPOCH`)."""
        env = os.environ if environ is None else environ
        weeks = int(env.get("ERREN_SEASON_WEEKS") or SEASON_WEEKS)
        epoch = SEASON_EPOCH
        if raw := env.get("ERREN_SEASON_EPOCH"):
            epoch = datetime.fromisoformat(raw)
            epoch = epoch if epoch.tzinfo is not None else epoch.replace(tzinfo=UTC)
        return cls(epoch=epoch, weeks=weeks)

    def number(self, at: datetime) -> int:
        """The season ``at`` falls in."""
        return max(0, (at - self.epoch) // self.length) + 1

    def season(self, number: int) -> Season:
        """Season ``number``, with its dates."""
        if number < 1:
            raise ValueError("seasons are numbered from 1")
        start = self.epoch + (number - 1) * self.length
        return Season(number, start, start + self.length)

    def of(self, at: datetime) -> Season:
        """The season ``at`` falls in, with its dates."""
        return self.season(self.number(at))
