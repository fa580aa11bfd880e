"""Game records: a player's games, and one game's record (revealed once finished)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from erren.server.routes.common import MAX_ID, ApiError, CurrentUser, StoreDep, StrictJSONRoute
from erren.server.routes.models import GameOut

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["games"])


@router.get("/games", response_model=list[GameOut])
async def games(
    user: CurrentUser, store: StoreDep, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> list[GameOut]:
    return [
        GameOut(
            id=g.id,
            ruleset=g.ruleset,
            room=g.room,
            players=list(g.players),
            finished=g.finished,
            summary=g.summary,
            created_at=g.created_at.isoformat(),
            finished_at=None if g.finished_at is None else g.finished_at.isoformat(),
            seat=g.seats.index(user.id) if user.id in g.seats else None,
            outcome=g.outcome,
        )
        for g in await store.games_of(user.id, limit=limit)
    ]


@router.get("/games/{game_id}")
async def game(game_id: int, store: StoreDep) -> dict[str, Any]:
    """A finished game's record (seed and salt revealed); a running game shows only its
    header and commitment — its actions hold the wall.  404 for an id no game has (any id
    beyond 32 bits included)."""
    found = await store.get_game(game_id) if 1 <= game_id <= MAX_ID else None
    if found is None:
        raise ApiError(404, "no-game", f"no game {game_id}")
    if not found.finished or found.record is None:
        return {
            "id": found.id,
            "ruleset": found.ruleset,
            "room": found.room,
            "finished": False,
            "commitment": found.commitment,
            "actions": len(found.actions),
        }
    return {"id": found.id, "finished": True, "record": found.record}
