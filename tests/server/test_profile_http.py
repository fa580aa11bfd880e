"""A player's page over HTTP, after a hand really played in a bean room (SQLite and PostgreSQL).

Two registered players play a guobiao-2p hand won on a discard in 新手场 (the steered line of
``test_beans_exact``); then ``/me/profile``, ``/leaderboard/{family}``, ``/games`` with its
filters and ``/me/beans/history`` must show exactly that hand: its figures counted here from the
settlement each player received, the ratings computed here with openskill from the starting
ratings (25, 25/3), the beans from the ledger rows the hand wrote.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from openskill.models import PlackettLuce

from erren.server.client import PlayerClient

from . import test_beans_exact as exact
from ._support.beans_play import serving
from ._support.harness import database


async def get(client: PlayerClient, path: str, **params: Any) -> Any:
    reply = await client.http.get(path, params=params)
    assert reply.status_code == 200, reply.text
    return reply.json()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_played_hand_shows_on_both_pages_and_the_leaderboards(
    backend: str, tmp_path: Any
) -> None:
    async def run() -> None:
        with database(backend, tmp_path) as url:
            async with serving(url) as served:
                players = {i: await exact.register(served.url, f"page-{i}") for i in range(2)}
                payer, _, paid, settlement = await exact.play_case(
                    served, players, "guobiao-2p", "novice", "discard"
                )
                game, result = settlement["game"], settlement["result"]
                seats: tuple[PlayerClient, PlayerClient] = settlement["seats"]
                winner, loser = seats[result["winner"]], seats[payer]
                assert result["loser"] == payer and paid > 0
                names = {id(c): f"page-{i}" for i, (c, _) in players.items()}
                model = PlackettLuce()
                [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])

                # his page: one hand, won on a discard, the biggest hand is this one
                page = await get(winner, "/me/profile")
                assert page["balance"] == await winner.balance()
                [family] = page["families"]
                assert {k: family[k] for k in ("family", "hands", "wins", "self_drawn")} == {
                    "family": "guobiao-2p",
                    "hands": 1,
                    "wins": 1,
                    "self_drawn": 0,
                }
                assert (family["win_rate"], family["self_drawn_rate"]) == (1.0, 0.0)
                assert (family["deal_in_rate"], family["losses"]) == (0.0, 0)
                assert family["average_fan"] == result["fan_total"]
                assert family["beans"] == paid
                assert family["biggest"] == {
                    "game": game,
                    "fan": result["fan_total"],
                    "points": result["points"],
                }
                assert family["rating"] == {
                    "mu": won.mu,
                    "sigma": won.sigma,
                    "ordinal": won.mu - 3 * won.sigma,
                    "hands": 1,
                }
                [other] = (await get(loser, "/me/profile"))["families"]
                assert (other["hands"], other["wins"], other["dealt_in"], other["losses"]) == (
                    1,
                    0,
                    1,
                    1,
                )
                assert (other["win_rate"], other["deal_in_rate"], other["average_fan"]) == (
                    0.0,
                    1.0,
                    None,
                )
                assert other["biggest"] is None and other["beans"] == -paid
                assert (other["rating"]["mu"], other["rating"]["sigma"]) == (lost.mu, lost.sigma)

                # the leaderboards, both orders
                board = await get(winner, "/leaderboard/guobiao-2p", by="rating")
                assert [(r["rank"], r["name"], r["rating"]["mu"]) for r in board["leaders"]] == [
                    (1, names[id(winner)], won.mu),
                    (2, names[id(loser)], lost.mu),
                ]
                board = await get(winner, "/leaderboard/guobiao-2p", by="beans")
                assert [(r["name"], r["beans"], r["hands"]) for r in board["leaders"]] == [
                    (names[id(winner)], paid, 1),
                    (names[id(loser)], -paid, 1),
                ]
                assert (await get(winner, "/leaderboard/xiamen"))["leaders"] == []
                missing = await winner.http.get("/leaderboard/chess")
                assert missing.status_code == 404 and missing.json()["code"] == "no-family"

                # the history's filters
                async def games(client: PlayerClient, **filters: str) -> list[Any]:
                    return [
                        (g["id"], g["result"], g["beans"])
                        for g in await get(client, "/games", **filters)
                    ]

                assert await games(winner, result="win") == [(game, "win", paid)]
                assert await games(winner, result="loss") == []
                assert await games(loser, result="loss") == [(game, "loss", -paid)]
                assert await games(winner, opponent=names[id(loser)].upper()) == [
                    (game, "win", paid)
                ]
                assert await games(winner, family="xiamen") == []
                assert await games(winner, room="guobiao-2p/novice", family="guobiao-2p") == [
                    (game, "win", paid)
                ]
                bad = await winner.http.get("/games", params={"result": "lost"})
                assert bad.status_code == 422

                # the bean history ends with the hand's ledger row
                points = await get(loser, "/me/beans/history")
                assert [p["id"] for p in points] == sorted(p["id"] for p in points)
                assert (points[-1]["amount"], points[-1]["key"]) == (-paid, f"game:{game}")
                assert points[-1]["balance"] == await loser.balance()
                for before, after in zip(points, points[1:], strict=False):
                    assert after["balance"] == before["balance"] + after["amount"]

                # relief: offered below 1,000 beans, once a day
                await exact.set_balance(served, players[0][1], 300)
                relief = (await get(players[0][0], "/me/profile"))["relief"]
                assert relief == {
                    "below": 1_000,
                    "top_up": 2_000,
                    "available": True,
                    "claimed_today": False,
                }
                claim = await players[0][0].http.post("/me/relief")
                assert claim.json() == {"granted": 1_700, "balance": 2_000}
                relief = (await get(players[0][0], "/me/profile"))["relief"]
                assert (relief["available"], relief["claimed_today"]) == (False, True)
                for client, _ in players.values():
                    await client.close()

    asyncio.run(asyncio.wait_for(run(), timeout=300))
