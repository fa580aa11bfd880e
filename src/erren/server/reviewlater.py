"""Reviews nobody asked for: every settled hand of a registered player is reviewed in the
background and kept, so that his profile's error figures (``GET /me/coach``,
:mod:`erren.server.routes.coach`) grow as he plays (issue #31 point 3).

* **Who**: each seat of the hand held by a registered account; never a guest's seat, never a
  computer's.  A hand ended by an escape is not reviewed (its decisions stop midway).
* **When**: the table's finisher hands the settled hand over
  (:meth:`erren.server.table.finisher.Finisher.settle`, with ``TableConfig.review_hands``, on
  in ``erren serve``, off with ``--no-review-hands`` and at tables run by tests) and goes on at
  once: the table never waits for a review.
* **How**: through the review desk (:meth:`erren.server.reviewing.ReviewDesk.review`: the same
  review, worked out in the review process at nice 10, kept in ``hand_reviews``) — the one a
  player's own request would get, so a request for it later reads it back.
* **Low priority, bounded**: an unasked review starts only while fewer than :data:`LATER_ROOM`
  review jobs are queued or running (of the 4 the review process holds), so the reviews
  players ask for keep room; past that, or with :data:`LATER_MAX` settled hands already
  waiting to start theirs, the hand is **dropped**, not queued (:attr:`LaterReviews.dropped`
  counts them).  A dropped hand is still reviewed, and kept, when someone asks for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Final

from erren.server import work
from erren.server.owndrills import drills_for
from erren.server.perstore import PerStore
from erren.server.reviewing import ReviewDesk, UnreviewableError, desk_for
from erren.server.store import StoreError
from erren.server.work import Work

__all__ = ["LATER_MAX", "LATER_ROOM", "LaterReviews", "later_for"]

log = logging.getLogger("erren.server.reviewing")

LATER_ROOM: Final = 2
"""An unasked review starts only while fewer review jobs than this are queued or running."""
LATER_MAX: Final = 16
"""Settled hands at most waiting to start their unasked reviews (a store read each)."""


class LaterReviews:
    """The unasked reviews of one store's review desk."""

    def __init__(self, desk: ReviewDesk) -> None:
        self.desk = desk
        self.pending: set[asyncio.Task[None]] = set()
        """Settled hands whose unasked reviews are under way."""
        self.kept = 0
        """Unasked reviews kept (or found kept) since the start (tests, logs)."""
        self.dropped = 0
        """Unasked reviews dropped (the review process busy) or refused since the start."""

    @staticmethod
    def _busy() -> bool:
        return work.in_flight(Work.REVIEW) >= LATER_ROOM

    def keep(self, game: int, record: dict[str, Any], players: Sequence[tuple[int, int]]) -> None:
        """Review settled hand ``game`` (its ``record``, as the table's adviser sends it) for
        each ``(seat, user id)`` of ``players`` whose account is registered, in the background
        (the module's docstring); returns at once."""
        if not players:
            return
        if len(self.pending) >= LATER_MAX or self._busy():
            self.dropped += len(players)
            log.info("unasked review of game %s dropped: the review process is busy", game)
            return
        task = asyncio.create_task(self._review(game, record, players), name=f"review {game}")
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def settled(self) -> None:
        """Wait for every unasked review under way, and the puzzles made from them (tests; a
        server's shutdown drops them)."""
        while self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)
        await drills_for(self.desk.store).settled()

    async def _review(
        self, game: int, record: dict[str, Any], players: Sequence[tuple[int, int]]
    ) -> None:
        for seat, user_id in players:
            try:
                user = await self.desk.store.accounts.user(user_id)
            except StoreError as err:
                log.warning("unasked review of game %s seat %s: %s", game, seat, err)
                self.dropped += 1
                continue
            if user is None or user.is_guest:
                continue
            if self._busy() and not self.desk.running(game, seat):
                self.dropped += 1
                continue
            try:
                await self.desk.review(game, seat, record, user_id=user_id)
            except (work.BusyError, UnreviewableError) as err:
                log.info("unasked review of game %s seat %s not made: %s", game, seat, err)
                self.dropped += 1
            except Exception:  # a background task: never let it die unheard
                log.exception("unasked review of game %s seat %s failed", game, seat)
                self.dropped += 1
            else:
                self.kept += 1


later_for: PerStore[LaterReviews] = PerStore(lambda store: LaterReviews(desk_for(store)))
"""The one :class:`LaterReviews` of a store (its desk's: :data:`desk_for`)."""
