"""Ranks (段位): each registered player's standing in each family's ladder per season (table
``ranks``) and each hand's move of it (``rank_history``), as :mod:`erren.server.ranks` rules.

A bean-room hand moves the ranks in the transaction that settles it
(:meth:`.Profiles.settle_hand` calls :meth:`Ranks.move` after writing the hand's ``hands`` row,
whose primary key makes a retried settlement a no-op: a rank moves once per hand; the
``rank_history`` row is also unique per game and player).  The season is the one the store's
clock (:attr:`Ranks.now`, injectable) is in when the hand is settled.

The rows of both players are locked (``SELECT ... FOR UPDATE``, in user order) before they
move.  A player's first hand of a season inserts his row: two first hands of one player settled
at once would collide on its primary key (the second settlement would fail with an
``IntegrityError``, nothing of it written) — which one seat per account, in the whole cluster,
rules out: a player plays one hand at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from erren.engine.result import ResultKind
from erren.server import ranks as rule
from erren.server.store.database import Database, utc_now
from erren.server.store.models import RankHistoryRow, RankRow, UserRow
from erren.server.store.values import SettledHand

__all__ = ["RankLeader", "RankMove", "RankStanding", "Ranks", "outcomes"]


@dataclass(frozen=True, slots=True)
class RankStanding:
    """A player's standing in one family in one season; ``hands``: the hands that moved it
    this season (0: carried from an earlier season, not yet played in this one)."""

    family: str
    season: int
    step: int
    points: int
    hands: int


@dataclass(frozen=True, slots=True)
class RankMove:
    """One hand's move of one player's rank: before, after, and the PT the hand moved."""

    user_id: int
    game_id: int
    family: str
    season: int
    step_before: int
    points_before: int
    step_after: int
    points_after: int
    change: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RankLeader:
    """A player on a family's rank leaderboard for a season."""

    user_id: int
    name: str
    step: int
    points: int
    hands: int


def outcomes(hand: SettledHand) -> dict[int, rule.Outcome]:
    """What the hand counts as for each seat that the ladder moves, by seat: a win and a loss,
    two draws, or an escape (the escaper only: the one who stayed gets nothing)."""
    if hand.kind == ResultKind.DRAW:
        return {0: rule.Outcome.DRAW, 1: rule.Outcome.DRAW}
    if hand.kind == ResultKind.WIN and hand.winner is not None:
        return {hand.winner: rule.Outcome.WIN, 1 - hand.winner: rule.Outcome.LOSS}
    if hand.kind == ResultKind.ABORT and hand.loser is not None:
        return {hand.loser: rule.Outcome.ESCAPE}
    return {}


def _move(row: RankHistoryRow) -> RankMove:
    return RankMove(
        user_id=row.user_id,
        game_id=row.game_id,
        family=row.family,
        season=row.season,
        step_before=row.step_before,
        points_before=row.points_before,
        step_after=row.step_after,
        points_after=row.points_after,
        change=row.change,
        created_at=row.created_at,
    )


