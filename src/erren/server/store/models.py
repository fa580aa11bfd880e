"""The tables of the store, as SQLAlchemy 2 typed declarative models.

The schema itself is created and changed only by the Alembic migrations in ``migrations/``;
these models describe the head revision (a test checks that the two agree).

Beans are kept as a double-entry ledger: every account (one per user, plus the single ``house``
account that grants come from) has a balance, every movement is a :class:`Journal` row (one per
grant or settlement, unique on its ``key`` when it has one) with its :class:`Entry` rows, one per
side of each transfer, so that the entries of a journal sum to zero, the entries of an account sum
to its balance, and the balances of all accounts sum to zero.  The house balance is minus the
beans granted; no other balance is ever negative (a CHECK constraint).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Account",
    "Base",
    "BlockRow",
    "Entry",
    "FriendCodeRow",
    "FriendRequestRow",
    "FriendshipRow",
    "Game",
    "GameAction",
    "HandReviewRow",
    "HandRow",
    "Journal",
    "PlayerDrillRow",
    "RankHistoryRow",
    "RankRow",
    "RatingRow",
    "ServerKey",
    "SessionRow",
    "SettingsRow",
    "UTCDateTime",
    "UserRow",
]

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

HOUSE: str = "house"
"""``Account.kind`` of the house account, the source of every grant."""
USER: str = "user"
"""``Account.kind`` of a user's account."""


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on every database (SQLite keeps no time zone: stored as naive UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: the store keeps aware UTC times")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


JSONType = JSON().with_variant(JSONB(), "postgresql")
BigId = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER keys only


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSONType,
        int: Integer(),
        str: Text(),
    }


class UserRow(Base):
    """A player: registered (with an argon2 password hash) or a guest (no password)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    """NFKC-normalised and casefolded ``name``: names are unique regardless of case."""
    name_skeleton: Mapped[str | None] = mapped_column(String(255), index=True, unique=True)
    """What a registered name looks like (``erren.server.store.names.skeleton``): unique, so no
    two accounts have look-alike names.  ``None`` for guests (and for a pre-existing name that
    looked like an older one)."""
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime]
    origin: Mapped[str | None] = mapped_column(String(32), index=True)
    """Where the account was registered from, as a keyed digest
    (:mod:`~erren.server.store.origins`); ``None`` for guests and for accounts registered
    before revision 0006."""


class ServerKey(Base):
    """A secret the database keeps for itself (the origin digest's key), made by a migration."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    """Hex digits."""


class SessionRow(Base):
    """A login session; only the SHA-256 of the token is kept."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)


class Account(Base):
    """A bean account: one per user, and the house (``user_id`` NULL, ``kind`` ``house``)."""

    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("kind IN ('house', 'user')", name="kind"),
        CheckConstraint("balance >= 0 OR kind = 'house'", name="balance_not_negative"),
        CheckConstraint("(kind = 'house') = (user_id IS NULL)", name="house_has_no_user"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="RESTRICT"), unique=True
    )
    balance: Mapped[int] = mapped_column(BigInteger)


class Journal(Base):
    """One grant or settlement: the unit of atomicity and of idempotency (``key``)."""

    __tablename__ = "journal"
    __table_args__ = (CheckConstraint("kind IN ('grant', 'settle')", name="kind"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    key: Mapped[str | None] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime]


class Entry(Base):
    """One side of a transfer: ``amount`` (signed, never 0) moved on ``account_id``, the other
    side being ``counter_account_id``; ``balance_after`` is the account's balance after it."""

    __tablename__ = "ledger"
    __table_args__ = (
        CheckConstraint("amount <> 0", name="amount_not_zero"),
        CheckConstraint("account_id <> counter_account_id", name="two_accounts"),
        Index("ix_ledger_account_id_id", "account_id", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    journal_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("journal.id", ondelete="RESTRICT"), index=True
    )
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="RESTRICT"))
    counter_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="RESTRICT"))
    amount: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime]


class Game(Base):
    """A game's header and, once finished, its record.  ``commitment`` is public from the start;
    ``seed`` (decimal text: any size of int) and ``salt`` are revealed only when finished."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64), index=True)
    options: Mapped[dict[str, Any]]
    seat0_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="RESTRICT"), index=True
    )
    seat1_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="RESTRICT"), index=True
    )
    room: Mapped[str | None] = mapped_column(String(64), index=True)
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str]
    salt: Mapped[str]
    finished: Mapped[bool] = mapped_column(Boolean, index=True)
    record: Mapped[dict[str, Any] | None]
    summary: Mapped[str | None]
    created_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    """The lease token of the cluster node that owns the game's table (0: never claimed);
    writes with a lower token are refused (:mod:`erren.server.cluster`)."""


class GameAction(Base):
    """One action of a game, in the record's notation (``0:discard:5m``), numbered by ``seq``."""

    __tablename__ = "game_actions"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    action: Mapped[str]
    created_at: Mapped[datetime]


class CampaignRow(Base):
    """A user's arcade campaign (stage mode, arcade §3): the run as versioned JSON
    (``{"format": "erren-arcade-campaign", "version": 1, "run": Run.to_dict(), ...}``)."""

    __tablename__ = "campaigns"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    state: Mapped[dict[str, Any]]
    updated_at: Mapped[datetime]


class SettingsRow(Base):
    """A registered player's settings panel, kept with his account: a JSON document of the
    choices he made (``{"lang": "en", "tiles": "large", ...}``: the keys and values of
    :mod:`erren.server.routes.settings`), replaced whole by each change."""

    __tablename__ = "user_settings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    document: Mapped[dict[str, Any]]
    updated_at: Mapped[datetime]


