"""The store: accounts, sessions, the bean ledger and game records, on SQLite or PostgreSQL.

See the package docstring (:mod:`erren.server.store`) for the contract.  Implementation notes:

* One :class:`~.database.Database` (one :class:`~sqlalchemy.ext.asyncio.AsyncEngine`), held by
  every part; every method of a part is one short transaction.
* SQLite: WAL journal, ``synchronous=NORMAL`` (a commit survives the process being killed),
  foreign keys on, writes begin with ``BEGIN IMMEDIATE`` (no lock upgrade deadlocks) and are
  serialised in-process by an :class:`asyncio.Lock` (SQLite has one writer anyway; queueing on
  the lock is cheaper than SQLite's busy-wait), ``busy_timeout`` covers other processes.
* PostgreSQL (psycopg 3): READ COMMITTED; the accounts a settlement touches are locked with
  ``SELECT ... FOR UPDATE`` in id order (no deadlocks); a concurrent settlement with the same key
  blocks on the unique index of ``journal.key`` and then fails, which reads as "already settled".
"""

from __future__ import annotations

from datetime import timedelta
from types import TracebackType
from typing import Self

from erren.server.ranks import Seasons
from erren.server.store.accounts import Accounts
from erren.server.store.database import (
    DATABASE_FILE,
    SESSION_TTL,
    WELCOME_GRANT,
    Database,
    alembic_config,
    database_url,
    whole_number,
)
from erren.server.store.drills import PlayerDrills, StoredDrill
from erren.server.store.errors import (
    AccountError,
    AuthError,
    Fenced,
    InsufficientBeans,
    NameTakenError,
    ReliefError,
    StoreError,
    StoreUnavailable,
)
from erren.server.store.games import Games
from erren.server.store.ledger import RELIEF_BELOW, RELIEF_TOP_UP, Ledger
from erren.server.store.passwords import Passwords
from erren.server.store.profiles import Profiles
from erren.server.store.ranks import Ranks
from erren.server.store.reviews import Reviews, StoredReview
from erren.server.store.settings import AccountSettings, SavedSettings
from erren.server.store.social import Social
from erren.server.store.values import (
    Audit,
    BeanLeader,
    FamilyStats,
    GameSummary,
    JournalLine,
    LedgerEntry,
    LedgerJournal,
    RatingLeader,
    Session,
    SettledHand,
    StoredGame,
    Transfer,
    User,
)

__all__ = [
    "DATABASE_FILE",
    "RELIEF_BELOW",
    "RELIEF_TOP_UP",
    "SESSION_TTL",
    "WELCOME_GRANT",
    "AccountError",
    "Audit",
    "AuthError",
    "BeanLeader",
    "Database",
    "FamilyStats",
    "Fenced",
    "GameSummary",
    "InsufficientBeans",
    "JournalLine",
    "LedgerEntry",
    "LedgerJournal",
    "NameTakenError",
    "RatingLeader",
    "ReliefError",
    "SavedSettings",
    "Session",
    "SettledHand",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredDrill",
    "StoredGame",
    "StoredReview",
    "Transfer",
    "User",
    "alembic_config",
    "database_url",
]


class Store:
    """The server's storage; open with :meth:`open`, close with :meth:`close` (or
    ``async with await Store.open(...) as store``).  Safe to share between tasks.

    It is made of parts, each holding the one :attr:`database` (the engine, transactions):
    :attr:`ledger` (beans), :attr:`accounts` (users, sessions; it holds the ledger for the
    welcome grant), :attr:`games` (game records, campaign runs), :attr:`profiles` (settled
    hands, ratings, leaderboards, the filtered history; it holds the ledger for a hand's beans
    and :attr:`ranks` for its rank moves), :attr:`ranks` (段位: standings per family and season,
    their moves, the rank leaderboards; its :attr:`.Ranks.seasons` calendar and
    :attr:`.Ranks.now` clock are injectable),
    :attr:`settings` (a registered player's settings panel), :attr:`social` (friends,
    friend requests and blocks), :attr:`reviews` (the kept reviews of finished hands,
    :mod:`.reviews`) and :attr:`drills` (a player's own 何切る puzzles, :mod:`.drills`)."""

    def __init__(
        self,
        database: Database,
        *,
        welcome_grant: int = WELCOME_GRANT,
        passwords: Passwords | None = None,
        session_ttl: timedelta = SESSION_TTL,
        seasons: Seasons | None = None,
    ) -> None:
        self.database: Database = database
        self.ledger: Ledger = Ledger(database)
        self.accounts: Accounts = Accounts(
            database,
            self.ledger,
            welcome_grant=whole_number(welcome_grant, "welcome_grant"),
            passwords=passwords or Passwords(),
            session_ttl=session_ttl,
        )
        self.games: Games = Games(database)
        self.ranks: Ranks = Ranks(database, seasons=seasons)
        self.profiles: Profiles = Profiles(database, self.ledger, self.ranks)
        self.settings: AccountSettings = AccountSettings(database)
        self.social: Social = Social(database)
        self.reviews: Reviews = Reviews(database)
        self.drills: PlayerDrills = PlayerDrills(database)

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        welcome_grant: int = WELCOME_GRANT,
        passwords: Passwords | None = None,
        session_ttl: timedelta = SESSION_TTL,
        pool_size: int = 10,
        seasons: Seasons | None = None,
    ) -> Self:
        """Connect, create the schema or migrate it to head, and return the store."""
        whole_number(welcome_grant, "welcome_grant")
        database = await Database.open(url, pool_size=pool_size)
        return cls(
            database,
            welcome_grant=welcome_grant,
            passwords=passwords,
            session_ttl=session_ttl,
            seasons=seasons,
        )

    async def ping(self) -> None:
        """Raise unless the database answers and would take a write (``/ready``): see
        :meth:`.Database.ping`."""
        await self.database.ping()

    async def close(self) -> None:
        """Close the database's connections."""
        await self.database.close()

    async def aclose(self) -> None:
        """The same as :meth:`close` (for :func:`contextlib.aclosing`)."""
        await self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<Store {self.database.engine.url.render_as_string(hide_password=True)}>"
