"""The kept reviews of finished hands (``hand_reviews``, revision 0010), on SQLite and
PostgreSQL: one per (game, seat), the first kept wins, its summary numbers read from the
review; a player's last hands of a family newest first; and the revision itself, upgraded onto
a database at 0009 that already has games, and downgraded again."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from erren.server.store import Passwords, Store

from ._support import migrate, older_game, sync_url, tables

pytestmark = pytest.mark.anyio

PASSWORD = "reviews-password"


def _review(decisions: int, matches: int, bad: int, loss: float) -> dict[str, Any]:
    """A review dict with the summary numbers given (the store reads nothing else)."""
    summary = {"decisions": decisions, "matches": matches, "bad": bad, "loss": loss}
    return {"hand": 0, "ruleset": "guobiao-2p", "seat": 0, "summary": summary, "decisions": []}


async def _game(store: Store, seats: tuple[int | None, int | None], family: str) -> int:
    return await store.games.create(family, {}, seats, 1, "00" * 16)


async def test_a_review_is_kept_once_per_game_and_seat(store: Store) -> None:
    alice = await store.accounts.register("alice", PASSWORD)
    game = await _game(store, (alice.id, None), "guobiao-2p")
    assert await store.reviews.get(game, 0) is None
    first = await store.reviews.put(
        game, 0, _review(8, 6, 1, 2.5), user_id=alice.id, family="guobiao-2p"
    )
    assert (first.decisions, first.matches, first.bad, first.loss) == (8, 6, 1, 2.5)
    assert first.match_rate == 6 / 8
    # a second put (another review of the same seat) changes nothing
    again = await store.reviews.put(
        game, 0, _review(9, 9, 0, 0.0), user_id=alice.id, family="guobiao-2p"
    )
    assert again.review == first.review and again.decisions == 8
    kept = await store.reviews.get(game, 0)
    assert kept is not None and kept.review == _review(8, 6, 1, 2.5)
    assert (kept.user_id, kept.family, kept.seat, kept.game_id) == (alice.id, "guobiao-2p", 0, game)
    # the other seat (the computer's) is its own row, with no player
    other = await store.reviews.put(
        game, 1, _review(5, 5, 0, 0.0), user_id=None, family="guobiao-2p"
    )
    assert other.user_id is None and (await store.reviews.get(game, 1)) is not None
    with pytest.raises(ValueError, match="summary"):
        await store.reviews.put(game, 0, {"decisions": []}, user_id=None, family="guobiao-2p")


async def test_recent_reads_a_players_last_hands_of_a_family_newest_first(store: Store) -> None:
    alice = await store.accounts.register("alice", PASSWORD)
    bob = await store.accounts.register("bob", PASSWORD)
    games = []
    for i, family in enumerate(["guobiao-2p", "xiamen", "guobiao-2p", "guobiao-2p"]):
        game = await _game(store, (alice.id, bob.id), family)
        games.append(game)
        await store.reviews.put(
            game, 0, _review(10, i, 0, float(i)), user_id=alice.id, family=family
        )
        await store.reviews.put(game, 1, _review(10, 9, 0, 0.0), user_id=bob.id, family=family)
    found = await store.reviews.recent(alice.id, "guobiao-2p", limit=2)
    assert [(r.game_id, r.matches) for r in found] == [(games[3], 3), (games[2], 2)]
    every = await store.reviews.recent(alice.id, "guobiao-2p")
    assert [r.game_id for r in every] == [games[3], games[2], games[0]]
    assert [r.game_id for r in await store.reviews.recent(alice.id, "xiamen")] == [games[1]]
    assert {r.user_id for r in await store.reviews.recent(bob.id, "guobiao-2p")} == {bob.id}
    assert await store.reviews.recent(alice.id, "arcade") == []


async def test_the_revision_upgrades_a_database_with_games_and_downgrades(
    database_url: str,
) -> None:
    url = sync_url(database_url)
    await asyncio.to_thread(migrate, url, "0009")
    assert "hand_reviews" not in await asyncio.to_thread(tables, url)
    older = await asyncio.to_thread(older_game, url)
    store = await Store.open(database_url, passwords=Passwords.fast())  # upgrades to head
    try:
        assert await store.reviews.get(older, 0) is None
        await store.reviews.put(older, 0, _review(4, 3, 0, 0.5), user_id=None, family="guobiao-2p")
        kept = await store.reviews.get(older, 0)
        assert kept is not None and kept.loss == 0.5
    finally:
        await store.close()
    await asyncio.to_thread(migrate, url, "0009", down=True)
    assert "hand_reviews" not in await asyncio.to_thread(tables, url)
    assert "games" in await asyncio.to_thread(tables, url)
