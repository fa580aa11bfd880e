"""Fixtures: every store test runs against a real SQLite file and a real PostgreSQL database.

PostgreSQL is the server on 127.0.0.1:5432 (trust auth, user ``postgres``); each test gets a
fresh database, dropped afterwards.  If the server cannot be reached the tests FAIL (never skip).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from erren.server.store import Passwords, Store

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_TEST = "postgresql://postgres@127.0.0.1:5432/{name}"
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _admin() -> psycopg.Connection[tuple[object, ...]]:
    try:
        return psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        pytest.fail(
            f"PostgreSQL is unreachable at {PG_ADMIN} ({error}). The store tests run against a "
            "real PostgreSQL server (trust auth, user postgres): start it, don't skip them.",
            pytrace=False,
        )


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database, dropped after the test."""
    name = f"erren_test_{uuid.uuid4().hex[:16]}"
    with _admin() as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield PG_TEST.format(name=name)
    finally:
        with _admin() as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


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
