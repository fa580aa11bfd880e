"""A player's page over HTTP, after a hand really played in a bean room (SQLite and PostgreSQL).

Two registered players play a guobiao-2p hand won on a discard in 新手场 (the steered line of
``_support.exact_beans``); then ``/me/profile``, ``/leaderboard/{family}``, ``/games`` with its
filters and ``/me/beans/history`` must show exactly that hand: its figures counted here from the
settlement each player received, the ratings computed here with openskill from the starting
ratings (25, 25/3), the beans from the ledger rows the hand wrote.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from erren.server.client import PlayerClient

from ._support import exact_beans as exact
from ._support.beans_play import Served, serving
from ._support.harness import database

pytestmark = pytest.mark.services  # a real server (in this process) over WebSockets


async def get(client: PlayerClient, path: str, **params: Any) -> Any:
    reply = await client.http.get(path, params=params)
    assert reply.status_code == 200, reply.text
    return reply.json()


@dataclass(frozen=True)
class Played:
    """The hand played: its game id, result, what the payer paid, both seats and names."""

    game: int
    result: dict[str, Any]
    paid: int
    winner: PlayerClient
    loser: PlayerClient
    names: dict[int, str]

    def name(self, client: PlayerClient) -> str:
        return self.names[id(client)]


BANDS = (0, 1_000, 5_000, 10_000, 50_000, 100_000, 500_000, 1_000_000)
"""The bean leaderboard's bands (README, "Beans, accounts and fair play")."""


def band_of(won: int) -> tuple[int, int]:
    """The band of a net won below a million: the edges around it."""
    low = max(edge for edge in BANDS if edge <= won)
    return low, BANDS[BANDS.index(low) + 1]


def ratings_after_one_win() -> tuple[PlackettLuceRating, PlackettLuceRating]:
    model = PlackettLuce()
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    return won, lost


async def check_pages(hand: Played) -> None:
    """His page: one hand, won on a discard, the biggest hand is this one; the other's: dealt
    in once; both ratings openskill's update of two newcomers."""
    won, lost = ratings_after_one_win()
    page = await get(hand.winner, "/me/profile")
    assert page["balance"] == await hand.winner.balance()
    [family] = page["families"]
    assert {k: family[k] for k in ("family", "hands", "wins", "self_drawn")} == {
        "family": "guobiao-2p",
        "hands": 1,
        "wins": 1,
        "self_drawn": 0,
    }
    assert (family["win_rate"], family["self_drawn_rate"]) == (1.0, 0.0)
    assert (family["deal_in_rate"], family["losses"]) == (0.0, 0)
    assert family["average_fan"] == hand.result["fan_total"]
    assert family["beans"] == hand.paid
    assert family["biggest"] == {
        "game": hand.game,
        "fan": hand.result["fan_total"],
        "points": hand.result["points"],
    }
    assert family["rating"] == {
        "mu": won.mu,
        "sigma": won.sigma,
        "ordinal": won.mu - 3 * won.sigma,
        "hands": 1,
        "provisional": True,  # one rated hand of the ten before a rating is a number
    }
    [other] = (await get(hand.loser, "/me/profile"))["families"]
    assert (other["hands"], other["wins"], other["dealt_in"], other["losses"]) == (1, 0, 1, 1)
    assert (other["win_rate"], other["deal_in_rate"], other["average_fan"]) == (0.0, 1.0, None)
    assert other["biggest"] is None and other["beans"] == -hand.paid
    assert (other["rating"]["mu"], other["rating"]["sigma"]) == (lost.mu, lost.sigma)


async def check_boards(hand: Played) -> None:
    won, lost = ratings_after_one_win()
    board = await get(hand.winner, "/leaderboard/guobiao-2p", by="rating")
    assert [(r["rank"], r["name"], r["rating"]["mu"]) for r in board["leaders"]] == [
        (1, hand.name(hand.winner), won.mu),
        (2, hand.name(hand.loser), lost.mu),
    ]
    board = await get(hand.winner, "/leaderboard/guobiao-2p", by="beans")
    low, high = band_of(hand.paid)  # the exact net would give the balance away
    assert [(r["name"], r["beans"], r["hands"]) for r in board["leaders"]] == [
        (hand.name(hand.winner), {"low": low, "high": high}, 1),
        (hand.name(hand.loser), {"low": -high, "high": -low}, 1),
    ]
    stranger = await hand.winner.http.get(
        "/leaderboard/guobiao-2p", params={"by": "beans"}, headers={"Authorization": ""}
    )
    assert (stranger.status_code, stranger.json()["code"]) == (401, "auth")
    assert (await get(hand.winner, "/leaderboard/xiamen"))["leaders"] == []
    missing = await hand.winner.http.get("/leaderboard/chess")
    assert missing.status_code == 404 and missing.json()["code"] == "no-family"


