"""Steps of the presence tests of quick match (``test_quick_presence_server.py``,
``test_cluster_presence.py``): a player's waiting request on an HTTP connection of its own —
closing that connection is his page going away (a closed or reloaded tab) — and what the
server says of his search (``GET /match/quick``)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass
from typing import Any

import httpx

from erren.testing.waits import eventually

__all__ = ["WAIT_S", "WELCOME", "Player", "Searching", "register"]

WAIT_S = 60
"""A waiting request's ``wait_s`` (the browser client's): the tests end every wait long before."""
WELCOME = 10_000
"""A new account's beans (the welcome grant): no bean moves in these tests, so every balance
stays exactly this."""


@dataclass(frozen=True)
class Player:
    """A registered account (bean rooms need one): its name, token and id."""

    name: str
    token: str
    id: int

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def search(self, url: str) -> tuple[str, bool] | None:
        """Where the server at ``url`` says his search is: ``(room, away)``, or ``None``."""
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            reply = await http.get("/match/quick", headers=self.auth)
        if reply.status_code == 404:
            assert reply.json()["code"] == "not-waiting", reply.text
            return None
        assert reply.status_code == 200, reply.text
        body = reply.json()
        return str(body["room"]), bool(body["away"])

    async def until(self, url: str, search: tuple[str, bool] | None, timeout: float = 20) -> None:
        """Wait until his search is ``search`` (``None``: he searches nowhere)."""

        async def there() -> bool:
            return await self.search(url) == search

        await eventually(there, f"{self.name}'s search is {search}", timeout=timeout)

    async def balance(self, url: str) -> int:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            reply = await http.get("/me/balance", headers=self.auth)
        assert reply.status_code == 200, reply.text
        return int(reply.json()["balance"])


async def register(url: str) -> Player:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        name = "s" + uuid.uuid4().hex[:11]
        reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        assert reply.status_code == 201, reply.text
        body = reply.json()
        return Player(name, str(body["token"]), int(body["user"]["id"]))


class Searching:
    """``player``'s quick-match request in ``room`` at ``url``, on a connection of its own."""

    def __init__(self, url: str, player: Player, room: str, *, resume: bool = False) -> None:
        self.player = player
        self.http = httpx.AsyncClient(base_url=url, timeout=WAIT_S + 30, headers=player.auth)
        body = {"room": room, "wait_s": WAIT_S, "resume": resume}
        self.task = asyncio.create_task(self.http.post("/match/quick", json=body))

    async def goes(self) -> None:
        """His page goes away: the request is dropped and its connection closed."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.http.aclose()

    async def answer(self) -> tuple[int, dict[str, Any]]:
        """The request's answer (its status and body); the connection is closed after it."""
        try:
            reply = await self.task
        finally:
            await self.http.aclose()
        return reply.status_code, reply.json()
