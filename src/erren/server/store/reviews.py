"""Reviews of finished hands, kept once worked out (table ``hand_reviews``).

A review is ``erren.review``'s :class:`~erren.review.HandReview` of one seat's decisions in one
finished hand (its JSON form, ``erren-review/1``; the server's keeps the seat's hindsight under
``"hindsight"`` in it, :mod:`erren.server.reviewing`), keyed by ``(game id, seat)``.  It is a pure
function of the hand's public record, the seat, the level (大师) and the library's default
rollouts, so it is worked out once (:mod:`erren.server.reviewing`) and read back for every
later request.  Beside the JSON each row keeps the review's summary numbers and the seat's
player (``user_id``; ``None`` for a computer's seat) and family, so that a player's last hands
read cheaply::

    await store.reviews.get(game_id, seat) -> StoredReview | None
    await store.reviews.put(game_id, seat, review, user_id=..., family=...) -> StoredReview
        # the first review kept for (game, seat) wins: a second put returns it unchanged
    await store.reviews.recent(user_id, family, limit=50) -> list[StoredReview]
        # the player's last ``limit`` reviewed hands of ``family`` (by game id: the order
        # played), newest first; the profile's trend reads these (decisions, matches, bad,
        # loss per hand; ``review`` holds the categories)
    await store.reviews.count(user_id, family) -> int   # his reviewed hands of ``family``
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from erren.server.store.database import Database, as_stored_json, utc_now
from erren.server.store.models import HandReviewRow

__all__ = ["MAX_RECENT", "Reviews", "StoredReview"]

MAX_RECENT: Final = 1000
"""The most rows :meth:`Reviews.recent` returns."""


@dataclass(frozen=True, slots=True)
class StoredReview:
    """One kept review: the hand (``game_id``), the ``seat`` reviewed and its player
    (``user_id``, ``None``: a computer), the ``family``, the summary numbers (``decisions``,
    ``matches``, ``bad`` moves, expected ``loss`` in the family's points), the ``review`` itself
    (the ``HandReview`` dict) and when it was worked out."""

    game_id: int
    seat: int
    user_id: int | None
    family: str
    decisions: int
    matches: int
    bad: int
    loss: float
    review: dict[str, Any]
    created_at: datetime

    @property
    def match_rate(self) -> float:
        """``matches / decisions`` (1 with no decision, as the review's summary says)."""
        return self.matches / self.decisions if self.decisions else 1.0


def _stored(row: HandReviewRow) -> StoredReview:
    return StoredReview(
        game_id=row.game_id,
        seat=row.seat,
        user_id=row.user_id,
        family=row.family,
        decisions=row.decisions,
        matches=row.matches,
        bad=row.bad,
        loss=row.loss,
        review=dict(row.review),
        created_at=row.created_at,
    )


class Reviews:
    """The kept reviews."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, game_id: int, seat: int) -> StoredReview | None:
        """The review kept for ``seat`` of game ``game_id``, or ``None``."""
        async with self.database.read() as session:
            row = await session.get(HandReviewRow, (game_id, seat))
            return None if row is None else _stored(row)

    async def put(
        self,
        game_id: int,
        seat: int,
        review: dict[str, Any],
        *,
        user_id: int | None,
        family: str,
    ) -> StoredReview:
        """Keep ``review`` (a ``HandReview`` dict: its ``summary`` gives the numbers) for
        ``seat`` of game ``game_id``; the first one kept wins (a second put, even a concurrent
        one, returns the first unchanged).  ``ValueError`` for a dict without a summary."""
        stored = as_stored_json(review, "review")
        summary = stored.get("summary")
        if not isinstance(summary, dict):
            raise ValueError("a review carries its summary")
        row = HandReviewRow(
            game_id=game_id,
            seat=seat,
            user_id=user_id,
            family=family,
            decisions=int(summary["decisions"]),
            matches=int(summary["matches"]),
            bad=int(summary["bad"]),
            loss=float(summary["loss"]),
            review=stored,
            created_at=utc_now(),
        )
        try:
            async with self.database.write() as session:
                found = await session.get(HandReviewRow, (game_id, seat))
                if found is not None:
                    return _stored(found)
                session.add(row)
                kept = _stored(row)
        except IntegrityError:  # another request kept it first
            again = await self.get(game_id, seat)
            if again is None:
                raise
            return again
        return kept

    async def recent(self, user_id: int, family: str, limit: int = 50) -> list[StoredReview]:
        """The player's last ``limit`` (at most :data:`MAX_RECENT`) reviewed hands of
        ``family``, newest hand first (one row per hand and seat he played)."""
        limit = max(0, min(limit, MAX_RECENT))
        query = (
            select(HandReviewRow)
            .where(HandReviewRow.user_id == user_id, HandReviewRow.family == family)
            .order_by(HandReviewRow.game_id.desc(), HandReviewRow.seat)
            .limit(limit)
        )
        async with self.database.read() as session:
            return [_stored(row) for row in (await session.scalars(query)).all()]

    async def count(self, user_id: int, family: str) -> int:
        """How many of the player's hands of ``family`` were reviewed (one per hand and seat)."""
        query = (
            select(func.count())
            .select_from(HandReviewRow)
            .where(HandReviewRow.user_id == user_id, HandReviewRow.family == family)
        )
        async with self.database.read() as session:
            return int(await session.scalar(query) or 0)
