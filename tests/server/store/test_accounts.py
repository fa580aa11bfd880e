"""Accounts and sessions: registration rules, login, guests, tokens (hashed, expiring)."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import select

from erren.server.store import AccountError, AuthError, Passwords, Store, User
from erren.server.store.models import SessionRow, UserRow

pytestmark = pytest.mark.anyio


async def test_register_returns_the_user(store: Store) -> None:
    user = await store.accounts.register("alice", "correct horse")
    assert isinstance(user, User)
    assert (user.name, user.is_guest) == ("alice", False)
    assert await store.accounts.user(user.id) == user
    assert await store.accounts.user(user.id + 1000) is None


async def test_the_password_is_kept_as_an_argon2id_hash(store: Store) -> None:
    user = await store.accounts.register("alice", "correct horse")
    async with store.database.engine.connect() as conn:
        hashed = await conn.scalar(select(UserRow.password_hash).where(UserRow.id == user.id))
    assert hashed is not None
    assert hashed.startswith("$argon2id$")
    assert "correct horse" not in hashed


@pytest.mark.parametrize("name", ["alice", "ALICE", "Alice"])
async def test_a_name_is_taken_whatever_its_case(store: Store, name: str) -> None:
    await store.accounts.register("alice", "password1")
    with pytest.raises(AccountError, match="taken"):
        await store.accounts.register(name, "password2")


@pytest.mark.parametrize(
    "name",
    ["a", "a" * 17, "", " alice", "alice ", "al ice", "_alice", "alice.", "a/b", "guest-1234"],
)
async def test_bad_names_are_refused(store: Store, name: str) -> None:
    with pytest.raises(AccountError, match="bad name"):
        await store.accounts.register(name, "password1")


@pytest.mark.parametrize("name", ["ab", "a" * 16, "li_wei-2.0", "麻将高手", "Zoë"])
async def test_good_names_are_accepted(store: Store, name: str) -> None:
    assert (await store.accounts.register(name, "password1")).name == name


async def test_short_and_huge_passwords_are_refused(store: Store) -> None:
    with pytest.raises(AccountError, match="too short"):
        await store.accounts.register("alice", "1234567")
    with pytest.raises(AccountError, match="too long"):
        await store.accounts.register("alice", "x" * 2000)
    await store.accounts.register("alice", "12345678")  # exactly 8 is enough


async def test_login_gives_a_session_for_the_user(store: Store) -> None:
    user = await store.accounts.register("alice", "password1")
    session = await store.accounts.login("Alice", "password1")
    assert session.user == user
    assert len(session.token) >= 43  # 32 bytes, urlsafe base64
    assert "token='…'" in repr(session) and session.token not in repr(session)
    assert await store.accounts.user_for_token(session.token) == user


async def test_a_failed_login_says_the_same_for_a_wrong_password_and_an_unknown_name(
    store: Store,
) -> None:
    await store.accounts.register("alice", "password1")
    with pytest.raises(AuthError) as wrong:
        await store.accounts.login("alice", "password2")
    with pytest.raises(AuthError) as unknown:
        await store.accounts.login("bob", "password1")
    assert str(wrong.value) == str(unknown.value) == "wrong name or password"


async def test_guests_cannot_log_in_by_name(store: Store) -> None:
    guest = await store.accounts.guest()
    with pytest.raises(AuthError):
        await store.accounts.login(guest.user.name, "")


async def test_guest_sessions(store: Store) -> None:
    one, two = await store.accounts.guest(), await store.accounts.guest()
    assert one.user.is_guest and two.user.is_guest
    assert one.user.name.startswith("guest-") and one.user.name != two.user.name
    assert await store.accounts.user_for_token(one.token) == one.user
    assert await store.accounts.user_for_token(two.token) == two.user


async def test_tokens_are_stored_hashed(store: Store) -> None:
    await store.accounts.register("alice", "password1")
    session = await store.accounts.login("alice", "password1")
    async with store.database.engine.connect() as conn:
        stored = (await conn.scalars(select(SessionRow.token_hash))).all()
    assert stored == [hashlib.sha256(session.token.encode()).hexdigest()]


async def test_unknown_tokens_and_logout(store: Store) -> None:
    await store.accounts.register("alice", "password1")
    first = await store.accounts.login("alice", "password1")
    second = await store.accounts.login("alice", "password1")
    assert await store.accounts.user_for_token("not a token") is None
    assert await store.accounts.user_for_token("") is None
    await store.accounts.logout(first.token)
    assert await store.accounts.user_for_token(first.token) is None
    assert await store.accounts.user_for_token(second.token) is not None  # other sessions live on
    await store.accounts.logout(first.token)  # twice is harmless


async def test_sessions_expire(database_url: str) -> None:
    store = await Store.open(
        database_url, passwords=Passwords.fast(), session_ttl=timedelta(seconds=-1)
    )
    try:
        session = await store.accounts.guest()
        assert session.expires_at < session.user.created_at + timedelta(days=1)
        assert await store.accounts.user_for_token(session.token) is None
    finally:
        await store.close()


async def test_the_default_ttl_is_thirty_days(store: Store) -> None:
    session = await store.accounts.guest()
    ttl = session.expires_at - session.user.created_at
    assert abs(ttl - timedelta(days=30)) < timedelta(seconds=5)
