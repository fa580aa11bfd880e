"""Relief (救济豆): a registered player below 1,000 beans is topped up to exactly 2,000, once per
UTC day, as a ledger grant keyed ``relief:{user_id}:{YYYY-MM-DD}``; guests get none."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest

from erren.server.store import AccountError, ReliefError, Store, Transfer

pytestmark = pytest.mark.anyio

DAY = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def _registered_with(store: Store, name: str, balance: int) -> int:
    """A registered player holding exactly ``balance`` beans (the rest went to a guest)."""
    user = (await store.accounts.register(name, "password1")).id
    sink = (await store.accounts.guest()).user.id
    held = await store.ledger.balance(user)
    if held != balance:
        assert await store.ledger.settle(
            f"drain:{user}", [Transfer(user, sink, held - balance, "lost")]
        )
    assert await store.ledger.balance(user) == balance
    return user


async def test_a_player_at_zero_is_topped_up_to_2000(store: Store) -> None:
    user = await _registered_with(store, "broke", 0)
    before = await store.ledger.audit()
    assert await store.ledger.claim_relief(user, now=DAY) == (2_000, 2_000)
    assert await store.ledger.balance(user) == 2_000
    [entry, *_] = await store.ledger.entries(user)
    assert (entry.amount, entry.balance_after, entry.reason) == (2_000, 2_000, "relief")
    assert entry.key == f"relief:{user}:2026-12-01"
    assert entry.counterparty_id is None  # a grant: from the house
    after = await store.ledger.audit()
    assert after.users_total == before.users_total + 2_000 == after.granted
    assert after.grants == before.grants + 1


@pytest.mark.parametrize(("balance", "granted"), [(1, 1_999), (999, 1_001)])
async def test_the_grant_is_what_is_missing_to_2000(
    store: Store, balance: int, granted: int
) -> None:
    user = await _registered_with(store, "short", balance)
    assert await store.ledger.claim_relief(user, now=DAY) == (2_000 - balance, 2_000)
    assert 2_000 - balance == granted


@pytest.mark.parametrize("balance", [1_000, 10_000])
async def test_no_relief_from_1000_up(store: Store, balance: int) -> None:
    user = await _registered_with(store, "enough", balance)
    with pytest.raises(ReliefError, match=f"below 1,000 beans; you hold {balance:,}") as refused:
        await store.ledger.claim_relief(user, now=DAY)
    assert refused.value.code == "not-needed"
    assert await store.ledger.balance(user) == balance
    assert [e.reason for e in await store.ledger.entries(user)].count("relief") == 0


async def test_once_per_utc_day(store: Store) -> None:
    user = await _registered_with(store, "daily", 0)
    sink = (await store.accounts.guest()).user.id
    assert await store.ledger.claim_relief(user, now=DAY) == (2_000, 2_000)
    await store.ledger.settle("lost again", [Transfer(user, sink, 1_500, "lost")])
    assert await store.ledger.balance(user) == 500
    last_second = datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)
    with pytest.raises(ReliefError, match=r"already claimed today's relief \(2026-12-01") as again:
        await store.ledger.claim_relief(user, now=last_second)
    assert again.value.code == "already-claimed"
    assert await store.ledger.balance(user) == 500
    # 19:30 at UTC−5 is 00:30 of the next UTC day: a new day
    evening_in_new_york = datetime(2026, 12, 1, 19, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert await store.ledger.claim_relief(user, now=evening_in_new_york) == (1_500, 2_000)
    keys = [e.key for e in await store.ledger.entries(user) if e.reason == "relief"]
    assert keys == [f"relief:{user}:2026-12-02", f"relief:{user}:2026-12-01"]
    await store.ledger.audit()


async def test_already_claimed_wins_over_not_needed(store: Store) -> None:
    """After today's claim the player is told he has claimed it, whatever his balance."""
    user = await _registered_with(store, "topped", 0)
    await store.ledger.claim_relief(user, now=DAY)
    with pytest.raises(ReliefError) as refused:
        await store.ledger.claim_relief(user, now=DAY)
    assert refused.value.code == "already-claimed"


async def test_guests_get_no_relief(store: Store) -> None:
    guest = (await store.accounts.guest()).user.id
    sink = (await store.accounts.guest()).user.id
    await store.ledger.settle("drain", [Transfer(guest, sink, 10_000, "lost")])
    with pytest.raises(ReliefError, match="registered players") as refused:
        await store.ledger.claim_relief(guest, now=DAY)
    assert refused.value.code == "guest"
    assert await store.ledger.balance(guest) == 0


async def test_unknown_user_and_naive_time(store: Store) -> None:
    with pytest.raises(AccountError, match="no user 4242"):
        await store.ledger.claim_relief(4242, now=DAY)
    user = await _registered_with(store, "naive", 0)
    with pytest.raises(ValueError, match="naive datetime"):
        await store.ledger.claim_relief(user, now=datetime(2026, 12, 1, 12, 0))
    assert await store.ledger.balance(user) == 0


async def test_the_day_defaults_to_now(store: Store) -> None:
    user = await _registered_with(store, "today", 0)
    assert await store.ledger.claim_relief(user) == (2_000, 2_000)
    [entry, *_] = await store.ledger.entries(user)
    assert entry.key == f"relief:{user}:{datetime.now(UTC).date().isoformat()}"


async def test_concurrent_claims_grant_once(store: Store) -> None:
    user = await _registered_with(store, "racer", 300)
    before = await store.ledger.audit()
    outcomes = await asyncio.gather(
        *(store.ledger.claim_relief(user, now=DAY) for _ in range(20)), return_exceptions=True
    )
    granted = [o for o in outcomes if isinstance(o, tuple)]
    refused = [o for o in outcomes if isinstance(o, ReliefError)]
    assert granted == [(1_700, 2_000)]
    assert len(refused) == 19
    assert {r.code for r in refused} == {"already-claimed"}
    assert await store.ledger.balance(user) == 2_000
    assert [e.amount for e in await store.ledger.entries(user) if e.reason == "relief"] == [1_700]
    after = await store.ledger.audit()
    assert after.users_total == before.users_total + 1_700
