"""A player's page: each settled hand (with its beans and the ratings, in one transaction), the
figures per family, the leaderboards and the filtered history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from sqlalchemy import ColumnElement, and_, case, func, literal, or_, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from erren.engine.result import ResultKind, WinHow
from erren.server import rating
from erren.server.store.database import Database, utc_now
from erren.server.store.errors import Fenced
from erren.server.store.games import outcome_of
from erren.server.store.ledger import Ledger
from erren.server.store.models import Game, HandRow, Journal, RatingRow, UserRow
from erren.server.store.names import name_key
from erren.server.store.ranks import Ranks
from erren.server.store.values import (
    BeanLeader,
    FamilyStats,
    GameSummary,
    RatingLeader,
    SettledHand,
    Transfer,
)

__all__ = ["RESULTS", "Profiles"]

RESULTS: Final = ("win", "loss", "draw")
"""What the history filters a player's hands by."""


def _seat_result(row: HandRow, seat: int) -> Literal["win", "loss", "draw"]:
    if row.kind == ResultKind.DRAW:
        return "draw"
    if row.loser == seat:
        return "loss"
    return "win"  # his win, or the opponent's escape


def _result_filter(user_id: int, result: str) -> ColumnElement[bool]:
    """The hands ``result`` (``win``/``loss``/``draw``) for ``user_id``, in SQL."""
    if result == "draw":
        return HandRow.kind == ResultKind.DRAW.value
    seats = ((Game.seat0_user_id, 0), (Game.seat1_user_id, 1))
    if result == "loss":
        return or_(*(and_(col == user_id, HandRow.loser == seat) for col, seat in seats))
    return or_(
        *(
            and_(col == user_id, HandRow.kind != ResultKind.DRAW.value, HandRow.loser == 1 - seat)
            for col, seat in seats
        )
    )


