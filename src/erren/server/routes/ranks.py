"""Ranks and seasons (段位, :mod:`erren.server.ranks`): a player's rank history, the seasons,
and each family's rank leaderboard per season.  A player's current ranks are on
``GET /me/profile`` (:mod:`.profile`, with :func:`ranks_out`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from erren.engine import family_names
from erren.server import ranks as rule
from erren.server.routes.common import ApiError, CurrentUser, StoreDep, StrictJSONRoute
from erren.server.routes.models import (
    RankBoardOut,
    RankHistoryOut,
    RankLeaderOut,
    RankMoveOut,
    RankOut,
    SeasonOut,
    SeasonsOut,
    StandingOut,
)
from erren.server.store import Store, User

__all__ = ["ranks_out", "router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["profile"])


def _season_out(season: rule.Season) -> SeasonOut:
    return SeasonOut(
        number=season.number, start=season.start.isoformat(), end=season.end.isoformat()
    )


def _standing_out(step: int, points: int) -> StandingOut:
    return StandingOut.model_validate(rule.standing_json(step, points))


def _season(store: Store, number: int | None) -> rule.Season:
    """Season ``number`` (default: the current one); 404 for one that has not begun."""
    current = store.ranks.season()
    if number is None:
        return current
    if number > current.number:
        raise ApiError(
            404, "no-season", f"season {number} has not begun", params={"season": number}
        )
    return store.ranks.seasons.season(number)


async def ranks_out(store: Store, user: User) -> list[RankOut]:
    """The player's rank per family in the current season (none for a guest)."""
    if user.is_guest:
        return []
    return [
        RankOut(
            family=s.family,
            season=s.season,
            hands=s.hands,
            standing=_standing_out(s.step, s.points),
        )
        for s in await store.ranks.standings(user.id)
    ]


@router.get("/seasons", response_model=SeasonsOut)
async def seasons(store: StoreDep) -> SeasonsOut:
    """The current season and every season so far, newest first (the leaderboard's picker)."""
    current = store.ranks.season()
    return SeasonsOut(
        current=_season_out(current),
        seasons=[_season_out(store.ranks.seasons.season(n)) for n in range(current.number, 0, -1)],
    )


@router.get("/me/ranks/history", response_model=RankHistoryOut)
async def rank_history(
    user: CurrentUser,
    store: StoreDep,
    family: str | None = None,
    season: Annotated[int | None, Query(ge=1)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> RankHistoryOut:
    """Your rank moves in ``season`` (default: the current one), newest first; only
    ``family``'s.  Empty for a guest (guests have no rank)."""
    chosen = _season(store, season)
    moves = (
        []
        if user.is_guest
        else await store.ranks.history(user.id, family=family, season=chosen.number, limit=limit)
    )
    return RankHistoryOut(
        season=_season_out(chosen),
        moves=[
            RankMoveOut.model_validate(
                {
                    "game": m.game_id,
                    "family": m.family,
                    "season": m.season,
                    "at": m.created_at.isoformat(),
                    **rule.move_json(
                        m.step_before, m.points_before, m.step_after, m.points_after, m.change
                    ),
                }
            )
            for m in moves
        ],
    )


@router.get("/leaderboard/{family}/ranks", response_model=RankBoardOut)
async def rank_leaderboard(
    family: str,
    store: StoreDep,
    season: Annotated[int | None, Query(ge=1)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> RankBoardOut:
    """A family's players by rank in ``season`` (default: the current one; a past season as it
    ended): highest step first, then most PT; only players who played a bean-room hand of the
    family in that season.  Public.  404 for an unknown family or a season not begun."""
    if family not in family_names():
        raise ApiError(404, "no-family", f"no family {family!r}")
    chosen = _season(store, season)
    leaders = await store.ranks.leaders(family, chosen.number, limit)
    return RankBoardOut(
        family=family,
        season=_season_out(chosen),
        leaders=[
            RankLeaderOut(
                rank=n,
                user_id=r.user_id,
                name=r.name,
                hands=r.hands,
                standing=_standing_out(r.step, r.points),
            )
            for n, r in enumerate(leaders, start=1)
        ],
    )
