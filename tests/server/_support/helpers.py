"""Shared steps of the server tests: players, tables, and the hidden-information check."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx

from erren.bots import find_bot
from erren.server.client import PlayerClient, guest_token

from .leaks import Audit, audit_seat


async def player(url: str, *, keep: bool = False) -> PlayerClient:
    client = PlayerClient(url, await guest_token(url))
    client.keep = keep
    return client


async def registered(url: str, name: str, password: str = "password-123") -> PlayerClient:
    async with httpx.AsyncClient(base_url=url) as http:
        reply = await http.post("/auth/register", json={"name": name, "password": password})
        assert reply.status_code == 201, reply.text
        return PlayerClient(url, reply.json()["token"])


def _fresh_name() -> str:
    return "p" + uuid.uuid4().hex[:12]


async def private_pair(
    url: str, family: str = "guobiao-2p", *, keep: bool = False, **options: Any
) -> tuple[PlayerClient, PlayerClient, str]:
    a, b = await player(url, keep=keep), await player(url, keep=keep)
    made = await a.private_table(family, **options)
    joined = await b.join_invite(made["invite"])
    assert joined["table"] == made["table"] and joined["seat"] == 1
    return a, b, made["table"]


async def quick_pair(url: str, room: str) -> tuple[PlayerClient, PlayerClient, str]:
    """Two registered players (bean rooms need accounts) seated together by quick match."""
    a, b = await registered(url, _fresh_name()), await registered(url, _fresh_name())
    first, second = await asyncio.gather(a.quick_match(room, 20), b.quick_match(room, 20))
    assert first["table"] == second["table"]
    assert {first["seat"], second["seat"]} == {0, 1}
    if first["seat"] == 1:
        a, b = b, a
    return a, b, first["table"]


async def play_both(
    a: PlayerClient, b: PlayerClient, table: str, hands: int, *, bot: str = "random", seed: int = 1
) -> None:
    await asyncio.gather(
        a.play(table, find_bot(bot, seed=seed), hands=hands, leave_after=False, timeout=30),
        b.play(table, find_bot(bot, seed=seed + 1), hands=hands, leave_after=False, timeout=30),
    )


async def wait_for(client: PlayerClient, pred: Any, timeout: float = 20) -> dict[str, Any]:
    """Read messages until ``pred(message)`` holds; returns that message."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message = await client.recv(max(left, 0.01))
        if pred(message):
            return message


def settlements(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The settlement of each hand among ``messages``, in order, once each: from an ``events``
    message, or from a ``snapshot``'s ``end`` (a player who comes back after the hand ended —
    played out by the table's timers and 托管 while he reconnected — gets the snapshot)."""
    found: dict[tuple[Any, Any], dict[str, Any]] = {}
    for m in messages:
        if m.get("type") == "events":
            ends = [e for e in m["events"] if e["kind"] == "settlement"]
        elif m.get("type") == "snapshot" and m.get("end") is not None:
            ends = [m["end"]]
        else:
            continue
        for end in ends:
            found.setdefault((end.get("game"), end.get("n")), end)
    return list(found.values())


def check_no_leak(messages: list[dict[str, Any]], seat: int, record: dict[str, Any]) -> int:
    """Every message ``seat`` received about the hand of ``record`` (its events, states and
    snapshots) is what the engine lets that seat see, and holds nothing of the seed before the
    settlement (:mod:`tests.server.leaks`, replaying the hand step by step); returns how many
    messages were checked.  Findings in ``leaks.KNOWN_LEAKS`` are tolerated, any other fails."""
    game = record["game"]
    mine = [
        m for m in messages if m.get("type") in ("events", "snapshot") and m.get("game") == game
    ]
    audit = Audit()
    audit_seat(mine, seat, [record], audit)
    assert not audit.leaks, audit.summary()
    return audit.checked


async def invites_at_login(url: str, token: str) -> list[dict[str, Any]]:
    """The invites a socket of ``token`` logging in at ``url`` is sent before the answer to its
    first ``ping``: what the server sends at a login comes first (a socket is first in, first
    out); a presence may come too and is not counted."""
    client = PlayerClient(url, token)
    await client.log_in()
    try:
        await client.send({"type": "ping"})
        before = []
        async with asyncio.timeout(15):
            while (message := await client.recv())["type"] != "pong":
                if message["type"] == "invite":
                    before.append(message)
        return before
    finally:
        await client.close()
