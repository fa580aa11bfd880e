"""Opening: URLs, the default data folder, migrations from empty, reopening, concurrent starts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from erren.server.store import DATABASE_FILE, Passwords, Store, StoreError, database_url
from erren.server.store.models import Base
from erren.server.store.store import alembic_config

pytestmark = pytest.mark.anyio


def test_urls_map_to_async_drivers(tmp_path: Path) -> None:
    assert database_url(f"sqlite:///{tmp_path}/a.db") == f"sqlite+aiosqlite:///{tmp_path}/a.db"
    assert database_url("postgresql://u:p@h:5/d") == "postgresql+psycopg://u:p@h:5/d"
    assert database_url("postgres://h/d") == "postgresql+psycopg://h/d"
    assert database_url("postgresql+psycopg://h/d") == "postgresql+psycopg://h/d"
    assert (tmp_path / "new" / "dir").exists() is False
    database_url(f"sqlite:///{tmp_path}/new/dir/a.db")
    assert (tmp_path / "new" / "dir").is_dir()


@pytest.mark.parametrize(
    "url",
    ["mysql://h/d", "sqlite://", "sqlite:///:memory:", "not a url", "postgresql+asyncpg://h/d"],
)
def test_unsupported_urls(url: str) -> None:
    with pytest.raises(StoreError):
        database_url(url)


def test_the_default_is_a_file_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERREN_DATA_DIR", str(tmp_path / "data"))
    assert database_url(None) == f"sqlite+aiosqlite:///{tmp_path / 'data' / DATABASE_FILE}"
    assert (tmp_path / "data").is_dir()


def test_without_the_variable_the_platform_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ERREN_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert database_url(None) == f"sqlite+aiosqlite:///{tmp_path / 'xdg' / 'erren' / DATABASE_FILE}"


async def test_first_start_creates_the_default_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERREN_DATA_DIR", str(tmp_path / "data"))
    store = await Store.open(passwords=Passwords.fast())
    try:
        await store.accounts.register("alice", "password1")
    finally:
        await store.close()
    assert (tmp_path / "data" / DATABASE_FILE).is_file()


def _head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _schema_diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_build_the_models_schema_from_empty(store: Store) -> None:
    async with store.database.engine.connect() as conn:
        version = await conn.scalar(text("SELECT version_num FROM alembic_version"))
        tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        diff = await conn.run_sync(_schema_diff)
    assert version == _head()
    assert tables == {*Base.metadata.tables, "alembic_version"}
    assert diff == []


async def test_reopening_keeps_everything(database_url: str) -> None:
    store = await Store.open(database_url, passwords=Passwords.fast())
    try:
        alice = await store.accounts.register("alice", "password1")
        session = await store.accounts.login("alice", "password1")
        await store.ledger.grant(alice.id, 5, "bonus")
    finally:
        await store.close()
    store = await Store.open(database_url, passwords=Passwords.fast())
    try:
        assert await store.accounts.user_for_token(session.token) == alice
        assert await store.ledger.balance(alice.id) == 10_005
        assert (await store.accounts.login("alice", "password1")).user == alice
        assert (await store.ledger.audit()).users_total == 10_005
        async with (
            store.database.engine.connect() as conn
        ):  # the house account was not created twice
            houses = await conn.scalar(text("SELECT count(*) FROM accounts WHERE kind = 'house'"))
        assert houses == 1
    finally:
        await store.close()


async def test_two_servers_starting_on_an_empty_database(database_url: str) -> None:
    stores = await asyncio.gather(
        *(Store.open(database_url, passwords=Passwords.fast()) for _ in range(3))
    )
    try:
        users = [await s.accounts.register(f"user{i}", "password1") for i, s in enumerate(stores)]
        assert [await stores[0].ledger.balance(u.id) for u in users] == [10_000] * 3
    finally:
        for s in stores:
            await s.close()


async def test_a_store_is_an_async_context_manager(database_url: str) -> None:
    async with await Store.open(database_url, passwords=Passwords.fast()) as store:
        assert "erren" in repr(store) or "sqlite" in repr(store) or "postgresql" in repr(store)
        await store.accounts.guest()


async def test_the_real_password_hasher_by_default(database_url: str) -> None:
    async with await Store.open(database_url) as store:
        await store.accounts.register("alice", "password1")
        assert (await store.accounts.login("alice", "password1")).user.name == "alice"