async def check_history(hand: Played) -> None:
    async def games(client: PlayerClient, **filters: str) -> list[Any]:
        found = await get(client, "/games", **filters)
        return [(g["id"], g["result"], g["beans"]) for g in found]

    game, paid, winner = hand.game, hand.paid, hand.winner
    assert await games(winner, result="win") == [(game, "win", paid)]
    assert await games(winner, result="loss") == []
    assert await games(hand.loser, result="loss") == [(game, "loss", -paid)]
    opponent = hand.name(hand.loser).upper()
    assert await games(winner, opponent=opponent) == [(game, "win", paid)]
    assert await games(winner, family="xiamen") == []
    assert await games(winner, room="guobiao-2p/novice", family="guobiao-2p") == [
        (game, "win", paid)
    ]
    bad = await winner.http.get("/games", params={"result": "lost"})
    assert bad.status_code == 422


async def check_bean_history(hand: Played) -> None:
    """The loser's bean history ends with the hand's ledger row; each point follows the last."""
    points = await get(hand.loser, "/me/beans/history")
    assert [p["id"] for p in points] == sorted(p["id"] for p in points)
    assert (points[-1]["amount"], points[-1]["key"]) == (-hand.paid, f"game:{hand.game}")
    assert points[-1]["balance"] == await hand.loser.balance()
    for before, after in itertools.pairwise(points):
        assert after["balance"] == before["balance"] + after["amount"]


async def check_records(hand: Played, url: str) -> None:
    """A bean-room game's record names its players and their beans to them only: a stranger
    (logged in or not) gets it anonymous, its points kept (the replay needs them)."""
    path = f"/games/{hand.game}"
    game = await get(hand.loser, path)
    mine = game["record"]
    names = [hand.name(hand.winner), hand.name(hand.loser)]
    assert sorted(mine["seats"]) == sorted(names)
    loser_seat = mine["seats"].index(hand.name(hand.loser))
    assert (game["bean_room"], game["seat"]) == (True, loser_seat)  # the replay's "you"
    assert mine["outcome"]["beans"][loser_seat] == -hand.paid
    outsider, _ = await exact.register(url, "page-outsider")
    for who in (outsider, None):
        headers = {"Authorization": ""} if who is None else {}
        client = hand.winner if who is None else who
        reply = await client.http.get(path, headers=headers)
        record = reply.json()["record"]
        assert record["seats"] == [None, None] and "beans" not in record["outcome"]
        assert (reply.json()["bean_room"], reply.json()["seat"]) == (True, None)
        assert record["outcome"]["deltas"] == mine["outcome"]["deltas"]
        log = await client.http.get(f"{path}/log", params={"format": "erren"}, headers=headers)
        assert log.json()["seats"] == [None, None] and "beans" not in log.json()["outcome"]
        mjai = await client.http.get(f"{path}/log", headers=headers)
        start = json.loads(mjai.text.splitlines()[0])
        assert start["names"] == ["seat 0", "seat 1"]
        assert not any(name in mjai.text for name in names)
    own = await hand.loser.http.get(f"{path}/log")
    assert json.loads(own.text.splitlines()[0])["names"] == mine["seats"]
    await outsider.close()


async def check_relief(served: Served, client: PlayerClient, user_id: int) -> None:
    """Relief is offered below 1,000 beans, and once a day."""
    await exact.set_balance(served, user_id, 300)
    relief = (await get(client, "/me/profile"))["relief"]
    assert relief == {"below": 1_000, "top_up": 2_000, "available": True, "claimed_today": False}
    claim = await client.http.post("/me/relief")
    assert claim.json() == {"granted": 1_700, "balance": 2_000}
    relief = (await get(client, "/me/profile"))["relief"]
    assert (relief["available"], relief["claimed_today"]) == (False, True)


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
                result = settlement["result"]
                seats: tuple[PlayerClient, PlayerClient] = settlement["seats"]
                assert result["loser"] == payer and paid > 0
                hand = Played(
                    game=settlement["game"],
                    result=result,
                    paid=paid,
                    winner=seats[result["winner"]],
                    loser=seats[payer],
                    names={id(c): f"page-{i}" for i, (c, _) in players.items()},
                )
                await check_pages(hand)
                await check_boards(hand)
                await check_history(hand)
                await check_records(hand, served.url)
                await check_bean_history(hand)
                await check_relief(served, *players[0])
                for client, _ in players.values():
                    await client.close()

    asyncio.run(asyncio.wait_for(run(), timeout=300))
