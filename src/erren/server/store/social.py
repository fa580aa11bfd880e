"""Friends and blocks between registered accounts (tables ``friend_codes``, ``friendships``,
``friend_requests``, ``blocks``; revision 0008).

A registered player adds another by name or by the other's friend code (a short code of
:data:`CODE_LENGTH` letters and digits, made the first time it is asked for); the other accepts
or refuses the request; either may remove the friendship.  A player blocks another: the
friendship and the requests between them go, and while the block stands neither can send the
other a friend request, invite him, or be paired with him in quick match.  Guests have none of
it (:class:`FriendError` ``account-needed``).

Bounds: :data:`MAX_FRIENDS` friends, :data:`MAX_OUTGOING` requests sent and waiting,
:data:`MAX_INCOMING` requests received and waiting, :data:`MAX_BLOCKS` blocked players.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from sqlalchemy import Select, delete, func, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from erren.server.store.database import Database, name_key_of, utc_now
from erren.server.store.errors import StoreError
from erren.server.store.models import (
    BlockRow,
    FriendCodeRow,
    FriendRequestRow,
    FriendshipRow,
    Game,
    UserRow,
)

__all__ = [
    "CODE_LENGTH",
    "MAX_BLOCKS",
    "MAX_FRIENDS",
    "MAX_INCOMING",
    "MAX_OUTGOING",
    "FriendError",
    "Peer",
    "RequestOutcome",
    "Social",
]

MAX_FRIENDS: Final = 100
"""The most friends an account has."""
MAX_OUTGOING: Final = 20
"""The most friend requests an account has sent that wait for an answer."""
MAX_INCOMING: Final = 50
"""The most friend requests an account has received that wait for an answer."""
MAX_BLOCKS: Final = 200
"""The most players an account blocks."""
CODE_LENGTH: Final = 6
CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""A friend code's characters: no 0/O, 1/I/L that read alike."""


