"""The store: accounts, sessions, the bean ledger and game records, on SQLite or PostgreSQL.

See the package docstring (:mod:`erren.server.store`) for the contract.  Implementation notes:

* One :class:`~sqlalchemy.ext.asyncio.AsyncEngine`; every method is one short transaction.
* SQLite: WAL journal, ``synchronous=NORMAL`` (a commit survives the process being killed),
  foreign keys on, writes begin with ``BEGIN IMMEDIATE`` (no lock upgrade deadlocks) and are
  serialised in-process by an :class:`asyncio.Lock` (SQLite has one writer anyway; queueing on
  the lock is cheaper than SQLite's busy-wait), ``busy_timeout`` covers other processes.
* PostgreSQL (psycopg 3): READ COMMITTED; the accounts a settlement touches are locked with
  ``SELECT ... FOR UPDATE`` in id order (no deadlocks); a concurrent settlement with the same key
  blocks on the unique index of ``journal.key`` and then fails, which reads as "already settled".
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    Integer,
    Text,
    and_,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import aliased

from erren.errors import ErrenError
from erren.server.fairness import commit
from erren.server.store import names
from erren.server.store.models import (
    HOUSE,
    USER,
    Account,
    CampaignRow,
    Entry,
    Game,
    GameAction,
    Journal,
    SessionRow,
    UserRow,
    UTCDateTime,
)
from erren.server.store.passwords import MAX_PASSWORD, MIN_PASSWORD, Passwords

__all__ = [
    "DATABASE_FILE",
    "RELIEF_BELOW",
    "RELIEF_TOP_UP",
    "SESSION_TTL",
    "WELCOME_GRANT",
    "AccountError",
    "Audit",
    "AuthError",
    "GameSummary",
    "InsufficientBeans",
    "JournalLine",
    "LedgerEntry",
    "LedgerJournal",
    "ReliefError",
    "Session",
    "Store",
    "StoreError",
    "StoredGame",
    "Transfer",
    "User",
    "alembic_config",
    "database_url",
]

WELCOME_GRANT: Final = 10_000
"""Beans granted to every new account, registered or guest (``Store.open(welcome_grant=...)``)."""
RELIEF_BELOW: Final = 1_000
"""Relief (救济豆) is for a balance below this: the cheapest room's entry minimum (0 included)."""
RELIEF_TOP_UP: Final = 2_000
"""A relief grant tops the balance up to exactly this many beans (grant = 2,000 − balance)."""
SESSION_TTL: Final = timedelta(days=30)
DATABASE_FILE: Final = "erren.sqlite3"
"""The SQLite file's name in the data folder (``ERREN_DATA_DIR`` or the user's data dir)."""
MIGRATIONS: Final = Path(__file__).parent / "migrations"
MAX_REASON: Final = 200
MAX_KEY: Final = 200
_GUEST_PREFIX: Final = "guest-"
_PG_MIGRATION_LOCK: Final = 0x6572_7265_6E  # "erren": serialises first starts of several servers


# --------------------------------------------------------------------------------------------
# Errors


class StoreError(ErrenError):
    """A request the store refuses (unknown game, conflicting action, bad URL, ...)."""


class StoreUnavailable(StoreError):  # noqa: N818  (named for what the caller meets)
    """The database cannot take writes now: its SQLite file vanished or was replaced under the
    running server.  Nothing was written; the server retries or answers 503."""


class AuthError(StoreError):
    """Login failed.  The message never says whether the name exists."""


class AccountError(StoreError):
    """Registration refused (name taken, bad name, bad password) or no such user."""


class NameTakenError(AccountError):
    """The name, or one that looks like it, belongs to another account.  ``code``:
    ``name-taken`` (the same name up to case and width) or ``name-confusable`` (a homoglyph of
    ``existing``)."""

    def __init__(self, code: str, message: str, existing: str) -> None:
        self.code = code
        self.existing = existing
        super().__init__(message)


class InsufficientBeans(AccountError):  # noqa: N818  (the contract's name)
    """A strict transfer or a negative grant larger than the balance."""

    def __init__(self, user_id: int, needed: int, balance: int) -> None:
        self.user_id = user_id
        self.needed = needed
        self.balance = balance
        super().__init__(f"user {user_id} needs {needed:,} beans but holds {balance:,}")


