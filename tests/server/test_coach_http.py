"""``GET /me/coach?family=F``, a registered player's error profile, on SQLite and PostgreSQL
(the app in this process): reviews made up and kept for 230 of his guobiao-2p hands (losses in
quarters of a point, so every sum is exact), and the figures over his last 50 and 200, the
trend's rolling windows of 20 and the loss per category are computed here from what was kept;
another player's hands, his hands of another family and the computer's seat never count; a
guest is refused 403 ``account-needed``, an unknown family 404."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from erren.review.coach import MIN_HANDS, coach_rating
from erren.server import work
from erren.server.app import create_app
from erren.server.store import Passwords, Store
from erren.testing.reviews import MadeHand, keep_reviews

from ._support.harness import database

FAMILY = "guobiao-2p"
PASSWORD = "password-123"


@asynccontextmanager
async def _app(url: str) -> AsyncIterator[tuple[httpx.AsyncClient, Store]]:
    store = await Store.open(url, passwords=Passwords.fast())
    app = create_app(store, metrics=False)
    try:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as http,
        ):
            yield http, store
    finally:
        await store.close()
        work.close()


def _figures(hands: list[MadeHand]) -> dict[str, Any]:
    """The three figures of ``hands``, by their definitions."""
    decisions = sum(len(h.decisions) for h in hands)
    return {
        "hands": len(hands),
        "match_rate": sum(h.matches for h in hands) / decisions,
        "bad_rate": sum(h.bad for h in hands) / decisions,
        "loss_per_hand": sum(h.loss for h in hands) / len(hands),
    }


def _categories(hands: list[MadeHand]) -> list[dict[str, Any]]:
    loss: dict[str, float] = {}
    count: dict[str, int] = {}
    bad: dict[str, int] = {}
    for hand in hands:
        for category, lost, was_bad in hand.decisions:
            loss[category] = loss.get(category, 0.0) + lost
            count[category] = count.get(category, 0) + 1
            bad[category] = bad.get(category, 0) + was_bad
    order = sorted(loss, key=lambda c: (-loss[c], c))
    return [
        {
            "category": c,
            "loss": loss[c],
            "loss_per_hand": loss[c] / len(hands),
            "decisions": count[c],
            "bad": bad[c],
        }
        for c in order
    ]


async def _token(store: Store, name: str) -> dict[str, str]:
    await store.accounts.register(name, PASSWORD)
    session = await store.accounts.login(name, PASSWORD)
    return {"Authorization": f"Bearer {session.token}"}


async def _check(url: str) -> None:
    async with _app(url) as (http, store):
        alice = await _token(store, "alice")
        bob = await _token(store, "bob")
        alice_id = (await store.accounts.login("alice", PASSWORD)).user.id
        bob_id = (await store.accounts.login("bob", PASSWORD)).user.id
        mine = await keep_reviews(store, alice_id, FAMILY, 230, seed=7)
        await keep_reviews(store, bob_id, FAMILY, 30, seed=8, seat=1)
        few = await keep_reviews(store, alice_id, "xiamen", MIN_HANDS - 3, seed=9)
        # the computer's seat of one of her games: kept with no player, never hers
        game = await store.games.create(FAMILY, {}, (alice_id, None), 1, "00" * 16)
        await store.reviews.put(
            game, 1, {"summary": {"decisions": 1, "matches": 0, "bad": 1, "loss": 9.0}},
            user_id=None, family=FAMILY,
        )  # fmt: skip

        reply = await http.get("/me/coach", params={"family": FAMILY}, headers=alice)
        assert reply.status_code == 200, reply.text
        body = reply.json()
        newest = mine[::-1]
        assert body["family"] == FAMILY and body["reviewed"] == 230 and body["rolling"] == 20
        assert body["min_hands"] == MIN_HANDS == 20
        assert body["windows"] == [
            {**_figures(newest[:50]), "window": 50},
            {**_figures(newest[:200]), "window": 200},
        ]
        last = mine[-200:]  # oldest first
        expected_trend = [
            {**_figures(last[max(0, i - 19) : i + 1]), "game": hand.game}
            for i, hand in enumerate(last)
        ]
        assert body["trend"] == expected_trend
        assert body["trend"][0]["hands"] == 1 and body["trend"][-1]["hands"] == 20
        assert body["categories"] == _categories(last)
        rating = coach_rating(FAMILY, [_Row(h) for h in newest[:200]])
        assert body["rating"] == rating.to_dict() and body["rating"]["hands"] == 200

        # too few hands in xiamen: the figures, and "not enough hands" in both languages
        reply = await http.get("/me/coach", params={"family": "xiamen"}, headers=alice)
        small = reply.json()
        assert small["reviewed"] == MIN_HANDS - 3 == len(small["trend"])
        assert small["windows"][0] == {**_figures(few[::-1]), "window": 50}
        assert small["rating"]["verdict"] == "too-few"
        assert small["rating"]["text"] == {
            "zh": f"手数不足（{MIN_HANDS - 3}/{MIN_HANDS}）",
            "en": f"not enough hands ({MIN_HANDS - 3} of {MIN_HANDS})",
        }
        # bob: his own 30 hands only; nothing in arcade
        theirs = (await http.get("/me/coach", params={"family": FAMILY}, headers=bob)).json()
        assert theirs["reviewed"] == 30 and len(theirs["trend"]) == 30
        empty = (await http.get("/me/coach", params={"family": "arcade"}, headers=bob)).json()
        assert empty["reviewed"] == 0 and empty["trend"] == [] and empty["categories"] == []
        assert [w["hands"] for w in empty["windows"]] == [0, 0]

        guest = await store.accounts.guest()
        refused = await http.get(
            "/me/coach",
            params={"family": FAMILY},
            headers={"Authorization": f"Bearer {guest.token}"},
        )
        assert refused.status_code == 403 and refused.json()["code"] == "account-needed"
        unknown = await http.get("/me/coach", params={"family": "riichi"}, headers=alice)
        assert unknown.status_code == 404 and unknown.json()["code"] == "no-family"
        anonymous = await http.get("/me/coach", params={"family": FAMILY})
        assert anonymous.status_code == 401


class _Row:
    """A made hand's summary numbers, as the rating reads them."""

    def __init__(self, hand: MadeHand) -> None:
        self.decisions = len(hand.decisions)
        self.matches = hand.matches
        self.bad = hand.bad
        self.loss = hand.loss


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]
)
def test_the_error_profile_is_computed_from_the_kept_reviews(backend: str, tmp_path: Path) -> None:
    with database(backend, tmp_path) as url:
        asyncio.run(_check(url))
