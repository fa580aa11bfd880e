"""Beans: grants, idempotent and atomic settlement, clamping, the ledger and its invariants."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError

from erren.server.store import (
    WELCOME_GRANT,
    AccountError,
    InsufficientBeans,
    Passwords,
    Store,
    Transfer,
)
from erren.server.store.models import Account

pytestmark = pytest.mark.anyio


async def _users(store: Store, n: int) -> list[int]:
    return [(await store.accounts.guest()).user.id for _ in range(n)]


async def test_new_accounts_get_the_welcome_grant(store: Store) -> None:
    user = await store.accounts.register("alice", "password1")
    guest = (await store.accounts.guest()).user
    assert (
        await store.ledger.balance(user.id)
        == await store.ledger.balance(guest.id)
        == WELCOME_GRANT
        == 10_000
    )
    [entry] = await store.ledger.entries(user.id)
    assert (entry.amount, entry.balance_after, entry.reason) == (10_000, 10_000, "welcome")
    assert entry.counterparty_id is None  # the house
    assert entry.key == f"welcome:{user.id}"


async def test_the_welcome_grant_is_configurable(database_url: str) -> None:
    store = await Store.open(database_url, passwords=Passwords.fast(), welcome_grant=0)
    try:
        user = (await store.accounts.guest()).user
        assert await store.ledger.balance(user.id) == 0
        assert await store.ledger.entries(user.id) == []
    finally:
        await store.close()


async def test_grants(store: Store) -> None:
    [user] = await _users(store, 1)
    assert await store.ledger.grant(user, 500, "daily bonus") == 10_500
    assert await store.ledger.grant(user, -10_000, "correction") == 500
    with pytest.raises(InsufficientBeans, match="needs 501 beans but holds 500"):
        await store.ledger.grant(user, -501, "correction")
    assert await store.ledger.balance(user) == 500
    with pytest.raises(ValueError, match="grant of 0"):
        await store.ledger.grant(user, 0, "nothing")
    with pytest.raises(AccountError, match="no user"):
        await store.ledger.grant(user + 99, 5, "nobody")
    audit = await store.ledger.audit()
    assert audit.users_total == audit.granted == 500


async def test_a_keyed_grant_happens_once(store: Store) -> None:
    [user] = await _users(store, 1)
    assert await store.ledger.grant(user, 100, "bonus", key="bonus:2025-01-01") == 10_100
    assert await store.ledger.grant(user, 100, "bonus", key="bonus:2025-01-01") == 10_100


async def test_unknown_users(store: Store) -> None:
    with pytest.raises(AccountError):
        await store.ledger.balance(12345)
    with pytest.raises(AccountError):
        await store.ledger.entries(12345)


async def test_settle_moves_beans_with_ledger_rows(store: Store) -> None:
    a, b = await _users(store, 2)
    assert await store.ledger.settle("game:1:hand:1", [Transfer(a, b, 2_600, "hand 1: W1")])
    assert (await store.ledger.balance(a), await store.ledger.balance(b)) == (7_400, 12_600)
    paid, received = (await store.ledger.entries(a))[0], (await store.ledger.entries(b))[0]
    assert (paid.amount, paid.balance_after, paid.counterparty_id) == (-2_600, 7_400, b)
    assert (received.amount, received.balance_after, received.counterparty_id) == (2_600, 12_600, a)
    assert paid.key == received.key == "game:1:hand:1"
    assert paid.reason == "hand 1: W1"


async def test_settle_is_idempotent_on_its_key(store: Store) -> None:
    a, b = await _users(store, 2)
    transfers = [Transfer(a, b, 1_000, "hand")]
    assert await store.ledger.settle("k", transfers) is True
    assert await store.ledger.settle("k", transfers) is False
    assert await store.ledger.settle("k", [Transfer(b, a, 5, "other")]) is False
    assert (await store.ledger.balance(a), await store.ledger.balance(b)) == (9_000, 11_000)
    assert len(await store.ledger.entries(a)) == 2


async def test_the_loser_pays_at_most_his_balance(store: Store) -> None:
    """§6.7: owes 2,500, holds 1,800 → pays 1,800 and is left with 0."""
    a, b = await _users(store, 2)
    await store.ledger.grant(a, -8_200, "set up")
    assert await store.ledger.settle("k", [Transfer(a, b, 2_500, "天胡")])
    assert (await store.ledger.balance(a), await store.ledger.balance(b)) == (0, 11_800)
    assert (await store.ledger.entries(a))[0].amount == -1_800
    # with nothing left, a payment of 0 writes no row but the key is used
    assert await store.ledger.settle("k2", [Transfer(a, b, 100, "again")])
    assert len(await store.ledger.entries(a)) == 3
    assert await store.ledger.settle("k2", [Transfer(a, b, 100, "again")]) is False


async def test_transfers_apply_in_order(store: Store) -> None:
    """Clamping uses the balance at each transfer's turn within the settlement."""
    a, b, c = await _users(store, 3)
    await store.ledger.settle(
        "k", [Transfer(a, b, 15_000, "1"), Transfer(b, c, 20_000, "2"), Transfer(c, a, 3, "3")]
    )
    assert [await store.ledger.balance(u) for u in (a, b, c)] == [3, 0, 29_997]


