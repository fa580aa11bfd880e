"""Game records: written as the game runs, restored after a restart, browsable when finished."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import datetime, timedelta, timezone

import psycopg
import pytest
from sqlalchemy import text

from erren.server.fairness import commit
from erren.server.store import Passwords, Store, StoreError
from erren.server.store import games as games_module
from erren.server.store.models import GameAction

pytestmark = pytest.mark.anyio

OPTIONS = {"fan_table": "2p", "suit": "m", "flowers": False, "cap_points": None}
ACTIONS = ["c:shuffle:3m6m4m8m", "c:dice:3,3", "0:discard:2z", "1:discard:5m", "0:peng"]
RECORD = {"format": "erren-hand", "version": 1, "ruleset": "guobiao-2p", "seed": 7,
          "actions": ACTIONS, "options": OPTIONS, "result": "seat 0 wins"}  # fmt: skip


async def _game(store: Store, *, seed: int = 7, room: str | None = "novice") -> tuple[int, int]:
    user = (await store.accounts.guest()).user.id
    game = await store.games.create("guobiao-2p", OPTIONS, (user, None), seed, "pepper", room)
    return user, game


def test_the_commitment_is_sha256_of_seed_and_salt() -> None:
    assert commit(7, "pepper") == hashlib.sha256(b"7:pepper").hexdigest()


async def test_a_running_game_hides_its_seed(store: Store) -> None:
    user, game_id = await _game(store)
    game = await store.games.get(game_id)
    assert game is not None
    assert (game.ruleset, game.options, game.seats, game.room) == (
        "guobiao-2p", OPTIONS, (user, None), "novice"
    )  # fmt: skip
    assert game.commitment == commit(7, "pepper")
    assert (game.seed, game.salt, game.finished, game.record) == (None, None, False, None)
    private = await store.games.get(game_id, reveal=True)
    assert private is not None and (private.seed, private.salt) == (7, "pepper")
    assert await store.games.get(game_id + 100) is None


async def test_huge_seeds_survive(store: Store) -> None:
    _, game_id = await _game(store, seed=2**200 + 1)
    game = await store.games.get(game_id, reveal=True)
    assert game is not None and game.seed == 2**200 + 1


async def test_actions_are_kept_in_order(store: Store) -> None:
    _, game_id = await _game(store)
    for seq, action in enumerate(ACTIONS):
        await store.games.append_action(game_id, seq, action)
    game = await store.games.get(game_id)
    assert game is not None and game.actions == tuple(ACTIONS)


async def test_a_repeated_action_is_a_no_op_and_a_different_one_an_error(store: Store) -> None:
    _, game_id = await _game(store)
    await store.games.append_action(game_id, 0, ACTIONS[0])
    await store.games.append_action(game_id, 0, ACTIONS[0])
    with pytest.raises(StoreError, match="already has action 0"):
        await store.games.append_action(game_id, 0, ACTIONS[1])
    game = await store.games.get(game_id)
    assert game is not None and game.actions == (ACTIONS[0],)


async def test_concurrent_appends_of_one_seq_keep_one(store: Store) -> None:
    _, game_id = await _game(store)
    results = await asyncio.gather(
        *(store.games.append_action(game_id, 0, ACTIONS[i % 2]) for i in range(6)),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(e, StoreError) for e in errors)
    game = await store.games.get(game_id)
    assert game is not None and len(game.actions) == 1
    assert len(errors) == 3  # the three with the other action


async def test_bad_appends(store: Store) -> None:
    _, game_id = await _game(store)
    with pytest.raises(StoreError, match="no game"):
        await store.games.append_action(game_id + 100, 0, "0:pass")
    with pytest.raises(ValueError, match="seq"):
        await store.games.append_action(game_id, -1, "0:pass")
    with pytest.raises(ValueError, match="action"):
        await store.games.append_action(game_id, 0, "")


async def test_finishing_reveals_the_seed_and_keeps_the_record(store: Store) -> None:
    _, game_id = await _game(store)
    for seq, action in enumerate(ACTIONS):
        await store.games.append_action(game_id, seq, action)
    await store.games.finish(game_id, RECORD, "seat 0 wins by 碰碰和")
    game = await store.games.get(game_id)
    assert game is not None
    assert (game.finished, game.seed, game.salt) == (True, 7, "pepper")
    assert game.seed is not None and game.salt is not None
    assert commit(game.seed, game.salt) == game.commitment
    assert game.record == RECORD and game.summary == "seat 0 wins by 碰碰和"
    assert game.finished_at is not None and game.finished_at >= game.created_at
    assert game.actions == tuple(ACTIONS)
    await store.games.finish(game_id, RECORD, "seat 0 wins by 碰碰和")  # again: nothing
    with pytest.raises(StoreError, match="already finished"):
        await store.games.finish(game_id, {**RECORD, "result": "other"}, "other")
    with pytest.raises(StoreError, match="finished"):
        await store.games.append_action(game_id, len(ACTIONS), "0:discard:1m")
    await store.games.append_action(
        game_id, 0, ACTIONS[0]
    )  # a replayed old action is still a no-op
    with pytest.raises(StoreError, match="no game"):
        await store.games.finish(game_id + 100, RECORD, "")


async def test_bad_games(store: Store) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        await store.games.create("guobiao-2p", OPTIONS, (999, None), 1, "s", None)
    with pytest.raises(ValueError, match="JSON"):
        await store.games.create("guobiao-2p", {"x": object()}, (None, None), 1, "s", None)
    with pytest.raises(ValueError, match="seats"):
        await store.games.create("guobiao-2p", OPTIONS, (None,), 1, "s", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="salt"):
        await store.games.create("guobiao-2p", OPTIONS, (None, None), 1, "", None)


async def test_unfinished_games_come_back_after_a_restart(database_url: str) -> None:
    store = await Store.open(database_url, passwords=Passwords.fast())
    try:
        user, running = await _game(store, seed=11)
        _, done = await _game(store)
        _, empty = await _game(store, room=None)
        for seq, action in enumerate(ACTIONS):
            await store.games.append_action(running, seq, action)
            await store.games.append_action(done, seq, action)
        await store.games.finish(done, RECORD, "over")
    finally:
        await store.close()
    store = await Store.open(database_url, passwords=Passwords.fast())
    try:
        games = await store.games.unfinished()
        assert [g.id for g in games] == [running, empty]
        restored = games[0]
        assert restored.actions == tuple(ACTIONS)
        assert (restored.seed, restored.salt, restored.seats) == (11, "pepper", (user, None))
        assert restored.commitment == commit(11, "pepper")
        assert games[1].actions == () and games[1].room is None
        await store.games.append_action(running, len(ACTIONS), "1:discard:9m")  # and play goes on
    finally:
        await store.close()


async def test_games_of_a_player(store: Store) -> None:
    alice = await store.accounts.register("alice", "password1")
    bob = await store.accounts.register("bob-1", "password1")
    first = await store.games.create("guobiao-2p", OPTIONS, (alice.id, bob.id), 1, "s", "normal")
    second = await store.games.create("guobiao-2p", OPTIONS, (None, alice.id), 2, "s", None)
    await store.games.create("guobiao-2p", OPTIONS, (bob.id, None), 3, "s", None)
    await store.games.finish(first, RECORD, "alice wins")
    games = await store.profiles.history(alice.id)
    assert [g.id for g in games] == [second, first]
    assert games[0].players == (None, "alice") and not games[0].finished
    assert games[1].players == ("alice", "bob-1") and games[1].summary == "alice wins"
    assert games[1].room == "normal" and games[1].finished_at is not None
    assert [g.id for g in await store.profiles.history(alice.id, limit=1)] == [second]
    assert len(await store.profiles.history(bob.id)) == 2
    assert await store.profiles.history(12345) == []


async def test_group_commit_writes_many_games_in_one_transaction(store: Store) -> None:
    _, a = await _game(store)
    _, b = await _game(store)
    rows = [(g, seq, action) for seq, action in enumerate(ACTIONS) for g in (a, b)]
    assert await store.games.append_actions(rows) == [None] * len(rows)
    assert await store.games.append_actions([]) == []
    for game_id in (a, b):
        game = await store.games.get(game_id)
        assert game is not None and game.actions == tuple(ACTIONS)


async def test_group_commit_of_more_rows_than_one_statement_takes(store: Store) -> None:
    games = [(await _game(store, seed=seed))[1] for seed in range(3)]
    per_game = games_module._APPEND_BLOCK * 2 // 3 + 1
    rows = [(g, seq, f"0:discard:{seq}") for g in games for seq in range(per_game)]
    assert len(rows) == 3 * per_game > 2 * games_module._APPEND_BLOCK  # three statements
    assert await store.games.append_actions(rows) == [None] * len(rows)
    for game_id in games:
        game = await store.games.get(game_id)
        assert game is not None
        assert game.actions == tuple(f"0:discard:{seq}" for seq in range(per_game))


async def test_group_commit_reports_refused_rows_and_keeps_the_others(store: Store) -> None:
    _, running = await _game(store)
    _, done = await _game(store)
    await store.games.finish(done, RECORD, "over")
    await store.games.append_action(running, 0, ACTIONS[0])
    results = await store.games.append_actions(
        [
            (running, 0, ACTIONS[0]),  # already there, the same: fine
            (running, 1, ACTIONS[1]),
            (done, 0, ACTIONS[0]),  # a finished game
            (running + 100, 0, ACTIONS[0]),  # no such game
        ]
    )
    assert results[:2] == [None, None]
    assert isinstance(results[2], StoreError) and "finished" in str(results[2])
    assert isinstance(results[3], StoreError) and "no game" in str(results[3])
    conflict = await store.games.append_actions(
        [(running, 1, ACTIONS[3]), (running, 2, ACTIONS[2])]
    )
    assert isinstance(conflict[0], StoreError) and "already has action 1" in str(conflict[0])
    assert conflict[1] is None
    game = await store.games.get(running)
    assert game is not None and game.actions == tuple(ACTIONS[:3])
    with pytest.raises(ValueError, match="seq"):
        await store.games.append_actions([(running, -1, "0:pass")])


async def _backend_pid(store: Store) -> int:
    """The PostgreSQL backend of the group commit's held connection."""
    held = store.database._journal_conn
    assert held is not None
    raw = await held.get_raw_connection()
    pid = raw.driver_connection.info.backend_pid  # type: ignore[union-attr]
    assert isinstance(pid, int)
    return pid


