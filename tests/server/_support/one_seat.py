"""Steps of the one-seat tests of a cluster (``test_cluster_one_seat.py``): the five ways an
account takes its one place — waiting in a quick match, a private table, a friend's table by
its code, a table against the computer, a campaign hand — asked of a node over HTTP, and what
the cluster says of the account afterwards (each node's ``/me/table``, its ``seat:{user}`` key
in Redis)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import httpx
import redis.asyncio as aioredis

from erren.server.cluster.matching import Place

__all__ = ["PATHS", "SUCCESS", "Account", "Answer", "Kind", "Node"]

SUCCESS = (200, 201)
"""What a seat request answers when it is served (a quick match that waits has not answered)."""
QUICK_WAIT_S = 60
"""A quick match's wait: the test cancels it long before (nobody else waits in its room)."""


class Kind(StrEnum):
    """The five ways an account takes its one place in the cluster."""

    QUICK = "quick"
    PRIVATE = "private"
    INVITE = "invite"
    COMPUTER = "computer"
    CAMPAIGN = "campaign"


@dataclass(frozen=True)
class Answer:
    """A request's answer: its status and JSON body."""

    status: int
    body: dict[str, Any]

    @property
    def code(self) -> str | None:
        return self.body.get("code")

    @property
    def table(self) -> str | None:
        return self.body.get("table")


@dataclass(frozen=True)
class Account:
    """A fresh account: its id and token (the database is the cluster's: any node knows it)."""

    id: int
    token: str
    name: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Node:
    """One node's HTTP client, and the cluster's Redis under the test's prefix."""

    name: str
    http: httpx.AsyncClient
    redis: aioredis.Redis
    prefix: str

    async def register(self) -> Account:
        name = "o" + uuid.uuid4().hex[:11]
        reply = await self.http.post(
            "/auth/register", json={"name": name, "password": "password-123"}
        )
        assert reply.status_code == 201, reply.text
        token = str(reply.json()["token"])
        me = await self.http.get("/me", headers={"Authorization": f"Bearer {token}"})
        return Account(int(me.json()["id"]), token, name)

    async def ask(self, account: Account, kind: Kind, room: str = "", invite: str = "") -> Answer:
        """Ask this node for the account's place of ``kind`` (a quick match in ``room``, a
        friend's table by its ``invite`` code)."""
        reply = await self.http.post(
            PATHS[kind], json=_body(kind, room, invite), headers=account.auth
        )
        return Answer(reply.status_code, reply.json())

    async def private_table(self, host: Account) -> tuple[str, str]:
        """The host's private table here: its id and invite code."""
        made = await self.ask(host, Kind.PRIVATE)
        assert made.status == 201, made
        return str(made.body["table"]), str(made.body["invite"])

    async def guest_of(self, table: str) -> str:
        """The name in seat 1 of this node's private ``table`` (``""``: nobody yet)."""
        reply = await self.http.get(f"/tables/{table}")
        assert reply.status_code == 200, reply.text
        return str(reply.json()["seats"][1]["name"])

    async def run_of(self, account: Account) -> tuple[str, int]:
        """The account's campaign run: its status and bankroll."""
        reply = await self.http.get("/campaign", headers=account.auth)
        assert reply.status_code == 200, reply.text
        run = reply.json()["campaign"]
        return str(run["status"]), int(run["bankroll"])

    async def campaign(self, account: Account, action: str) -> int:
        """``POST /campaign/{action}`` (``start``, ``abandon``): the status."""
        reply = await self.http.post(f"/campaign/{action}", headers=account.auth)
        return reply.status_code

    async def my_table(self, account: Account) -> str | None:
        """The table this node says the account sits at (``/me/table``)."""
        reply = await self.http.get("/me/table", headers=account.auth)
        assert reply.status_code == 200, reply.text
        mine = reply.json()
        return None if mine is None else str(mine["table"])

    async def cancel(self, account: Account) -> int:
        reply = await self.http.delete("/match/quick", headers=account.auth)
        return reply.status_code

    async def place_of(self, account: Account) -> Place | None:
        """Where Redis says the account is (``seat:{user}``)."""
        value = await self.redis.get(f"{self.prefix}seat:{account.id}")
        return None if value is None else Place.parse(str(value))

    async def invites(self) -> list[str]:
        """The invite codes the cluster holds (``invite:{CODE}`` keys)."""
        keys = [str(k) async for k in self.redis.scan_iter(match=f"{self.prefix}invite:*")]
        return sorted(k.rpartition(":")[2] for k in keys)

    async def queued(self, room: str) -> list[str]:
        return [str(e) for e in await self.redis.lrange(f"{self.prefix}q:{room}", 0, -1)]


PATHS = {
    Kind.QUICK: "/match/quick",
    Kind.PRIVATE: "/tables/private",
    Kind.INVITE: "/tables/join",
    Kind.COMPUTER: "/tables/vs-computer",
    Kind.CAMPAIGN: "/campaign/hand",
}


def _body(kind: Kind, room: str, invite: str) -> dict[str, Any]:
    if kind is Kind.QUICK:
        return {"room": room, "wait_s": QUICK_WAIT_S}
    if kind is Kind.INVITE:
        return {"invite": invite}
    if kind is Kind.CAMPAIGN:
        return {"multiplier": 1}
    return {"family": "guobiao-2p"}
