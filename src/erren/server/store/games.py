"""Game records, written as the game runs, and the campaign runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import (
    Dialect,
    Integer,
    Text,
    and_,
    exists,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from erren.server.fairness import commit
from erren.server.store.database import Database, as_stored_json, utc_now, whole_number
from erren.server.store.errors import Fenced, StoreError
from erren.server.store.models import CampaignRow, Game, GameAction, UTCDateTime
from erren.server.store.values import StoredGame

__all__ = ["Games", "outcome_of"]


# The statements of the group commit (it runs a hundred times a second), as the driver's own SQL:
# no compilation, bind processing or per-statement event dispatch.  They are what SQLAlchemy
# renders for ``select(Game.id, Game.fence).where(Game.id.in_(ids), Game.finished.is_(False))
# .with_for_update(read=True)`` (PostgreSQL: the ids as one array) and for a multi-row
# ``insert(GameAction)``, at most ``_APPEND_BLOCK`` rows a statement (SQLite's older builds
# take 999 parameters at most).
_RUNNING_PG = (
    "SELECT games.id, games.fence FROM games "
    "WHERE games.id = ANY(%s) AND games.finished IS false FOR SHARE"
)
_APPEND_BLOCK = 200


@lru_cache(maxsize=1024)
def _running_sql(dialect: str, count: int) -> str:
    """The games read of ``count`` ids (PostgreSQL: one array, whatever the count)."""
    if dialect == "postgresql":
        return _RUNNING_PG
    return (
        f"SELECT games.id, games.fence FROM games "
        f"WHERE games.id IN ({', '.join('?' * count)}) AND games.finished IS 0"
    )


@lru_cache(maxsize=2 * _APPEND_BLOCK)
def _append_sql(dialect: str, count: int) -> str:
    """The INSERT of ``count`` rows (``count`` ≤ ``_APPEND_BLOCK``)."""
    row = "(%s, %s, %s, %s)" if dialect == "postgresql" else "(?, ?, ?, ?)"
    return "INSERT INTO game_actions (game_id, seq, action, created_at) VALUES " + ", ".join(
        [row] * count
    )


_stamps: dict[type[Dialect], Callable[[datetime], Any]] = {}


def _stamp_of(dialect: Dialect) -> Callable[[datetime], Any]:
    """``created_at`` as the ORM hands it to the driver (SQLite: its text format)."""
    process = _stamps.get(type(dialect))
    if process is None:
        column_type = GameAction.__table__.c.created_at.type
        process = column_type.dialect_impl(dialect).bind_processor(dialect)
        assert process is not None  # UTCDateTime always processes
        _stamps[type(dialect)] = process
    return process


class Games:
    """Games: the header with the seed's commitment, the actions as played, the record; and
    the campaign runs."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def create(  # noqa: PLR0917  (the contract's positional signature)
        self,
        ruleset: str,
        options: dict[str, Any],
        seats: tuple[int | None, int | None],
        seed: int,
        salt: str,
        room: str | None = None,
        *,
        fence: int = 0,
    ) -> int:
        """Store a new game's header; returns its id.  The commitment ``sha256(f"{seed}:{salt}")``
        is public at once, the seed and salt only when the game is finished.  ``fence``: the
        lease token of the cluster node creating it (0 on a single server)."""
        if not isinstance(ruleset, str) or not 0 < len(ruleset) <= 64:
            raise ValueError(f"bad ruleset name {ruleset!r}")
        stored_options = as_stored_json(options, "options")
        if len(seats) != 2 or any(
            s is not None and (not isinstance(s, int) or isinstance(s, bool)) for s in seats
        ):
            raise ValueError(f"seats must be two user ids or None (computer), not {seats!r}")
        seed = whole_number(seed, "seed")
        if not isinstance(salt, str) or not salt:
            raise ValueError("the salt must be a non-empty string")
        if room is not None and (not isinstance(room, str) or len(room) > 64):
            raise ValueError(f"bad room {room!r}")
        row = Game(
            ruleset=ruleset,
            options=stored_options,
            seat0_user_id=seats[0],
            seat1_user_id=seats[1],
            room=room,
            commitment=commit(seed, salt),
            seed=str(seed),
            salt=salt,
            finished=False,
            record=None,
            summary=None,
            created_at=utc_now(),
            finished_at=None,
            fence=whole_number(fence, "fence"),
        )
        try:
            async with self.database.write() as session:
                session.add(row)
                await session.flush()
        except IntegrityError:
            raise StoreError(f"a seat's user does not exist: {seats!r}") from None
        return row.id

    async def claim(self, game_id: int, token: int) -> None:
        """Make the game's fence ``token`` (a cluster node's lease token for its table): from
        now on writes with a lower token are refused.  :class:`Fenced` if the fence is above
        ``token`` already (a newer owner claimed it), :class:`StoreError` for no such game."""
        token = whole_number(token, "token")
        async with self.database.write() as session:
            done = await session.execute(
                update(Game).where(Game.id == game_id, Game.fence <= token).values(fence=token)
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                return
            fence = await session.scalar(select(Game.fence).where(Game.id == game_id))
        if fence is None:
            raise StoreError(f"no game {game_id}")
        raise Fenced(game_id, token, fence)

    async def fence_of(self, game_id: int) -> int | None:
        """The game's fence (``None``: no such game)."""
        async with self.database.read() as session:
            return await session.scalar(select(Game.fence).where(Game.id == game_id))

    async def append_action(
        self, game_id: int, seq: int, action: str, *, fence: int | None = None
    ) -> None:
        """Make action ``seq`` of the game durable (committed when this returns).  Repeating an
        existing ``seq`` with the same action does nothing; with another action, or on a
        finished or unknown game, :class:`StoreError`; with a ``fence`` token below the game's
        fence, :class:`Fenced` (``None``: a single server, no check)."""
        seq = whole_number(seq, "seq")
        if seq < 0:
            raise ValueError(f"seq must be ≥ 0, not {seq}")
        if not isinstance(action, str) or not action:
            raise ValueError(f"bad action {action!r}")

        def check(finished: bool | None, existing: str | None, current: int | None) -> bool:
            """Whether the action is already there; raises if it cannot be appended."""
            if finished is None:
                raise StoreError(f"no game {game_id}")
            if fence is not None and current is not None and current > fence:
                raise Fenced(game_id, fence, current)
            if existing is not None:
                if existing != action:
                    raise StoreError(
                        f"game {game_id} already has action {seq} = {existing!r}, not {action!r}"
                    )
                return True
            if finished:
                raise StoreError(f"game {game_id} is finished")
            return False

        # The hot path (every action of every table): one INSERT ... SELECT that adds the row
        # only if the game exists and is running; anything else is diagnosed afterwards.
        append = insert(GameAction).from_select(
            ["game_id", "seq", "action", "created_at"],
            select(
                literal(game_id, Integer()),
                literal(seq, Integer()),
                literal(action, Text()),
                literal(utc_now(), UTCDateTime()),
            ).where(
                exists().where(
                    Game.id == game_id,
                    Game.finished.is_(False),
                    *(() if fence is None else (Game.fence <= fence,)),
                )
            ),
        )
        try:
            async with self.database.write_connection() as conn:
                if (await conn.execute(append)).rowcount == 1:
                    return
        except IntegrityError:
            pass  # this seq is taken: same action or not?
        async with self.database.read() as session:
            found = (
                await session.execute(
                    select(Game.finished, GameAction.action, Game.fence)
                    .outerjoin(
                        GameAction, and_(GameAction.game_id == Game.id, GameAction.seq == seq)
                    )
                    .where(Game.id == game_id)
                )
            ).first()
        if not check(*(found or (None, None, None))):  # pragma: no cover  (a finished game raised)
            raise StoreError(f"game {game_id}: action {seq} was not stored")

    async def append_actions(
        self, rows: Sequence[tuple[int, int, str]], fences: Mapping[int, int] | None = None
    ) -> list[StoreError | None]:
        """Make many ``(game_id, seq, action)`` rows durable in ONE transaction (group commit:
        one commit for the actions of many tables).  Returns, per row, ``None`` when it is
        stored (or was already there) and the :class:`StoreError` :meth:`append_action` would
        raise when it is refused; a refused row does not keep the others out.  Rows of one game
        must come in ``seq`` order.  ``fences``: the writer's lease token per game (a cluster
        node); a game whose fence is above it refuses its rows with :class:`Fenced`."""
        fences = fences or {}
        checked: list[tuple[int, int, str]] = []
        for raw_game, raw_seq, action in rows:
            game_id, seq = whole_number(raw_game, "game_id"), whole_number(raw_seq, "seq")
            if seq < 0:
                raise ValueError(f"seq must be ≥ 0, not {seq}")
            if not isinstance(action, str) or not action:
                raise ValueError(f"bad action {action!r}")
            checked.append((game_id, seq, action))
        if not checked:
            return []
        # The hot path: every game is running and every seq is new → one multi-row INSERT.
        # The games are read with FOR SHARE (PostgreSQL): none can be finished meanwhile, nor
        # fenced (a node taking a table over raises the fence with an UPDATE, which waits).
        ids = sorted({game_id for game_id, _, _ in checked})
        now = utc_now()

        postgres = self.database.dialect == "postgresql"
        running_sql = _running_sql(self.database.dialect, len(ids))
        running_params = ([ids],) if postgres else tuple(ids)
        stamp = _stamp_of(self.database.engine.dialect)(now)
        blocks = [
            (
                _append_sql(self.database.dialect, len(block)),
                tuple(x for g, q, a in block for x in (g, q, a, stamp)),
            )
            for block in (
                checked[i : i + _APPEND_BLOCK] for i in range(0, len(checked), _APPEND_BLOCK)
            )
        ]

        async def append(conn: AsyncConnection) -> bool:
            found = (await conn.exec_driver_sql(running_sql, running_params)).all()
            running = {
                g for g, f in cast("Sequence[tuple[int, int]]", found) if f <= fences.get(g, f)
            }
            if len(running) < len(ids):
                return False
            for sql, params in blocks:
                await conn.exec_driver_sql(sql, params)
            return True

        try:
            if await self.database.journal_write(append):
                return [None] * len(checked)
        except IntegrityError:
            pass  # a seq is taken (a replay after a restart, a retried commit that had landed)
        out: list[StoreError | None] = []
        for row in checked:
            try:
                await self.append_action(*row, fence=fences.get(row[0]))
            except StoreError as err:
                out.append(err)
            else:
                out.append(None)
        return out

    async def finish(
        self, game_id: int, record: dict[str, Any], summary: str, *, fence: int | None = None
    ) -> None:
        """Mark the game finished with its final record and a one-line summary; the seed and
        salt become public.  Finishing again with the same record and summary does nothing;
        with others, :class:`StoreError`; with a ``fence`` token below the game's fence,
        :class:`Fenced`."""
        stored = as_stored_json(record, "record")
        if not isinstance(summary, str):
            raise ValueError("the summary must be a string")
        async with self.database.write() as session:
            game = await session.get(Game, game_id, with_for_update=True)
            if game is None:
                raise StoreError(f"no game {game_id}")
            if fence is not None and game.fence > fence:
                raise Fenced(game_id, fence, game.fence)
            if game.finished:
                if game.record == stored and game.summary == summary:
                    return
                raise StoreError(f"game {game_id} is already finished with another record")
            game.finished = True
            game.record = stored
            game.summary = summary
            game.finished_at = utc_now()

    @staticmethod
    def _game(row: Game, actions: Sequence[str], *, reveal: bool) -> StoredGame:
        shown = reveal or row.finished
        return StoredGame(
            id=row.id,
            ruleset=row.ruleset,
            options=row.options,
            seats=(row.seat0_user_id, row.seat1_user_id),
            room=row.room,
            commitment=row.commitment,
            seed=int(row.seed) if shown else None,
            salt=row.salt if shown else None,
            actions=tuple(actions),
            finished=row.finished,
            record=row.record,
            summary=row.summary,
            created_at=row.created_at,
            finished_at=row.finished_at,
        )

    async def unfinished(self) -> list[StoredGame]:
        """Every unfinished game, oldest first, with its seed, salt and actions in ``seq``
        order: what a restarted server needs to restore its tables."""
        async with self.database.read() as session:
            games = (
                await session.scalars(
                    select(Game).where(Game.finished.is_(False)).order_by(Game.id)
                )
            ).all()
            rows = (
                await session.execute(
                    select(GameAction.game_id, GameAction.action)
                    .join(Game, Game.id == GameAction.game_id)
                    .where(Game.finished.is_(False))
                    .order_by(GameAction.game_id, GameAction.seq)
                )
            ).all()
        actions: dict[int, list[str]] = {}
        for game_id, action in rows:
            actions.setdefault(game_id, []).append(action)
        return [self._game(game, actions.get(game.id, ()), reveal=True) for game in games]

    async def get(self, game_id: int, *, reveal: bool = False) -> StoredGame | None:
        """The game, or ``None``.  Its seed and salt are ``None`` until it is finished (unless
        ``reveal``).  NB: the actions of a running game include the chance actions (the whole
        wall): do not show them to players before the game is finished."""
        async with self.database.read() as session:
            game = await session.get(Game, game_id)
            if game is None:
                return None
            actions = (
                await session.scalars(
                    select(GameAction.action)
                    .where(GameAction.game_id == game_id)
                    .order_by(GameAction.seq)
                )
            ).all()
        return self._game(game, actions, reveal=reveal)

    async def finished(self, *, after: int = 0, limit: int = 500) -> list[StoredGame]:
        """Finished games with ids above ``after``, oldest first, at most ``limit`` (page
        through them by passing the last id as ``after``); seed and salt revealed, record set,
        the actions left out (the record has them)."""
        async with self.database.read() as session:
            games = (
                await session.scalars(
                    select(Game)
                    .where(Game.finished.is_(True), Game.id > after)
                    .order_by(Game.id)
                    .limit(limit)
                )
            ).all()
        return [self._game(game, (), reveal=True) for game in games]

    async def unfinished_tables(self) -> list[tuple[int, str]]:
        """``(game id, table id)`` of every unfinished game, oldest first, without its actions:
        what a cluster node scans for tables nobody holds."""
        async with self.database.read() as session:
            rows = (
                await session.execute(
                    select(Game.id, Game.options).where(Game.finished.is_(False)).order_by(Game.id)
                )
            ).all()
        out: list[tuple[int, str]] = []
        for game_id, options in rows:
            table = options.get("table") if isinstance(options, dict) else None
            if isinstance(table, dict) and isinstance(table.get("id"), str):
                out.append((game_id, table["id"]))
        return out

    async def unfinished_ids(self) -> list[int]:
        """The ids of the games not finished (yet), oldest first."""
        async with self.database.read() as session:
            return list(
                (
                    await session.scalars(
                        select(Game.id).where(Game.finished.is_(False)).order_by(Game.id)
                    )
                ).all()
            )

    async def which_finished(self, game_ids: Iterable[int]) -> dict[int, bool]:
        """Of these game ids, those that exist, each with whether it is finished."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        async with self.database.read() as session:
            rows = (
                await session.execute(select(Game.id, Game.finished).where(Game.id.in_(wanted)))
            ).all()
        return {game_id: bool(finished) for game_id, finished in rows}

    # ---------------------------------------------------------------------------- campaigns
    async def campaign(self, user_id: int) -> dict[str, Any] | None:
        """The user's campaign (the JSON :meth:`put_campaign` stored), or ``None``."""
        async with self.database.read() as session:
            row = await session.get(CampaignRow, user_id)
            return None if row is None else dict(row.state)

    async def put_campaign(self, user_id: int, state: dict[str, Any]) -> None:
        """Store (create or replace) the user's campaign."""
        stored = as_stored_json(state, "campaign")
        async with self.database.write() as session:
            row = await session.get(CampaignRow, user_id, with_for_update=True)
            if row is None:
                session.add(CampaignRow(user_id=user_id, state=stored, updated_at=utc_now()))
            else:
                row.state = stored
                row.updated_at = utc_now()

    async def delete_campaign(self, user_id: int) -> bool:
        """Forget the user's campaign; ``False`` if there was none."""
        async with self.database.write() as session:
            row = await session.get(CampaignRow, user_id, with_for_update=True)
            if row is None:
                return False
            await session.delete(row)
            return True


def outcome_of(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """How a finished game ended, from its record (docs/records.md, ``outcome``)."""
    if record is None:
        return None
    if "called_off" in record:
        return {"kind": "called-off"}
    outcome = record.get("outcome")
    return outcome if isinstance(outcome, dict) else None