async def test_strict_settlement_refuses_and_applies_nothing(store: Store) -> None:
    a, b = await _users(store, 2)
    with pytest.raises(InsufficientBeans):
        await store.ledger.settle(
            "k", [Transfer(b, a, 10, "ok"), Transfer(a, b, 20_000, "too much")], strict=True
        )
    assert (await store.ledger.balance(a), await store.ledger.balance(b)) == (10_000, 10_000)
    assert await store.ledger.settle("k", [Transfer(a, b, 1, "now")], strict=True)  # key not used


async def test_an_unknown_user_applies_nothing(store: Store) -> None:
    a, b = await _users(store, 2)
    with pytest.raises(AccountError, match="no user"):
        await store.ledger.settle("k", [Transfer(a, b, 10, "ok"), Transfer(a, 999, 10, "nobody")])
    assert (await store.ledger.balance(a), await store.ledger.balance(b)) == (10_000, 10_000)
    assert await store.ledger.settle("k", [Transfer(a, b, 10, "ok")])


@pytest.mark.parametrize(
    ("transfer", "error"),
    [
        (Transfer(1, 2, -5, "r"), "negative"),
        (Transfer(1, 1, 5, "r"), "oneself"),
        (Transfer(1, 2, 5, ""), "reason"),
        (Transfer(1, 2, True, "r"), "whole number"),
    ],
)
async def test_malformed_transfers(store: Store, transfer: Transfer, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        await store.ledger.settle("k", [transfer])


async def test_an_empty_settlement_uses_its_key(store: Store) -> None:
    assert await store.ledger.settle("draw", [])
    assert await store.ledger.settle("draw", []) is False


async def test_balances_cannot_go_negative_in_the_database(store: Store) -> None:
    [a] = await _users(store, 1)
    with pytest.raises(IntegrityError):
        async with store.database.engine.begin() as conn:
            await conn.execute(update(Account).where(Account.user_id == a).values(balance=-1))
    assert await store.ledger.balance(a) == 10_000


async def _race(n: int, job: Callable[[int], Awaitable[bool]]) -> list[bool]:
    return list(await asyncio.gather(*(job(i) for i in range(n))))


async def test_concurrent_settlements_of_one_key_pay_once(store: Store) -> None:
    a, b = await _users(store, 2)
    results = await _race(10, lambda _: store.ledger.settle("hand", [Transfer(a, b, 700, "hand")]))
    assert sorted(results) == [False] * 9 + [True]
    assert (await store.ledger.balance(a), await store.ledger.balance(b)) == (9_300, 10_700)
    await store.ledger.audit()


async def test_concurrent_settlements_from_two_processes_pay_once(
    store: Store, database_url: str
) -> None:
    """Two stores (two engines, two connection pools: as two server processes would)."""
    other = await Store.open(database_url, passwords=Passwords.fast())
    try:
        a, b = await _users(store, 2)
        for round_ in range(5):
            key = f"hand:{round_}"
            results = await asyncio.gather(
                store.ledger.settle(key, [Transfer(a, b, 100, key)]),
                other.ledger.settle(key, [Transfer(a, b, 100, key)]),
                store.ledger.settle(key, [Transfer(a, b, 100, key)]),
                other.ledger.settle(key, [Transfer(a, b, 100, key)]),
            )
            assert sorted(results) == [False, False, False, True]
        assert (await store.ledger.balance(a), await other.ledger.balance(b)) == (9_500, 10_500)
    finally:
        await other.close()


async def test_concurrent_settlements_between_the_same_players_lose_nothing(store: Store) -> None:
    """Many keys at once, in both directions (lock order): every bean accounted for."""
    a, b, c = await _users(store, 3)
    pairs = [(a, b), (b, a), (b, c), (c, a)]

    async def job(i: int) -> bool:
        payer, payee = pairs[i % len(pairs)]
        return await store.ledger.settle(f"k{i}", [Transfer(payer, payee, 1_000 + i, f"{i}")])

    assert all(await _race(40, job))
    audit = await store.ledger.audit()
    assert audit.users_total == 30_000
    assert sum([await store.ledger.balance(u) for u in (a, b, c)]) == 30_000


async def test_the_ledger_is_newest_first_and_limited(store: Store) -> None:
    a, b = await _users(store, 2)
    for i in range(5):
        await store.ledger.settle(f"k{i}", [Transfer(a, b, i + 1, f"hand {i}")])
    entries = await store.ledger.entries(a, limit=3)
    assert [e.reason for e in entries] == ["hand 4", "hand 3", "hand 2"]
    assert [e.balance_after for e in entries] == [9_985, 9_990, 9_994]
    assert len(await store.ledger.entries(a)) == 6


async def test_audit_finds_a_tampered_balance(store: Store) -> None:
    [a] = await _users(store, 1)
    async with store.database.engine.begin() as conn:
        await conn.execute(
            text("UPDATE accounts SET balance = balance + 1 WHERE user_id = :u"), {"u": a}
        )
    with pytest.raises(Exception, match="ledger inconsistent"):
        await store.ledger.audit()


# --------------------------------------------------------------------------------------------
# The invariant, over random sequences of grants and settlements

USERS = 3
operation = st.one_of(
    st.tuples(st.just("grant"), st.integers(0, USERS - 1), st.integers(-12_000, 12_000)),
    st.tuples(
        st.just("settle"),
        st.lists(
            st.tuples(st.integers(0, USERS - 1), st.integers(0, USERS - 1), st.integers(0, 25_000)),
            max_size=4,
        ),
        st.integers(0, 5),  # the key: repeats must change nothing
    ),
)


async def _check_invariant(url: str, operations: list[tuple[object, ...]]) -> None:
    store = await Store.open(url, passwords=Passwords.fast())
    try:
        before = await store.ledger.audit()
        users = await _users(store, USERS)
        model = dict.fromkeys(users, WELCOME_GRANT)
        granted = before.granted + WELCOME_GRANT * USERS
        used: set[int] = set()
        prefix = f"run:{users[0]}"
        for op in operations:
            if op[0] == "grant":
                _, who, amount = op
                assert isinstance(who, int) and isinstance(amount, int)
                user = users[who]
                if amount == 0:
                    continue
                if model[user] + amount < 0:
                    with pytest.raises(InsufficientBeans):
                        await store.ledger.grant(user, amount, "grant")
                    continue
                assert await store.ledger.grant(user, amount, "grant") == model[user] + amount
                model[user] += amount
                granted += amount
            else:
                _, triples, key = op
                assert isinstance(triples, list) and isinstance(key, int)
                transfers = [
                    Transfer(users[p], users[q], amount, "t") for p, q, amount in triples if p != q
                ]
                applied = await store.ledger.settle(f"{prefix}:{key}", transfers)
                assert applied == (key not in used)
                if applied:
                    used.add(key)
                    for t in transfers:
                        paid = min(t.amount, model[t.payer_id])
                        model[t.payer_id] -= paid
                        model[t.payee_id] += paid
            audit = await store.ledger.audit()
            assert audit.users_total == audit.granted == granted
        for user, balance in model.items():
            assert await store.ledger.balance(user) == balance >= 0
    finally:
        await store.close()


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation, max_size=12))
def test_the_ledger_invariant_holds(
    database_url: str, operations: list[tuple[object, ...]]
) -> None:
    """Sum over users = everything granted; house = −granted; every journal sums to 0; each
    balance is its entries' sum, never negative, and as a simple model of clamping predicts."""
    asyncio.run(_check_invariant(database_url, operations))
