"""``GET /games/{id}/review?seat=N``: the review of one seat's decisions in a finished hand.

The answer is the socket's (``{"type": "review", "game", "seat", "review", "hindsight"}``, the
review an ``erren.review`` ``HandReview`` dict, ``hindsight`` the seat's best line with every
tile known, :mod:`erren.review.hindsight`: :mod:`erren.server.reviewing`), for anyone: the record is
public once the hand is over, and the review is worked out from the record as anyone gets it
(a bean-room game's without names or beans) and carries neither, so it never shows more than
``GET /games/{id}`` shows the same caller.  404 for no such game, 409 while it runs, 422 for a
record that does not replay, 503 ``busy`` while the review process holds 4 jobs.

A kept review costs nothing; a new one (with its hindsight) is up to ~2 s of the review
process, so new reviews (not yet kept) are throttled per client address
(:data:`erren.server.reviewing.PER_ADDRESS` a minute, as ``POST /web/replay``): past that
429 ``too-many-reviews`` with ``Retry-After``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from erren.server.privacy import record_for
from erren.server.reviewing import UnreviewableError, desk_for, message
from erren.server.routes.common import MAX_ID, ApiError, StoreDep, StrictJSONRoute, client_address

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["games"])


@router.get("/games/{game_id}/review")
async def game_review(
    game_id: int,
    request: Request,
    store: StoreDep,
    seat: Annotated[int, Query(ge=0, le=1, description="the seat reviewed")] = 0,
) -> dict[str, Any]:
    """The review of ``seat``'s decisions in finished game ``game_id`` by 大师 (``erren.review``:
    each decision asked from that seat's own view, the loss in the family's points; the JSON of
    ``docs/review.md``'s hands) and the seat's hindsight, kept once worked out.  404 for no such
    game, 409 while it runs, 429 past 30 new reviews a minute from one address, 503 ``busy``."""
    found = await store.games.get(game_id) if 1 <= game_id <= MAX_ID else None
    if found is None:
        raise ApiError(404, "no-game", f"no game {game_id}")
    if not found.finished or found.record is None:
        raise ApiError(409, "game-running", f"game {game_id} is not finished: no review yet")
    desk = desk_for(store)
    kept = await desk.kept(game_id, seat)
    if kept is not None:
        return message(game_id, seat, kept)
    address = client_address(request)
    throttle = desk.throttle
    if not desk.running(game_id, seat):
        wait = throttle.retry_after(address)
        if wait is not None:
            raise ApiError(
                429,
                "too-many-reviews",
                f"more than {throttle.limit} new reviews a minute from your address; "
                f"try again in {wait} s",
                params={"retry_after": wait},
                headers={"Retry-After": str(wait)},
            )
        throttle.count(address)
    public = record_for(found.record, found.room, found.seats, None)
    try:
        body = await desk.review(game_id, seat, public, user_id=found.seats[seat])
    except UnreviewableError as err:
        raise ApiError(422, "not-reviewable", str(err)) from None
    return message(game_id, seat, body)
