"""A player's own 何切る puzzles (``player_drills``, revision 0011), on SQLite and PostgreSQL:
kept per player and family, newest first, one per (player, game, step); only the owner reads
one; the newest unanswered first; the oldest dropped past the bound; the counts; and the
revision itself, upgraded onto a database at 0010 that already has games, and downgraded."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from erren.server.store import Passwords, Store
from erren.server.store.drills import KEEP

from ._support import migrate, older_game, sync_url, tables

pytestmark = pytest.mark.anyio

PASSWORD = "drills-password"


def _puzzle(foil: str) -> dict[str, Any]:
    """A puzzle dict (the store keeps it as given)."""
    return {"id": "", "family": "guobiao-2p", "answer": "1z", "foil": foil, "choices": []}


async def _game(store: Store, seats: tuple[int | None, int | None]) -> int:
    return await store.games.create("guobiao-2p", {}, seats, 1, "00" * 16)


async def test_a_players_puzzles_are_his_own_newest_first(store: Store) -> None:
    alice = await store.accounts.register("alice", PASSWORD)
    bob = await store.accounts.register("bob", PASSWORD)
    game = await _game(store, (alice.id, bob.id))
    first = await store.drills.put(alice.id, "guobiao-2p", game, 4, _puzzle("1m"), seat=0)
    second = await store.drills.put(alice.id, "guobiao-2p", game, 9, _puzzle("2m"), seat=0)
    assert first is not None and second is not None and second.id > first.id
    assert (second.game_id, second.seat, second.step, second.answered_at) == (game, 0, 9, None)
    assert second.puzzle == _puzzle("2m")
    # the same decision again is not kept twice
    assert await store.drills.put(alice.id, "guobiao-2p", game, 4, _puzzle("1m"), seat=0) is None
    await store.drills.put(alice.id, "xiamen", game, 12, _puzzle("3m"), seat=0)
    await store.drills.put(bob.id, "guobiao-2p", game, 5, _puzzle("4m"), seat=1)
    found = await store.drills.recent(alice.id, "guobiao-2p")
    assert [(d.step, d.puzzle["foil"]) for d in found] == [(9, "2m"), (4, "1m")]
    # only the owner reads one
    assert await store.drills.get(alice.id, first.id) == first
    assert await store.drills.get(bob.id, first.id) is None
    assert await store.drills.get(alice.id, 10**9) is None
    # the newest unanswered first; answering marks it once
    assert (await store.drills.next(alice.id, "guobiao-2p")) == second
    await store.drills.answered(bob.id, second.id)  # not his: nothing changes
    assert (await store.drills.next(alice.id, "guobiao-2p")) == second
    await store.drills.answered(alice.id, second.id)
    marked = await store.drills.get(alice.id, second.id)
    assert marked is not None and marked.answered_at is not None
    await store.drills.answered(alice.id, second.id)
    again = await store.drills.get(alice.id, second.id)
    assert again is not None and again.answered_at == marked.answered_at
    assert (await store.drills.next(alice.id, "guobiao-2p")) == first
    await store.drills.answered(alice.id, first.id)
    assert await store.drills.next(alice.id, "guobiao-2p") is None
    assert await store.drills.counts(alice.id) == {"guobiao-2p": (2, 0), "xiamen": (1, 1)}
    assert await store.drills.counts(bob.id) == {"guobiao-2p": (1, 1)}


async def test_past_the_bound_the_oldest_of_the_family_is_dropped(store: Store) -> None:
    assert store.drills.keep == KEEP == 200
    store.drills.keep = 3
    alice = await store.accounts.register("alice", PASSWORD)
    game = await _game(store, (alice.id, None))
    other = await store.drills.put(alice.id, "xiamen", game, 100, _puzzle("9m"), seat=0)
    assert other is not None
    for step in range(5):
        await store.drills.put(alice.id, "guobiao-2p", game, step, _puzzle("1m"), seat=0)
    kept = await store.drills.recent(alice.id, "guobiao-2p")
    assert [d.step for d in kept] == [4, 3, 2]
    assert [d.id for d in await store.drills.recent(alice.id, "xiamen")] == [other.id]
    assert [d.step for d in await store.drills.recent(alice.id, "guobiao-2p", limit=2)] == [4, 3]


async def test_the_revision_upgrades_a_database_with_games_and_downgrades(
    database_url: str,
) -> None:
    url = sync_url(database_url)
    await asyncio.to_thread(migrate, url, "0010")
    assert "player_drills" not in await asyncio.to_thread(tables, url)
    older = await asyncio.to_thread(older_game, url)
    store = await Store.open(database_url, passwords=Passwords.fast())  # upgrades to head
    try:
        alice = await store.accounts.register("alice", PASSWORD)
        kept = await store.drills.put(alice.id, "guobiao-2p", older, 7, _puzzle("5p"), seat=1)
        assert kept is not None and (await store.drills.get(alice.id, kept.id)) == kept
    finally:
        await store.close()
    await asyncio.to_thread(migrate, url, "0010", down=True)
    found = await asyncio.to_thread(tables, url)
    assert "player_drills" not in found and "hand_reviews" in found
