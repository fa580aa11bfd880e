"""Fencing: a cluster node that lost its table's lease (paused past it while another node took
the table over) cannot write the table's game any more: actions, group commits and the record
are refused with :class:`Fenced`, and nothing of its is stored."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import pytest

from erren.server.cluster import Cluster
from erren.server.store import Fenced, SettledHand, Store, StoreError, Transfer
from erren.testing.waits import eventually

pytestmark = pytest.mark.anyio

OPTIONS = {"fan_table": "2p", "suit": "m", "flowers": False, "cap_points": None}
RECORD = {"format": "erren-hand", "version": 1, "result": "seat 0 wins"}


async def _game(store: Store, fence: int = 0) -> int:
    user = (await store.accounts.guest()).user.id
    return await store.games.create(
        "guobiao-2p", OPTIONS, (user, None), 7, "pepper", "novice", fence=fence
    )


async def test_a_paused_owner_cannot_write_after_losing_the_lease(
    store: Store, clusters: Callable[..., AbstractAsyncContextManager[list[Cluster]]]
) -> None:
    async with clusters(2, lease_ms=200) as (old, new):
        token_old = await old.leases.acquire("t1")
        assert token_old == 1
        game = await _game(store, fence=token_old)
        await store.games.append_action(game, 0, "c:dice:3,3", fence=token_old)

        # the old owner pauses past its lease; the new owner takes the table and claims the game
        async def lapsed() -> bool:
            return await new.leases.owner("t1") is None

        await eventually(lapsed, "the old owner's lease expires", timeout=5)
        token_new = await new.leases.acquire("t1", floor=await store.games.fence_of(game) or 0)
        assert token_new == 2
        await store.games.claim(game, token_new)
        # the old owner wakes up and writes: refused, clearly
        with pytest.raises(Fenced, match=rf"game {game} is owned by another node now"):
            await store.games.append_action(game, 1, "0:discard:2z", fence=token_old)
        refused = await store.games.append_actions([(game, 1, "0:discard:2z")], {game: token_old})
        assert len(refused) == 1 and isinstance(refused[0], Fenced)
        assert (refused[0].token, refused[0].fence) == (1, 2)
        with pytest.raises(Fenced):
            await store.games.finish(game, RECORD, "seat 0 wins", fence=token_old)
        with pytest.raises(Fenced):  # nor can it take the game back
            await store.games.claim(game, token_old)
        # the new owner writes on; the database holds only what the owners wrote in turn
        await store.games.append_action(game, 1, "1:discard:5m", fence=token_new)
        assert await store.games.append_actions([(game, 2, "0:peng")], {game: token_new}) == [None]
        await store.games.finish(game, RECORD, "seat 0 wins", fence=token_new)
        stored = await store.games.get(game)
        assert stored is not None and stored.finished
        assert stored.actions == ("c:dice:3,3", "1:discard:5m", "0:peng")


async def test_a_fenced_game_does_not_keep_the_others_out_of_a_group_commit(
    store: Store,
) -> None:
    fenced, free = await _game(store, fence=3), await _game(store)
    results = await store.games.append_actions(
        [(fenced, 0, "c:dice:1,1"), (free, 0, "c:dice:2,2")], {fenced: 2, free: 1}
    )
    assert isinstance(results[0], Fenced) and results[1] is None
    assert (await store.games.get(free)).actions == ("c:dice:2,2",)  # type: ignore[union-attr]
    assert (await store.games.get(fenced)).actions == ()  # type: ignore[union-attr]


async def test_a_single_server_writes_without_a_token(store: Store) -> None:
    """No ``--redis``: no token, no check (the fence stays 0)."""
    game = await _game(store)
    await store.games.append_action(game, 0, "c:dice:3,3")
    assert await store.games.append_actions([(game, 1, "0:discard:2z")]) == [None]
    await store.games.finish(game, RECORD, "seat 0 wins")
    assert await store.games.fence_of(game) == 0


async def test_claiming_an_unknown_game_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="no game 999"):
        await store.games.claim(999, 1)
    assert await store.games.fence_of(999) is None


async def test_a_paused_owner_cannot_settle_the_hand_after_losing_the_lease(store: Store) -> None:
    """The settlement is fenced like every other write: the old owner's beans do not move;
    the new owner's settlement is the hand's only one (a 12-fan win at stake 50: 600 beans)."""
    alice = (await store.accounts.register("fence-alice", "password1")).id
    bob = (await store.accounts.register("fence-bob", "password1")).id
    start = [await store.ledger.balance(alice), await store.ledger.balance(bob)]
    game = await store.games.create(
        "guobiao-2p", OPTIONS, (alice, bob), 7, "pepper", "guobiao-2p/novice", fence=1
    )
    await store.games.claim(game, 2)  # another node took the table over
    hand = SettledHand(
        game_id=game,
        ruleset="guobiao-2p",
        seats=(alice, bob),
        kind="win",
        winner=0,
        loser=1,
        how="discard",
        fan_total=12,
        points=12,
        deltas=(12, -12),
        rated=True,
    )
    paid = [Transfer(bob, alice, 12 * 50, f"guobiao-2p novice game {game}: win")]
    with pytest.raises(Fenced, match=rf"game {game} is owned by another node now"):
        await store.profiles.settle_hand(hand, paid, fence=1)
    assert [await store.ledger.balance(alice), await store.ledger.balance(bob)] == start
    assert await store.games.fence_of(game) == 2
    assert await store.profiles.settle_hand(hand, paid, fence=2)
    assert [await store.ledger.balance(alice), await store.ledger.balance(bob)] == [
        start[0] + 600,
        start[1] - 600,
    ]
    assert not await store.profiles.settle_hand(hand, paid, fence=2)  # once
    await store.ledger.audit()
