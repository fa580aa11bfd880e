"""Origins: ``users.origin``, a keyed digest of where an account was registered from, and
``server_keys``, the database's own secrets (here the digest's key, made now at random).

Accounts registered before this revision have no origin: the collusion audit cannot tell where
they came from.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    keys = op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_keys")),
    )
    op.bulk_insert(keys, [{"name": "origin", "value": secrets.token_hex(32)}])
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("origin", sa.String(32), nullable=True))
        batch.create_index(op.f("ix_users_origin"), ["origin"])


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_index(op.f("ix_users_origin"))
        batch.drop_column("origin")
    op.drop_table("server_keys")
