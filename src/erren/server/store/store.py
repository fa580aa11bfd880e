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

from erren.server.store.accounts import Accounts
from erren.server.store.database import (
    DATABASE_FILE,
    SESSION_TTL,
    WELCOME_GRANT,
    alembic_config,
    database_url,
)
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
from erren.server.store.ledger import RELIEF_BELOW, RELIEF_TOP_UP
from erren.server.store.profiles import Profiles
from erren.server.store.settings import AccountSettings, SavedSettings
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
    "StoredGame",
    "Transfer",
    "User",
    "alembic_config",
    "database_url",
]


class Store(Accounts, Games, Profiles, AccountSettings):
    """The server's storage; open with :meth:`open`, close with :meth:`close` (or
    ``async with await Store.open(...) as store``).  Safe to share between tasks.

    Its parts: :class:`~.database.StoreBase` (the database, transactions),
    :class:`~.ledger.Ledger` (beans), :class:`~.accounts.Accounts` (users, sessions) and
    :class:`~.games.Games` (game records, campaigns), :class:`~.profiles.Profiles` (settled
    hands, ratings, leaderboards, the filtered history), :class:`~.settings.AccountSettings`
    (a registered player's settings panel)."""
