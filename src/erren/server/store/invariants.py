"""The ledger's invariants, checked on one snapshot of the database: what
:meth:`.Ledger.audit` and :meth:`.Ledger.audit_findings` report."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from erren.server.store.models import HOUSE, Account, Entry, Journal
from erren.server.store.values import Audit

__all__ = ["check_invariants"]


async def check_invariants(session: AsyncSession) -> tuple[Audit, list[str]]:
    """The ledger's totals and the list of its broken invariants (empty when it is sound), read
    in ``session`` (one snapshot: :meth:`.Ledger.audit_findings` says what is checked)."""
    accounts = (await session.execute(select(Account.id, Account.kind, Account.balance))).all()
    entries = (
        await session.execute(
            select(
                Entry.account_id,
                Entry.counter_account_id,
                Entry.amount,
                Entry.balance_after,
                Journal.id,
                Journal.kind,
            )
            .join(Journal, Journal.id == Entry.journal_id)
            .order_by(Entry.account_id, Entry.id)
        )
    ).all()
    kinds = dict(
        (await session.execute(select(Journal.kind, func.count()).group_by(Journal.kind))).all()
    )
    house_ids = {account_id for account_id, kind, _ in accounts if kind == HOUSE}
    problems: list[str] = []
    sums: dict[int, int] = {}
    journal_sums: dict[int, int] = {}
    granted_to_users = 0
    for account_id, counter_id, amount, balance_after, journal_id, kind in entries:
        running = sums.get(account_id, 0) + amount
        sums[account_id] = running
        journal_sums[journal_id] = journal_sums.get(journal_id, 0) + amount
        if balance_after != running:
            problems.append(
                f"account {account_id}: an entry of journal {journal_id} says the balance "
                f"became {balance_after}, but its entries sum to {running} there"
            )
        house_side = account_id in house_ids or counter_id in house_ids
        if kind == "grant" and not house_side:
            problems.append(f"grant journal {journal_id} does not come from the house")
        if kind == "settle" and house_side:
            problems.append(f"settlement journal {journal_id} moves beans of the house")
        if kind == "grant" and account_id not in house_ids:
            granted_to_users += amount
    problems += [
        f"journal {journal_id} sums to {total}, not 0"
        for journal_id, total in journal_sums.items()
        if total != 0
    ]
    users_total, house = _check_balances(accounts, sums, problems)
    if users_total != granted_to_users:
        problems.append(f"users hold {users_total} beans but were granted {granted_to_users}")
    if users_total + house != 0:
        problems.append(
            f"balances sum to {users_total + house}, not 0 (users {users_total}, house {house})"
        )
    audit = Audit(
        users_total=users_total,
        granted=-house,
        accounts=len(accounts),
        journals=sum(kinds.values()),
        entries=len(entries),
        grants=int(kinds.get("grant", 0)),
        settlements=int(kinds.get("settle", 0)),
    )
    return audit, problems


def _check_balances(
    accounts: Sequence[Row[int, str, int]], sums: dict[int, int], problems: list[str]
) -> tuple[int, int]:
    """The audit's check of every account's balance against the sum of its entries (and no
    user's below 0), adding what fails to ``problems``; returns the users' total and the
    house's balance."""
    users_total = house = 0
    for account_id, kind, balance in accounts:
        if sums.get(account_id, 0) != balance:
            problems.append(
                f"account {account_id}: balance {balance} ≠ its entries' sum "
                f"{sums.get(account_id, 0)}"
            )
        if kind == HOUSE:
            house += balance
        elif balance < 0:
            problems.append(f"account {account_id} is negative: {balance}")
        else:
            users_total += balance
    return users_total, house
