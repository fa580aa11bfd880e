"""What the store returns: users and sessions, transfers and ledger rows, games, audits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

__all__ = [
    "Audit",
    "BeanLeader",
    "FamilyStats",
    "GameSummary",
    "JournalLine",
    "LedgerEntry",
    "LedgerJournal",
    "RatingLeader",
    "Session",
    "SettledHand",
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
    result: Literal["win", "loss", "draw"] | None = None
    """For the player asking: ``win``, ``loss`` or ``draw`` once settled (an opponent's
    escape is a win, one's own a loss), ``None`` while running, called off or not settled."""
    beans: int | None = None
    """The beans the hand moved for the player asking (``None``: not settled)."""


@dataclass(frozen=True, slots=True)
class SettledHand:
    """How a finished hand ended, as :meth:`.Profiles.settle_hand` keeps it: the hand's ``game_id``
    and ``ruleset``, its ``seats`` (user ids, ``None`` for the computer) and its result (the
    ``HandResult`` fields: ``kind`` ``win``/``draw``/``abort``, ``winner``, ``loser``, ``how``,
    ``fan_total``, ``points``, ``deltas`` in points).  ``rated``: the hand counts for the
    players' ratings (a bean room, two people; guests are never rated)."""

    game_id: int
    ruleset: str
    seats: tuple[int | None, int | None]
    kind: str
    winner: int | None
    loser: int | None
    how: str | None
    fan_total: int
    points: int
    deltas: tuple[int, int]
    rated: bool
    tier: str | None = None
    """The bean room's tier id (``normal``…): a rated hand with a tier moves the players'
    ranks (:mod:`erren.server.ranks`); ``None`` off the bean rooms."""


@dataclass(frozen=True, slots=True)
class FamilyStats:
    """A player's figures in one family, from his settled hands: ``hands`` played, ``wins``,
    ``self_drawn`` wins (自摸), ``dealt_in`` (he discarded or was robbed of the winning tile),
    ``losses`` (every hand he paid: dealt in, the other's self-draw, his escape), ``draws``;
    ``fan_total`` summed over his wins; ``beans`` net; the biggest win (most fans, the first
    such) as ``best_game`` / ``best_fan`` / ``best_points``; his rating (``None``: unrated)."""

    family: str
    hands: int
    wins: int
    self_drawn: int
    dealt_in: int
    losses: int
    draws: int
    fan_total: int
    beans: int
    best_game: int | None
    best_fan: int
    best_points: int
    rating_mu: float | None
    rating_sigma: float | None
    rated_hands: int


@dataclass(frozen=True, slots=True)
class RatingLeader:
    """A line of a family's leaderboard by rating (``mu``, ``sigma``; ordered by ``ordinal``
    = mu − 3σ, openskill's conservative estimate)."""

    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    hands: int


@dataclass(frozen=True, slots=True)
class BeanLeader:
    """A line of a family's leaderboard by beans: the net beans won in the family's rooms."""

    user_id: int
    name: str
    beans: int
    hands: int


@dataclass(frozen=True, slots=True)
class Audit:
    """The ledger's totals, from :meth:`.Ledger.audit` (which raises if an invariant fails) or
    :meth:`.Ledger.audit_findings` (which lists the failures)."""

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
