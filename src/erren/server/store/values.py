"""What the store returns: users and sessions, transfers and ledger rows, games, audits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = [
    "Audit",
    "GameSummary",
    "JournalLine",
    "LedgerEntry",
    "LedgerJournal",
    "Session",
    "StoredGame",
    "Transfer",
    "User",
]


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
    """A line of a player's game list; ``players`` are the seats' names (``None``: computer);
    ``outcome`` how it ended, from its record (``{"kind": "called-off"}`` for a hand called
    off; ``None`` while running or for a game finished before records had one)."""

    id: int
    ruleset: str
    room: str | None
    seats: tuple[int | None, int | None]
    players: tuple[str | None, str | None]
    finished: bool
    summary: str | None
    created_at: datetime
    finished_at: datetime | None
    outcome: dict[str, Any] | None = None


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