class Ranks:
    """The ladder's standings and moves; :attr:`seasons` (the calendar; by default
    :meth:`.Seasons.from_env`) and :attr:`now` (the clock seasons are read on) are
    injectable."""

    def __init__(
        self,
        database: Database,
        *,
        seasons: rule.Seasons | None = None,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.database = database
        self.seasons: rule.Seasons = seasons or rule.Seasons.from_env()
        self.now: Callable[[], datetime] = now

    def season(self) -> rule.Season:
        """The current season."""
        return self.seasons.of(self.now())

    async def move(self, session: AsyncSession, hand: SettledHand, tier: str) -> list[RankMove]:
        """In the settling transaction ``session``: move the ranks of the hand's registered
        players in its family for a hand in the room tier ``tier`` (rows locked in user
        order); the moves made."""
        seats = hand.seats
        moving = {
            seats[seat]: outcome
            for seat, outcome in outcomes(hand).items()
            if seats[seat] is not None
        }
        if not moving:
            return []
        users = sorted(user for user in moving if user is not None)
        registered = await session.scalar(
            select(func.count())
            .select_from(UserRow)
            .where(UserRow.id.in_(users), UserRow.is_guest.is_(False))
        )
        if registered != len(users):
            return []
        now = self.now()
        season = self.seasons.number(now)
        rows = await self._rows(session, users, hand.ruleset, season)
        moves = []
        for user in users:
            row = rows.get(user) or await self._start(session, user, hand.ruleset, season, now)
            before = rule.Standing(row.step, row.points)
            outcome = moving[user]
            after = rule.apply(before, tier, outcome)
            row.step, row.points, row.hands, row.updated_at = (
                after.step,
                after.points,
                row.hands + 1,
                now,
            )
            history = RankHistoryRow(
                user_id=user,
                game_id=hand.game_id,
                family=hand.ruleset,
                season=season,
                step_before=before.step,
                points_before=before.points,
                step_after=after.step,
                points_after=after.points,
                change=rule.change(before.step, tier, outcome),
                created_at=now,
            )
            session.add(history)
            moves.append(_move(history))
        return moves

    @staticmethod
    async def _rows(
        session: AsyncSession, users: list[int], family: str, season: int
    ) -> dict[int, RankRow]:
        found = await session.scalars(
            select(RankRow)
            .where(RankRow.user_id.in_(users), RankRow.family == family, RankRow.season == season)
            .order_by(RankRow.user_id)
            .with_for_update()
        )
        return {row.user_id: row for row in found.all()}

    @staticmethod
    async def _start(
        session: AsyncSession, user: int, family: str, season: int, now: datetime
    ) -> RankRow:
        """The player's row for a season he has not played yet: carried from his most recent
        earlier season (the soft reset), or 新人一级 at 0."""
        last = await session.scalar(
            select(RankRow)
            .where(RankRow.user_id == user, RankRow.family == family, RankRow.season < season)
            .order_by(RankRow.season.desc())
            .limit(1)
        )
        start = (
            rule.Standing() if last is None else rule.carry(rule.Standing(last.step, last.points))
        )
        row = RankRow(
            user_id=user,
            family=family,
            season=season,
            step=start.step,
            points=start.points,
            hands=0,
            updated_at=now,
        )
        session.add(row)
        return row

    # ---------------------------------------------------------------------------- reading
    async def standings(self, user_id: int, season: int | None = None) -> list[RankStanding]:
        """The player's standing in every family he has a rank in, by family, in ``season``
        (default: the current one); a family he has not played in that season yet shows his
        carried standing with ``hands`` 0."""
        number = self.season().number if season is None else season
        async with self.database.read() as session:
            rows = (
                await session.scalars(
                    select(RankRow)
                    .where(RankRow.user_id == user_id, RankRow.season <= number)
                    .order_by(RankRow.family, RankRow.season)
                )
            ).all()
        latest = {row.family: row for row in rows}  # the last season of each family wins
        out = []
        for family, row in sorted(latest.items()):
            if row.season == number:
                out.append(RankStanding(family, number, row.step, row.points, row.hands))
            else:
                carried = rule.carry(rule.Standing(row.step, row.points))
                out.append(RankStanding(family, number, carried.step, carried.points, 0))
        return out

    async def history(
        self, user_id: int, *, family: str | None = None, season: int | None = None, limit: int = 50
    ) -> list[RankMove]:
        """The player's rank moves, newest first; only ``family``'s, ``season``'s."""
        query = select(RankHistoryRow).where(RankHistoryRow.user_id == user_id)
        if family is not None:
            query = query.where(RankHistoryRow.family == family)
        if season is not None:
            query = query.where(RankHistoryRow.season == season)
        async with self.database.read() as session:
            rows = (
                await session.scalars(query.order_by(RankHistoryRow.id.desc()).limit(limit))
            ).all()
        return [_move(row) for row in rows]

    async def moves_of(self, game_id: int) -> list[RankMove]:
        """The rank moves a settled hand made (none for a hand that moved no rank)."""
        async with self.database.read() as session:
            rows = (
                await session.scalars(
                    select(RankHistoryRow)
                    .where(RankHistoryRow.game_id == game_id)
                    .order_by(RankHistoryRow.user_id)
                )
            ).all()
        return [_move(row) for row in rows]

    async def leaders(self, family: str, season: int, limit: int = 50) -> list[RankLeader]:
        """The family's players ranked in ``season`` (those who played a bean-room hand in it),
        highest step first, then most points (ties: who got there first, then the older
        account)."""
        async with self.database.read() as session:
            rows = (
                await session.execute(
                    select(RankRow, UserRow.name)
                    .join(UserRow, UserRow.id == RankRow.user_id)
                    .where(
                        RankRow.family == family,
                        RankRow.season == season,
                        RankRow.hands > 0,
                        UserRow.is_guest.is_(False),
                    )
                    .order_by(
                        RankRow.step.desc(),
                        RankRow.points.desc(),
                        RankRow.updated_at,
                        RankRow.user_id,
                    )
                    .limit(limit)
                )
            ).all()
        return [
            RankLeader(
                user_id=row.user_id, name=name, step=row.step, points=row.points, hands=row.hands
            )
            for row, name in rows
        ]
