"""Accounts and sessions: registration, login, guests, tokens."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Final

from sqlalchemy import bindparam, delete, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from erren.server import work
from erren.server.hashing import hash_password, verify_password
from erren.server.store import names
from erren.server.store.database import Database, name_key_of, token_hash, utc_now
from erren.server.store.errors import AccountError, AuthError, NameTakenError, StoreError
from erren.server.store.ledger import Ledger
from erren.server.store.models import USER, Account, ServerKey, SessionRow, UserRow, UTCDateTime
from erren.server.store.origins import ORIGIN_KEY, origin_of
from erren.server.store.passwords import MAX_PASSWORD, MIN_PASSWORD, Passwords
from erren.server.store.values import Session, User
from erren.server.work import Work

__all__ = ["Accounts"]


_GUEST_PREFIX: Final = "guest-"

_NEW_GUEST = text(
    """
    WITH u AS (
        INSERT INTO users (name, name_key, password_hash, is_guest, created_at)
        VALUES (:name, :name_key, NULL, true, :now) RETURNING id
    ), a AS (
        INSERT INTO accounts (kind, user_id, balance)
        SELECT 'user', u.id, :grant FROM u RETURNING id
    ), s AS (
        INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
        SELECT :token_hash, u.id, :now, :expires FROM u
    ), j AS (
        INSERT INTO journal (key, kind, created_at)
        SELECT 'welcome:' || u.id, 'grant', :now FROM u WHERE :grant <> 0 RETURNING id
    ), h AS (
        UPDATE accounts SET balance = balance - :grant
        WHERE id = :house AND EXISTS (SELECT FROM j) RETURNING balance
    ), e AS (
        INSERT INTO ledger
            (journal_id, account_id, counter_account_id, amount, balance_after, reason, created_at)
        SELECT j.id, a.id, :house, :grant, :grant, 'welcome', :now FROM j, a
        UNION ALL
        SELECT j.id, :house, a.id, -:grant, h.balance, 'welcome', :now FROM j, a, h
    )
    SELECT id FROM u
    """
).bindparams(bindparam("now", type_=UTCDateTime()), bindparam("expires", type_=UTCDateTime()))
"""A new guest with the welcome grant, as ONE statement (PostgreSQL): see ``_guest_rows``."""


class Accounts:
    """Users and their sessions; a new account gets the welcome grant from the ledger."""

    def __init__(
        self,
        database: Database,
        ledger: Ledger,
        *,
        welcome_grant: int,
        passwords: Passwords,
        session_ttl: timedelta,
    ) -> None:
        self.database = database
        self.ledger = ledger
        self.welcome_grant = welcome_grant
        self.session_ttl = session_ttl
        self._passwords = passwords
        self._origin_key_bytes: bytes | None = None
        """The key of ``users.origin`` (:mod:`~erren.server.store.origins`), read on first use."""

    @staticmethod
    def _user(row: UserRow) -> User:
        return User(id=row.id, name=row.name, is_guest=row.is_guest, created_at=row.created_at)

    async def _new_user(
        self,
        session: AsyncSession,
        name: str,
        password_hash: str | None,
        *,
        guest: bool,
        skeleton: str | None = None,
    ) -> tuple[UserRow, Account]:
        """The user's row and account (flushed); the caller then adds its other rows and calls
        :meth:`_welcome` last."""
        row = UserRow(
            name=name,
            name_key=name_key_of(name),
            name_skeleton=skeleton,
            password_hash=password_hash,
            is_guest=guest,
            created_at=utc_now(),
        )
        session.add(row)
        await session.flush()
        account = Account(kind=USER, user_id=row.id, balance=0)
        session.add(account)
        await session.flush()
        return row, account

    async def _welcome(self, session: AsyncSession, user: UserRow, account: Account) -> None:
        """The welcome grant: the transaction's last statement (it locks the house's row)."""
        if self.welcome_grant:
            await self.ledger.add_grant(
                session, account, self.welcome_grant, "welcome", key=f"welcome:{user.id}"
            )

    async def _new_session(self, session: AsyncSession, user: UserRow) -> Session:
        token = secrets.token_urlsafe(32)
        now = utc_now()
        expires = now + self.session_ttl
        session.add(
            SessionRow(
                token_hash=token_hash(token), user_id=user.id, created_at=now, expires_at=expires
            )
        )
        return Session(token=token, user=self._user(user), expires_at=expires)

    async def register(self, name: str, password: str, *, address: str | None = None) -> User:
        """A new account with the welcome grant, under the name's NFKC form, registered from
        the client at ``address`` (kept only as a keyed digest: :mod:`.origins`).
        :class:`AccountError` if the name breaks the rules of :mod:`erren.server.store.names`
        ("bad name: ...") or the password is shorter than 8 characters,
        :class:`NameTakenError` if the name or a look-alike is taken."""
        try:
            name = names.check_name(name)
        except names.BadNameError as err:
            raise AccountError(str(err)) from None
        key, look = name_key_of(name), names.skeleton(name)
        if not isinstance(password, str) or len(password) < MIN_PASSWORD:
            raise AccountError(f"the password is too short: at least {MIN_PASSWORD} characters")
        if len(password) > MAX_PASSWORD:
            raise AccountError(f"the password is too long: at most {MAX_PASSWORD} characters")

        async def clash(session: AsyncSession) -> NameTakenError | None:
            same = await session.scalar(select(UserRow.name).where(UserRow.name_key == key))
            if same is not None:
                return NameTakenError("name-taken", f"the name {name!r} is taken", same)
            like = await session.scalar(select(UserRow.name).where(UserRow.name_skeleton == look))
            if like is not None:
                return NameTakenError(
                    "name-confusable",
                    f"the name {name!r} looks like the existing name {like!r} "
                    "(letters of other scripts, case or width); choose another",
                    like,
                )
            return None

        async with self.database.read() as session:
            if found := await clash(session):
                raise found
        hashed = await work.run(Work.PASSWORD, hash_password, self._passwords.params, password)
        origin = None if address is None else origin_of(address, await self._origin_key())
        try:
            async with self.database.write() as session:
                if found := await clash(session):
                    raise found
                row, account = await self._new_user(
                    session, name, hashed, guest=False, skeleton=look
                )
                row.origin = origin
                await self._welcome(session, row, account)
        except IntegrityError:  # a concurrent registration won the name or its look-alike
            async with self.database.read() as session:
                found = await clash(session)
            raise found or NameTakenError(
                "name-taken", f"the name {name!r} is taken", name
            ) from None
        return self._user(row)

    async def login(self, name: str, password: str) -> Session:
        """A new session for ``name``; :class:`AuthError` (one message) if the name is unknown,
        a guest's, or the password wrong."""
        refused = AuthError("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise refused
        if len(password) > MAX_PASSWORD:
            raise refused
        key = name_key_of(name)
        if len(key) > names.MAX_KEY:  # no account has such a name; the column could not hold it
            raise AccountError(
                f"bad name: its normalised form has {len(key)} characters, at most "
                f"{names.MAX_KEY} are possible"
            )
        async with self.database.read() as session:
            row = await session.scalar(select(UserRow).where(UserRow.name_key == key))
        hashed = None if row is None else row.password_hash
        if not await work.run(
            Work.PASSWORD, verify_password, self._passwords.params, hashed, password
        ):
            raise refused
        assert row is not None and hashed is not None
        rehashed = None
        if self._passwords.needs_rehash(hashed):
            rehashed = await work.run(
                Work.PASSWORD, hash_password, self._passwords.params, password
            )
        async with self.database.write() as session:
            now = utc_now()
            await session.execute(
                delete(SessionRow).where(SessionRow.user_id == row.id, SessionRow.expires_at <= now)
            )
            if rehashed is not None:
                await session.execute(
                    update(UserRow).where(UserRow.id == row.id).values(password_hash=rehashed)
                )
            return await self._new_session(session, row)

    async def guest(self) -> Session:
        """A new guest user (``guest-`` and 8 hex digits, no password) with the welcome grant,
        and a session for it."""
        for _ in range(8):
            name = _GUEST_PREFIX + secrets.token_hex(4)
            try:
                if self.database.dialect == "postgresql":
                    return await self._guest_rows(name)
                async with self.database.write() as session:
                    row, account = await self._new_user(session, name, None, guest=True)
                    made = await self._new_session(session, row)
                    await session.flush()  # the session's row before the house's lock
                    await self._welcome(session, row, account)
                    return made
            except IntegrityError:  # the name was taken: draw another
                continue
        raise StoreError("could not find a free guest name")  # pragma: no cover

    async def _guest_rows(self, name: str) -> Session:
        """PostgreSQL: the guest's rows (user, account, session, the welcome grant's journal and
        ledger rows, the house's balance) in ONE statement, its own transaction.  Every new
        account updates the house's row; so the lock on it is held for the time the database
        takes to run that statement and commit, never across a round trip to this server, whose
        event loop is busy with a thousand tables (a round trip in the lock made the guests of
        the table-opening ramp queue behind each other)."""
        token = secrets.token_urlsafe(32)
        now = utc_now()
        expires = now + self.session_ttl
        async with self.database.autocommit() as conn:
            user_id = (
                await conn.execute(
                    _NEW_GUEST,
                    {
                        "name": name,
                        "name_key": name_key_of(name),
                        "now": now,
                        "token_hash": token_hash(token),
                        "expires": expires,
                        "grant": self.welcome_grant,
                        "house": self.database.house_id,
                    },
                )
            ).scalar_one()
        user = User(id=user_id, name=name, is_guest=True, created_at=now)
        return Session(token=token, user=user, expires_at=expires)

    async def user_for_token(self, token: str) -> User | None:
        """The user of a live session, or ``None`` (unknown, expired or logged out)."""
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            return None
        async with self.database.read() as session:
            row = await session.scalar(
                select(UserRow)
                .join(SessionRow, SessionRow.user_id == UserRow.id)
                .where(
                    SessionRow.token_hash == token_hash(token), SessionRow.expires_at > utc_now()
                )
            )
        return None if row is None else self._user(row)

    async def logout(self, token: str) -> None:
        """End the session (nothing happens for an unknown token)."""
        if not isinstance(token, str):
            return
        async with self.database.write() as session:
            await session.execute(
                delete(SessionRow).where(SessionRow.token_hash == token_hash(token))
            )

    async def _origin_key(self) -> bytes:
        """The key of the origin digests (made by migration 0006; read once)."""
        if self._origin_key_bytes is None:
            async with self.database.read() as session:
                value = await session.scalar(
                    select(ServerKey.value).where(ServerKey.name == ORIGIN_KEY)
                )
            if value is None:
                raise StoreError("the database has no origin key (migration 0006)")
            self._origin_key_bytes = bytes.fromhex(value)
        return self._origin_key_bytes

    async def origins(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Each of ``user_ids`` that has an origin (:mod:`.origins`) → its digest."""
        wanted = sorted(set(user_ids))
        found: dict[int, str] = {}
        async with self.database.read() as session:
            for start in range(0, len(wanted), 500):
                rows = await session.execute(
                    select(UserRow.id, UserRow.origin).where(
                        UserRow.id.in_(wanted[start : start + 500]), UserRow.origin.is_not(None)
                    )
                )
                found.update({user: origin for user, origin in rows if origin is not None})
        return found

    async def user(self, user_id: int) -> User | None:
        """The user with this id, or ``None``."""
        async with self.database.read() as session:
            row = await session.get(UserRow, user_id)
        return None if row is None else self._user(row)
