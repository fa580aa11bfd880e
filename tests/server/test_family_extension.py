"""A family adds its part of the server through its ``server_extension`` hook
(:mod:`erren.server.extension`): its routes are mounted by the app and its desk opened by the
lobby.  The campaign's routes are the arcade family's; the toy family (:mod:`erren.testing.toy`),
given a route and a desk, answers at its route with no edit to the server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter

from erren.engine import find_family
from erren.families.arcade.campaign.service.desk import CampaignDesk
from erren.server.app import create_app
from erren.server.extension import server_extensions
from erren.server.lobbybase import Ground
from erren.server.routes import ROUTERS
from erren.server.routes.common import LobbyDep
from erren.server.table import TableRules, TableSpec
from erren.testing import toy
from erren.testing.toy.game import ToyFamily

CAMPAIGN = ["/campaign", "/campaign/start", "/campaign/hand", "/campaign/abandon"]


class ToyDesk:
    """The toy's desk: it counts the greetings; it makes no table of its own."""

    def __init__(self, ground: Ground) -> None:
        self.ground = ground
        self.greeted = 0

    def restored_rules(self, spec: TableSpec, users: Sequence[int | None]) -> TableRules | None:
        return None

    def greet(self) -> int:
        self.greeted += 1
        return self.greeted


router = APIRouter(tags=["toy"])


@router.get("/toy/hello")
async def hello(lobby: LobbyDep) -> dict[str, Any]:
    return {"greeted": lobby.desk(ToyDesk).greet()}


class ToyService:
    def router(self) -> APIRouter:
        return router

    def desk(self, ground: Ground) -> ToyDesk:
        return ToyDesk(ground)


SERVICE = ToyService()


@pytest.fixture
def toy_serving(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy family registered for the test, with this module's server part."""
    parts = {**ToyFamily.parts, "server_extension": f"{__name__}:SERVICE"}
    monkeypatch.setattr(ToyFamily, "parts", parts)
    toy.register()
    try:
        yield
    finally:
        toy.unregister()


def _paths(routers: Sequence[APIRouter]) -> set[str]:
    return {str(getattr(r, "path", "")) for router in routers for r in router.routes}


def test_the_campaign_routes_are_the_arcade_familys() -> None:
    extension = find_family("arcade").server_extension()
    assert extension is not None
    assert set(CAMPAIGN) <= _paths([extension.router()])
    assert not set(CAMPAIGN) & _paths(ROUTERS)  # no shared router serves them
    assert find_family("guobiao-2p").server_extension() is None
    api = create_app(metrics=False).openapi()["paths"]  # the app mounts them, tags kept
    for path in CAMPAIGN:
        (operation,) = api[path].values()
        assert operation["tags"] == ["tables", "campaign"], path
    assert "StakeIn" in str(api["/campaign/hand"]["post"]["requestBody"])


@pytest.mark.usefixtures("toy_serving")
def test_a_family_adds_a_route_and_a_desk_with_no_edit_elsewhere(tmp_path: Path) -> None:
    assert any(isinstance(e, ToyService) for e in server_extensions())
    app = create_app(f"sqlite:///{tmp_path / 'erren.sqlite3'}", metrics=False)

    async def main() -> None:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as http,
        ):
            assert (await http.get("/toy/hello")).json() == {"greeted": 1}
            assert (await http.get("/toy/hello")).json() == {"greeted": 2}
            lobby = app.state.erren.lobby
            assert lobby.desk(ToyDesk).greeted == 2
            assert isinstance(lobby.desk(CampaignDesk), CampaignDesk)  # the arcade family's
            assert (await http.get("/campaign")).status_code == 401  # still needs a user

    asyncio.run(main())
