"""Per-decision review by a level's bot (大师 by default): ``erren review`` and the library the
browser review, the error profile and the drills build on.

>>> from erren.review import review_game
>>> # review = review_game(records, seat=0)            # a GameReview
>>> # review.summary.match_rate, review.to_json()

* :mod:`erren.review.model`: :class:`Category`, :class:`Decision`, :class:`HandReview`,
  :class:`GameReview` and their JSON form (``docs/review.md``);
* :mod:`erren.review.walk`: the seat's decisions in a record, the bot asked at each;
* :mod:`erren.review.estimate`: the expected points of a move (rollouts over resampled worlds);
* :mod:`erren.review.coach`: the coach rating (:func:`coach_rating`) and its calibration.
"""

from __future__ import annotations

from collections.abc import Sequence

from erren.bots.base import Bot
from erren.bots.levels import Level, level_bot
from erren.engine import Record
from erren.review.coach import CoachRating, coach_rating
from erren.review.estimate import DEFAULT_ROLLOUTS, estimate, method_text
from erren.review.model import SCHEMA, Category, Decision, GameReview, HandReview, Move, Summary
from erren.review.walk import decision_points, deterministic, review_hand

__all__ = [
    "DEFAULT_ROLLOUTS",
    "SCHEMA",
    "Category",
    "CoachRating",
    "Decision",
    "GameReview",
    "HandReview",
    "Move",
    "Summary",
    "coach_rating",
    "decision_points",
    "estimate",
    "review_game",
    "review_hand",
    "reviewer",
]


def reviewer(level: Level = Level.MASTER, *, seed: int = 0) -> Bot:
    """The bot a review asks: ``level``'s (:func:`erren.bots.levels.level_bot`), seeded, and
    made deterministic (a searching bot reads a tick clock, not the time)."""
    return deterministic(level_bot(level, seed=seed))


def review_game(
    records: Sequence[Record],
    seat: int,
    *,
    level: Level = Level.MASTER,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    bot: Bot | None = None,
) -> GameReview:
    """The review of ``seat`` over ``records`` (a game's hands in order) by ``level``'s bot
    (or ``bot``), each differing decision valued over ``rollouts`` worlds; the same on every
    run for a ``seed``."""
    if seat not in (0, 1):
        raise ValueError("the seat is 0 or 1")
    asked = bot if bot is not None else reviewer(level, seed=seed)
    hands = tuple(
        review_hand(record, seat, asked, hand=i, rollouts=rollouts, seed=seed)
        for i, record in enumerate(records)
    )
    return GameReview(
        level=level.value,
        method=method_text(rollouts),
        rollouts=rollouts,
        seed=seed,
        hands=hands,
    )
