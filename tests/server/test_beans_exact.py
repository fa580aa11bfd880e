"""Every bean right: played hands in every family and every room tier move exactly the spec's beans.

For each family and tier, two registered players quick-match and play, over real WebSockets on a
real server (uvicorn on loopback, SQLite and PostgreSQL: the ledger is the point, and it is
the end-to-end game of each family on PostgreSQL), a hand won self-drawn, one won on a
discard, one won by robbing a kong, a drawn hand and an escape.  The expected beans are computed
here from the spec — the hand's points by the family's formula from the scorer's figures
(guobiao-2p §6.1–6.2, xiamen R-4.2–4.6, arcade R2.25), times the tier's stake written out below
(§6.3), limited by the payer's balance — and compared with the ledger rows and both balances.
The code under test (``erren.server.settlement``, the table, the ledger) is never asked.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from erren.server.client import PlayerClient

from ._support.beans_play import OUTCOMES, Served, read_until, serving
from ._support.exact_beans import TIERS, play_case, register
from ._support.harness import database

pytestmark = pytest.mark.services  # a real server (in this process) over WebSockets


async def check_below_entry(
    served: Served,
    players: dict[int, tuple[PlayerClient, int]],
    settlement: dict[str, Any],
    *,
    payer: int,
    tier: str,
    left: int,
    rooms: list[str],
) -> None:
    """Both players get ready for the next hand: the payer, now below the entry minimum, is
    told why and which rooms he may still enter; his opponent is told he left, without his
    balance; nobody is charged an escape."""
    seats: tuple[PlayerClient, PlayerClient] = settlement["seats"]
    loser, winner = seats[payer], seats[1 - payer]
    balances = [await served.store.ledger.balance(uid) for _, uid in players.values()]
    for client in seats:
        await client.send({"type": "ready"})
    told = await read_until(loser, lambda m: m.get("type") == "closed")
    _, entry_min, entry_max = TIERS[tier]
    assert told["code"] == "below-entry", told
    assert told["params"] == {
        **told["params"],
        "balance": left,
        "entry_min": entry_min,
        "entry_max": entry_max,
        "rooms": rooms,
    }, told
    other = await read_until(winner, lambda m: m.get("type") == "closed")
    assert other["code"] == "opponent-below-entry", other
    assert "balance" not in other.get("params", {}), other
    assert f"{left:,}" not in other["reason"] and str(left) not in other["reason"], other
    assert [await served.store.ledger.balance(uid) for _, uid in players.values()] == balances


FAMILIES = ("guobiao-2p", "xiamen", "arcade")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("family", FAMILIES)
def test_every_outcome_in_every_tier_moves_the_spec_beans(
    backend: str, family: str, tmp_path: Any
) -> None:
    """Slow (about 8 s for each family and backend): 25 hands played over WebSockets, every tier
    times every way a hand ends, each checked against the ledger."""

    async def run() -> None:
        with database(backend, tmp_path) as url:
            async with serving(url) as served:
                players = {i: await register(served.url, f"{family[:6]}-p{i}") for i in range(2)}
                moved = []
                for tier in TIERS:
                    for outcome in (*OUTCOMES, "escape"):
                        _, owed, paid, _ = await play_case(served, players, family, tier, outcome)
                        moved.append((tier, outcome, owed, paid))
                        # at the room's entry maximum only an escape can cost more than a player
                        # holds (xiamen: 400 points × 500 = 200,000 > 100,000 in 初级场)
                        assert paid == min(owed, TIERS[tier][2])
                assert len(moved) == len(TIERS) * 5
                assert all(paid > 0 for _, o, _, paid in moved if o != "draw")
                for player, _ in players.values():
                    await player.close()

    asyncio.run(asyncio.wait_for(run(), timeout=600))


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen"])
def test_a_payer_short_of_beans_pays_his_balance_and_is_told_why_he_must_leave(
    family: str, tmp_path: Any
) -> None:
    """新手场, the loser at the entry minimum (1,000) owes more (≥ 21 points × 50): he pays
    1,000, keeps 0, and at the next ready is told why he leaves and which rooms are left (none:
    no tier admits 0 beans).  Arcade cannot get here: 13 points × 50 = 650 < 1,000 (every entry
    minimum covers a full capped loss, guobiao-2p §6.1)."""

    async def run() -> None:
        with database("sqlite", tmp_path) as url:
            async with serving(url) as served:
                players = {i: await register(served.url, f"cap-{i}") for i in range(2)}
                payer, owed, paid, settlement = await play_case(
                    served,
                    players,
                    family,
                    "novice",
                    "discard",
                    balances=(1_000, 1_000),
                    least_points=21,
                    stay=True,
                )
                assert owed >= 21 * 50 and paid == 1_000
                await check_below_entry(
                    served, players, settlement, payer=payer, tier="novice", left=0, rooms=[]
                )
                for player, _ in players.values():
                    await player.close()

    asyncio.run(asyncio.wait_for(run(), timeout=300))


def test_a_player_below_the_entry_minimum_is_offered_the_rooms_he_can_enter(tmp_path: Any) -> None:
    """普通场 (200 per point, entry 5,000–80,000): the loser starts at 5,000 and loses a hand of
    P points, keeping 5,000 − 200 P < 5,000: he is told why and offered 新手场 (1,000–60,000)."""

    async def run() -> None:
        with database("sqlite", tmp_path) as url:
            async with serving(url) as served:
                players = {i: await register(served.url, f"entry-{i}") for i in range(2)}
                payer, owed, paid, settlement = await play_case(
                    served,
                    players,
                    "guobiao-2p",
                    "normal",
                    "discard",
                    balances=(5_000, 5_000),
                    most_points=20,
                    stay=True,
                )
                left = 5_000 - paid
                assert paid == owed and 1_000 <= left < 5_000
                await check_below_entry(
                    served,
                    players,
                    settlement,
                    payer=payer,
                    tier="normal",
                    left=left,
                    rooms=["guobiao-2p/novice"],
                )
                for player, _ in players.values():
                    await player.close()

    asyncio.run(asyncio.wait_for(run(), timeout=300))
