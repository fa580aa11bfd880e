"""Support code shared by the store's tests (not a test module): bot-played hands stored as
finished games (the ledger audit's), and a database taken to an older revision and back
(the migrations' tests)."""

from __future__ import annotations

from typing import Any

from alembic import command
from sqlalchemy import create_engine, inspect, make_url, text

from erren.bots import find_bot
from erren.engine import State, find_family
from erren.server.fairness import commit
from erren.server.store import Store
from erren.server.store.store import alembic_config
from erren.sim.simulator import play_hand

NOVICE = 50
"""Beans per point in 新手场 (guobiao-2p §6.3)."""


def hand(family: str, seed: int, bot: str = "efficiency") -> State:
    """A hand of ``family`` played to its end by two bots (score-only rules: points)."""
    state = State.new(find_family(family), seed=seed)
    return play_hand(state, [find_bot(bot, seed=1), find_bot(bot, seed=2)])


async def finished(
    store: Store,
    state: State,
    room: str,
    seats: tuple[int | None, int | None],
    *,
    options: dict[str, Any] | None = None,
    salt: str = "pepper",
) -> int:
    """Store ``state`` as a finished game of ``room`` with the record the table writes."""
    assert state.seed is not None
    game = await store.games.create(state.ruleset.name, {}, seats, state.seed, salt, room)
    record = state.record().to_dict()
    if options:
        record["options"] = {**record["options"], **options}
    record["seed"] = state.seed
    record["fairness"] = {"commitment": commit(state.seed, salt), "salt": salt}
    record["game"] = game
    await store.games.finish(game, record, f"hand: {state.result}")
    return game


def sync_url(database_url: str) -> str:
    """``database_url`` for a synchronous engine (Alembic's): psycopg for PostgreSQL."""
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


def migrate(url: str, revision: str, *, down: bool = False) -> None:
    """Upgrade (or with ``down`` downgrade) the database at ``url`` to ``revision``."""
    config = alembic_config(url)
    (command.downgrade if down else command.upgrade)(config, revision)


def tables(url: str) -> set[str]:
    """The names of the database's tables."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def older_game(url: str) -> int:
    """A finished game written straight into an older revision's ``games`` table; its id."""
    return _inserted(
        url,
        "INSERT INTO games (ruleset, options, room, commitment, seed, salt, finished,"
        " created_at, fence) VALUES ('guobiao-2p', '{}', NULL, 'c', '1', 's', true,"
        " CURRENT_TIMESTAMP, 0)",
        "SELECT max(id) FROM games",
    )


def older_user(url: str, name: str) -> int:
    """A registered account ``name`` (no password) written straight into an older revision's
    ``users`` table; its id."""
    return _inserted(
        url,
        "INSERT INTO users (name, name_key, is_guest, created_at)"
        f" VALUES ('{name}', '{name}', false, CURRENT_TIMESTAMP)",
        f"SELECT id FROM users WHERE name = '{name}'",
    )


def _inserted(url: str, insert: str, select_id: str) -> int:
    """Run ``insert`` on the database at ``url`` and return the id ``select_id`` reads."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(insert))
            found = conn.scalar(text(select_id))
    finally:
        engine.dispose()
    assert isinstance(found, int)
    return found