class ReliefError(StoreError):
    """A relief claim refused; ``code`` says why: ``not-needed`` (the balance is 1,000 or more),
    ``already-claimed`` (once per UTC day) or ``guest`` (relief is for registered players)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


# --------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    is_guest: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Session:
    """A login: ``token`` is shown once, here; the store keeps only its SHA-256."""

    token: str
    user: User
    expires_at: datetime

    def __repr__(self) -> str:  # never print a live token into a log
        return f"Session(token='…', user={self.user!r}, expires_at={self.expires_at!r})"


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer_id`` owes ``payee_id`` ``amount`` beans (≥ 0); ``reason`` goes to the ledger."""

    payer_id: int
    payee_id: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One ledger row of a user: ``amount`` is signed (+ received, − paid), ``counterparty_id``
    the other user, or ``None`` for the house (grants).  ``key`` is the settlement's key."""

    id: int
    user_id: int
    amount: int
    balance_after: int
    reason: str
    key: str | None
    counterparty_id: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game's header and actions; ``seed``/``salt`` are ``None`` unless finished (or asked
    for with ``reveal=True``); ``record``/``summary``/``finished_at`` are set when finished."""

    id: int
    ruleset: str
    options: dict[str, Any]
    seats: tuple[int | None, int | None]
    room: str | None
    commitment: str
    seed: int | None
    salt: str | None
    actions: tuple[str, ...]
    finished: bool
    record: dict[str, Any] | None
    summary: str | None
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A line of a player's game list; ``players`` are the seats' names (``None``: computer)."""

    id: int
    ruleset: str
    room: str | None
    seats: tuple[int | None, int | None]
    players: tuple[str | None, str | None]
    finished: bool
    summary: str | None
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class Audit:
    """The ledger's totals, from :meth:`Store.audit` (which raises if an invariant fails) or
    :meth:`Store.audit_ledger` (which lists the failures)."""

    users_total: int
    """Beans held by all users."""
    granted: int
    """Beans granted by the house (minus its balance); equals ``users_total``."""
    accounts: int
    journals: int
    entries: int
    grants: int = 0
    """Grant journals (welcome, relief, corrections)."""
    settlements: int = 0
    """Settlement journals (beans moved between players)."""


@dataclass(frozen=True, slots=True)
class JournalLine:
    """One user's side of a journal: his balance moved by ``amount`` to ``balance_after``."""

    user_id: int
    amount: int
    balance_after: int


@dataclass(frozen=True, slots=True)
class LedgerJournal:
    """A grant or a settlement (``kind`` ``grant`` / ``settle``; ``key`` such as
    ``game:42`` or ``relief:7:2026-12-01``) and its users' ledger rows, in the order written
    (the house's side of a grant is left out)."""

    key: str | None
    kind: str
    lines: tuple[JournalLine, ...]
    created_at: datetime


# --------------------------------------------------------------------------------------------
# Helpers


def _now() -> datetime:
    return datetime.now(UTC)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _name_key(name: str) -> str:
    return names.name_key(name)


