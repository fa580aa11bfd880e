"""Profiles: ``hands`` (how each settled hand ended), ``ratings`` (per player and family) and
the indexes the history's filters use (``games.ruleset``, ``games.room``).

Hands settled before this revision have no ``hands`` row: the profile counts the hands
settled from now on.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "hands",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("loser", sa.Integer(), nullable=True),
        sa.Column("how", sa.String(16), nullable=True),
        sa.Column("fan_total", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("delta0", sa.Integer(), nullable=False),
        sa.Column("delta1", sa.Integer(), nullable=False),
        sa.Column("beans0", sa.BigInteger(), nullable=False),
        sa.Column("beans1", sa.BigInteger(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.CheckConstraint("kind IN ('win', 'draw', 'abort')", name=op.f("ck_hands_kind")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_hands_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_hands")),
    )
    op.create_index("ix_hands_ruleset_game_id", "hands", ["ruleset", "game_id"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("family", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "family", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_family_user_id", "ratings", ["family", "user_id"])
    op.create_index(op.f("ix_games_ruleset"), "games", ["ruleset"])
    op.create_index(op.f("ix_games_room"), "games", ["room"])


def downgrade() -> None:
    op.drop_index(op.f("ix_games_room"), table_name="games")
    op.drop_index(op.f("ix_games_ruleset"), table_name="games")
    op.drop_table("ratings")
    op.drop_table("hands")
