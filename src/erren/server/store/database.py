"""The database under the store: its URL, the migrations to head, the SQLite settings, and
:class:`Database` (the engine, opening and closing, read and write transactions, the check of
the SQLite file), which every part of the store holds."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, Self, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, select, text
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from erren.server.store import names
from erren.server.store.errors import StoreError, StoreUnavailable
from erren.server.store.models import HOUSE, Account

__all__ = [
    "DATABASE_FILE",
    "SESSION_TTL",
    "WELCOME_GRANT",
    "Database",
    "alembic_config",
    "as_stored_json",
    "checked_reason",
    "database_url",
    "name_key_of",
    "token_hash",
    "utc_now",
    "whole_number",
]


WELCOME_GRANT: Final = 10_000
"""Beans granted to every new account, registered or guest (``Store.open(welcome_grant=...)``)."""
SESSION_TTL: Final = timedelta(days=30)
DATABASE_FILE: Final = "erren.sqlite3"
"""The SQLite file's name in the data folder (``ERREN_DATA_DIR`` or the user's data dir)."""
MIGRATIONS: Final = Path(__file__).parent / "migrations"
MAX_REASON: Final = 200


MAX_KEY: Final = 200
_PG_MIGRATION_LOCK: Final = 0x6572_7265_6E  # "erren": serialises first starts of several servers

T = TypeVar("T")


def utc_now() -> datetime:
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def name_key_of(name: str) -> str:
    return names.name_key(name)


def whole_number(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    return value


def checked_reason(reason: object) -> str:
    if not isinstance(reason, str) or not 0 < len(reason) <= MAX_REASON:
        raise ValueError(f"a reason is 1–{MAX_REASON} characters, not {reason!r}")
    return reason


def as_stored_json(value: object, what: str) -> Any:
    """``value`` as it will read back from the database (tuples become lists, ...)."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a dict, not {type(value).__name__}")
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} is not JSON: {error}") from None


