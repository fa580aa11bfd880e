"""A friend's private bean table moves beans but not ranks (issue #29), on SQLite and
PostgreSQL.

Two registered players become friends; A invites B into 二人国标 普通场 (``POST
/friends/{id}/invite`` with the room), B joins by the invite's code and they play a hand steered
to a discard win (``_support.exact_beans``).  The hand moves exactly the beans the room's rule
says — the loser pays the winner ``points × 底分`` (guobiao-2p §6.1–6.3: points = the fan total,
普通场's 底分 200), at most his balance — and no rank: the ``settlement`` says ``ranked: false``
with ``ranks`` ``[null, null]``, and neither profile has a rank nor a rank move.  Then the two
quick-match in the same room and play another discard win: that one is ranked, and moves both
players' PT by the documented table (``erren.server.ranks``' docstring: 普通场 win +20, loss 20 ×
the rank's loss percentage, 50 % at 新人; 新人一级's threshold 20, 新人二级 starts at 40 // 2 = 20;
新人一级 is protected, so the loser stops at 0).  Every figure is computed here.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from erren.server.client import PlayerClient

from ._support import exact_beans as exact
from ._support.beans_play import Served, find_line, play_scripted, serving
from ._support.harness import database

pytestmark = pytest.mark.services  # a real server (in this process) over WebSockets

GB = "guobiao-2p"
TIER = "normal"
ROOM = f"{GB}/{TIER}"
STAKE = 200  # 普通场's 底分 per point (guobiao-2p §6.3)
BALANCE = 20_000  # within 普通场's entry limits, 5,000–80,000
# the documented table at 新人 (step 0 → 1): 普通场 win +20, loss −20 × 50 %
WIN, LOSS = 20, -(20 * 50 // 100)
THRESHOLD_0, START_1 = 20, 40 // 2


async def _get(client: PlayerClient, path: str, **params: Any) -> Any:
    reply = await client.http.get(path, params=params)
    assert reply.status_code == 200, reply.text
    return reply.json()


async def _befriend(a: PlayerClient, b: PlayerClient, a_id: int, b_name: str) -> None:
    asked = await a.http.post("/friends/requests", json={"who": b_name})
    assert asked.status_code == 201, asked.text
    accepted = await b.http.post(f"/friends/requests/{a_id}/accept")
    assert accepted.status_code == 204, accepted.text


async def _ranks(client: PlayerClient) -> tuple[list[Any], list[Any]]:
    """The profile's ranks and the rank history in the family."""
    page = await _get(client, "/me/profile")
    history = await _get(client, "/me/ranks/history", family=GB)
    return list(page["ranks"]), list(history["moves"])


async def _friend_hand(
    served: Served, players: dict[int, tuple[PlayerClient, int]], b_name: str
) -> None:
    """A invites B into the room, they play a discard win: beans by the room's rule, no rank."""
    (a, a_id), (b, b_id) = players[0], players[1]
    await _befriend(a, b, a_id, b_name)
    for uid in (a_id, b_id):
        await exact.set_balance(served, uid, BALANCE)
    made = await a.http.post(f"/friends/{b_id}/invite", json={"room": ROOM})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["table"])
    table = served.lobby.tables[table_id]
    assert table.spec.room is not None and table.spec.room.id == ROOM
    joined = await b.join_invite(str(table.spec.invite))
    assert (joined["table"], joined["seat"]) == (table_id, 1)
    options = tuple(sorted(table.ruleset.options_dict().items()))
    line = find_line(GB, options, "discard", table.dealer)
    served.rng.seeds.append(line.seed)
    settlement, _ = await asyncio.gather(
        *(play_scripted(c, table_id, line.decisions) for c in (a, b))
    )
    result = line.result
    assert result.loser is not None and result.winner == 1 - result.loser
    assert settlement["result"]["deltas"] == list(result.deltas)  # the same hand was played
    paid = min(result.fan_total * STAKE, BALANCE)  # §6.1: points = fan total, × 底分
    beans = [0, 0]
    beans[result.loser], beans[result.winner] = -paid, paid
    assert settlement["beans"] == beans
    ids = (a_id, b_id)
    for seat in (0, 1):
        assert await served.store.ledger.balance(ids[seat]) == BALANCE + beans[seat]
    assert settlement["ranked"] is False
    assert settlement["ranks"] == [None, None]
    for client in (a, b):
        assert await _ranks(client) == ([], [])  # no rank, no rank move
    for uid in ids:  # nor the hidden matchmaking rating
        assert await served.store.profiles.rating_mu(uid, GB) is None
    await exact.leave(a, b)


def _check_ranked(settlement: dict[str, Any], ids: dict[int, int]) -> dict[int, tuple[int, int]]:
    """The quick-matched hand's rank moves, checked against the table (both started at 新人一级
    with 0 PT: the friend hand moved nothing): each user's (step, points) after it."""
    assert settlement["ranked"] is True
    winner = settlement["result"]["winner"]
    after: dict[int, tuple[int, int]] = {}
    for seat in (0, 1):
        move = settlement["ranks"][seat]
        won = seat == winner
        expected = (1, START_1) if won else (0, 0)  # 0 + 20 ≥ 20: promoted; 0 − 10 < 0: kept
        assert move["change"] == (WIN if won else LOSS)
        assert (move["before"]["step"], move["before"]["points"]) == (0, 0)
        assert (move["after"]["step"], move["after"]["points"]) == expected
        assert move["promoted"] is won
        after[ids[seat]] = expected
    assert WIN >= THRESHOLD_0
    return after


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_friend_table_moves_beans_not_ranks(backend: str, tmp_path: Any) -> None:
    """Two steered hands over WebSockets (a few seconds a backend), an invited one and a
    quick-matched one, each checked against the rules."""

    async def run() -> None:
        with database(backend, tmp_path) as url:
            async with serving(url) as served:
                names = ("unranked-a", "unranked-b")
                players = {i: await exact.register(served.url, names[i]) for i in (0, 1)}
                await _friend_hand(served, players, names[1])
                user_of = {id(c): uid for c, uid in players.values()}
                _, _, _, settlement = await exact.play_case(served, players, GB, TIER, "discard")
                ids = {s: user_of[id(c)] for s, c in enumerate(settlement["seats"])}
                after = _check_ranked(settlement, ids)
                for client, uid in players.values():
                    ranks, moves = await _ranks(client)
                    [rank] = ranks
                    assert (rank["standing"]["step"], rank["standing"]["points"]) == after[uid]
                    assert rank["hands"] == 1 and len(moves) == 1  # the quick-matched hand only
                for client, _ in players.values():
                    await client.close()

    asyncio.run(asyncio.wait_for(run(), timeout=300))