class FriendError(StoreError):
    """A friend request, answer or block refused; ``code`` says why (docs/protocol.md, "Codes"):
    ``account-needed`` (a guest, on either side), ``no-player`` (no registered account of that
    name or code), ``friend-self``, ``friend-already``, ``friend-blocked`` (a block stands between
    the two), ``friend-limit`` (a friend list, or the requests waiting, is full; ``limit`` the
    bound), ``no-request`` (no such request to answer), ``not-friends``."""

    def __init__(self, code: str, message: str, limit: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.limit = limit


class RequestOutcome(StrEnum):
    """What a friend request did."""

    SENT = "sent"
    """The request waits for the other's answer (also when it already did)."""
    FRIENDS = "friends"
    """The other had asked first: the two are friends now."""


@dataclass(frozen=True, slots=True)
class Peer:
    """Another account as a player's friends page lists it: a friend, a request's other side,
    a blocked player or a recent opponent, with when that began (or when they last played)."""

    user_id: int
    name: str
    since: datetime


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A typed friend code as stored: upper case, without spaces or dashes."""
    return text.strip().replace("-", "").replace(" ", "").upper()


class Social:
    """Friend codes, friendships, friend requests and blocks of registered accounts."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def _registered(self, session: AsyncSession, user_id: int) -> UserRow:
        user = await session.get(UserRow, user_id)
        if user is None or user.is_guest:
            raise FriendError("account-needed", "friends are for registered accounts")
        return user

    async def code(self, user_id: int) -> str:
        """The account's friend code, made now if it has none."""
        async with self.database.read() as session:
            code = await session.scalar(
                select(FriendCodeRow.code).where(FriendCodeRow.user_id == user_id)
            )
        if code is not None:
            return code
        for _ in range(8):
            try:
                async with self.database.write() as session:
                    await self._registered(session, user_id)
                    row = await session.get(FriendCodeRow, user_id)
                    if row is not None:
                        return row.code
                    code = _new_code()
                    session.add(FriendCodeRow(user_id=user_id, code=code))
                return code
            except IntegrityError:  # the code is taken (or made concurrently): again
                continue
        raise StoreError("no free friend code")  # pragma: no cover  (31⁶ codes)

    async def find(self, name_or_code: str) -> int | None:
        """The registered account named ``name_or_code``, else the one with that friend code."""
        async with self.database.read() as session:
            found = await session.scalar(
                select(UserRow.id).where(
                    UserRow.name_key == name_key_of(name_or_code), UserRow.is_guest.is_(False)
                )
            )
            if found is None:
                found = await session.scalar(
                    select(FriendCodeRow.user_id).where(
                        FriendCodeRow.code == normal_code(name_or_code)
                    )
                )
            return found

    @staticmethod
    async def _count(
        session: AsyncSession, column: InstrumentedAttribute[int], user_id: int
    ) -> int:
        return int(await session.scalar(select(func.count()).where(column == user_id)) or 0)

    @staticmethod
    async def _blocked(session: AsyncSession, a: int, b: int) -> bool:
        row = await session.scalar(
            select(BlockRow.user_id).where(
                tuple_(BlockRow.user_id, BlockRow.blocked_id).in_([(a, b), (b, a)])
            )
        )
        return row is not None

    @staticmethod
    async def _are_friends(session: AsyncSession, a: int, b: int) -> bool:
        return await session.get(FriendshipRow, (a, b)) is not None

    async def _befriend(self, session: AsyncSession, a: int, b: int) -> None:
        for one in (a, b):
            if await self._count(session, FriendshipRow.user_id, one) >= MAX_FRIENDS:
                raise FriendError("friend-limit", "a friend list is full", MAX_FRIENDS)
        now = utc_now()
        await session.execute(
            delete(FriendRequestRow).where(
                tuple_(FriendRequestRow.from_id, FriendRequestRow.to_id).in_([(a, b), (b, a)])
            )
        )
        session.add_all(
            [
                FriendshipRow(user_id=a, friend_id=b, created_at=now),
                FriendshipRow(user_id=b, friend_id=a, created_at=now),
            ]
        )

    async def request(self, from_id: int, to_id: int) -> RequestOutcome:
        """Ask ``to_id`` to be ``from_id``'s friend (if ``to_id`` had asked first, they are
        friends now).  :class:`FriendError` as the class says."""
        if from_id == to_id:
            raise FriendError("friend-self", "that is you")
        async with self.database.write() as session:
            await self._registered(session, from_id)
            await self._registered(session, to_id)
            if await self._blocked(session, from_id, to_id):
                raise FriendError("friend-blocked", "a block stands between the two")
            if await self._are_friends(session, from_id, to_id):
                raise FriendError("friend-already", "already friends")
            if await session.get(FriendRequestRow, (to_id, from_id)) is not None:
                await self._befriend(session, from_id, to_id)
                return RequestOutcome.FRIENDS
            if await session.get(FriendRequestRow, (from_id, to_id)) is not None:
                return RequestOutcome.SENT
            if await self._count(session, FriendshipRow.user_id, from_id) >= MAX_FRIENDS:
                raise FriendError("friend-limit", "the friend list is full", MAX_FRIENDS)
            if await self._count(session, FriendRequestRow.from_id, from_id) >= MAX_OUTGOING:
                raise FriendError("friend-limit", "too many requests waiting", MAX_OUTGOING)
            if await self._count(session, FriendRequestRow.to_id, to_id) >= MAX_INCOMING:
                raise FriendError("friend-limit", "his requests are full", MAX_INCOMING)
            session.add(FriendRequestRow(from_id=from_id, to_id=to_id, created_at=utc_now()))
            return RequestOutcome.SENT

    async def answer(self, user_id: int, from_id: int, *, accept: bool) -> None:
        """Accept or refuse ``from_id``'s waiting request to ``user_id`` (``no-request`` if
        there is none)."""
        async with self.database.write() as session:
            row = await session.get(FriendRequestRow, (from_id, user_id))
            if row is None:
                raise FriendError("no-request", "no such friend request")
            if accept:
                await self._befriend(session, user_id, from_id)
            else:
                await session.delete(row)

    async def cancel(self, user_id: int, to_id: int) -> None:
        """Withdraw ``user_id``'s waiting request to ``to_id`` (nothing if there is none)."""
        async with self.database.write() as session:
            await session.execute(
                delete(FriendRequestRow).where(
                    FriendRequestRow.from_id == user_id, FriendRequestRow.to_id == to_id
                )
            )

    async def remove(self, user_id: int, friend_id: int) -> None:
        """End the friendship of the two (``not-friends`` if there is none)."""
        async with self.database.write() as session:
            result = await session.execute(
                delete(FriendshipRow).where(
                    tuple_(FriendshipRow.user_id, FriendshipRow.friend_id).in_(
                        [(user_id, friend_id), (friend_id, user_id)]
                    )
                )
            )
            if not getattr(result, "rowcount", 0):
                raise FriendError("not-friends", "not friends")

    async def block(self, user_id: int, other_id: int) -> None:
        """``user_id`` blocks ``other_id``: their friendship and requests go (again: nothing)."""
        if user_id == other_id:
            raise FriendError("friend-self", "that is you")
        async with self.database.write() as session:
            await self._registered(session, user_id)
            if await session.get(UserRow, other_id) is None:
                raise FriendError("no-player", "no such player")
            if await session.get(BlockRow, (user_id, other_id)) is not None:
                return
            if await self._count(session, BlockRow.user_id, user_id) >= MAX_BLOCKS:
                raise FriendError("friend-limit", "too many blocked players", MAX_BLOCKS)
            pairs = [(user_id, other_id), (other_id, user_id)]
            await session.execute(
                delete(FriendshipRow).where(
                    tuple_(FriendshipRow.user_id, FriendshipRow.friend_id).in_(pairs)
                )
            )
            await session.execute(
                delete(FriendRequestRow).where(
                    tuple_(FriendRequestRow.from_id, FriendRequestRow.to_id).in_(pairs)
                )
            )
            session.add(BlockRow(user_id=user_id, blocked_id=other_id, created_at=utc_now()))

    async def unblock(self, user_id: int, other_id: int) -> None:
        """Lift ``user_id``'s block of ``other_id`` (nothing if there is none)."""
        async with self.database.write() as session:
            await session.execute(
                delete(BlockRow).where(BlockRow.user_id == user_id, BlockRow.blocked_id == other_id)
            )

    async def _peers(self, session: AsyncSession, query: Select[int, str, Any]) -> list[Peer]:
        rows = (await session.execute(query)).all()
        return [Peer(int(r[0]), str(r[1]), r[2]) for r in rows]

    async def friends(self, user_id: int) -> list[Peer]:
        """The account's friends, by name."""
        async with self.database.read() as session:
            return await self._peers(
                session,
                select(UserRow.id, UserRow.name, FriendshipRow.created_at)
                .join(FriendshipRow, FriendshipRow.friend_id == UserRow.id)
                .where(FriendshipRow.user_id == user_id)
                .order_by(UserRow.name_key),
            )

    async def friend_ids(self, user_id: int) -> set[int]:
        """The ids of the account's friends."""
        async with self.database.read() as session:
            found = await session.scalars(
                select(FriendshipRow.friend_id).where(FriendshipRow.user_id == user_id)
            )
            return set(found)

    async def requests(self, user_id: int) -> tuple[list[Peer], list[Peer]]:
        """The requests waiting: (received, sent), newest first."""
        async with self.database.read() as session:
            received = await self._peers(
                session,
                select(UserRow.id, UserRow.name, FriendRequestRow.created_at)
                .join(FriendRequestRow, FriendRequestRow.from_id == UserRow.id)
                .where(FriendRequestRow.to_id == user_id)
                .order_by(FriendRequestRow.created_at.desc()),
            )
            sent = await self._peers(
                session,
                select(UserRow.id, UserRow.name, FriendRequestRow.created_at)
                .join(FriendRequestRow, FriendRequestRow.to_id == UserRow.id)
                .where(FriendRequestRow.from_id == user_id)
                .order_by(FriendRequestRow.created_at.desc()),
            )
            return received, sent

    async def blocked(self, user_id: int) -> list[Peer]:
        """The players the account blocks, by name."""
        async with self.database.read() as session:
            return await self._peers(
                session,
                select(UserRow.id, UserRow.name, BlockRow.created_at)
                .join(BlockRow, BlockRow.blocked_id == UserRow.id)
                .where(BlockRow.user_id == user_id)
                .order_by(UserRow.name_key),
            )

    async def is_blocked(self, a: int, b: int) -> bool:
        """Whether either of the two blocks the other."""
        async with self.database.read() as session:
            return await self._blocked(session, a, b)

    async def barred(self, user_id: int) -> set[int]:
        """The accounts with a block between them and ``user_id`` (either way)."""
        async with self.database.read() as session:
            mine = await session.scalars(
                select(BlockRow.blocked_id).where(BlockRow.user_id == user_id)
            )
            theirs = await session.scalars(
                select(BlockRow.user_id).where(BlockRow.blocked_id == user_id)
            )
            return set(mine) | set(theirs)

    async def blocks_among(self, user_ids: Iterable[int]) -> set[frozenset[int]]:
        """The pairs of ``user_ids`` with a block between them (either way): for quick match."""
        ids = sorted(set(user_ids))
        if len(ids) < 2:
            return set()
        async with self.database.read() as session:
            rows = await session.execute(
                select(BlockRow.user_id, BlockRow.blocked_id).where(
                    BlockRow.user_id.in_(ids), BlockRow.blocked_id.in_(ids)
                )
            )
            return {frozenset((int(a), int(b))) for a, b in rows.all()}

    async def recent_opponents(self, user_id: int, limit: int = 10) -> list[Peer]:
        """The registered accounts ``user_id`` played most recently (one row each, newest
        first; ``since`` is when they last sat down together)."""
        other = (
            select(Game.seat1_user_id.label("other"), Game.created_at.label("at")).where(
                Game.seat0_user_id == user_id
            )
        ).union_all(
            select(Game.seat0_user_id.label("other"), Game.created_at.label("at")).where(
                Game.seat1_user_id == user_id
            )
        )
        games = other.subquery()
        last = func.max(games.c.at).label("last")
        async with self.database.read() as session:
            return await self._peers(
                session,
                select(UserRow.id, UserRow.name, last)
                .join(games, games.c.other == UserRow.id)
                .where(UserRow.is_guest.is_(False), UserRow.id != user_id)
                .group_by(UserRow.id, UserRow.name)
                .order_by(last.desc(), UserRow.id)
                .limit(limit),
            )
