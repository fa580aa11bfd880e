"""Beans: balances, grants, settlements (a double-entry ledger), the ledger's audit and relief."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Insert, Select, and_, bindparam, insert, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from erren.server.store.database import (
    MAX_KEY,
    Database,
    checked_reason,
    utc_now,
    whole_number,
)
from erren.server.store.errors import AccountError, InsufficientBeans, ReliefError, StoreError
from erren.server.store.invariants import check_invariants
from erren.server.store.models import Account, Entry, Journal, UserRow
from erren.server.store.values import Audit, JournalLine, LedgerEntry, LedgerJournal, Transfer

__all__ = ["RELIEF_BELOW", "RELIEF_TOP_UP", "Ledger"]

RELIEF_BELOW: Final = 1_000
"""Relief (救济豆) is for a balance below this: the cheapest room's entry minimum (0 included)."""
RELIEF_TOP_UP: Final = 2_000
"""A relief grant tops the balance up to exactly this many beans (grant = 2,000 − balance)."""


def _house_pays_statement() -> Insert:
    """``WITH house AS (UPDATE the house's balance RETURNING it) INSERT`` both ledger rows of a
    grant: built once, its compiled form cached (PostgreSQL)."""
    accounts, c = Account.__table__.c, Entry.__table__.c
    amount = bindparam("amount", type_=c.amount.type)
    house_id = bindparam("house", type_=c.account_id.type)
    account_id = bindparam("account", type_=c.account_id.type)
    house = (
        update(Account)
        .where(accounts.id == house_id)
        .values(balance=accounts.balance - amount)
        .returning(accounts.balance)
        .cte("house")
    )

    def side(owner: Any, counter: Any, signed: Any, after: Any) -> Select[Any]:
        return select(
            bindparam("journal", type_=c.journal_id.type),
            owner,
            counter,
            signed,
            after,
            bindparam("reason", type_=c.reason.type),
            bindparam("now", type_=c.created_at.type),
        ).select_from(house)

    rows = union_all(
        side(account_id, house_id, amount, bindparam("balance", type_=c.balance_after.type)),
        side(house_id, account_id, -amount, house.c.balance),
    )
    names = ["journal_id", "account_id", "counter_account_id", "amount", "balance_after"]
    return insert(Entry).from_select([*names, "reason", "created_at"], rows).returning(Entry.id)


_HOUSE_PAYS = _house_pays_statement()