def database_url(url: str | None = None) -> str:
    """The SQLAlchemy async URL for ``url``: ``None`` → the SQLite file in ``ERREN_DATA_DIR``
    or ``platformdirs.user_data_dir("erren")`` (created if missing); ``sqlite:///path`` →
    aiosqlite; ``postgresql://`` or ``postgres://`` → psycopg (async)."""
    if url is None:
        folder = os.environ.get("ERREN_DATA_DIR")
        if not folder:
            import platformdirs  # noqa: PLC0415  (only needed for the default)

            folder = platformdirs.user_data_dir("erren")
        path = Path(folder).expanduser()
        path.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{path / DATABASE_FILE}"
    try:
        parsed = make_url(url)
    except Exception as error:
        raise StoreError(f"not a database URL: {url!r} ({error})") from None
    backend, _, driver = parsed.drivername.partition("+")
    if backend == "sqlite" and driver in ("", "aiosqlite"):
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file:"):
            raise StoreError("an in-memory SQLite database cannot be shared: give a file path")
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        return parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
    if backend in ("postgresql", "postgres") and driver in ("", "psycopg", "psycopg_async"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise StoreError(f"unsupported database {url!r}: use sqlite:///PATH or postgresql://...")


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the store's migrations (no ``alembic.ini``); ``url`` is a
    synchronous SQLAlchemy URL, for the Alembic command line functions."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _sqlite_file(engine: AsyncEngine) -> Path | None:
    """The SQLite database file of ``engine`` (``None``: not SQLite, or in memory)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database).resolve()


def _file_id(path: Path | None) -> tuple[int, int] | None:
    """The file's identity (device, inode); ``None`` when it does not exist."""
    if path is None:
        return None
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _upgrade(connection: Connection) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


WAL_SWITCH_S = 30.0
"""How long :func:`_switch_to_wal` keeps trying while other connections hold the file."""


def _switch_to_wal(path: Path, *, patience_s: float = WAL_SWITCH_S) -> None:
    """Put the SQLite file in WAL mode (it stays so: the mode is kept in the file), before any
    pooled connection opens.  Changing the journal mode needs the file to itself, and when two
    connections try it at once (two servers starting on one new file) SQLite answers "database
    is locked" at once, or both wait out their busy timeout: so this connection waits only
    briefly and tries again after a random pause, until ``patience_s`` has passed."""
    deadline = time.monotonic() + patience_s
    with contextlib.closing(sqlite3.connect(path, timeout=0.05, isolation_level=None)) as conn:
        while True:
            try:
                if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal":
                    return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or time.monotonic() > deadline:
                    raise
            time.sleep(random.uniform(0.005, 0.05))  # a pause, not a secret


def _sqlite_events(engine: AsyncEngine) -> None:
    from sqlalchemy import event  # noqa: PLC0415

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves, below
        cursor = dbapi_connection.cursor()
        for pragma in (  # none of these takes a lock (the file is in WAL mode already)
            "PRAGMA busy_timeout=30000",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
        ):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("erren_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class Database:
    """The store's connection to its database: the engine, the read, write and snapshot
    transactions, the group commit's held connection and the check that the SQLite file is
    still the one opened.  Open it with :meth:`open`; the parts of
    :class:`~erren.server.store.Store` each hold it."""

    def __init__(self, engine: AsyncEngine, *, house_id: int) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self.house_id = house_id
        """The id of the house's account (the source of every grant)."""
        self._reads = async_sessionmaker(engine, expire_on_commit=False)
        self._write_engine = engine.execution_options(erren_write=True)
        self._writes = async_sessionmaker(self._write_engine, expire_on_commit=False)
        self._write_guard: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if self.dialect == "sqlite" else nullcontext()
        )
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        """Single statements that are their own transaction (PostgreSQL: a new guest)."""
        self._journal_engine = self._write_engine
        """The group commit's (PostgreSQL: its own two connections, so that the moves of every
        table never wait for a connection behind a burst of HTTP requests holding the pool)."""
        if self.dialect == "postgresql":
            self._journal_engine = create_async_engine(
                engine.url, pool_size=1, max_overflow=1, pool_pre_ping=True
            ).execution_options(erren_write=True)
        self._journal_conn: AsyncConnection | None = None
        """The group commit's connection, held from one transaction to the next (no checkout,
        ping and reset per commit); replaced when it turns out dropped."""
        self._journal_busy = False
        self._file = _sqlite_file(engine)
        self._file_id = _file_id(self._file)
        self.on_error: Callable[[BaseException], None] | None = None
        """Told of every failed database call (a driver error, a dropped connection, a write
        refused because the SQLite file vanished): the server's metrics count them."""
        from sqlalchemy import event  # noqa: PLC0415

        event.listen(engine.sync_engine, "handle_error", self._driver_error)
        if self._journal_engine.sync_engine is not engine.sync_engine:
            event.listen(self._journal_engine.sync_engine, "handle_error", self._driver_error)

    def _driver_error(self, context: ExceptionContext) -> None:
        if self.on_error is not None:
            self.on_error(context.original_exception)

    def check_file(self) -> None:
        """Refuse a read or a write when the SQLite file vanished or was replaced: SQLite would
        go on writing to the deleted file (every write lost at the next start), and whether a
        read answered would depend on the pool: a pooled connection still reads the old file,
        a new one would create an empty database at the path.  Every request then gets the
        same 503 ``store-unavailable`` until the file is back."""
        if self._file is not None and _file_id(self._file) != self._file_id:
            err = StoreUnavailable(
                f"the database file {self._file} vanished or was replaced; no write is possible"
            )
            if self.on_error is not None:
                self.on_error(err)
            raise err

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query and would take a write: the
        SQLite file is still the one opened, a PostgreSQL session is not read-only
        (``/ready``).  A driver error or :class:`StoreUnavailable` says why."""
        self.check_file()
        async with self._reads() as session:
            if self.dialect == "postgresql":
                mode = await session.scalar(text("SELECT current_setting('transaction_read_only')"))
                if mode == "on":
                    raise StoreUnavailable("the database is read-only")
            else:
                await session.execute(text("SELECT 1"))

    @classmethod
    async def open(cls, url: str | None = None, *, pool_size: int = 10) -> Self:
        """Connect, create the schema or migrate it to head, and return the database."""
        async_url = database_url(url)
        if make_url(async_url).get_backend_name() == "sqlite":
            engine = create_async_engine(async_url, pool_size=pool_size, max_overflow=0)
            path = _sqlite_file(engine)
            assert path is not None  # database_url refuses an in-memory database
            await asyncio.to_thread(_switch_to_wal, path)
            _sqlite_events(engine)
        else:
            engine = create_async_engine(
                async_url, pool_size=pool_size, max_overflow=2 * pool_size, pool_pre_ping=True
            )
        try:
            async with engine.execution_options(erren_write=True).begin() as conn:
                if engine.dialect.name == "postgresql":
                    await conn.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK}
                    )
                await conn.run_sync(_upgrade)
                house_id = await conn.scalar(select(Account.id).where(Account.kind == HOUSE))
        except BaseException:
            await engine.dispose()
            raise
        if house_id is None:
            await engine.dispose()
            raise StoreError("the database has no house account: not an erren database?")
        return cls(engine, house_id=house_id)

    async def journal_write(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """``work`` in one write transaction on the group commit's held connection.  If that
        connection turns out dropped (a database restart, a killed backend), the transaction is
        tried once more on a fresh one: ``work`` must be safe to repeat after a commit whose
        answer was lost (the journal's rows are keyed by ``(game_id, seq)``, and a repeat meets
        the rows and sorts them out).  A second call while one runs takes a pooled connection."""
        self.check_file()
        if self._journal_busy:
            async with self._write_guard, self._journal_engine.begin() as pooled:
                return await work(pooled)
        self._journal_busy = True
        try:
            for retry in (False, True):
                if self._journal_conn is None:
                    self._journal_conn = await self._journal_engine.connect()
                conn = self._journal_conn
                try:
                    async with self._write_guard, conn.begin():
                        return await work(conn)
                except DBAPIError as error:
                    if not error.connection_invalidated and not conn.invalidated:
                        raise  # the connection is fine (a taken seq, a lock): not ours to retry
                    await self._drop_journal_connection()
                    if retry:
                        raise
                except BaseException:
                    await self._drop_journal_connection()  # cancelled mid-transaction?
                    raise
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self._journal_busy = False

    async def _drop_journal_connection(self) -> None:
        conn, self._journal_conn = self._journal_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                if not conn.invalidated:
                    await conn.invalidate()
                await conn.close()

    async def close(self) -> None:
        await self._drop_journal_connection()
        if self._journal_engine.sync_engine is not self.engine.sync_engine:
            await self._journal_engine.dispose()
        await self.engine.dispose()

    def __repr__(self) -> str:
        return f"<Database {self.engine.url.render_as_string(hide_password=True)}>"

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """One read transaction (an ORM session)."""
        self.check_file()
        async with self._reads() as session, session.begin():
            yield session

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[AsyncSession]:
        """A read transaction that sees one snapshot from its first statement to its last
        (PostgreSQL: REPEATABLE READ; an SQLite read transaction in WAL mode already does), so
        an audit of a live server never sees half of a settlement."""
        self.check_file()
        engine = self.engine
        if self.dialect == "postgresql":
            engine = engine.execution_options(isolation_level="REPEATABLE READ")
        async with AsyncSession(engine, expire_on_commit=False) as session, session.begin():
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One write transaction (an ORM session; SQLite: ``BEGIN IMMEDIATE``, one writer of
        this process at a time)."""
        self.check_file()
        async with self._write_guard, self._writes() as session, session.begin():
            yield session

    @asynccontextmanager
    async def write_connection(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction on a bare connection (no ORM session): the hot path of a
        single action."""
        self.check_file()
        async with self._write_guard, self._write_engine.begin() as conn:
            yield conn

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose every statement is its own transaction (PostgreSQL: a new
        guest's rows in one statement)."""
        self.check_file()
        async with self._autocommit.connect() as conn:
            yield conn
