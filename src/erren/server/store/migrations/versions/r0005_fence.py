"""Fencing: ``games.fence``, the lease token of the node that owns the game's table.

In a cluster (``erren serve --redis``) a node writes a game only while it holds the table's
lease; the lease comes with a fencing token that only grows.  The owner claims the game by
raising ``fence`` to its token, and every write of the game's actions and record is refused
when the row's fence is above the writer's token: a paused old owner can never write after
another node took the table over.  A single server never sets it (0).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("fence", sa.BigInteger(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("fence")
