"""A player's error profile in one family (issue #31 point 3), from his reviewed hands.

Each reviewed hand gives its summary numbers (decisions, matches with 大师, bad moves, the
expected points given away) and its decisions (each with a category and a loss).  Over his
last hands, newest first as the store reads them (:meth:`erren.server.store.reviews.Reviews.
recent`), :func:`error_profile` gives:

* **windows**: the three figures over the last :data:`WINDOWS` hands (50 and 200, or as many as
  were reviewed): the match rate and the bad-move rate pooled over the decisions
  (``matches / decisions``, ``bad / decisions``: :func:`erren.review.coach.figures_of`) and the
  expected loss per hand (the losses' sum over the hands);
* **trend**: one point per hand of the last :data:`TREND_HANDS`, oldest first, each the same
  three figures over the :data:`ROLLING` hands ending there (fewer at the start: the point's
  ``hands`` says how many);
* **categories**: over the last :data:`TREND_HANDS` hands, the expected loss summed per decision
  category (and the decisions and bad moves there), the costliest first (ties by name), only
  categories with a decision;
* **rating**: :func:`erren.review.coach.coach_rating` over the last :data:`TREND_HANDS` hands
  (``None`` for a family the calibration does not cover), rated from ``min_hands`` hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from erren.review.coach import (
    MIN_HANDS,
    CoachRating,
    Figures,
    HandFigures,
    coach_rating,
    figures_of,
)

__all__ = ["ROLLING", "TREND_HANDS", "WINDOWS", "CategoryLoss", "ReviewedHand", "error_profile"]

WINDOWS: Final = (50, 200)
"""The windows the figures are given over (the last so many reviewed hands)."""
TREND_HANDS: Final = 200
"""Hands the trend, the categories and the rating are drawn from (the most read)."""
ROLLING: Final = 20
"""Hands in each trend point's rolling window."""


class ReviewedHand(HandFigures, Protocol):
    """A kept review as the profile reads it (:class:`erren.server.store.reviews.StoredReview`):
    the rating's figures, the game and the review itself."""

    @property
    def game_id(self) -> int: ...
    @property
    def review(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class CategoryLoss:
    """The expected loss summed over the decisions of one ``category``."""

    category: str
    loss: float
    decisions: int
    bad: int

    def to_dict(self, hands: int) -> dict[str, Any]:
        return {
            "category": self.category,
            "loss": self.loss,
            "loss_per_hand": self.loss / hands if hands else 0.0,
            "decisions": self.decisions,
            "bad": self.bad,
        }


def _figures(figures: Figures, hands: int) -> dict[str, Any]:
    return {
        "hands": hands,
        "match_rate": figures.match_rate,
        "bad_rate": figures.bad_rate,
        "loss_per_hand": figures.loss_per_hand,
    }


def categories(hands: Sequence[ReviewedHand]) -> list[CategoryLoss]:
    """The loss per category over ``hands`` (their review JSON's decisions), costliest first."""
    loss: dict[str, float] = {}
    count: dict[str, int] = {}
    bad: dict[str, int] = {}
    for hand in hands:
        for decision in hand.review.get("decisions", ()):
            if not isinstance(decision, Mapping):
                continue
            name = str(decision.get("category", ""))
            loss[name] = loss.get(name, 0.0) + float(decision.get("loss", 0.0))
            count[name] = count.get(name, 0) + 1
            bad[name] = bad.get(name, 0) + bool(decision.get("bad", False))
    ranked = sorted(loss, key=lambda name: (-loss[name], name))
    return [CategoryLoss(name, loss[name], count[name], bad[name]) for name in ranked]


def trend(hands: Sequence[ReviewedHand]) -> list[dict[str, Any]]:
    """One point per hand of ``hands`` (oldest first): the figures of the :data:`ROLLING`
    hands ending there, with the hand's ``game`` id."""
    points = []
    for i, hand in enumerate(hands):
        window = hands[max(0, i - ROLLING + 1) : i + 1]
        point = _figures(figures_of(window), len(window))
        point["game"] = hand.game_id
        points.append(point)
    return points


def _rating(family: str, hands: Sequence[ReviewedHand]) -> CoachRating | None:
    try:
        return coach_rating(family, hands)
    except ValueError:  # a family the calibration does not cover
        return None


def error_profile(
    family: str, newest_first: Sequence[ReviewedHand], *, reviewed: int | None = None
) -> dict[str, Any]:
    """The error profile (this module's docstring) of a player's last reviewed hands of
    ``family``, newest first (at most :data:`TREND_HANDS` are read); ``reviewed``: how many of
    his hands were reviewed in all (default: as many as given)."""
    last = list(newest_first[:TREND_HANDS])
    oldest_first = last[::-1]
    windows = []
    for size in WINDOWS:
        part = last[:size]
        shown = _figures(figures_of(part), len(part))
        shown["window"] = size
        windows.append(shown)
    rating = _rating(family, last)
    return {
        "family": family,
        "reviewed": len(newest_first) if reviewed is None else reviewed,
        "windows": windows,
        "rolling": ROLLING,
        "trend": trend(oldest_first),
        "categories": [c.to_dict(len(last)) for c in categories(last)],
        "rating": None if rating is None else rating.to_dict(),
        "min_hands": MIN_HANDS,
    }
