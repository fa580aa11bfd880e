"""Rooms and tables: the rooms, quick matches (registered players only), private tables,
invites, tables against the computer.  A family's own routes (arcade's campaign) are its
``server_extension``'s (:mod:`erren.server.extension`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from erren.bots import Level, bot_names
from erren.engine import family_names, find_family
from erren.server.appstate import app_state
from erren.server.quickmatch import ClientGoneError, client_gone
from erren.server.rooms import catalogue
from erren.server.routes.common import ApiError, CurrentUser, LobbyDep, StrictJSONRoute
from erren.server.routes.models import (
    ComputerIn,
    InviteIn,
    PrivateIn,
    QuickMatchIn,
    RoomOut,
    SeatOut,
    UnitOut,
    seat_out,
)
from erren.web import family_modules

__all__ = ["ACCOUNT_NEEDED", "router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["tables"])

ACCOUNT_NEEDED = "bean rooms need a registered account; guests play practice tables"
CLIENT_CLOSED = 499
"""The status of a quick match whose client went away while it waited (nobody reads it)."""


class SearchOut(BaseModel):
    """A quick-match search: its room, and whether it is away."""

    room: str
    away: bool


@router.get("/families")
async def families() -> dict[str, Any]:
    """The families, computer levels and bots; ``modules``: each family's client module (its
    names, marks and settlement lines: :attr:`erren.engine.family.Family.web_module`) by name,
    in the order people read them (:attr:`~erren.engine.family.Family.listing_order`)."""
    return {
        "families": list(family_names()),
        "levels": [level.value for level in Level],
        "bots": list(bot_names()),
        "modules": family_modules(),
    }


@router.get("/rooms", response_model=list[RoomOut])
async def rooms() -> list[RoomOut]:
    """Every bean room: its stake, per one point of its family (``unit``), and entry limits."""
    return [
        RoomOut(**room.to_json(), unit=_point_unit(room.family)) for room in catalogue().values()
    ]


@cache
def _point_unit(family: str) -> UnitOut:
    """What a family's points count (:attr:`erren.engine.family.Family.point_unit`)."""
    return UnitOut(**find_family(family).point_unit.names)


@router.post("/match/quick", response_model=SeatOut)
async def quick_match(
    body: QuickMatchIn, user: CurrentUser, lobby: LobbyDep, request: Request
) -> SeatOut | Response:
    """A seat at a bean table of the room.  403 ``account-needed`` for a guest.  While it
    waits, the request holds the player's place: if its connection closes he is away, paired
    with nobody, and his place is kept a few seconds for a request of his to resume it
    (:mod:`erren.server.quickmatch`); ``resume``: only that, 404 ``search-lost`` if none."""
    if user.is_guest:
        raise ApiError(403, "account-needed", ACCOUNT_NEEDED)
    async with client_gone(request.receive) as gone:
        try:
            table, seat = await lobby.quick_match(
                user, body.room, body.wait_s, resume=body.resume, gone=gone
            )
        except ClientGoneError:  # nobody reads this answer
            return Response(status_code=CLIENT_CLOSED)
    return seat_out(table, seat)


@router.get("/match/quick", response_model=SearchOut)
async def quick_search(user: CurrentUser, lobby: LobbyDep) -> SearchOut:
    """Your quick-match search: its room, and whether it is away (its request's client went
    away: the place is kept for a few seconds, paired with nobody); 404 ``not-waiting``."""
    search = await lobby.search_of(user.id)
    if search is None:
        raise ApiError(404, "not-waiting", "you are not waiting for a quick match")
    return SearchOut(room=search.room, away=search.away)


@router.delete("/match/quick", status_code=204)
async def cancel_quick_match(user: CurrentUser, lobby: LobbyDep) -> None:
    """Stop waiting for an opponent (on whichever node of a cluster the wait runs): the
    waiting request answers 409 ``cancelled``; 404 ``not-waiting`` if the user was not
    waiting; on a cluster node 409 ``seated`` (with ``table``) when an opponent was paired
    first (the match stands) and 503 ``cluster-unavailable`` while Redis does not answer."""
    if not await lobby.cancel_quick(user.id):
        raise ApiError(404, "not-waiting", "you are not waiting for a quick match")


@router.post("/tables/private", response_model=SeatOut, status_code=201)
async def private_table(body: PrivateIn, user: CurrentUser, lobby: LobbyDep) -> SeatOut:
    """A private table joined by its invite code: score-only, or with ``room`` a bean table of
    that room (403 ``account-needed`` for a guest; the room's entry limits)."""
    table = await lobby.private_table(user, body.family, body.options, body.room)
    return seat_out(table, 0)


@router.post("/tables/join", response_model=SeatOut)
async def join_invite(
    request: Request, body: InviteIn, user: CurrentUser, lobby: LobbyDep
) -> SeatOut:
    """Take the free seat of the private table of ``body.invite`` (404 ``no-invite``, 409
    ``table-full``); an invite to it held for you is let go."""
    table, seat = await lobby.join_invite(user, body.invite)
    running = app_state(request.app).running
    if running is not None and running.friends is not None and not user.is_guest:
        await running.friends.held.drop(user.id, body.invite)
    return seat_out(table, seat)


@router.post("/tables/vs-computer", response_model=SeatOut, status_code=201)
async def vs_computer(body: ComputerIn, user: CurrentUser, lobby: LobbyDep) -> SeatOut:
    """A table against the computer at ``level`` (or a bot named by ``bot``), seat 0.  404
    ``no-level``/``no-bot`` for an unknown one, 422 ``level-and-bot`` for both."""
    table = await lobby.vs_computer(user, body.family, body.options, body.bot, level=body.level)
    return seat_out(table, 0)


@router.get("/tables/{table_id}")
async def table_info(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
    table = lobby.tables.get(table_id)
    if table is None:
        raise ApiError(404, "no-table", f"no open table {table_id[:40]!r}")
    info = table.info()
    info.pop("invite", None)
    return info
