"""Reviews: ``hand_reviews``, the review of one seat's decisions in one finished hand
(``erren.review``'s ``HandReview`` JSON) with its summary numbers (decisions, matches, bad
moves, expected loss), kept once worked out; indexed by player and family for a profile's
last hands.

Nothing is copied: a hand is reviewed the first time someone asks for it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "hand_reviews",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("family", sa.String(length=64), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("bad", sa.Integer(), nullable=False),
        sa.Column("loss", sa.Float(), nullable=False),
        sa.Column("review", JSON, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_hand_reviews_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_hand_reviews_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_hand_reviews")),
    )
    op.create_index(
        "ix_hand_reviews_user_id_family_game_id",
        "hand_reviews",
        ["user_id", "family", "game_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_hand_reviews_user_id_family_game_id", table_name="hand_reviews")
    op.drop_table("hand_reviews")
