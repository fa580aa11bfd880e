"""Friends: ``friend_codes`` (each registered account's short code, made when first asked for),
``friendships`` (one row per side of a friendship), ``friend_requests`` (a pending request,
from one account to another) and ``blocks`` (who blocked whom).

Nothing is copied: nobody has a friend, a request or a block before this revision.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def _user(column: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["users.id"], name=op.f(f"fk_{table}_{column}_users"), ondelete="CASCADE"
    )


def _pair(table: str, first: str, second: str) -> None:
    """A table of ordered pairs of accounts with the time the pair was made."""
    op.create_table(
        table,
        sa.Column(first, sa.Integer(), nullable=False),
        sa.Column(second, sa.Integer(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.CheckConstraint(f"{first} <> {second}", name=op.f(f"ck_{table}_distinct")),
        _user(first, table),
        _user(second, table),
        sa.PrimaryKeyConstraint(first, second, name=op.f(f"pk_{table}")),
    )
    op.create_index(op.f(f"ix_{table}_{second}"), table, [second])


def upgrade() -> None:
    op.create_table(
        "friend_codes",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        _user("user_id", "friend_codes"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_friend_codes")),
        sa.UniqueConstraint("code", name=op.f("uq_friend_codes_code")),
    )
    _pair("friendships", "user_id", "friend_id")
    _pair("friend_requests", "from_id", "to_id")
    _pair("blocks", "user_id", "blocked_id")


def downgrade() -> None:
    for table, second in (
        ("blocks", "blocked_id"),
        ("friend_requests", "to_id"),
        ("friendships", "friend_id"),
    ):
        op.drop_index(op.f(f"ix_{table}_{second}"), table_name=table)
        op.drop_table(table)
    op.drop_table("friend_codes")
