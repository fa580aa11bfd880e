"""Fixtures: every store test runs against a real SQLite file and a real PostgreSQL database.

PostgreSQL is the server on 127.0.0.1:5432 (trust auth, user ``postgres``; ``ERREN_TEST_PG``);
each test gets a fresh database, dropped afterwards.  If the server cannot be reached the tests
FAIL (never skip).  The SQLite half runs in ``make check``, the PostgreSQL half in ``make test``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from erren.server.store import Passwords, Store
from erren.testing.servers import ServiceUnavailableError, drop_pg_database, new_pg_database

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database, dropped after the test."""
    try:
        url = new_pg_database("erren_test")
    except ServiceUnavailableError as error:
        pytest.fail(
            f"{error}. The store tests run against a real PostgreSQL server (trust auth, user "
            "postgres): start it, don't skip them.",
            pytrace=False,
        )
    try:
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: an SQLite file or a PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'erren.sqlite3'}"
    else:
        yield request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """An open store on a fresh database (cheap argon2 parameters: the tests hash a lot)."""
    opened = await Store.open(database_url, passwords=Passwords.fast())
    try:
        yield opened
    finally:
        await opened.close()
