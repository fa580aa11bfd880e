"""Initial schema: users, sessions, the bean ledger (accounts, journal, ledger), games.

Revision ID: 0001
Revises:
Create Date: 2025-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """The whole first schema as one snapshot, kept whole on purpose (over 80 lines): an applied
    migration is never edited, and split up it would no longer read as the schema it made."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name_key", name=op.f("uq_users_name_key")),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("expires_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_sessions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"])
    op.create_index(op.f("ix_sessions_expires_at"), "sessions", ["expires_at"])
    accounts = op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("kind IN ('house', 'user')", name=op.f("ck_accounts_kind")),
        sa.CheckConstraint(
            "balance >= 0 OR kind = 'house'", name=op.f("ck_accounts_balance_not_negative")
        ),
        sa.CheckConstraint(
            "(kind = 'house') = (user_id IS NULL)", name=op.f("ck_accounts_house_has_no_user")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_accounts_user_id_users"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("user_id", name=op.f("uq_accounts_user_id")),
    )
    op.bulk_insert(accounts, [{"kind": "house", "user_id": None, "balance": 0}])
    op.create_table(
        "journal",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("key", sa.String(200), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.CheckConstraint("kind IN ('grant', 'settle')", name=op.f("ck_journal_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_journal")),
        sa.UniqueConstraint("key", name=op.f("uq_journal_key")),
    )
    op.create_table(
        "ledger",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("journal_id", sa.BigInteger(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("counter_account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_ledger_amount_not_zero")),
        sa.CheckConstraint("account_id <> counter_account_id", name=op.f("ck_ledger_two_accounts")),
        sa.ForeignKeyConstraint(
            ["journal_id"],
            ["journal.id"],
            name=op.f("fk_ledger_journal_id_journal"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_ledger_account_id_accounts"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["counter_account_id"],
            ["accounts.id"],
            name=op.f("fk_ledger_counter_account_id_accounts"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger")),
    )
    op.create_index(op.f("ix_ledger_journal_id"), "ledger", ["journal_id"])
    op.create_index("ix_ledger_account_id_id", "ledger", ["account_id", "id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("seat0_user_id", sa.Integer(), nullable=True),
        sa.Column("seat1_user_id", sa.Integer(), nullable=True),
        sa.Column("room", sa.String(64), nullable=True),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("seed", sa.Text(), nullable=False),
        sa.Column("salt", sa.Text(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("record", JSON, nullable=True),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("finished_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["seat0_user_id"],
            ["users.id"],
            name=op.f("fk_games_seat0_user_id_users"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["seat1_user_id"],
            ["users.id"],
            name=op.f("fk_games_seat1_user_id_users"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_seat0_user_id"), "games", ["seat0_user_id"])
    op.create_index(op.f("ix_games_seat1_user_id"), "games", ["seat1_user_id"])
    op.create_index(op.f("ix_games_finished"), "games", ["finished"])
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_game_actions_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_game_actions")),
    )


def downgrade() -> None:
    op.drop_table("game_actions")
    op.drop_table("games")
    op.drop_table("ledger")
    op.drop_table("journal")
    op.drop_table("accounts")
    op.drop_table("sessions")
    op.drop_table("users")
