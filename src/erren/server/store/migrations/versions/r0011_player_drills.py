"""A player's own drills: ``player_drills``, a registered player's 何切る puzzles
(``erren.review.drills``' ``Puzzle`` JSON) made from his costliest discards once a hand's review
is kept, with the hand (game id, seat, step) and when he first answered it; at most 200 per
player and family (the store drops the oldest).

Nothing is copied: puzzles are made from the reviews kept from now on.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "player_drills",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("family", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("puzzle", JSON, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("answered_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_player_drills_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_player_drills_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_drills")),
        sa.UniqueConstraint(
            "user_id", "game_id", "step", name=op.f("uq_player_drills_user_id_game_id_step")
        ),
    )
    op.create_index(
        "ix_player_drills_user_id_family_id",
        "player_drills",
        ["user_id", "family", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_player_drills_user_id_family_id", table_name="player_drills")
    op.drop_table("player_drills")
