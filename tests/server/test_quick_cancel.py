"""Cancelling a quick match: the player leaves the queue at once, so nobody is paired with him.

Against a real ``erren serve`` on SQLite and PostgreSQL (the ``server`` fixture)."""

from __future__ import annotations

import asyncio
import uuid

import httpx

from ._support.harness import Server, run


async def _account(http: httpx.AsyncClient) -> dict[str, str]:
    name = "q" + uuid.uuid4().hex[:10]
    reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
    assert reply.status_code == 201, reply.text
    return {"Authorization": f"Bearer {reply.json()['token']}"}


def test_a_cancelled_quick_match_pairs_nobody(server: Server) -> None:
    async def go() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            first, second = await _account(http), await _account(http)
            room = {"room": "guobiao-2p/novice", "wait_s": 20}
            waiting = asyncio.create_task(http.post("/match/quick", json=room, headers=first))
            for _ in range(100):  # until the first player is in the queue
                await asyncio.sleep(0.05)
                cancelled = await http.delete("/match/quick", headers=first)
                if cancelled.status_code == 204:
                    break
                assert cancelled.json()["code"] == "not-waiting"
            assert cancelled.status_code == 204
            answer = await waiting
            assert (answer.status_code, answer.json()["code"]) == (409, "cancelled")
            # the second player finds nobody (not a ghost of the first) and is told so
            alone = await http.post("/match/quick", json={**room, "wait_s": 0.5}, headers=second)
            assert (alone.status_code, alone.json()["code"]) == (408, "no-opponent")
            again = await http.delete("/match/quick", headers=first)
            assert (again.status_code, again.json()["code"]) == (404, "not-waiting")
            # and the first may queue again straight away
            retry = await http.post("/match/quick", json={**room, "wait_s": 0.5}, headers=first)
            assert (retry.status_code, retry.json()["code"]) == (408, "no-opponent")

    run(go())
