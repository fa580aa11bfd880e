"""Ranks and seasons (段位): ``ranks`` (a registered player's step and points in one family's
ladder, per season) and ``rank_history`` (each settled bean-room hand's move of a player's
rank), as :mod:`erren.server.ranks` rules them.

Nothing is copied: every player starts this revision unranked (新人一级 at his first bean-room
hand of the season).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "ranks",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("family", sa.String(length=64), nullable=False),
        sa.Column("season", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.CheckConstraint("points >= 0", name=op.f("ck_ranks_points_not_negative")),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ranks_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "family", "season", name=op.f("pk_ranks")),
    )
    op.create_index(
        "ix_ranks_family_season_step_points", "ranks", ["family", "season", "step", "points"]
    )
    op.create_table(
        "rank_history",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("family", sa.String(length=64), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("step_before", sa.Integer(), nullable=False),
        sa.Column("points_before", sa.Integer(), nullable=False),
        sa.Column("step_after", sa.Integer(), nullable=False),
        sa.Column("points_after", sa.Integer(), nullable=False),
        sa.Column("change", sa.Integer(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rank_history_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_rank_history_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rank_history")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_rank_history_game_id_user_id")),
    )
    op.create_index(
        "ix_rank_history_user_id_family_id", "rank_history", ["user_id", "family", "id"]
    )


def downgrade() -> None:
    op.drop_index("ix_rank_history_user_id_family_id", table_name="rank_history")
    op.drop_table("rank_history")
    op.drop_index("ix_ranks_family_season_step_points", table_name="ranks")
    op.drop_table("ranks")
