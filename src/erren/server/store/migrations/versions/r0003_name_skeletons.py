"""Look-alike names: ``users.name_skeleton``, unique, filled in for the registered names.

Each registered account gets the skeleton of its name (``erren.server.store.names.skeleton``)
in the order the accounts were made; a name that looks like an older one keeps working but
gets none (so the older account keeps the look).  Guests have none.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from erren.server.store.names import skeleton

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("users", sa.Column("name_skeleton", sa.String(255), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("is_guest", sa.Boolean()),
        sa.column("name_skeleton", sa.String()),
    )
    conn = op.get_bind()
    seen: set[str] = set()
    rows = conn.execute(
        sa.select(users.c.id, users.c.name).where(users.c.is_guest.is_(False)).order_by(users.c.id)
    )
    for user_id, name in rows.all():
        look = skeleton(name)
        if look in seen or len(look) > 255:
            continue
        seen.add(look)
        conn.execute(users.update().where(users.c.id == user_id).values(name_skeleton=look))
    op.create_index(op.f("ix_users_name_skeleton"), "users", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index(op.f("ix_users_name_skeleton"), table_name="users")
    op.drop_column("users", "name_skeleton")