class HandRow(Base):
    """How a settled hand (one ``games`` row) ended, written once in the transaction that settles
    its beans and updates the ratings: the source of the profile's figures, and the mark that
    the hand was settled (its primary key makes a retried settlement a no-op)."""

    __tablename__ = "hands"
    __table_args__ = (
        CheckConstraint("kind IN ('win', 'draw', 'abort')", name="kind"),
        Index("ix_hands_ruleset_game_id", "ruleset", "game_id"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    ruleset: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    winner: Mapped[int | None]
    """The winner's seat (0 or 1) of a win; ``None`` otherwise."""
    loser: Mapped[int | None]
    """The seat that paid: who dealt in, the other seat of a self-drawn win, the escaper."""
    how: Mapped[str | None] = mapped_column(String(16))
    fan_total: Mapped[int]
    points: Mapped[int]
    delta0: Mapped[int]
    delta1: Mapped[int]
    beans0: Mapped[int] = mapped_column(BigInteger)
    beans1: Mapped[int] = mapped_column(BigInteger)
    rated: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime]


class RatingRow(Base):
    """A registered player's skill rating in one family (openskill's Plackett-Luce ``mu`` and
    ``sigma``), updated by every rated hand he played in it."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_family_user_id", "family", "user_id"),)

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    family: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    hands: Mapped[int]
    updated_at: Mapped[datetime]


class FriendCodeRow(Base):
    """A registered account's friend code: a short code another player types to send it a
    friend request (made the first time the account's code is asked for)."""

    __tablename__ = "friend_codes"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    code: Mapped[str] = mapped_column(String(16), unique=True)


class FriendshipRow(Base):
    """One side of a friendship: ``friend_id`` is a friend of ``user_id`` (each friendship is
    two rows, one per side, written and removed together)."""

    __tablename__ = "friendships"
    __table_args__ = (CheckConstraint("user_id <> friend_id", name="distinct"),)

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    friend_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
        index=True,
    )
    created_at: Mapped[datetime]


class FriendRequestRow(Base):
    """A pending friend request from ``from_id`` to ``to_id`` (removed when answered)."""

    __tablename__ = "friend_requests"
    __table_args__ = (CheckConstraint("from_id <> to_id", name="distinct"),)

    from_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    to_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
        index=True,
    )
    created_at: Mapped[datetime]


class BlockRow(Base):
    """``user_id`` blocked ``blocked_id``: no invite, friend request or quick-match pairing
    between them (either way) while the row stands."""

    __tablename__ = "blocks"
    __table_args__ = (CheckConstraint("user_id <> blocked_id", name="distinct"),)

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
        index=True,
    )
    created_at: Mapped[datetime]


class RankRow(Base):
    """A registered player's standing in one family's ladder in one season (段位,
    :mod:`erren.server.ranks`): his ``step`` (an index of ``ranks.LADDER``) and ``points``,
    moved by every bean-room hand he settles there that season."""

    __tablename__ = "ranks"
    __table_args__ = (
        CheckConstraint("points >= 0", name="points_not_negative"),
        Index("ix_ranks_family_season_step_points", "family", "season", "step", "points"),
    )

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    family: Mapped[str] = mapped_column(String(64), primary_key=True)
    season: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    step: Mapped[int]
    points: Mapped[int]
    hands: Mapped[int]
    updated_at: Mapped[datetime]


class RankHistoryRow(Base):
    """One hand's move of a player's rank: where he stood before and after it (one row per
    player per settled bean-room hand that moved him; unique per game and player)."""

    __tablename__ = "rank_history"
    __table_args__ = (
        Index("ix_rank_history_user_id_family_id", "user_id", "family", "id"),
        UniqueConstraint("game_id", "user_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(64))
    season: Mapped[int]
    step_before: Mapped[int]
    points_before: Mapped[int]
    step_after: Mapped[int]
    points_after: Mapped[int]
    change: Mapped[int]
    """The PT the hand moved (before promotion, demotion or protection)."""
    created_at: Mapped[datetime]


class HandReviewRow(Base):
    """The review of one seat's decisions in one finished hand (``erren.review``'s
    ``HandReview`` as JSON, ``erren-review/1``), kept once worked out, with its summary
    numbers so that a player's last hands read cheaply (``user_id`` the seat's player,
    ``None`` for a computer's seat)."""

    __tablename__ = "hand_reviews"
    __table_args__ = (
        Index("ix_hand_reviews_user_id_family_game_id", "user_id", "family", "game_id"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    seat: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(64))
    decisions: Mapped[int]
    matches: Mapped[int]
    bad: Mapped[int]
    loss: Mapped[float] = mapped_column(Float)
    review: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class PlayerDrillRow(Base):
    """A registered player's own 何切る puzzle (``erren.review.drills``' ``Puzzle`` as JSON),
    made from one of his costliest discards (``game_id``, ``seat``, ``step``) once the hand's
    review was kept; at most 200 per player and family (the oldest dropped).  ``answered_at``:
    when he first answered it (``None``: not yet)."""

    __tablename__ = "player_drills"
    __table_args__ = (
        Index("ix_player_drills_user_id_family_id", "user_id", "family", "id"),
        UniqueConstraint("user_id", "game_id", "step"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int]
    step: Mapped[int]
    puzzle: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    answered_at: Mapped[datetime | None]