class Ledger:
    """The beans: balances, grants, settlements, relief and the ledger's audit.  Every change
    of a balance is a ledger row pair in the transaction that causes it."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def _accounts(self, session: AsyncSession, user_ids: Iterable[int]) -> dict[int, Account]:
        """The users' accounts, locked for update in id order; :class:`AccountError` if one of
        the users does not exist."""
        wanted = sorted(set(user_ids))
        rows = (
            await session.scalars(
                select(Account)
                .where(Account.user_id.in_(wanted))
                .order_by(Account.id)
                .with_for_update()
            )
        ).all()
        found = {row.user_id: row for row in rows if row.user_id is not None}
        missing = [user_id for user_id in wanted if user_id not in found]
        if missing:
            raise AccountError(f"no user {missing[0]}")
        return found

    async def add_grant(
        self, session: AsyncSession, account: Account, amount: int, reason: str, key: str | None
    ) -> int:
        """Move ``amount`` beans from the house to ``account`` in the caller's transaction
        ``session`` (a new account's welcome, relief; returns the new balance).  The house's row,
        which every grant updates, is locked by the LAST statement of the transaction, so that
        concurrent grants (every new guest's welcome) wait for each other only for that
        statement and the commit; the caller adds nothing to the session after this."""
        assert account.user_id is not None
        if amount < 0 and account.balance < -amount:
            raise InsufficientBeans(account.user_id, -amount, account.balance)
        now = utc_now()
        journal = Journal(key=key, kind="grant", created_at=now)
        session.add(journal)
        account.balance += amount
        await session.flush()  # the journal row (its id) and the account's new balance
        if self.database.dialect == "postgresql":
            await self._house_pays(session, journal.id, account, amount, reason, now)
            return account.balance
        house_balance = await session.scalar(
            update(Account)
            .where(Account.id == self.database.house_id)
            .values(balance=Account.balance - amount)
            .returning(Account.balance)
        )
        assert house_balance is not None
        session.add_all(
            [
                Entry(
                    journal_id=journal.id,
                    account_id=account.id,
                    counter_account_id=self.database.house_id,
                    amount=amount,
                    balance_after=account.balance,
                    reason=reason,
                    created_at=now,
                ),
                Entry(
                    journal_id=journal.id,
                    account_id=self.database.house_id,
                    counter_account_id=account.id,
                    amount=-amount,
                    balance_after=house_balance,
                    reason=reason,
                    created_at=now,
                ),
            ]
        )
        await session.flush()
        return account.balance

    async def _house_pays(  # noqa: PLR0917  (the two rows' values)
        self,
        session: AsyncSession,
        journal_id: int,
        account: Account,
        amount: int,
        reason: str,
        now: datetime,
    ) -> None:
        """PostgreSQL: the house's balance update and both ledger rows in ONE statement (a
        data-modifying CTE), so the house's row lock is held for one round trip and the commit
        (``account``: its balance is the one after the grant)."""
        connection = await session.connection()
        done = await connection.execute(
            _HOUSE_PAYS,
            {
                "house": self.database.house_id,
                "account": account.id,
                "amount": amount,
                "balance": account.balance,
                "journal": journal_id,
                "reason": reason,
                "now": now,
            },
        )
        assert len(done.all()) == 2, "the house account is missing"

    async def balance(self, user_id: int) -> int:
        """The user's beans; :class:`AccountError` for an unknown user."""
        async with self.database.read() as session:
            balance = await session.scalar(
                select(Account.balance).where(Account.user_id == user_id)
            )
        if balance is None:
            raise AccountError(f"no user {user_id}")
        return balance

    async def grant(self, user_id: int, amount: int, reason: str, *, key: str | None = None) -> int:
        """Beans from the house (the only way the total changes); returns the new balance.  A
        negative ``amount`` takes beans back (:class:`InsufficientBeans` if more than the
        balance).  With a ``key``, a grant happens once: a repeat returns the balance."""
        amount = whole_number(amount, "amount")
        if amount == 0:
            raise ValueError("a grant of 0 beans")
        reason = checked_reason(reason)
        if key is not None and not 0 < len(key) <= MAX_KEY:
            raise ValueError(f"a key is 1–{MAX_KEY} characters")
        try:
            async with self.database.write() as session:
                account = (await self._accounts(session, [user_id]))[user_id]
                if key is not None and await session.scalar(
                    select(Journal.id).where(Journal.key == key)
                ):
                    return account.balance
                return await self.add_grant(session, account, amount, reason, key)
        except IntegrityError:
            if key is not None and await self._settled(key):
                return await self.balance(user_id)
            raise

    async def _settled(self, key: str) -> bool:
        async with self.database.read() as session:
            return await session.scalar(select(Journal.id).where(Journal.key == key)) is not None

    async def settle(
        self, key: str, transfers: Sequence[Transfer], *, strict: bool = False
    ) -> bool:
        """Apply ``transfers`` in order, all in one transaction with their ledger rows, once per
        ``key``: ``True`` if applied now, ``False`` if ``key`` was settled before (nothing
        changes).  An amount above the payer's balance at that point is clamped to it (the
        payee gets what was paid; a 0 payment writes no ledger row), or with ``strict=True``
        raises :class:`InsufficientBeans` and applies nothing.  :class:`AccountError` (nothing
        applied) for an unknown user."""
        if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
            raise ValueError(f"a settlement key is 1–{MAX_KEY} characters, not {key!r}")
        self.check_transfers(transfers)
        try:
            async with self.database.write() as session:
                if await session.scalar(select(Journal.id).where(Journal.key == key)) is not None:
                    return False
                await self.add_settlement(session, key, transfers, strict=strict)
                await session.flush()
        except IntegrityError:
            if await self._settled(key):
                return False
            raise
        return True

    @staticmethod
    def check_transfers(transfers: Sequence[Transfer]) -> None:
        """Raise ``TypeError``/``ValueError`` for a malformed transfer (before any write)."""
        for transfer in transfers:
            if not isinstance(transfer, Transfer):
                raise TypeError(f"not a Transfer: {transfer!r}")
            if whole_number(transfer.amount, "a transfer's amount") < 0:
                raise ValueError(f"a negative transfer: {transfer!r}")
            if transfer.payer_id == transfer.payee_id:
                raise ValueError(f"a transfer to oneself: {transfer!r}")
            checked_reason(transfer.reason)

    async def add_settlement(
        self, session: AsyncSession, key: str, transfers: Sequence[Transfer], *, strict: bool
    ) -> list[int]:
        """Write the settlement journal ``key`` and apply ``transfers`` in the caller's
        transaction ``session`` (the caller checked the transfers and that ``key`` is new: a
        settled hand's beans); returns what each transfer paid."""
        paid_out: list[int] = []
        now = utc_now()
        journal = Journal(key=key, kind="settle", created_at=now)
        session.add(journal)
        await session.flush()  # a concurrent settlement of this key waits here, then fails
        accounts = await self._accounts(
            session, [u for t in transfers for u in (t.payer_id, t.payee_id)]
        )
        for transfer in transfers:
            payer, payee = accounts[transfer.payer_id], accounts[transfer.payee_id]
            paid = min(transfer.amount, payer.balance)
            if strict and paid < transfer.amount:
                raise InsufficientBeans(transfer.payer_id, transfer.amount, payer.balance)
            paid_out.append(paid)
            if paid == 0:
                continue
            payer.balance -= paid
            payee.balance += paid
            for account, other, amount in ((payer, payee, -paid), (payee, payer, paid)):
                session.add(
                    Entry(
                        journal_id=journal.id,
                        account_id=account.id,
                        counter_account_id=other.id,
                        amount=amount,
                        balance_after=account.balance,
                        reason=transfer.reason,
                        created_at=now,
                    )
                )
        await session.flush()
        return paid_out

    async def entries(self, user_id: int, limit: int = 50) -> list[LedgerEntry]:
        """The user's ledger rows, newest first."""
        mine, other = aliased(Account), aliased(Account)
        async with self.database.read() as session:
            if not await session.scalar(select(Account.id).where(Account.user_id == user_id)):
                raise AccountError(f"no user {user_id}")
            rows = (
                await session.execute(
                    select(
                        Entry.id,
                        Entry.amount,
                        Entry.balance_after,
                        Entry.reason,
                        Journal.key,
                        other.user_id,
                        Entry.created_at,
                    )
                    .join(mine, Entry.account_id == mine.id)
                    .join(other, Entry.counter_account_id == other.id)
                    .join(Journal, Entry.journal_id == Journal.id)
                    .where(mine.user_id == user_id)
                    .order_by(Entry.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            LedgerEntry(
                id=row[0],
                user_id=user_id,
                amount=row[1],
                balance_after=row[2],
                reason=row[3],
                key=row[4],
                counterparty_id=row[5],
                created_at=row[6],
            )
            for row in rows
        ]

    async def balance_at(self, user_id: int, when: datetime) -> int:
        """The user's balance as it stood at ``when`` (after the ledger rows written until
        then; 0 before the first)."""
        async with self.database.read() as session:
            balance = await session.scalar(
                select(Entry.balance_after)
                .join(Account, Account.id == Entry.account_id)
                .where(Account.user_id == user_id, Entry.created_at <= when)
                .order_by(Entry.id.desc())
                .limit(1)
            )
        return 0 if balance is None else balance

    async def claim_relief(self, user_id: int, *, now: datetime | None = None) -> tuple[int, int]:
        """The daily relief grant (救济豆): a registered player whose balance is below
        :data:`RELIEF_BELOW` (1,000: no room admits him) is topped up to exactly
        :data:`RELIEF_TOP_UP` (2,000), once per UTC day (``now``: the moment of the claim,
        for tests).  Returns ``(granted, balance)``; the grant is a ledger grant with the key
        ``relief:{user_id}:{YYYY-MM-DD}``, so two claims at once grant once.
        :class:`ReliefError` (``guest``, ``already-claimed``, ``not-needed``) if refused,
        :class:`AccountError` for an unknown user."""
        when = utc_now() if now is None else now
        if when.tzinfo is None:
            raise ValueError(f"naive datetime {when!r}: give an aware (UTC) time")
        day = when.astimezone(UTC).date().isoformat()
        key = f"relief:{user_id}:{day}"
        claimed = ReliefError(
            "already-claimed",
            f"you have already claimed today's relief ({day}, UTC); come back tomorrow",
        )
        try:
            async with self.database.write() as session:
                account = (await self._accounts(session, [user_id]))[user_id]
                if await session.scalar(select(UserRow.is_guest).where(UserRow.id == user_id)):
                    raise ReliefError(
                        "guest", "relief is for registered players: register an account"
                    )
                if await session.scalar(select(Journal.id).where(Journal.key == key)):
                    raise claimed
                if account.balance >= RELIEF_BELOW:
                    raise ReliefError(
                        "not-needed",
                        f"relief is for a balance below {RELIEF_BELOW:,} beans; "
                        f"you hold {account.balance:,}",
                    )
                granted = RELIEF_TOP_UP - account.balance
                balance = await self.add_grant(session, account, granted, "relief", key)
        except IntegrityError:
            if await self._settled(key):  # a concurrent claim of the same day won
                raise claimed from None
            raise
        return granted, balance

    # ---------------------------------------------------------------------------- audit
    async def audit(self) -> Audit:
        """Check the ledger's invariants (see :meth:`audit_findings`) and return its totals;
        :class:`StoreError` naming every failure if one fails."""
        audit, problems = await self.audit_findings()
        if problems:
            raise StoreError("ledger inconsistent: " + "; ".join(problems))
        return audit

    async def audit_findings(self) -> tuple[Audit, list[str]]:
        """The ledger's totals and the list of its broken invariants (empty when it is sound):
        the beans all users hold equal the beans granted to them (and the house's balance is
        minus that), every account's entries sum to its balance and each entry's
        ``balance_after`` is the running sum of its account, every journal's entries sum to 0,
        grants come from the house and settlements move beans between players only, no user
        balance is negative.  One snapshot: safe on a live server."""
        async with self.database.snapshot() as session:
            return await check_invariants(session)

    async def journals(self, kind: str, prefix: str = "") -> list[LedgerJournal]:
        """Every journal of ``kind`` (``grant`` or ``settle``) whose key starts with ``prefix``
        (``""``: all, keyless ones included), oldest first, with its users' rows: what the
        ledger audit compares with the game records and the grant rules."""
        if kind not in ("grant", "settle"):
            raise ValueError(f"a journal is a 'grant' or a 'settle', not {kind!r}")
        wanted = Journal.kind == kind
        if prefix:
            wanted = and_(wanted, Journal.key.startswith(prefix, autoescape=True))
        async with self.database.read() as session:
            rows = (
                await session.execute(
                    select(
                        Journal.id,
                        Journal.key,
                        Journal.created_at,
                        Account.user_id,
                        Entry.amount,
                        Entry.balance_after,
                    )
                    .outerjoin(Entry, Entry.journal_id == Journal.id)
                    .outerjoin(Account, Account.id == Entry.account_id)
                    .where(wanted)
                    .order_by(Journal.id, Entry.id)
                )
            ).all()
        found: dict[int, tuple[str | None, datetime, list[JournalLine]]] = {}
        for journal_id, key, created_at, user_id, amount, balance_after in rows:
            _, _, lines = found.setdefault(journal_id, (key, created_at, []))
            if amount is not None and user_id is not None:
                lines.append(JournalLine(user_id, amount, balance_after))
        return [
            LedgerJournal(key, kind, tuple(lines), created_at)
            for key, created_at, lines in found.values()
        ]