class Profiles:
    """Settled hands, the figures and ratings they make, leaderboards, the filtered history;
    a hand's beans are booked by the ledger, in the same transaction."""

    def __init__(self, database: Database, ledger: Ledger, ranks: Ranks | None = None) -> None:
        self.database = database
        self.ledger = ledger
        self.ranks = ranks
        """Where a rated bean-room hand moves the players' ranks (``None``: nowhere)."""

    async def settle_hand(
        self, hand: SettledHand, transfers: Sequence[Transfer], *, fence: int | None = None
    ) -> bool:
        """Settle a finished hand once: in ONE transaction, its beans (``transfers``, as
        :meth:`.Ledger.settle` with the key ``game:{game_id}``), its ``hands`` row (what the profile
        counts) and, when ``hand.rated`` and both seats are registered players, both players'
        ratings in the family (and, for a bean room's ``hand.tier``, their ranks).  ``True`` if
        settled now, ``False`` if it was settled before (nothing changes: a retried settlement
        moves no bean and rates or ranks nobody twice).  With a
        ``fence`` (a cluster node's lease token for the table) below the game's fence, nothing
        is settled and :class:`Fenced` is raised: a node that lost the table moves no bean."""
        if hand.kind not in frozenset(ResultKind):
            raise ValueError(f"a hand ends in a win, a draw or an abort, not {hand.kind!r}")
        self.ledger.check_transfers(transfers)
        key = f"game:{hand.game_id}"
        try:
            async with self.database.write() as session:
                if fence is not None:
                    await self._hold_fence(session, hand.game_id, fence)
                if await session.get(HandRow, hand.game_id) is not None:
                    return False
                row = HandRow(
                    game_id=hand.game_id,
                    ruleset=hand.ruleset,
                    kind=hand.kind,
                    winner=hand.winner,
                    loser=hand.loser,
                    how=hand.how,
                    fan_total=hand.fan_total,
                    points=hand.points,
                    delta0=hand.deltas[0],
                    delta1=hand.deltas[1],
                    beans0=0,
                    beans1=0,
                    rated=False,
                    created_at=utc_now(),
                )
                session.add(row)
                await session.flush()  # a concurrent settlement of this hand waits here, then fails
                beans = [0, 0]
                settled_before = await session.scalar(select(Journal.id).where(Journal.key == key))
                if transfers and settled_before is None:
                    paid = await self.ledger.add_settlement(session, key, transfers, strict=False)
                    for transfer, amount in zip(transfers, paid, strict=True):
                        for seat, user_id in enumerate(hand.seats):
                            if user_id == transfer.payer_id:
                                beans[seat] -= amount
                            elif user_id == transfer.payee_id:
                                beans[seat] += amount
                row.beans0, row.beans1 = beans
                row.rated = hand.rated and await self._rate(session, hand)
                if row.rated and hand.tier is not None and self.ranks is not None:
                    await self.ranks.move(session, hand, hand.tier)  # once: the hands row
                await session.flush()
        except IntegrityError:
            async with self.database.read() as session:
                if await session.get(HandRow, hand.game_id) is not None:
                    return False
            raise
        return True

    @staticmethod
    async def _hold_fence(session: AsyncSession, game_id: int, token: int) -> None:
        """Lock the game's row while its fence is at most ``token`` (a node that takes the
        table over waits for this transaction, then fences above it); :class:`Fenced` if the
        fence is already above."""
        held = await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.fence <= token)
            .values(fence=Game.fence)
            .execution_options(synchronize_session=False)
        )
        if held.rowcount != 1:  # type: ignore[attr-defined]
            fence = await session.scalar(select(Game.fence).where(Game.id == game_id))
            raise Fenced(game_id, token, -1 if fence is None else fence)

    async def _rate(self, session: AsyncSession, hand: SettledHand) -> bool:
        """Update both seats' ratings in ``hand.ruleset`` (rows locked in user order) — after an
        escape only the escaper's, as a loss to the other; ``False`` (nothing rated) unless both
        seats are registered players."""
        first, second = hand.seats
        if first is None or second is None or first == second:
            return False
        registered = await session.scalar(
            select(func.count())
            .select_from(UserRow)
            .where(UserRow.id.in_((first, second)), UserRow.is_guest.is_(False))
        )
        if registered != 2:
            return False
        rows = {
            row.user_id: row
            for row in (
                await session.scalars(
                    select(RatingRow)
                    .where(RatingRow.family == hand.ruleset, RatingRow.user_id.in_((first, second)))
                    .order_by(RatingRow.user_id)
                    .with_for_update()
                )
            ).all()
        }
        now = utc_now()
        winner = hand.winner
        rated: tuple[int, ...] = (first, second)
        if hand.kind == ResultKind.ABORT and hand.loser is not None:
            # an escape is a rated loss for the escaper and nothing for the one who stayed:
            # a puppet's escape must not lift anybody's rating
            winner = 1 - hand.loser
            rated = (second,) if hand.loser == 1 else (first,)
        for user_id in (first, second):
            if user_id not in rows:
                rows[user_id] = RatingRow(
                    user_id=user_id,
                    family=hand.ruleset,
                    mu=rating.START[0],
                    sigma=rating.START[1],
                    hands=0,
                    updated_at=now,
                )
                if user_id in rated:
                    session.add(rows[user_id])
        new = rating.rate(
            (rows[first].mu, rows[first].sigma), (rows[second].mu, rows[second].sigma), winner
        )
        for user_id, (mu, sigma) in zip((first, second), new, strict=True):
            if user_id in rated:
                row = rows[user_id]
                row.mu, row.sigma, row.hands, row.updated_at = mu, sigma, row.hands + 1, now
        return True

    # ---------------------------------------------------------------------------- reading
    async def family_stats(self, user_id: int) -> list[FamilyStats]:
        """The player's figures in every family he has a settled hand in, by family name."""
        async with self.database.read() as session:
            hands = (
                await session.execute(
                    select(HandRow, Game.seat0_user_id)
                    .join(Game, Game.id == HandRow.game_id)
                    .where(or_(Game.seat0_user_id == user_id, Game.seat1_user_id == user_id))
                    .order_by(HandRow.game_id)
                )
            ).all()
            ratings = {
                row.family: row
                for row in (
                    await session.scalars(select(RatingRow).where(RatingRow.user_id == user_id))
                ).all()
            }
        figures: dict[str, dict[str, int]] = {}
        best: dict[str, tuple[int, int, int]] = {}
        for row, seat0 in hands:
            seat = 0 if seat0 == user_id else 1
            f = figures.setdefault(
                row.ruleset,
                dict.fromkeys(
                    ("hands", "wins", "self_drawn", "dealt_in", "losses", "draws", "fan", "beans"),
                    0,
                ),
            )
            f["hands"] += 1
            f["beans"] += row.beans0 if seat == 0 else row.beans1
            if row.kind == ResultKind.DRAW:
                f["draws"] += 1
            elif row.loser == seat:
                f["losses"] += 1
                if row.kind == ResultKind.WIN and row.how in (WinHow.DISCARD, WinHow.ROBBING):
                    f["dealt_in"] += 1
            if row.kind == ResultKind.WIN and row.winner == seat:
                f["wins"] += 1
                f["fan"] += row.fan_total
                if row.how == WinHow.ZIMO:
                    f["self_drawn"] += 1
                if row.ruleset not in best or row.fan_total > best[row.ruleset][1]:
                    best[row.ruleset] = (row.game_id, row.fan_total, row.points)
        out = []
        for family in sorted(figures.keys() | ratings.keys()):
            f = figures.get(family, dict.fromkeys(("hands", "wins"), 0))
            game, fan, points = best.get(family, (None, 0, 0))
            r = ratings.get(family)
            out.append(
                FamilyStats(
                    family=family,
                    hands=f["hands"],
                    wins=f["wins"],
                    self_drawn=f.get("self_drawn", 0),
                    dealt_in=f.get("dealt_in", 0),
                    losses=f.get("losses", 0),
                    draws=f.get("draws", 0),
                    fan_total=f.get("fan", 0),
                    beans=f.get("beans", 0),
                    best_game=game,
                    best_fan=fan,
                    best_points=points,
                    rating_mu=None if r is None else r.mu,
                    rating_sigma=None if r is None else r.sigma,
                    rated_hands=0 if r is None else r.hands,
                )
            )
        return out

    async def rating_mu(self, user_id: int, family: str) -> float | None:
        """The ``mu`` of the user's rating in ``family`` (one row), ``None`` if he has none."""
        async with self.database.read() as session:
            found: float | None = await session.scalar(
                select(RatingRow.mu).where(RatingRow.user_id == user_id, RatingRow.family == family)
            )
        return found

    async def rating_leaders(self, family: str, limit: int = 50) -> list[RatingLeader]:
        """The family's rated players, best ordinal (mu − 3σ) first (ties: the older account)."""
        ordinal = RatingRow.mu - 3 * RatingRow.sigma
        async with self.database.read() as session:
            rows = (
                await session.execute(
                    select(RatingRow, UserRow.name)
                    .join(UserRow, UserRow.id == RatingRow.user_id)
                    .where(RatingRow.family == family, UserRow.is_guest.is_(False))
                    .order_by(ordinal.desc(), RatingRow.user_id)
                    .limit(limit)
                )
            ).all()
        return [
            RatingLeader(
                user_id=row.user_id,
                name=name,
                mu=row.mu,
                sigma=row.sigma,
                ordinal=rating.ordinal((row.mu, row.sigma)),
                hands=row.hands,
            )
            for row, name in rows
        ]

    async def complete_hands(self, user_id: int, *, before_game: int | None = None) -> int:
        """How many bean-room hands the player played to the end (won, lost or drawn: not an
        escape, not a called-off hand), in every family; with ``before_game``, those of games
        before it (the audit asks what was true when a game was settled)."""
        query = (
            select(func.count())
            .select_from(HandRow)
            .join(Game, Game.id == HandRow.game_id)
            .where(
                or_(Game.seat0_user_id == user_id, Game.seat1_user_id == user_id),
                Game.room.contains("/"),
                HandRow.kind != ResultKind.ABORT.value,
            )
        )
        if before_game is not None:
            query = query.where(HandRow.game_id < before_game)
        async with self.database.read() as session:
            return int(await session.scalar(query) or 0)

    async def bean_leaders(self, family: str, limit: int = 50) -> list[BeanLeader]:
        """The family's registered players by the net beans they won in its rooms, most first
        (ties: the older account); only players with a settled hand in a bean room."""
        sides = [
            select(seat.label("user_id"), beans.label("beans"), literal(1).label("one"))
            .select_from(HandRow)
            .join(Game, Game.id == HandRow.game_id)
            .where(HandRow.ruleset == family, seat.is_not(None), Game.room.contains("/"))
            # a bean room's id is "family/tier"; private and computer tables move no beans
            for seat, beans in (
                (Game.seat0_user_id, HandRow.beans0),
                (Game.seat1_user_id, HandRow.beans1),
            )
        ]
        both = union_all(*sides).subquery()
        total = func.sum(both.c.beans)
        async with self.database.read() as session:
            rows = (
                await session.execute(
                    select(both.c.user_id, UserRow.name, total, func.sum(both.c.one))
                    .join(UserRow, UserRow.id == both.c.user_id)
                    .where(UserRow.is_guest.is_(False))
                    .group_by(both.c.user_id, UserRow.name)
                    .order_by(total.desc(), both.c.user_id)
                    .limit(limit)
                )
            ).all()
        return [
            BeanLeader(user_id=user_id, name=name, beans=int(beans), hands=int(hands))
            for user_id, name, beans, hands in rows
        ]

    async def history(
        self,
        user_id: int,
        *,
        family: str | None = None,
        room: str | None = None,
        opponent: str | None = None,
        result: str | None = None,
        limit: int = 50,
    ) -> list[GameSummary]:
        """The player's games, newest first, with his result and beans once settled; only
        those of ``family``, in ``room``, against the player named ``opponent`` (any case;
        ``""``: the computer) or with his ``result`` (``win``/``loss``/``draw``: settled
        hands only)."""
        if result is not None and result not in RESULTS:
            raise ValueError(f"a result is one of {', '.join(RESULTS)}, not {result!r}")
        first, second = aliased(UserRow), aliased(UserRow)
        query = (
            select(Game, first.name, second.name, HandRow)
            .outerjoin(first, first.id == Game.seat0_user_id)
            .outerjoin(second, second.id == Game.seat1_user_id)
            .outerjoin(HandRow, HandRow.game_id == Game.id)
            .where(or_(Game.seat0_user_id == user_id, Game.seat1_user_id == user_id))
        )
        if family is not None:
            query = query.where(Game.ruleset == family)
        if room is not None:
            query = query.where(Game.room == room)
        if opponent == "":
            query = query.where(or_(Game.seat0_user_id.is_(None), Game.seat1_user_id.is_(None)))
        elif opponent is not None:
            key = name_key(opponent)
            query = query.where(
                or_(
                    and_(Game.seat0_user_id == user_id, second.name_key == key),
                    and_(Game.seat1_user_id == user_id, first.name_key == key),
                )
            )
        if result is not None:
            query = query.where(_result_filter(user_id, result))
        seat_of = case((Game.seat0_user_id == user_id, 0), else_=1)
        async with self.database.read() as session:
            rows = (
                await session.execute(
                    query.add_columns(seat_of).order_by(Game.id.desc()).limit(limit)
                )
            ).all()
        return [
            GameSummary(
                id=game.id,
                ruleset=game.ruleset,
                room=game.room,
                seats=(game.seat0_user_id, game.seat1_user_id),
                players=(name0, name1),
                finished=game.finished,
                summary=game.summary,
                created_at=game.created_at,
                finished_at=game.finished_at,
                outcome=outcome_of(game.record),
                result=None if hand is None else _seat_result(hand, seat),
                beans=None if hand is None else (hand.beans0 if seat == 0 else hand.beans1),
            )
            for game, name0, name1, hand, seat in rows
        ]