async def test_group_commit_keeps_its_connection_and_retries_a_dropped_one_once(
    postgres_url: str,
) -> None:
    store = await Store.open(postgres_url, passwords=Passwords.fast())
    errors: list[BaseException] = []
    store.database.on_error = errors.append
    try:
        _, a = await _game(store)
        _, b = await _game(store)
        assert await store.games.append_actions([(a, 0, ACTIONS[0])]) == [None]
        first = await _backend_pid(store)
        assert await store.games.append_actions([(b, 0, ACTIONS[0])]) == [None]
        assert await _backend_pid(store) == first  # one connection, kept between commits

        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
        rows = [(g, seq, ACTIONS[seq]) for seq in (1, 2) for g in (a, b)]
        assert await store.games.append_actions(rows) == [None] * 4
        assert await _backend_pid(store) != first  # the batch went through a fresh connection
        assert len(errors) == 1  # the dropped connection, counted once

        # A commit that landed but whose answer was lost: the retry meets the rows, stores
        # nothing twice and refuses nothing.
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (await _backend_pid(store),))
        assert await store.games.append_actions(rows) == [None] * 4
        for game_id in (a, b):
            game = await store.games.get(game_id)
            assert game is not None and game.actions == tuple(ACTIONS[:3])
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("micro", "sqlite_text", "postgres_text"),
    [
        (89_000, "2026-03-04 05:06:07.089000", "2026-03-04 05:06:07.089"),
        (0, "2026-03-04 05:06:07.000000", "2026-03-04 05:06:07"),
    ],
)
async def test_group_commit_stores_the_time_as_the_orm_does(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    micro: int,
    sqlite_text: str,
    postgres_text: str,
) -> None:
    # 13:06:07 at UTC+8 is 05:06:07 UTC; SQLAlchemy's SQLite DATETIME keeps naive UTC as
    # "YYYY-MM-DD HH:MM:SS.ffffff" text (microseconds always), PostgreSQL a timestamptz.
    moment = datetime(2026, 3, 4, 13, 6, 7, micro, tzinfo=timezone(timedelta(hours=8)))
    monkeypatch.setattr(games_module, "utc_now", lambda: moment)
    _, game = await _game(store)
    assert (
        await store.games.append_actions([(game, 0, ACTIONS[0]), (game, 1, ACTIONS[1])])
        == [None] * 2
    )
    await store.games.append_action(game, 2, ACTIONS[2])  # the single-row path: INSERT ... SELECT
    async with store.database.write() as session:  # the ORM's own INSERT
        session.add(GameAction(game_id=game, seq=3, action=ACTIONS[3], created_at=moment))
    if store.database.dialect == "sqlite":
        stored = "SELECT created_at, typeof(created_at) FROM game_actions WHERE game_id = :g"
        expected = (sqlite_text, "text")
    else:
        stored = (
            "SELECT (created_at AT TIME ZONE 'UTC')::text, pg_typeof(created_at)::text "
            "FROM game_actions WHERE game_id = :g"
        )
        expected = (postgres_text, "timestamp with time zone")
    async with store.database.read() as session:
        rows = (await session.execute(text(stored + " ORDER BY seq"), {"g": game})).all()
    assert [tuple(row) for row in rows] == [expected] * 4
    found = await store.games.get(game)
    assert found is not None and found.actions == tuple(ACTIONS[:4])
