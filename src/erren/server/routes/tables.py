"""Rooms and tables: the rooms, quick matches (registered players only), private tables,
invites, tables against the computer, and the arcade campaign."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from erren.bots import Level, bot_names
from erren.engine import ruleset_names
from erren.server.rooms import catalogue
from erren.server.routes.common import ApiError, CurrentUser, LobbyDep, StrictJSONRoute
from erren.server.routes.models import (
    ComputerIn,
    InviteIn,
    QuickMatchIn,
    RoomOut,
    SeatOut,
    StakeIn,
    TableIn,
    seat_out,
)

__all__ = ["ACCOUNT_NEEDED", "router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["tables"])

ACCOUNT_NEEDED = "bean rooms need a registered account; guests play practice tables"


@router.get("/families")
async def families() -> dict[str, list[str]]:
    return {
        "families": list(ruleset_names()),
        "levels": [level.value for level in Level],
        "bots": list(bot_names()),
    }


@router.get("/rooms", response_model=list[RoomOut])
async def rooms() -> list[RoomOut]:
    return [RoomOut(**room.to_json()) for room in catalogue().values()]


@router.post("/match/quick", response_model=SeatOut)
async def quick_match(body: QuickMatchIn, user: CurrentUser, lobby: LobbyDep) -> SeatOut:
    """A seat at a bean table of the room.  403 ``account-needed`` for a guest."""
    if user.is_guest:
        raise ApiError(403, "account-needed", ACCOUNT_NEEDED)
    table, seat = await lobby.quick_match(user, body.room, body.wait_s)
    return seat_out(table, seat)


@router.delete("/match/quick", status_code=204)
async def cancel_quick_match(user: CurrentUser, lobby: LobbyDep) -> None:
    """Stop waiting for an opponent (on whichever node of a cluster the wait runs): the
    waiting request answers 409 ``cancelled``; 404 ``not-waiting`` if the user was not
    waiting; on a cluster node 409 ``seated`` (with ``table``) when an opponent was paired
    first (the match stands) and 503 ``cluster-unavailable`` while Redis does not answer."""
    if not await lobby.cancel_quick(user.id):
        raise ApiError(404, "not-waiting", "you are not waiting for a quick match")


@router.post("/tables/private", response_model=SeatOut, status_code=201)
async def private_table(body: TableIn, user: CurrentUser, lobby: LobbyDep) -> SeatOut:
    table = await lobby.private_table(user, body.family, body.options)
    return seat_out(table, 0)


@router.post("/tables/join", response_model=SeatOut)
async def join_invite(body: InviteIn, user: CurrentUser, lobby: LobbyDep) -> SeatOut:
    table, seat = await lobby.join_invite(user, body.invite)
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


# ---------------------------------------------------------------------------- the campaign
@router.get("/campaign", tags=["campaign"])
async def campaign(user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """The user's campaign (stage mode, arcade §3), or ``{"campaign": null}``."""
    return {"campaign": await lobby.campaign(user)}


@router.post("/campaign/start", status_code=201, tags=["campaign"])
async def campaign_start(user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """A new run: bankroll 1000, stage 1 (409 while a run is unfinished)."""
    return {"campaign": await lobby.campaign_start(user)}


@router.post("/campaign/hand", tags=["campaign"])
async def campaign_hand(body: StakeIn, user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """Stake ``m × 100`` and deal the next hand at the campaign table (seat 0)."""
    table, state = await lobby.campaign_hand(user, body.multiplier)
    return {"table": table.spec.id, "seat": 0, "ws": "/ws", "campaign": state}


@router.post("/campaign/abandon", tags=["campaign"])
async def campaign_abandon(user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """End the run; the bankroll at that point is its score (R3.11)."""
    return await lobby.campaign_abandon(user)
