"""Ranks over HTTP, after bean-room hands really played (SQLite; the store's ranks are checked
on PostgreSQL too in tests/server/store/test_ranks.py).

Two registered players play guobiao-2p hands steered to an outcome (``_support.exact_beans``): a
discard win in 普通场, a drawn hand in 高级场 and an escape in 初级场.  After each, the
``settlement`` event's ``ranks``, ``/me/profile``'s ``ranks``, ``/me/ranks/history`` and
``/leaderboard/guobiao-2p/ranks`` must show the rank moved by exactly the PT computed here from
the documented table (README / ``erren.server.ranks``), never from the rule's code.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from erren.server.client import PlayerClient

from ._support import exact_beans as exact
from ._support.beans_play import serving
from ._support.harness import database

pytestmark = pytest.mark.services  # a real server (in this process) over WebSockets

GB = "guobiao-2p"
# the documented table: thresholds (step 0 …), rank loss %, and PT per tier (win, draw, loss, esc.)
THRESHOLDS = [20, 40, 60, 80, 100, 120, 160, 200, 240, 300, 360, 420, 500, 600, 700]
LOSS_PERCENT = [50, 50, 50, 100, 100, 100]
GAINS = {"normal": (20, 4, 20, 60), "junior": (30, 6, 30, 90), "senior": (50, 10, 50, 150)}
PROTECTED = {0, 3, 6, 9, 12}


def moved(standing: tuple[int, int], tier: str, outcome: str) -> tuple[tuple[int, int], int]:
    """(step, points) after one hand, and the PT the hand moved, from the table above."""
    step, points = standing
    win, draw, loss, escape = GAINS[tier]
    change = {"win": win, "draw": draw}.get(outcome)
    if change is None:
        lost = loss if outcome == "loss" else escape
        change = -(lost * LOSS_PERCENT[step] // 100)
    points += change
    if points >= THRESHOLDS[step]:
        return (step + 1, THRESHOLDS[step + 1] // 2), change
    if points < 0:
        if step in PROTECTED:
            return (step, 0), change
        return (step - 1, THRESHOLDS[step - 1] // 2), change
    return (step, points), change


async def get(client: PlayerClient, path: str, **params: Any) -> Any:
    reply = await client.http.get(path, params=params)
    assert reply.status_code == 200, reply.text
    return reply.json()


Standings = dict[int, tuple[int, int]]


def check_moves(
    settlement: dict[str, Any],
    ids: list[int],
    results: dict[int, str],
    tier: str,
    *,
    standing: Standings,
    hands: dict[int, int],
) -> None:
    """The settlement's ``ranks``: each moved seat by exactly the table's PT (``standing`` and
    ``hands`` follow), ``None`` for a seat not moved."""
    for seat in (0, 1):
        shown = settlement["ranks"][seat]
        if seat not in results:
            assert shown is None
            continue
        uid = ids[seat]
        before = standing[uid]
        standing[uid], change = moved(before, tier, results[seat])
        hands[uid] += 1
        assert shown["change"] == change, (tier, results, seat)
        assert (shown["before"]["step"], shown["before"]["points"]) == before
        assert (shown["after"]["step"], shown["after"]["points"]) == standing[uid]
        assert shown["promoted"] == (standing[uid][0] > before[0])


async def check_pages(
    clients: dict[int, PlayerClient], standing: Standings, hands: dict[int, int]
) -> None:
    """Each player's profile and rank history, the seasons and the rank leaderboard."""
    for uid, client in clients.items():
        page = await get(client, "/me/profile")
        [rank] = page["ranks"]
        assert rank["family"] == GB and rank["hands"] == hands[uid]
        got = rank["standing"]
        assert (got["step"], got["points"]) == standing[uid]
        assert got["threshold"] == THRESHOLDS[got["step"]]
        assert got["zh"].startswith("新人") and got["en"].startswith("Newcomer")
        history = await get(client, "/me/ranks/history", family=GB)
        assert len(history["moves"]) == hands[uid]
        last = history["moves"][0]["after"]
        assert (last["step"], last["points"]) == standing[uid]
    anyone = next(iter(clients.values()))
    seasons = await get(anyone, "/seasons")
    now = seasons["current"]["number"]
    assert [s["number"] for s in seasons["seasons"]] == list(range(now, 0, -1))
    board = await get(anyone, f"/leaderboard/{GB}/ranks", season=now)
    expected = sorted(standing.values(), key=lambda s: (-s[0], -s[1]))
    shown = [(r["standing"]["step"], r["standing"]["points"]) for r in board["leaders"]]
    assert shown == expected
    first = await get(anyone, f"/leaderboard/{GB}/ranks", season=1)
    assert first["leaders"] == ([] if now > 1 else board["leaders"])
    late = await anyone.http.get(f"/leaderboard/{GB}/ranks?season={now + 1}")
    assert late.status_code == 404 and late.json()["code"] == "no-season"


def test_played_hands_move_ranks_by_the_table(tmp_path: Any) -> None:
    """About 30 s: three hands played over WebSockets (the discard win promotes its winner,
    0 + 20 ≥ 20: 新人二级 at 20), each checked against the table, then every rank page."""

    async def run() -> None:
        with database("sqlite", tmp_path) as url:
            async with serving(url) as served:
                players = {i: await exact.register(served.url, f"rank-p{i}") for i in range(2)}
                user_of = {id(c): uid for c, uid in players.values()}
                standing = {uid: (0, 0) for _, uid in players.values()}
                hands = {uid: 0 for _, uid in players.values()}
                for tier, outcome in (
                    ("normal", "discard"),
                    ("senior", "draw"),
                    ("junior", "escape"),
                ):
                    payer, _, _, settlement = await exact.play_case(
                        served, players, GB, tier, outcome, stay=outcome != "escape"
                    )
                    seats = settlement["seats"]
                    winner = settlement["result"]["winner"]
                    if outcome == "draw":
                        results = {0: "draw", 1: "draw"}
                    elif outcome == "escape":
                        results = {payer: "escape"}  # who stayed is not moved
                    else:
                        results = {winner: "win", 1 - winner: "loss"}
                    ids = [user_of[id(c)] for c in seats]
                    check_moves(settlement, ids, results, tier, standing=standing, hands=hands)
                    if outcome != "escape":
                        await exact.leave(seats[0], seats[1])
                await check_pages({uid: c for c, uid in players.values()}, standing, hands)
                for player, _ in players.values():
                    await player.close()

    asyncio.run(asyncio.wait_for(run(), timeout=300))
