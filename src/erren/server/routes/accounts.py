"""Accounts: register, log in (throttled), guests, log out, the player's beans and relief.

Throttling (:class:`~erren.server.ratelimit.AccountGate`): a client address makes at most 30
accounts and 30 guests an hour; after 10 wrong passwords for one name, or 30 from one address,
within a minute every login attempt for it — the right password too — answers 429 with
``Retry-After`` until the window has moved past the oldest of them.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request

from erren.server.appstate import app_state
from erren.server.ratelimit import Throttle
from erren.server.routes.common import (
    ApiError,
    CurrentUser,
    Gate,
    LobbyDep,
    StoreDep,
    StrictJSONRoute,
    bearer,
    client_address,
)
from erren.server.routes.models import (
    BalanceOut,
    Credentials,
    LedgerOut,
    ReliefOut,
    SeatOut,
    SessionOut,
    UserOut,
    seat_out,
    user_out,
)
from erren.server.store import AccountError, AuthError, NameTakenError, ReliefError
from erren.server.store.names import name_key

__all__ = ["router"]

router = APIRouter(route_class=StrictJSONRoute, tags=["accounts"])


def _throttled(code: str, why: str, wait: int) -> ApiError:
    return ApiError(
        429,
        code,
        f"{why}; try again in {wait} s",
        params={"retry_after": wait},
        headers={"Retry-After": str(wait)},
    )


def _admit(throttle: Throttle, address: str, code: str, what: str) -> None:
    """429 ``code`` while ``address`` has made as many of ``what`` as ``throttle`` allows."""
    wait = throttle.retry_after(address)
    if wait is not None:
        raise _throttled(code, f"at most {throttle.limit} {what} per address", wait)


@router.post("/auth/register", response_model=SessionOut, status_code=201)
async def register(body: Credentials, request: Request, store: StoreDep, gate: Gate) -> SessionOut:
    """A new account (the welcome grant), logged in.  409 ``name-taken`` / ``name-confusable``
    when the name or a look-alike belongs to another account, 422 for a name or password the
    rules refuse, 429 ``register-limit`` past 30 new accounts from one address in an hour."""
    address = client_address(request)
    _admit(gate.register, address, "register-limit", "new accounts")
    with gate.register.attempt(address):
        try:
            await store.accounts.register(body.name, body.password, address=address)
        except NameTakenError as err:
            raise ApiError(409, err.code, str(err), params={"existing": err.existing}) from None
        except AccountError as err:
            raise ApiError(422, "bad-account", str(err)) from None
        gate.register.count(address)
    session = await store.accounts.login(body.name, body.password)
    return SessionOut(token=session.token, user=user_out(session.user))


@router.post("/auth/login", response_model=SessionOut)
async def login(body: Credentials, request: Request, store: StoreDep, gate: Gate) -> SessionOut:
    """A new session.  401 for a wrong name or password (one message for both), 429 ``throttled``
    with ``Retry-After`` after too many wrong passwords."""
    account, address = name_key(body.name), client_address(request)
    for throttle, key, why in (
        (gate.login_account, account, "too many wrong passwords for this name"),
        (gate.login_address, address, "too many wrong passwords from your address"),
    ):
        wait = throttle.retry_after(key)
        if wait is not None:
            raise _throttled("throttled", why, wait)
    with gate.login_account.attempt(account), gate.login_address.attempt(address):
        try:
            session = await store.accounts.login(body.name, body.password)
        except AuthError as err:
            gate.login_account.count(account)
            gate.login_address.count(address)
            raise ApiError(401, "wrong-password", str(err)) from None
        except AccountError as err:
            raise ApiError(422, "bad-account", str(err)) from None
    return SessionOut(token=session.token, user=user_out(session.user))


@router.post("/auth/guest", response_model=SessionOut)
async def guest(request: Request, store: StoreDep, gate: Gate) -> SessionOut:
    """A new guest: practice tables only (vs the computer, score-only private tables).  429
    ``guest-limit`` with ``Retry-After`` past 30 new guests from one address in an hour."""
    address = client_address(request)
    _admit(gate.guest, address, "guest-limit", "new guests")
    with gate.guest.attempt(address):
        session = await store.accounts.guest()
        gate.guest.count(address)
    return SessionOut(token=session.token, user=user_out(session.user))


@router.post("/auth/logout", status_code=204)
async def logout(
    request: Request,
    user: CurrentUser,
    store: StoreDep,
    authorization: Annotated[str | None, Header()] = None,
) -> None:
    """Revoke the token, and close every socket it opened at once (``logged-out``, 4401)."""
    token = bearer(authorization)
    if token:
        await store.accounts.logout(token)
        app_state(request.app).sockets.log_out(token)


@router.get("/me", response_model=UserOut)
async def me(user: CurrentUser) -> UserOut:
    return user_out(user)


@router.get("/me/balance", response_model=BalanceOut)
async def balance(user: CurrentUser, store: StoreDep, lobby: LobbyDep) -> BalanceOut:
    """The balance, and how many more bean-room hands to the end the player must play before
    an escape of his moves beans (0: it does; :func:`erren.server.settlement.escape_pays`)."""
    needed = lobby.config.new_player_hands
    left = 0 if needed <= 0 else max(0, needed - await store.profiles.complete_hands(user.id))
    return BalanceOut(balance=await store.ledger.balance(user.id), new_player_hands_left=left)


@router.post("/me/relief", response_model=ReliefOut)
async def relief(user: CurrentUser, store: StoreDep) -> ReliefOut:
    """The daily relief (救济豆): a registered player below 1,000 beans is topped up to 2,000,
    once per UTC day.  409 with ``code`` ``not-needed``, ``already-claimed`` or ``guest``."""
    try:
        granted, after = await store.ledger.claim_relief(user.id)
    except ReliefError as err:
        raise ApiError(409, err.code, str(err)) from None
    return ReliefOut(granted=granted, balance=after)


@router.get("/me/ledger", response_model=list[LedgerOut])
async def ledger(
    user: CurrentUser, store: StoreDep, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> list[LedgerOut]:
    rows = await store.ledger.entries(user.id, limit=limit)
    return [
        LedgerOut(
            id=r.id,
            amount=r.amount,
            balance_after=r.balance_after,
            reason=r.reason,
            key=r.key,
            counterparty_id=r.counterparty_id,
            created_at=r.created_at.isoformat(),
        )
        for r in rows
    ]


@router.get("/me/table", response_model=SeatOut | None)
async def my_table(user: CurrentUser, lobby: LobbyDep) -> SeatOut | None:
    table = lobby.table_of(user.id)
    if table is None:
        return None
    seat = table.seat_of(user.id)
    return seat_out(table, 0 if seat is None else seat)
