"""A registered player's own 何切る puzzles (table ``player_drills``, :mod:`erren.server.owndrills`
makes them): each one an ``erren.review.drills`` ``Puzzle`` dict from one of his costliest
discards, with the hand it came from (game id, seat, step), kept per player and family, at most
:data:`KEEP` of each (a put past that drops his oldest of the family)::

    await store.drills.put(user_id, family, game_id, step, puzzle, seat=0) -> StoredDrill | None
        # None: that decision of his is kept already (one per user, game and step)
    await store.drills.get(user_id, drill_id) -> StoredDrill | None   # only his own
    await store.drills.recent(user_id, family, limit=50) -> list[StoredDrill]   # newest first
    await store.drills.next(user_id, family) -> StoredDrill | None   # newest unanswered
    await store.drills.answered(user_id, drill_id) -> None   # first answer's time kept
    await store.drills.counts(user_id) -> {family: (kept, unanswered)}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from erren.server.store.database import Database, as_stored_json, utc_now
from erren.server.store.models import PlayerDrillRow

__all__ = ["KEEP", "MAX_RECENT", "PlayerDrills", "StoredDrill"]

KEEP: Final = 200
"""A player's puzzles kept per family; a put past it drops his oldest of the family."""
MAX_RECENT: Final = KEEP
"""The most rows :meth:`PlayerDrills.recent` returns."""


@dataclass(frozen=True, slots=True)
class StoredDrill:
    """One kept puzzle: its ``id`` (the table's), his ``user_id``, the ``family``, the hand it
    came from (``game_id``, ``seat``, ``step``), the ``puzzle`` dict, when it was made and when
    he first answered it."""

    id: int
    user_id: int
    family: str
    game_id: int
    seat: int
    step: int
    puzzle: dict[str, Any]
    created_at: datetime
    answered_at: datetime | None


def _stored(row: PlayerDrillRow) -> StoredDrill:
    return StoredDrill(
        id=row.id,
        user_id=row.user_id,
        family=row.family,
        game_id=row.game_id,
        seat=row.seat,
        step=row.step,
        puzzle=dict(row.puzzle),
        created_at=row.created_at,
        answered_at=row.answered_at,
    )


class PlayerDrills:
    """The players' own puzzles."""

    def __init__(self, database: Database, keep: int = KEEP) -> None:
        self.database = database
        self.keep = keep

    async def put(
        self,
        user_id: int,
        family: str,
        game_id: int,
        step: int,
        puzzle: dict[str, Any],
        *,
        seat: int,
    ) -> StoredDrill | None:
        """Keep ``puzzle`` for ``user_id`` (from ``step`` of his ``seat`` in game ``game_id``)
        and drop his oldest of ``family`` past :attr:`keep`; ``None`` if that decision of his is
        kept already."""
        stored = as_stored_json(puzzle, "puzzle")
        row = PlayerDrillRow(
            user_id=user_id,
            family=family,
            game_id=game_id,
            seat=seat,
            step=step,
            puzzle=stored,
            created_at=utc_now(),
            answered_at=None,
        )
        try:
            async with self.database.write() as session:
                session.add(row)
                await session.flush()
                kept = _stored(row)
                oldest_kept = await session.scalar(
                    select(PlayerDrillRow.id)
                    .where(PlayerDrillRow.user_id == user_id, PlayerDrillRow.family == family)
                    .order_by(PlayerDrillRow.id.desc())
                    .offset(self.keep - 1)
                    .limit(1)
                )
                if oldest_kept is not None:
                    await session.execute(
                        delete(PlayerDrillRow).where(
                            PlayerDrillRow.user_id == user_id,
                            PlayerDrillRow.family == family,
                            PlayerDrillRow.id < oldest_kept,
                        )
                    )
        except IntegrityError:
            return None
        return kept

    async def get(self, user_id: int, drill_id: int) -> StoredDrill | None:
        """Puzzle ``drill_id`` if it is ``user_id``'s, else ``None``."""
        async with self.database.read() as session:
            row = await session.get(PlayerDrillRow, drill_id)
            return None if row is None or row.user_id != user_id else _stored(row)

    async def recent(self, user_id: int, family: str, limit: int = 50) -> list[StoredDrill]:
        """His last ``limit`` (at most :data:`MAX_RECENT`) puzzles of ``family``, newest first."""
        limit = max(0, min(limit, MAX_RECENT))
        query = (
            select(PlayerDrillRow)
            .where(PlayerDrillRow.user_id == user_id, PlayerDrillRow.family == family)
            .order_by(PlayerDrillRow.id.desc())
            .limit(limit)
        )
        async with self.database.read() as session:
            return [_stored(row) for row in (await session.scalars(query)).all()]

    async def next(self, user_id: int, family: str) -> StoredDrill | None:
        """His newest puzzle of ``family`` not yet answered, or ``None``."""
        query = (
            select(PlayerDrillRow)
            .where(
                PlayerDrillRow.user_id == user_id,
                PlayerDrillRow.family == family,
                PlayerDrillRow.answered_at.is_(None),
            )
            .order_by(PlayerDrillRow.id.desc())
            .limit(1)
        )
        async with self.database.read() as session:
            row = await session.scalar(query)
            return None if row is None else _stored(row)

    async def answered(self, user_id: int, drill_id: int) -> None:
        """Mark his puzzle ``drill_id`` answered (the first answer's time is kept)."""
        async with self.database.write() as session:
            await session.execute(
                update(PlayerDrillRow)
                .where(
                    PlayerDrillRow.id == drill_id,
                    PlayerDrillRow.user_id == user_id,
                    PlayerDrillRow.answered_at.is_(None),
                )
                .values(answered_at=utc_now())
            )

    async def counts(self, user_id: int) -> dict[str, tuple[int, int]]:
        """Per family he has puzzles of: ``(kept, not yet answered)``."""
        unanswered = func.count(PlayerDrillRow.id).filter(PlayerDrillRow.answered_at.is_(None))
        query = (
            select(PlayerDrillRow.family, func.count(PlayerDrillRow.id), unanswered)
            .where(PlayerDrillRow.user_id == user_id)
            .group_by(PlayerDrillRow.family)
        )
        async with self.database.read() as session:
            rows = (await session.execute(query)).all()
        return {str(family): (int(kept), int(left)) for family, kept, left in rows}
