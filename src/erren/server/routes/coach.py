"""``GET /me/coach?family=F``: a registered player's error profile in one family (issue #31
point 3), from the reviews kept of his hands (:mod:`erren.server.reviewlater` keeps one for
every settled hand of his; a review he asked for counts too).

The figures are :func:`erren.review.trend.error_profile`'s: the match rate with 大师, the
bad-move rate and the expected loss per hand over his last 50 and 200 reviewed hands, a trend
(one point per hand, oldest first, each the figures of the 20 hands ending there), the decision
categories where he gives away most (over the last 200), the coach rating over the last 200
(:func:`erren.review.coach.coach_rating`, with its words in zh and en) and how many of his
hands were reviewed.

Bounded: one count and at most :data:`erren.review.trend.TREND_HANDS` rows read (the index
``(user_id, family, game_id)``).  A guest is answered 403 ``account-needed`` (as the other
``/me`` routes a guest has no use of); 404 ``no-family`` for an unknown family.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from erren.engine import family_names
from erren.review.trend import TREND_HANDS, error_profile
from erren.server.routes.common import ApiError, CurrentUser, StoreDep, StrictJSONRoute

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["profile"])

ACCOUNT_NEEDED = "the error profile is kept for registered accounts; register to keep yours"


class FiguresOut(BaseModel):
    hands: int = Field(description="Reviewed hands the figures rest on")
    match_rate: float = Field(description="Decisions that matched 大师's / decisions (pooled)")
    bad_rate: float = Field(description="Bad moves / decisions (pooled)")
    loss_per_hand: float = Field(description="Expected points given away per hand")


class WindowOut(FiguresOut):
    window: int = Field(description="The window asked for: the last 50 or 200 reviewed hands")


class TrendPointOut(FiguresOut):
    game: int = Field(description="The hand (game id) the rolling window ends at")


class CategoryOut(BaseModel):
    category: str = Field(description="erren.review.model.Category's value")
    loss: float = Field(description="Expected points given away in this category")
    loss_per_hand: float
    decisions: int
    bad: int


class RatingFiguresOut(BaseModel):
    match_rate: float
    bad_rate: float
    loss_per_hand: float


class WordsOut(BaseModel):
    zh: str
    en: str


class CoachRatingOut(BaseModel):
    family: str
    verdict: str = Field(description="level, between or too-few")
    hands: int
    level: str | None = Field(description="The level (novice, normal, strong, master)")
    upper: str | None = Field(description="With between: the next level up")
    position: float | None = Field(description="On the chain: 入门 0 … 大师 3")
    distance: float | None
    figures: RatingFiguresOut
    text: WordsOut


class CoachOut(BaseModel):
    family: str
    reviewed: int = Field(description="How many of the player's hands of the family were reviewed")
    windows: list[WindowOut]
    rolling: int = Field(description="Hands in each trend point's rolling window")
    trend: list[TrendPointOut] = Field(description="Oldest first, at most the last 200 hands")
    categories: list[CategoryOut] = Field(description="Costliest first, over the last 200 hands")
    rating: CoachRatingOut | None = Field(description="null: the family is not calibrated")
    min_hands: int = Field(description="Reviewed hands before the rating names a level")


@router.get("/me/coach", response_model=CoachOut)
async def coach(
    user: CurrentUser,
    store: StoreDep,
    family: Annotated[str, Query(min_length=1, max_length=64, description="the family")],
) -> CoachOut:
    """Your error profile in ``family`` from the reviews of your hands: match rate, bad-move
    rate and expected loss per hand over the last 50 and 200, the trend, the costliest
    categories and the coach rating.  403 ``account-needed`` for a guest."""
    if user.is_guest:
        raise ApiError(403, "account-needed", ACCOUNT_NEEDED)
    if family not in family_names():
        raise ApiError(404, "no-family", f"no family {family!r}")
    reviewed = await store.reviews.count(user.id, family)
    hands = await store.reviews.recent(user.id, family, limit=TREND_HANDS)
    return CoachOut.model_validate(error_profile(family, hands, reviewed=reviewed))