def _whole(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    return value


def _reason(reason: object) -> str:
    if not isinstance(reason, str) or not 0 < len(reason) <= MAX_REASON:
        raise ValueError(f"a reason is 1–{MAX_REASON} characters, not {reason!r}")
    return reason


def _json(value: object, what: str) -> Any:
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


def _sqlite_events(engine: AsyncEngine) -> None:
    from sqlalchemy import event  # noqa: PLC0415

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves, below
        cursor = dbapi_connection.cursor()
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA busy_timeout=30000",
        ):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("erren_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


# --------------------------------------------------------------------------------------------
# The store

# The statements of the group commit, built once (it runs a hundred times a second).
_RUNNING = (
    select(Game.id)
    .where(Game.id.in_(bindparam("ids", expanding=True)), Game.finished.is_(False))
    .with_for_update(read=True)
)
_APPEND = insert(GameAction)


class Store:
    """The server's storage; open with :meth:`open`, close with :meth:`close` (or
    ``async with await Store.open(...) as store``).  Safe to share between tasks."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        house_id: int,
        welcome_grant: int,
        passwords: Passwords,
        session_ttl: timedelta,
    ) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self.welcome_grant = welcome_grant
        self.session_ttl = session_ttl
        self._house_id = house_id
        self._passwords = passwords
        self._reads = async_sessionmaker(engine, expire_on_commit=False)
        self._write_engine = engine.execution_options(erren_write=True)
        self._writes = async_sessionmaker(self._write_engine, expire_on_commit=False)
        self._write_guard: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if self.dialect == "sqlite" else nullcontext()
        )
        self._file = _sqlite_file(engine)
        self._file_id = _file_id(self._file)

    def _check_file(self) -> None:
        """Refuse a write when the SQLite file vanished or was replaced (SQLite would go on
        writing to the deleted file, and every write would be lost at the next start)."""
        if self._file is not None and _file_id(self._file) != self._file_id:
            raise StoreUnavailable(
                f"the database file {self._file} vanished or was replaced; no write is possible"
            )

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        welcome_grant: int = WELCOME_GRANT,
        passwords: Passwords | None = None,
        session_ttl: timedelta = SESSION_TTL,
        pool_size: int = 10,
    ) -> Store:
        """Connect, create the schema or migrate it to head, and return the store."""
        async_url = database_url(url)
        if make_url(async_url).get_backend_name() == "sqlite":
            engine = create_async_engine(async_url, pool_size=pool_size, max_overflow=0)
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
        return cls(
            engine,
            house_id=house_id,
            welcome_grant=_whole(welcome_grant, "welcome_grant"),
            passwords=passwords or Passwords(),
            session_ttl=session_ttl,
        )

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<Store {self.engine.url.render_as_string(hide_password=True)}>"

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncSession]:
        async with self._reads() as session, session.begin():
            yield session

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[AsyncSession]:
        """A read transaction that sees one snapshot from its first statement to its last
        (PostgreSQL: REPEATABLE READ; an SQLite read transaction in WAL mode already does), so
        an audit of a live server never sees half of a settlement."""
        engine = self.engine
        if self.dialect == "postgresql":
            engine = engine.execution_options(isolation_level="REPEATABLE READ")
        async with AsyncSession(engine, expire_on_commit=False) as session, session.begin():
            yield session

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncSession]:
        self._check_file()
        async with self._write_guard, self._writes() as session, session.begin():
            yield session

    # ----------------------------------------------------------------------------------------
    # Accounts

    @staticmethod
    def _user(row: UserRow) -> User:
        return User(id=row.id, name=row.name, is_guest=row.is_guest, created_at=row.created_at)

    async def _new_user(
        self, session: AsyncSession, name: str, password_hash: str | None, *, guest: bool
    ) -> UserRow:
        row = UserRow(
            name=name,
            name_key=_name_key(name),
            password_hash=password_hash,
            is_guest=guest,
            created_at=_now(),
        )
        session.add(row)
        await session.flush()
        account = Account(kind=USER, user_id=row.id, balance=0)
        session.add(account)
        await session.flush()
        if self.welcome_grant:
            await self._grant(
                session, account, self.welcome_grant, "welcome", key=f"welcome:{row.id}"
            )
        return row

    async def _new_session(self, session: AsyncSession, user: UserRow) -> Session:
        token = secrets.token_urlsafe(32)
        now = _now()
        expires = now + self.session_ttl
        session.add(
            SessionRow(
                token_hash=_token_hash(token), user_id=user.id, created_at=now, expires_at=expires
            )
        )
        return Session(token=token, user=self._user(user), expires_at=expires)

    async def register(self, name: str, password: str) -> User:
        """A new account with the welcome grant, under the name's NFKC form.
        :class:`AccountError` if the name breaks the rules of :mod:`erren.server.store.names`
        ("bad name: ...") or the password is shorter than 8 characters,
        :class:`NameTakenError` if the name or a look-alike is taken."""
        try:
            name = names.check_name(name)
        except names.BadNameError as err:
            raise AccountError(str(err)) from None
        key, look = _name_key(name), names.skeleton(name)
        if not isinstance(password, str) or len(password) < MIN_PASSWORD:
            raise AccountError(f"the password is too short: at least {MIN_PASSWORD} characters")
        if len(password) > MAX_PASSWORD:
            raise AccountError(f"the password is too long: at most {MAX_PASSWORD} characters")

        async def clash(session: AsyncSession) -> NameTakenError | None:
            same = await session.scalar(select(UserRow.name).where(UserRow.name_key == key))
            if same is not None:
                return NameTakenError("name-taken", f"the name {name!r} is taken", same)
            like = await session.scalar(select(UserRow.name).where(UserRow.name_skeleton == look))
            if like is not None:
                return NameTakenError(
                    "name-confusable",
                    f"the name {name!r} looks like the existing name {like!r} "
                    "(letters of other scripts, case or width); choose another",
                    like,
                )
            return None

        async with self._read() as session:
            if found := await clash(session):
                raise found
        hashed = await asyncio.to_thread(self._passwords.hash, password)
        try:
            async with self._write() as session:
                if found := await clash(session):
                    raise found
                row = await self._new_user(session, name, hashed, guest=False)
                row.name_skeleton = look
                await session.flush()
        except IntegrityError:  # a concurrent registration won the name or its look-alike
            async with self._read() as session:
                found = await clash(session)
            raise found or NameTakenError(
                "name-taken", f"the name {name!r} is taken", name
            ) from None
        return self._user(row)

    async def login(self, name: str, password: str) -> Session:
        """A new session for ``name``; :class:`AuthError` (one message) if the name is unknown,
        a guest's, or the password wrong."""
        refused = AuthError("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise refused
        if len(password) > MAX_PASSWORD:
            raise refused
        key = _name_key(name)
        if len(key) > names.MAX_KEY:  # no account has such a name; the column could not hold it
            raise AccountError(
                f"bad name: its normalised form has {len(key)} characters, at most "
                f"{names.MAX_KEY} are possible"
            )
        async with self._read() as session:
            row = await session.scalar(select(UserRow).where(UserRow.name_key == key))
        hashed = None if row is None else row.password_hash
        if not await asyncio.to_thread(self._passwords.verify, hashed, password):
            raise refused
        assert row is not None and hashed is not None
        rehashed = None
        if self._passwords.needs_rehash(hashed):
            rehashed = await asyncio.to_thread(self._passwords.hash, password)
        async with self._write() as session:
            now = _now()
            await session.execute(
                delete(SessionRow).where(SessionRow.user_id == row.id, SessionRow.expires_at <= now)
            )
            if rehashed is not None:
                await session.execute(
                    update(UserRow).where(UserRow.id == row.id).values(password_hash=rehashed)
                )
            return await self._new_session(session, row)

    async def guest(self) -> Session:
        """A new guest user (``guest-`` and 8 hex digits, no password) with the welcome grant,
        and a session for it."""
        for _ in range(8):
            name = _GUEST_PREFIX + secrets.token_hex(4)
            try:
                async with self._write() as session:
                    row = await self._new_user(session, name, None, guest=True)
                    return await self._new_session(session, row)
            except IntegrityError:  # the name was taken: draw another
                continue
        raise StoreError("could not find a free guest name")  # pragma: no cover

    async def user_for_token(self, token: str) -> User | None:
        """The user of a live session, or ``None`` (unknown, expired or logged out)."""
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            return None
        async with self._read() as session:
            row = await session.scalar(
                select(UserRow)
                .join(SessionRow, SessionRow.user_id == UserRow.id)
                .where(SessionRow.token_hash == _token_hash(token), SessionRow.expires_at > _now())
            )
        return None if row is None else self._user(row)

    async def logout(self, token: str) -> None:
        """End the session (nothing happens for an unknown token)."""
        if not isinstance(token, str):
            return
        async with self._write() as session:
            await session.execute(
                delete(SessionRow).where(SessionRow.token_hash == _token_hash(token))
            )

    async def user(self, user_id: int) -> User | None:
        """The user with this id, or ``None``."""
        async with self._read() as session:
            row = await session.get(UserRow, user_id)
        return None if row is None else self._user(row)

    # ----------------------------------------------------------------------------------------
    # Beans

    async def _accounts(self, session: AsyncSession, user_ids: Iterable[int]) -> dict[int, Account]:
        """The users' accounts, locked for update in id order; :class:`AccountError` if one of
        the users does not exist."""
        wanted = sorted(set(user_ids))
        rows = (
            await session.scalars(
                select(Account)
                .where(Account.user_id.in_(wanted))
                .order_by(Account.id)
                .with_for_update()
            )
        ).all()
        found = {row.user_id: row for row in rows if row.user_id is not None}
        missing = [user_id for user_id in wanted if user_id not in found]
        if missing:
            raise AccountError(f"no user {missing[0]}")
        return found

    async def _grant(
        self, session: AsyncSession, account: Account, amount: int, reason: str, key: str | None
    ) -> int:
        assert account.user_id is not None
        if amount < 0 and account.balance < -amount:
            raise InsufficientBeans(account.user_id, -amount, account.balance)
        now = _now()
        journal = Journal(key=key, kind="grant", created_at=now)
        session.add(journal)
        await session.flush()
        house_balance = await session.scalar(
            update(Account)
            .where(Account.id == self._house_id)
            .values(balance=Account.balance - amount)
            .returning(Account.balance)
        )
        assert house_balance is not None
        account.balance += amount
        session.add_all(
            [
                Entry(
                    journal_id=journal.id,
                    account_id=account.id,
                    counter_account_id=self._house_id,
                    amount=amount,
                    balance_after=account.balance,
                    reason=reason,
                    created_at=now,
                ),
                Entry(
                    journal_id=journal.id,
                    account_id=self._house_id,
                    counter_account_id=account.id,
                    amount=-amount,
                    balance_after=house_balance,
                    reason=reason,
                    created_at=now,
                ),
            ]
        )
        await session.flush()
        return account.balance

    async def balance(self, user_id: int) -> int:
        """The user's beans; :class:`AccountError` for an unknown user."""
        async with self._read() as session:
            balance = await session.scalar(
                select(Account.balance).where(Account.user_id == user_id)
            )
        if balance is None:
            raise AccountError(f"no user {user_id}")
        return balance

    async def grant(self, user_id: int, amount: int, reason: str, *, key: str | None = None) -> int:
        """Beans from the house (the only way the total changes); returns the new balance.  A
        negative ``amount`` takes beans back (:class:`InsufficientBeans` if more than the
        balance).  With a ``key``, a grant happens once: a repeat returns the balance."""
        amount = _whole(amount, "amount")
        if amount == 0:
            raise ValueError("a grant of 0 beans")
        reason = _reason(reason)
        if key is not None and not 0 < len(key) <= MAX_KEY:
            raise ValueError(f"a key is 1–{MAX_KEY} characters")
        try:
            async with self._write() as session:
                account = (await self._accounts(session, [user_id]))[user_id]
                if key is not None and await session.scalar(
                    select(Journal.id).where(Journal.key == key)
                ):
                    return account.balance
                return await self._grant(session, account, amount, reason, key)
        except IntegrityError:
            if key is not None and await self._settled(key):
                return await self.balance(user_id)
            raise

    async def _settled(self, key: str) -> bool:
        async with self._read() as session:
            return await session.scalar(select(Journal.id).where(Journal.key == key)) is not None

    async def settle(
        self, key: str, transfers: Sequence[Transfer], *, strict: bool = False
    ) -> bool:
        """Apply ``transfers`` in order, all in one transaction with their ledger rows, once per
        ``key``: ``True`` if applied now, ``False`` if ``key`` was settled before (nothing
        changes).  An amount above the payer's balance at that point is clamped to it (the
        payee gets what was paid; a 0 payment writes no ledger row), or with ``strict=True``
        raises :class:`InsufficientBeans` and applies nothing.  :class:`AccountError` (nothing
        applied) for an unknown user."""
        if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
            raise ValueError(f"a settlement key is 1–{MAX_KEY} characters, not {key!r}")
        for transfer in transfers:
            if not isinstance(transfer, Transfer):
                raise TypeError(f"not a Transfer: {transfer!r}")
            if _whole(transfer.amount, "a transfer's amount") < 0:
                raise ValueError(f"a negative transfer: {transfer!r}")
            if transfer.payer_id == transfer.payee_id:
                raise ValueError(f"a transfer to oneself: {transfer!r}")
            _reason(transfer.reason)
        try:
            async with self._write() as session:
                if await session.scalar(select(Journal.id).where(Journal.key == key)) is not None:
                    return False
                now = _now()
                journal = Journal(key=key, kind="settle", created_at=now)
                session.add(journal)
                await session.flush()  # a concurrent settlement of this key waits here, then fails
                accounts = await self._accounts(
                    session, [u for t in transfers for u in (t.payer_id, t.payee_id)]
                )
                for transfer in transfers:
                    payer, payee = accounts[transfer.payer_id], accounts[transfer.payee_id]
                    paid = min(transfer.amount, payer.balance)
                    if strict and paid < transfer.amount:
                        raise InsufficientBeans(transfer.payer_id, transfer.amount, payer.balance)
                    if paid == 0:
                        continue
                    payer.balance -= paid
                    payee.balance += paid
                    for account, other, amount in ((payer, payee, -paid), (payee, payer, paid)):
                        session.add(
                            Entry(
                                journal_id=journal.id,
                                account_id=account.id,
                                counter_account_id=other.id,
                                amount=amount,
                                balance_after=account.balance,
                                reason=transfer.reason,
                                created_at=now,
                            )
                        )
                await session.flush()
        except IntegrityError:
            if await self._settled(key):
                return False
            raise
        return True

    async def ledger(self, user_id: int, limit: int = 50) -> list[LedgerEntry]:
        """The user's ledger rows, newest first."""
        mine, other = aliased(Account), aliased(Account)
        async with self._read() as session:
            if not await session.scalar(select(Account.id).where(Account.user_id == user_id)):
                raise AccountError(f"no user {user_id}")
            rows = (
                await session.execute(
                    select(
                        Entry.id,
                        Entry.amount,
                        Entry.balance_after,
                        Entry.reason,
                        Journal.key,
                        other.user_id,
                        Entry.created_at,
                    )
                    .join(mine, Entry.account_id == mine.id)
                    .join(other, Entry.counter_account_id == other.id)
                    .join(Journal, Entry.journal_id == Journal.id)
                    .where(mine.user_id == user_id)
                    .order_by(Entry.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            LedgerEntry(
                id=row[0],
                user_id=user_id,
                amount=row[1],
                balance_after=row[2],
                reason=row[3],
                key=row[4],
                counterparty_id=row[5],
                created_at=row[6],
            )
            for row in rows
        ]

    async def audit(self) -> Audit:
        """Check the ledger's invariants (see :meth:`audit_ledger`) and return its totals;
        :class:`StoreError` naming every failure if one fails."""
        audit, problems = await self.audit_ledger()
        if problems:
            raise StoreError("ledger inconsistent: " + "; ".join(problems))
        return audit

    async def audit_ledger(self) -> tuple[Audit, list[str]]:
        """The ledger's totals and the list of its broken invariants (empty when it is sound):
        the beans all users hold equal the beans granted to them (and the house's balance is
        minus that), every account's entries sum to its balance and each entry's
        ``balance_after`` is the running sum of its account, every journal's entries sum to 0,
        grants come from the house and settlements move beans between players only, no user
        balance is negative.  One snapshot: safe on a live server."""
        async with self._snapshot() as session:
            accounts = (
                await session.execute(select(Account.id, Account.kind, Account.balance))
            ).all()
            entries = (
                await session.execute(
                    select(
                        Entry.account_id,
                        Entry.counter_account_id,
                        Entry.amount,
                        Entry.balance_after,
                        Journal.id,
                        Journal.kind,
                    )
                    .join(Journal, Journal.id == Entry.journal_id)
                    .order_by(Entry.account_id, Entry.id)
                )
            ).all()
            kinds = dict(
                (
                    await session.execute(select(Journal.kind, func.count()).group_by(Journal.kind))
                ).all()
            )
        house_ids = {account_id for account_id, kind, _ in accounts if kind == HOUSE}
        problems: list[str] = []
        sums: dict[int, int] = {}
        journal_sums: dict[int, int] = {}
        granted_to_users = 0
        for account_id, counter_id, amount, balance_after, journal_id, kind in entries:
            running = sums.get(account_id, 0) + amount
            sums[account_id] = running
            journal_sums[journal_id] = journal_sums.get(journal_id, 0) + amount
            if balance_after != running:
                problems.append(
                    f"account {account_id}: an entry of journal {journal_id} says the balance "
                    f"became {balance_after}, but its entries sum to {running} there"
                )
            house_side = account_id in house_ids or counter_id in house_ids
            if kind == "grant" and not house_side:
                problems.append(f"grant journal {journal_id} does not come from the house")
            if kind == "settle" and house_side:
                problems.append(f"settlement journal {journal_id} moves beans of the house")
            if kind == "grant" and account_id not in house_ids:
                granted_to_users += amount
        problems += [
            f"journal {journal_id} sums to {total}, not 0"
            for journal_id, total in journal_sums.items()
            if total != 0
        ]
        users_total = house = 0
        for account_id, kind, balance in accounts:
            if sums.get(account_id, 0) != balance:
                problems.append(
                    f"account {account_id}: balance {balance} ≠ its entries' sum "
                    f"{sums.get(account_id, 0)}"
                )
            if kind == HOUSE:
                house += balance
            elif balance < 0:
                problems.append(f"account {account_id} is negative: {balance}")
            else:
                users_total += balance
        if users_total != granted_to_users:
            problems.append(f"users hold {users_total} beans but were granted {granted_to_users}")
        if users_total + house != 0:
            problems.append(
                f"balances sum to {users_total + house}, not 0 (users {users_total}, house {house})"
            )
        audit = Audit(
            users_total=users_total,
            granted=-house,
            accounts=len(accounts),
            journals=sum(kinds.values()),
            entries=len(entries),
            grants=int(kinds.get("grant", 0)),
            settlements=int(kinds.get("settle", 0)),
        )
        return audit, problems

    async def journals(self, kind: str, prefix: str = "") -> list[LedgerJournal]:
        """Every journal of ``kind`` (``grant`` or ``settle``) whose key starts with ``prefix``
        (``""``: all, keyless ones included), oldest first, with its users' rows: what the
        ledger audit compares with the game records and the grant rules."""
        if kind not in ("grant", "settle"):
            raise ValueError(f"a journal is a 'grant' or a 'settle', not {kind!r}")
        wanted = Journal.kind == kind
        if prefix:
            wanted = and_(wanted, Journal.key.startswith(prefix, autoescape=True))
        async with self._read() as session:
            rows = (
                await session.execute(
                    select(
                        Journal.id,
                        Journal.key,
                        Journal.created_at,
                        Account.user_id,
                        Entry.amount,
                        Entry.balance_after,
                    )
                    .outerjoin(Entry, Entry.journal_id == Journal.id)
                    .outerjoin(Account, Account.id == Entry.account_id)
                    .where(wanted)
                    .order_by(Journal.id, Entry.id)
                )
            ).all()
        found: dict[int, tuple[str | None, datetime, list[JournalLine]]] = {}
        for journal_id, key, created_at, user_id, amount, balance_after in rows:
            _, _, lines = found.setdefault(journal_id, (key, created_at, []))
            if amount is not None and user_id is not None:
                lines.append(JournalLine(user_id, amount, balance_after))
        return [
            LedgerJournal(key, kind, tuple(lines), created_at)
            for key, created_at, lines in found.values()
        ]

    async def balance_at(self, user_id: int, when: datetime) -> int:
        """The user's balance as it stood at ``when`` (after the ledger rows written until
        then; 0 before the first)."""
        async with self._read() as session:
            balance = await session.scalar(
                select(Entry.balance_after)
                .join(Account, Account.id == Entry.account_id)
                .where(Account.user_id == user_id, Entry.created_at <= when)
                .order_by(Entry.id.desc())
                .limit(1)
            )
        return 0 if balance is None else balance

    async def claim_relief(self, user_id: int, *, now: datetime | None = None) -> tuple[int, int]:
        """The daily relief grant (救济豆): a registered player whose balance is below
        :data:`RELIEF_BELOW` (1,000: no room admits him) is topped up to exactly
        :data:`RELIEF_TOP_UP` (2,000), once per UTC day (``now``: the moment of the claim,
        for tests).  Returns ``(granted, balance)``; the grant is a ledger grant with the key
        ``relief:{user_id}:{YYYY-MM-DD}``, so two claims at once grant once.
        :class:`ReliefError` (``guest``, ``already-claimed``, ``not-needed``) if refused,
        :class:`AccountError` for an unknown user."""
        when = _now() if now is None else now
        if when.tzinfo is None:
            raise ValueError(f"naive datetime {when!r}: give an aware (UTC) time")
        day = when.astimezone(UTC).date().isoformat()
        key = f"relief:{user_id}:{day}"
        claimed = ReliefError(
            "already-claimed",
            f"you have already claimed today's relief ({day}, UTC); come back tomorrow",
        )
        try:
            async with self._write() as session:
                account = (await self._accounts(session, [user_id]))[user_id]
                if await session.scalar(select(UserRow.is_guest).where(UserRow.id == user_id)):
                    raise ReliefError(
                        "guest", "relief is for registered players: register an account"
                    )
                if await session.scalar(select(Journal.id).where(Journal.key == key)):
                    raise claimed
                if account.balance >= RELIEF_BELOW:
                    raise ReliefError(
                        "not-needed",
                        f"relief is for a balance below {RELIEF_BELOW:,} beans; "
                        f"you hold {account.balance:,}",
                    )
                granted = RELIEF_TOP_UP - account.balance
                balance = await self._grant(session, account, granted, "relief", key)
        except IntegrityError:
            if await self._settled(key):  # a concurrent claim of the same day won
                raise claimed from None
            raise
        return granted, balance

    # ----------------------------------------------------------------------------------------
    # Games

    async def create_game(  # noqa: PLR0917  (the contract's positional signature)
        self,
        ruleset: str,
        options: dict[str, Any],
        seats: tuple[int | None, int | None],
        seed: int,
        salt: str,
        room: str | None = None,
    ) -> int:
        """Store a new game's header; returns its id.  The commitment ``sha256(f"{seed}:{salt}")``
        is public at once, the seed and salt only when the game is finished."""
        if not isinstance(ruleset, str) or not 0 < len(ruleset) <= 64:
            raise ValueError(f"bad ruleset name {ruleset!r}")
        stored_options = _json(options, "options")
        if len(seats) != 2 or any(
            s is not None and (not isinstance(s, int) or isinstance(s, bool)) for s in seats
        ):
            raise ValueError(f"seats must be two user ids or None (computer), not {seats!r}")
        seed = _whole(seed, "seed")
        if not isinstance(salt, str) or not salt:
            raise ValueError("the salt must be a non-empty string")
        if room is not None and (not isinstance(room, str) or len(room) > 64):
            raise ValueError(f"bad room {room!r}")
        row = Game(
            ruleset=ruleset,
            options=stored_options,
            seat0_user_id=seats[0],
            seat1_user_id=seats[1],
            room=room,
            commitment=commit(seed, salt),
            seed=str(seed),
            salt=salt,
            finished=False,
            record=None,
            summary=None,
            created_at=_now(),
            finished_at=None,
        )
        try:
            async with self._write() as session:
                session.add(row)
                await session.flush()
        except IntegrityError:
            raise StoreError(f"a seat's user does not exist: {seats!r}") from None
        return row.id

    async def append_action(self, game_id: int, seq: int, action: str) -> None:
        """Make action ``seq`` of the game durable (committed when this returns).  Repeating an
        existing ``seq`` with the same action does nothing; with another action, or on a
        finished or unknown game, :class:`StoreError`."""
        seq = _whole(seq, "seq")
        if seq < 0:
            raise ValueError(f"seq must be ≥ 0, not {seq}")
        if not isinstance(action, str) or not action:
            raise ValueError(f"bad action {action!r}")

        def check(finished: bool | None, existing: str | None) -> bool:
            """Whether the action is already there; raises if it cannot be appended."""
            if finished is None:
                raise StoreError(f"no game {game_id}")
            if existing is not None:
                if existing != action:
                    raise StoreError(
                        f"game {game_id} already has action {seq} = {existing!r}, not {action!r}"
                    )
                return True
            if finished:
                raise StoreError(f"game {game_id} is finished")
            return False

        # The hot path (every action of every table): one INSERT ... SELECT that adds the row
        # only if the game exists and is running; anything else is diagnosed afterwards.
        append = insert(GameAction).from_select(
            ["game_id", "seq", "action", "created_at"],
            select(
                literal(game_id, Integer()),
                literal(seq, Integer()),
                literal(action, Text()),
                literal(_now(), UTCDateTime()),
            ).where(exists().where(Game.id == game_id, Game.finished.is_(False))),
        )
        self._check_file()
        try:
            async with self._write_guard, self._write_engine.begin() as conn:
                if (await conn.execute(append)).rowcount == 1:
                    return
        except IntegrityError:
            pass  # this seq is taken: same action or not?
        async with self._read() as session:
            found = (
                await session.execute(
                    select(Game.finished, GameAction.action)
                    .outerjoin(
                        GameAction, and_(GameAction.game_id == Game.id, GameAction.seq == seq)
                    )
                    .where(Game.id == game_id)
                )
            ).first()
        if not check(*(found or (None, None))):  # pragma: no cover  (a finished game raised)
            raise StoreError(f"game {game_id}: action {seq} was not stored")

    async def append_actions(self, rows: Sequence[tuple[int, int, str]]) -> list[StoreError | None]:
        """Make many ``(game_id, seq, action)`` rows durable in ONE transaction (group commit:
        one commit for the actions of many tables).  Returns, per row, ``None`` when it is
        stored (or was already there) and the :class:`StoreError` :meth:`append_action` would
        raise when it is refused; a refused row does not keep the others out.  Rows of one game
        must come in ``seq`` order."""
        checked: list[tuple[int, int, str]] = []
        for raw_game, raw_seq, action in rows:
            game_id, seq = _whole(raw_game, "game_id"), _whole(raw_seq, "seq")
            if seq < 0:
                raise ValueError(f"seq must be ≥ 0, not {seq}")
            if not isinstance(action, str) or not action:
                raise ValueError(f"bad action {action!r}")
            checked.append((game_id, seq, action))
        if not checked:
            return []
        # The hot path: every game is running and every seq is new → one multi-row INSERT.
        # The games are read with FOR SHARE (PostgreSQL): none can be finished meanwhile.
        ids = sorted({game_id for game_id, _, _ in checked})
        now = _now()
        self._check_file()
        try:
            async with self._write_guard, self._write_engine.begin() as conn:
                running = set((await conn.scalars(_RUNNING, {"ids": ids})).all())
                if len(running) == len(ids):
                    await conn.execute(
                        _APPEND,
                        [
                            {"game_id": g, "seq": q, "action": a, "created_at": now}
                            for g, q, a in checked
                        ],
                    )
                    return [None] * len(checked)
        except IntegrityError:
            pass  # a seq is taken (a replay after a restart?): sort it out row by row
        out: list[StoreError | None] = []
        for row in checked:
            try:
                await self.append_action(*row)
            except StoreError as err:
                out.append(err)
            else:
                out.append(None)
        return out

    async def finish_game(self, game_id: int, record: dict[str, Any], summary: str) -> None:
        """Mark the game finished with its final record and a one-line summary; the seed and
        salt become public.  Finishing again with the same record and summary does nothing;
        with others, :class:`StoreError`."""
        stored = _json(record, "record")
        if not isinstance(summary, str):
            raise ValueError("the summary must be a string")
        async with self._write() as session:
            game = await session.get(Game, game_id, with_for_update=True)
            if game is None:
                raise StoreError(f"no game {game_id}")
            if game.finished:
                if game.record == stored and game.summary == summary:
                    return
                raise StoreError(f"game {game_id} is already finished with another record")
            game.finished = True
            game.record = stored
            game.summary = summary
            game.finished_at = _now()

    @staticmethod
    def _game(row: Game, actions: Sequence[str], *, reveal: bool) -> StoredGame:
        shown = reveal or row.finished
        return StoredGame(
            id=row.id,
            ruleset=row.ruleset,
            options=row.options,
            seats=(row.seat0_user_id, row.seat1_user_id),
            room=row.room,
            commitment=row.commitment,
            seed=int(row.seed) if shown else None,
            salt=row.salt if shown else None,
            actions=tuple(actions),
            finished=row.finished,
            record=row.record,
            summary=row.summary,
            created_at=row.created_at,
            finished_at=row.finished_at,
        )

    async def unfinished_games(self) -> list[StoredGame]:
        """Every unfinished game, oldest first, with its seed, salt and actions in ``seq``
        order: what a restarted server needs to restore its tables."""
        async with self._read() as session:
            games = (
                await session.scalars(
                    select(Game).where(Game.finished.is_(False)).order_by(Game.id)
                )
            ).all()
            rows = (
                await session.execute(
                    select(GameAction.game_id, GameAction.action)
                    .join(Game, Game.id == GameAction.game_id)
                    .where(Game.finished.is_(False))
                    .order_by(GameAction.game_id, GameAction.seq)
                )
            ).all()
        actions: dict[int, list[str]] = {}
        for game_id, action in rows:
            actions.setdefault(game_id, []).append(action)
        return [self._game(game, actions.get(game.id, ()), reveal=True) for game in games]

    async def get_game(self, game_id: int, *, reveal: bool = False) -> StoredGame | None:
        """The game, or ``None``.  Its seed and salt are ``None`` until it is finished (unless
        ``reveal``).  NB: the actions of a running game include the chance actions (the whole
        wall): do not show them to players before the game is finished."""
        async with self._read() as session:
            game = await session.get(Game, game_id)
            if game is None:
                return None
            actions = (
                await session.scalars(
                    select(GameAction.action)
                    .where(GameAction.game_id == game_id)
                    .order_by(GameAction.seq)
                )
            ).all()
        return self._game(game, actions, reveal=reveal)

    async def games_of(self, user_id: int, limit: int = 50) -> list[GameSummary]:
        """The user's games (running and finished), newest first."""
        first, second = aliased(UserRow), aliased(UserRow)
        async with self._read() as session:
            rows = (
                await session.execute(
                    select(Game, first.name, second.name)
                    .outerjoin(first, first.id == Game.seat0_user_id)
                    .outerjoin(second, second.id == Game.seat1_user_id)
                    .where(or_(Game.seat0_user_id == user_id, Game.seat1_user_id == user_id))
                    .order_by(Game.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            GameSummary(
                id=game.id,
                ruleset=game.ruleset,
                room=game.room,
                seats=(game.seat0_user_id, game.seat1_user_id),
                players=(name0, name1),
                finished=game.finished,
                summary=game.summary,
                created_at=game.created_at,
                finished_at=game.finished_at,
            )
            for game, name0, name1 in rows
        ]

    async def finished_games(self, *, after: int = 0, limit: int = 500) -> list[StoredGame]:
        """Finished games with ids above ``after``, oldest first, at most ``limit`` (page
        through them by passing the last id as ``after``); seed and salt revealed, record set,
        the actions left out (the record has them)."""
        async with self._read() as session:
            games = (
                await session.scalars(
                    select(Game)
                    .where(Game.finished.is_(True), Game.id > after)
                    .order_by(Game.id)
                    .limit(limit)
                )
            ).all()
        return [self._game(game, (), reveal=True) for game in games]

    async def unfinished_game_ids(self) -> list[int]:
        """The ids of the games not finished (yet), oldest first."""
        async with self._read() as session:
            return list(
                (
                    await session.scalars(
                        select(Game.id).where(Game.finished.is_(False)).order_by(Game.id)
                    )
                ).all()
            )

    async def games_finished(self, game_ids: Iterable[int]) -> dict[int, bool]:
        """Of these game ids, those that exist, each with whether it is finished."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        async with self._read() as session:
            rows = (
                await session.execute(select(Game.id, Game.finished).where(Game.id.in_(wanted)))
            ).all()
        return {game_id: bool(finished) for game_id, finished in rows}

    # ------------------------------------------------------------------ arcade campaigns
    async def get_campaign(self, user_id: int) -> dict[str, Any] | None:
        """The user's campaign (the JSON :meth:`put_campaign` stored), or ``None``."""
        async with self._read() as session:
            row = await session.get(CampaignRow, user_id)
            return None if row is None else dict(row.state)

    async def put_campaign(self, user_id: int, state: dict[str, Any]) -> None:
        """Store (create or replace) the user's campaign."""
        stored = _json(state, "campaign")
        async with self._write() as session:
            row = await session.get(CampaignRow, user_id, with_for_update=True)
            if row is None:
                session.add(CampaignRow(user_id=user_id, state=stored, updated_at=_now()))
            else:
                row.state = stored
                row.updated_at = _now()

    async def delete_campaign(self, user_id: int) -> bool:
        """Forget the user's campaign; ``False`` if there was none."""
        async with self._write() as session:
            row = await session.get(CampaignRow, user_id, with_for_update=True)
            if row is None:
                return False
            await session.delete(row)
            return True
