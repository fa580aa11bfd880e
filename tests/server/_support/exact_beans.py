"""Hands played to a chosen outcome with the beans they must move, computed from the spec: the
shared steps of the exact-bean tests (tests/server/test_beans_exact.py) and the profile tests
(tests/server/test_profile_http.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from erren.engine import HandResult
from erren.engine.result import ResultKind
from erren.families.arcade.scoring import ArcadeResult
from erren.families.xiamen.scoring import XiamenScore
from erren.server.client import PlayerClient

from .beans_play import Served, find_line, play_scripted, read_until

# guobiao-2p §6.3: tier → (底分, entry minimum, entry maximum)
TIERS = {
    "novice": (50, 1_000, 60_000),
    "normal": (200, 5_000, 80_000),
    "junior": (500, 10_000, 100_000),
    "intermediate": (2_000, 50_000, 1_000_000),
    "senior": (6_000, 200_000, 2_000_000_000),
}
ESCAPE_POINTS = {"guobiao-2p": 13, "xiamen": 400, "arcade": 13}
"""guobiao-2p §6.5, xiamen R-2.12, arcade R2.25 (13 × base points 1)."""


def spec_points(family: str, result: HandResult) -> int:
    """What the loser owes in points, from the spec's formula and the scorer's figures."""
    if result.kind is not ResultKind.WIN:
        return 0
    if family == "guobiao-2p":  # table 2p: P = F + base 0, no cap; × multiplier 1 (§6.1–6.2)
        return result.fan_total
    detail = result.detail
    if family == "xiamen":  # –4.6: min((底 + 水) × M, 100) + bonus
        assert isinstance(detail, XiamenScore)
        s = detail.settlement
        raw = (s.base + s.water) * s.multiplier
        return int(min(raw, 100) + s.bonus)
    score = detail  # arcade R2.25: 13 for a yakuman, else min(13, F); × base points 1
    assert isinstance(score, ArcadeResult)
    return 13 if score.yakuman >= 1 else int(min(13, score.fan))


async def register(url: str, name: str, address: str | None = None) -> tuple[PlayerClient, int]:
    """A new account and its client; ``address``: registered from there (``X-Forwarded-For``,
    which the server believes from loopback)."""
    headers = {} if address is None else {"X-Forwarded-For": address}
    async with httpx.AsyncClient(base_url=url, headers=headers) as http:
        reply = await http.post("/auth/register", json={"name": name, "password": "password-1"})
        assert reply.status_code == 201, reply.text
        body = reply.json()
    return PlayerClient(url, body["token"]), int(body["user"]["id"])


async def set_balance(served: Served, user_id: int, target: int) -> None:
    now = await served.store.ledger.balance(user_id)
    if now != target:
        await served.store.ledger.grant(user_id, target - now, "test: set the balance")


async def ledger(client: PlayerClient) -> list[dict[str, Any]]:
    reply = await client.http.get("/me/ledger", params={"limit": 5})
    reply.raise_for_status()
    return list(reply.json())


async def leave(a: PlayerClient, b: PlayerClient) -> None:
    await a.send({"type": "leave"})
    for client in (a, b):
        await read_until(client, lambda m: m.get("type") == "closed")
    for client in (a, b):
        await client.disconnect()


async def pair(
    served: Served, a: PlayerClient, b: PlayerClient, room: str
) -> tuple[tuple[PlayerClient, PlayerClient], str, Any]:
    """Quick-match ``a`` and ``b`` in ``room``; returns ((seat 0, seat 1), table id, table)."""
    first, second = await asyncio.gather(a.quick_match(room, 20), b.quick_match(room, 20))
    assert first["table"] == second["table"]
    table = served.lobby.tables[first["table"]]
    seats = (a, b) if first["seat"] == 0 else (b, a)
    return seats, str(first["table"]), table


async def check_ledger(
    seats: tuple[PlayerClient, PlayerClient],
    ids: tuple[int, int],
    game: int,
    *,
    payer: int,
    paid: int,
    before: list[int],
    case: str,
) -> None:
    """Each seat's ledger has exactly one row for the game — −paid for the payer, +paid for the
    other, with the balance after it — or none when nothing was paid."""
    for seat, client in enumerate(seats):
        rows = [r for r in await ledger(client) if r["key"] == f"game:{game}"]
        if paid == 0:
            assert rows == [], case
            continue
        sign = -1 if seat == payer else 1
        assert [(r["amount"], r["balance_after"]) for r in rows] == [
            (sign * paid, before[seat] + sign * paid)
        ], case
        assert rows[0]["counterparty_id"] == ids[1 - seat], case


async def play_case(
    served: Served,
    players: dict[int, tuple[PlayerClient, int]],
    family: str,
    tier: str,
    outcome: str,
    *,
    balances: tuple[int, int] | None = None,
    least_points: int = 0,
    most_points: int | None = None,
    stay: bool = False,
) -> tuple[int, int, int, dict[str, Any]]:
    """Play one hand of ``outcome`` in ``family/tier``; returns (payer seat, owed, paid, the
    settlement event) after checking the ledger and both balances.  The players then leave the
    table, unless ``stay``."""
    stake, _, entry_max = TIERS[tier]
    start = balances or (entry_max, entry_max)
    for (_, user_id), target in zip(players.values(), start, strict=True):
        await set_balance(served, user_id, target)
    user_of = {id(client): user_id for client, user_id in players.values()}
    seats, table_id, table = await pair(served, players[0][0], players[1][0], f"{family}/{tier}")
    ids = (user_of[id(seats[0])], user_of[id(seats[1])])
    before = [await served.store.ledger.balance(i) for i in ids]
    options = tuple(sorted(table.ruleset.options_dict().items()))
    escape = outcome == "escape"
    line = find_line(
        family,
        options,
        "draw" if escape else outcome,
        table.dealer,
        least_points=least_points,
        most_points=most_points,
    )
    served.rng.seeds.append(line.seed)
    leaver = 1 - table.dealer  # in an escape, the non-dealer leaves at his first decision
    settlements = await asyncio.gather(
        *(
            play_scripted(c, table_id, line.decisions, leave_at_first_turn=escape and s == leaver)
            for s, c in enumerate(seats)
        )
    )
    settlement = settlements[0]
    if escape:
        points, payer = ESCAPE_POINTS[family], leaver
        assert settlement["result"]["kind"] == "abort"
    else:
        result = line.result
        assert settlement["result"]["kind"] == result.kind
        assert settlement["result"]["how"] == result.how
        assert settlement["result"]["deltas"] == list(result.deltas)  # the same hand was played
        points = spec_points(family, result)
        payer = -1 if result.loser is None or points == 0 else result.loser
    owed = points * stake if payer >= 0 else 0
    paid = min(owed, before[payer]) if payer >= 0 else 0
    after = [await served.store.ledger.balance(i) for i in ids]
    expected = list(before)
    if payer >= 0:
        expected[payer] -= paid
        expected[1 - payer] += paid
    case = f"{family}/{tier} {outcome}: {points} points × {stake} = {owed}, paid {paid}"
    assert after == expected, case
    assert settlement["beans"] == [e - b for e, b in zip(expected, before, strict=True)], case
    await check_ledger(
        seats, ids, settlement["game"], payer=payer, paid=paid, before=before, case=case
    )
    settlement["seats"] = seats
    if stay:
        pass
    elif not escape:
        await leave(seats[0], seats[1])
    else:
        for client in seats:
            await read_until(client, lambda m: m.get("type") == "closed")
            await client.disconnect()
    return payer, owed, paid, settlement
