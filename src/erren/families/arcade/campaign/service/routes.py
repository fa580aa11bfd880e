"""The campaign's HTTP routes (stage mode, arcade §3): the user's run, a new run, the stake and
the next hand, abandoning the run; and :data:`SERVICE`, the arcade family's part of the server
(:class:`~erren.server.extension.ServerExtension`: these routes and the
:class:`~erren.families.arcade.campaign.service.desk.CampaignDesk`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from erren.families.arcade.campaign.service.desk import CampaignDesk
from erren.server.routes.common import CurrentUser, LobbyDep, StrictJSONRoute

if TYPE_CHECKING:
    from erren.server.lobbybase import Ground

__all__ = ["SERVICE", "CampaignService", "StakeIn", "router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["tables"])


class StakeIn(BaseModel):
    multiplier: int = Field(1, description="The stake multiplier m (stake m × 100), 1..10")


@router.get("/campaign", tags=["campaign"])
async def campaign(user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """The user's campaign (stage mode, arcade §3), or ``{"campaign": null}``."""
    return {"campaign": await lobby.desk(CampaignDesk).campaign(user)}


@router.post("/campaign/start", status_code=201, tags=["campaign"])
async def campaign_start(user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """A new run: bankroll 1000, stage 1 (409 while a run is unfinished)."""
    return {"campaign": await lobby.desk(CampaignDesk).start(user)}


@router.post("/campaign/hand", tags=["campaign"])
async def campaign_hand(body: StakeIn, user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """Stake ``m × 100`` and deal the next hand at the campaign table (seat 0)."""
    table, state = await lobby.desk(CampaignDesk).hand(user, body.multiplier)
    return {"table": table.spec.id, "seat": 0, "ws": "/ws", "campaign": state}


@router.post("/campaign/abandon", tags=["campaign"])
async def campaign_abandon(user: CurrentUser, lobby: LobbyDep) -> dict[str, Any]:
    """End the run; the bankroll at that point is its score (R3.11)."""
    return await lobby.desk(CampaignDesk).abandon(user)


class CampaignService:
    """The arcade family's part of the server: the campaign's routes and its lobby desk."""

    def router(self) -> APIRouter:
        return router

    def desk(self, ground: Ground) -> CampaignDesk:
        return CampaignDesk(ground)


SERVICE = CampaignService()
"""The arcade family's ``server_extension`` hook."""
