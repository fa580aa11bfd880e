"""Arcade campaigns: one stage-mode run per user, as versioned JSON.

Revision ID: 0002
Revises: 0001
Create Date: 2025-12-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_campaigns_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_campaigns")),
    )


def downgrade() -> None:
    op.drop_table("campaigns")
