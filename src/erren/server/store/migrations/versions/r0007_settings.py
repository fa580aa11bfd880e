"""Settings: ``user_settings``, a registered player's settings panel (language, sound, motion,
hints, tile size, high contrast, the table's colour, 自动和, 不吃碰) kept with his account, as one
JSON document per account.

Nothing is copied: an account's settings stay in its browsers until the player changes one
after this revision, or signs in (the browser's settings become the account's).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "user_settings",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("document", JSON, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_settings_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_user_settings")),
    )


def downgrade() -> None:
    op.drop_table("user_settings")
