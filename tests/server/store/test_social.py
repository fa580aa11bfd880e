"""Friends and blocks between registered accounts (``store.social``, revision 0008), on SQLite
and PostgreSQL: friend codes, requests answered or crossing, removal, blocks that undo a
friendship and bar requests, the bounds, recent opponents; and the revision downgraded and
upgraded again."""

from __future__ import annotations

import asyncio

import pytest

from erren.server.store import Passwords, Store
from erren.server.store.social import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_OUTGOING,
    FriendError,
    RequestOutcome,
)

from ._support import migrate, sync_url, tables

pytestmark = pytest.mark.anyio

PASSWORD = "friends-password"


async def _accounts(store: Store, *names: str) -> list[int]:
    return [(await store.accounts.register(name, PASSWORD)).id for name in names]


async def _code(store: Store, user_id: int) -> FriendError:
    with pytest.raises(FriendError) as caught:
        await store.social.code(user_id)
    return caught.value


async def test_a_friend_code_is_made_once_and_finds_its_account(store: Store) -> None:
    alice, bob = await _accounts(store, "alice", "bob")
    code = await store.social.code(alice)
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert await store.social.code(alice) == code
    assert await store.social.code(bob) != code
    assert await store.social.find(code) == alice
    assert await store.social.find(f" {code[:3].lower()}-{code[3:].lower()} ") == alice
    assert await store.social.find("BOB") == bob
    assert await store.social.find("nobody") is None
    guest = await store.accounts.guest()
    assert (await _code(store, guest.user.id)).code == "account-needed"
    assert await store.social.find(guest.user.name) is None


async def test_a_request_accepted_makes_friends_on_both_sides(store: Store) -> None:
    alice, bob, carol = await _accounts(store, "alice", "bob", "carol")
    assert await store.social.request(alice, bob) is RequestOutcome.SENT
    assert await store.social.request(alice, bob) is RequestOutcome.SENT  # again: the same
    received, sent = await store.social.requests(bob)
    assert [p.name for p in received] == ["alice"] and sent == []
    assert [p.name for p in (await store.social.requests(alice))[1]] == ["bob"]
    await store.social.answer(bob, alice, accept=True)
    assert [p.name for p in await store.social.friends(alice)] == ["bob"]
    assert await store.social.friend_ids(bob) == {alice}
    assert await store.social.requests(bob) == ([], [])
    with pytest.raises(FriendError) as caught:
        await store.social.request(bob, alice)
    assert caught.value.code == "friend-already"
    # refused: no friendship, nothing waits
    await store.social.request(carol, alice)
    await store.social.answer(alice, carol, accept=False)
    assert await store.social.friend_ids(alice) == {bob}
    with pytest.raises(FriendError) as caught:
        await store.social.answer(alice, carol, accept=True)
    assert caught.value.code == "no-request"
    # crossing requests: the second makes them friends
    await store.social.request(carol, bob)
    assert await store.social.request(bob, carol) is RequestOutcome.FRIENDS
    assert await store.social.friend_ids(bob) == {alice, carol}
    await store.social.remove(alice, bob)
    assert await store.social.friend_ids(bob) == {carol}
    assert await store.social.friend_ids(alice) == set()
    with pytest.raises(FriendError) as caught:
        await store.social.remove(alice, bob)
    assert caught.value.code == "not-friends"
    with pytest.raises(FriendError) as caught:
        await store.social.request(alice, alice)
    assert caught.value.code == "friend-self"


async def test_a_block_ends_the_friendship_and_bars_requests_both_ways(store: Store) -> None:
    alice, bob, carol = await _accounts(store, "alice", "bob", "carol")
    await store.social.request(alice, bob)
    await store.social.answer(bob, alice, accept=True)
    await store.social.request(carol, alice)
    await store.social.block(alice, bob)
    await store.social.block(alice, bob)  # again: nothing
    await store.social.block(alice, carol)
    assert await store.social.friend_ids(alice) == set()
    assert await store.social.requests(alice) == ([], [])
    assert [p.name for p in await store.social.blocked(alice)] == ["bob", "carol"]
    assert await store.social.is_blocked(bob, alice) and await store.social.is_blocked(alice, bob)
    for one, other in ((alice, bob), (bob, alice)):
        with pytest.raises(FriendError) as caught:
            await store.social.request(one, other)
        assert caught.value.code == "friend-blocked"
    assert await store.social.blocks_among([alice, bob, carol, 999]) == {
        frozenset((alice, bob)),
        frozenset((alice, carol)),
    }
    await store.social.unblock(alice, bob)
    assert await store.social.blocks_among([alice, bob]) == set()
    assert await store.social.request(bob, alice) is RequestOutcome.SENT


async def test_requests_waiting_are_bounded(store: Store) -> None:
    ids = await _accounts(store, "sender", *(f"p{i}" for i in range(MAX_OUTGOING + 1)))
    sender, others = ids[0], ids[1:]
    for other in others[:MAX_OUTGOING]:
        await store.social.request(sender, other)
    with pytest.raises(FriendError) as caught:
        await store.social.request(sender, others[-1])
    assert (caught.value.code, caught.value.limit) == ("friend-limit", MAX_OUTGOING)
    # a guest can neither send nor receive
    guest = (await store.accounts.guest()).user.id
    for one, other in ((guest, sender), (sender, guest)):
        with pytest.raises(FriendError) as caught:
            await store.social.request(one, other)
        assert caught.value.code == "account-needed"


async def test_recent_opponents_are_the_registered_players_met_newest_first(
    store: Store,
) -> None:
    alice, bob, carol = await _accounts(store, "alice", "bob", "carol")
    guest = (await store.accounts.guest()).user.id
    for seats in ((alice, bob), (carol, alice), (alice, guest), (alice, None), (bob, alice)):
        await store.games.create("guobiao-2p", {}, seats, 1, "salt", "guobiao-2p/normal")
        await asyncio.sleep(0.01)
    assert [p.name for p in await store.social.recent_opponents(alice)] == ["bob", "carol"]
    assert [p.name for p in await store.social.recent_opponents(alice, limit=1)] == ["bob"]
    assert [p.name for p in await store.social.recent_opponents(carol)] == ["alice"]


async def test_the_revision_downgrades_and_upgrades(database_url: str) -> None:
    store = await Store.open(database_url, passwords=Passwords.fast())
    alice, bob = await _accounts(store, "alice", "bob")
    await store.social.request(alice, bob)
    await store.close()
    url = sync_url(database_url)
    social = {"friend_codes", "friendships", "friend_requests", "blocks"}
    await asyncio.to_thread(migrate, url, "0007", down=True)
    assert not social & await asyncio.to_thread(tables, url)
    await asyncio.to_thread(migrate, url, "0008")
    assert social <= await asyncio.to_thread(tables, url)
