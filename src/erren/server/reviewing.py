"""The review of a finished hand as the server gives it: ``erren.review``'s
:class:`~erren.review.HandReview` of one seat, by 大师 at the library's default rollouts, worked
out in the review process and kept in the store.

* **Off the event loop**: :func:`reviewed` runs in the review process
  (:data:`erren.server.work.Work.REVIEW`: one process at nice 10, 4 jobs at most, then
  ``busy``); a review with its hindsight is 0.2–1.9 s of CPU, which a thread would spend
  holding the GIL against the event loop.  Its input and output are JSON strings (cheap to pickle).
* **Kept**: the first review of ``(game, seat)`` goes into the store (:mod:`erren.server.store.
  reviews`, with its summary numbers for a player's profile); every later request reads it
  back, and a request for one already being worked out waits for that one.
* **Public data only**: it is a function of the finished hand's record (the one
  ``GET /games/{id}`` shows anyone: a bean-room game's without names or beans, which a review
  carries neither of), the seat and the level: each decision is asked from that seat's own
  observation at that moment (:func:`erren.review.walk.decision_points`).

* **His own drills**: once a review of a seat held by a user is kept, the puzzles of his
  costliest discards are made in a job of their own, low priority, dropped when the review
  process is busy (:mod:`erren.server.owndrills`); the review is given without waiting.

* **With the hindsight**: the same job also finds that seat's hindsight
  (:func:`erren.review.hindsight.hindsight` at its default budget of engine steps, under a
  second: the line over his own decisions that would have done best with every tile known),
  kept with the review (under ``"hindsight"`` in the stored JSON) and sent beside it.  It reads
  the whole wall and the opponent's recorded play, which the finished hand's record shows
  anyone (the settlement reveals the seed and the wall); it is hindsight, never advice, and
  exists only once the hand is over.  ``None`` when the search refuses the record (the review
  is still given).

The socket's ``{"type": "review"}`` (:meth:`erren.server.table.adviser.Adviser.review`) and
``GET /games/{id}/review`` (:mod:`erren.server.routes.reviews`) both answer
``{"type": "review", "game", "seat", "review", "hindsight"}`` from :meth:`ReviewDesk.review`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Final

from erren.engine import Record
from erren.errors import ErrenError
from erren.review import review_hand, reviewer
from erren.review.hindsight import hindsight
from erren.server import work
from erren.server.owndrills import drills_for
from erren.server.perstore import PerStore
from erren.server.ratelimit import Throttle
from erren.server.store import Store, StoreError
from erren.server.work import Work

__all__ = [
    "HINDSIGHT",
    "PER_ADDRESS",
    "ReviewDesk",
    "UnreviewableError",
    "desk_for",
    "message",
    "reviewed",
]

log = logging.getLogger("erren.server.reviewing")

PER_ADDRESS: Final = 30
"""New reviews (not yet kept) a minute from one client address over HTTP (the socket's come
from a seated player, one per hand)."""


HINDSIGHT: Final = "hindsight"
"""The key of the seat's hindsight in a kept review's JSON (beside the ``HandReview``'s)."""


class UnreviewableError(Exception):
    """The record does not replay (a stored record always does: say so if not)."""


def reviewed(record_json: str, seat: int) -> str:
    """In the review process: ``{"review": HandReview dict}`` of ``seat`` in the record (a
    JSON string) by 大师, the seat's hindsight under ``"hindsight"`` in it (``None`` if the
    search refuses the record), or ``{"refusal": why}`` (an exception would cross the process)."""
    try:
        record = Record.from_json(record_json)
        found = review_hand(record, seat, reviewer())
    except (ErrenError, ValueError, KeyError, TypeError, AttributeError) as err:
        return json.dumps({"refusal": f"not a reviewable record: {err}"})
    body = found.to_dict()
    try:
        body[HINDSIGHT] = hindsight(record, seat).to_dict()
    except (ErrenError, ValueError, KeyError, TypeError, AttributeError) as err:
        log.warning("no hindsight of seat %s: %s", seat, err)
        body[HINDSIGHT] = None
    return json.dumps({"review": body}, ensure_ascii=False)


def message(game: int, seat: int, kept: dict[str, Any]) -> dict[str, Any]:
    """The answer of the socket and of ``GET /games/{id}/review``, from a kept review (the
    ``HandReview`` dict with the seat's hindsight under ``"hindsight"``): ``{"type": "review",
    "game", "seat", "review", "hindsight"}`` (``hindsight`` ``None`` when there is none)."""
    review = {k: v for k, v in kept.items() if k != HINDSIGHT}
    return {
        "type": "review",
        "game": game,
        "seat": seat,
        "review": review,
        HINDSIGHT: kept.get(HINDSIGHT),
    }


class ReviewDesk:
    """Reviews for one store: kept ones read back, a running one shared, new ones worked out
    in the review process (:class:`erren.server.work.BusyError` when it is full)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._running: dict[tuple[int, int], asyncio.Future[dict[str, Any]]] = {}
        self.throttle = Throttle("review", PER_ADDRESS, 60)
        """New reviews asked over HTTP, per client address."""
        self.worked_out = 0
        """Reviews worked out (not read back) since the start (tests, metrics)."""

    async def kept(self, game: int, seat: int) -> dict[str, Any] | None:
        """The review kept for ``(game, seat)``, if any (a store failure reads as none)."""
        try:
            found = await self.store.reviews.get(game, seat)
        except StoreError as err:
            log.warning("no kept review of game %s seat %s: %s", game, seat, err)
            return None
        return None if found is None else found.review

    def running(self, game: int, seat: int) -> bool:
        """Whether the review of ``(game, seat)`` is being worked out now."""
        return (game, seat) in self._running

    async def review(
        self, game: int, seat: int, record: dict[str, Any], *, user_id: int | None
    ) -> dict[str, Any]:
        """The review of ``seat`` in game ``game`` (its finished ``record``; ``user_id`` the
        seat's player): kept, being worked out, or worked out now and kept.
        :class:`~erren.server.work.BusyError`, :class:`UnreviewableError`."""
        found = await self.kept(game, seat)
        if found is not None:
            return found
        key = (game, seat)
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            body = await self._work_out(game, seat, record, user_id)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as err:
            future.set_exception(err)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._running[key]
        future.set_result(body)
        return body

    async def _work_out(
        self, game: int, seat: int, record: dict[str, Any], user_id: int | None
    ) -> dict[str, Any]:
        text = json.dumps(record, ensure_ascii=False)
        answer = json.loads(await work.run(Work.REVIEW, reviewed, text, seat))
        self.worked_out += 1
        if "review" not in answer:
            raise UnreviewableError(str(answer.get("refusal", "not reviewable")))
        body: dict[str, Any] = answer["review"]
        try:
            await self.store.reviews.put(
                game, seat, body, user_id=user_id, family=str(record.get("ruleset", ""))
            )
        except StoreError as err:  # the review is still given; the next asks again
            log.warning("review of game %s seat %s not kept: %s", game, seat, err)
        else:
            if user_id is not None:  # his own puzzles, if he is registered (a job of its own)
                drills_for(self.store).keep(game, seat, record, body, user_id)
        return body


desk_for: PerStore[ReviewDesk] = PerStore(ReviewDesk)
"""The one :class:`ReviewDesk` of a store (the tables' and the HTTP route's)."""
