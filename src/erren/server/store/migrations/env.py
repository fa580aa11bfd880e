"""Alembic environment of the store.

The store runs the migrations itself (:meth:`erren.server.store.Store.open` upgrades to head on
every start, inside one transaction, on the connection it passes in
``config.attributes["connection"]``), so no ``alembic.ini`` is needed.  To write a new revision
from a development database, point Alembic at this folder and a synchronous URL::

    from alembic import command
    from erren.server.store.store import alembic_config
    cfg = alembic_config("sqlite:////tmp/dev.sqlite3")
    command.revision(cfg, "add something", autogenerate=True)
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, pool

from erren.server.store.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _configure(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection and no sqlalchemy.url: see this module's docstring")
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as conn:
        _configure(conn)
        conn.commit()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
