"""What the spectator tests share: players at a private table, friends, who may watch, a
connected spectator, asking to watch, and reading what arrives."""

from __future__ import annotations

import uuid
from typing import Any

from erren.server.client import PlayerClient

from .helpers import player, registered, wait_for

__all__ = [
    "ask_to_watch",
    "befriend",
    "drain",
    "let_watch",
    "new_name",
    "newest_event",
    "private_pair",
    "spectator",
]


def new_name() -> str:
    return "w" + uuid.uuid4().hex[:12]


async def let_watch(client: PlayerClient, policy: str) -> None:
    """The player lets ``policy`` watch his tables (the settings panel's ``watch``)."""
    reply = await client.http.put("/me/settings", json={"watch": policy})
    assert reply.status_code == 200, reply.text


async def private_pair(url: str) -> tuple[PlayerClient, PlayerClient, str, str, str]:
    """Two registered players at a private (score-only) table; their names."""
    na, nb = new_name(), new_name()
    a, b = await registered(url, na), await registered(url, nb)
    made = await a.private_table("guobiao-2p")
    await b.join_invite(made["invite"])
    return a, b, made["table"], na, nb


async def befriend(a: PlayerClient, na: str, b: PlayerClient, nb: str) -> None:
    reply = await a.http.post("/friends/requests", json={"who": nb})
    assert reply.status_code == 201, reply.text
    reply = await b.http.post("/friends/requests", json={"who": na})
    assert reply.status_code == 201 and reply.json()["outcome"] == "friends", reply.text


async def spectator(url: str, name: str | None = None) -> tuple[PlayerClient, int]:
    """A connected spectator (a guest, or the registered ``name``) and his account id."""
    client = await (player(url, keep=True) if name is None else registered(url, name))
    client.keep = True
    welcome = await client.log_in()
    return client, int(welcome["user"]["id"])


async def ask_to_watch(client: PlayerClient, table: str, **extra: Any) -> dict[str, Any]:
    """Ask to watch ``table``: the first answer (``watching`` or an error)."""
    await client.send({"type": "watch", "table": table, **extra})
    return await wait_for(client, lambda m: m["type"] in ("watching", "error"), 10)


async def drain(client: PlayerClient, quiet: float = 0.25) -> list[dict[str, Any]]:
    """Every message that arrives until none has for ``quiet`` seconds."""
    out = []
    while True:
        try:
            out.append(await client.recv(quiet))
        except TimeoutError:
            return out


def newest_event(messages: list[dict[str, Any]]) -> int:
    """The newest event number among ``events`` messages before a settlement (-1: none)."""
    found = [
        e["n"]
        for m in messages
        if m["type"] == "events"
        for e in m["events"]
        if e["kind"] != "settlement"
    ]
    return max(found, default=-1)
