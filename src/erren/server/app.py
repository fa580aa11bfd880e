"""The FastAPI application: HTTP routes (accounts, beans, rooms, tables, games) and ``/ws``.

``create_app(store)`` builds the app around an open :class:`~erren.server.store.Store`, or
around a database URL that the app opens at startup (``erren serve`` does that, so the store
lives on the server's event loop).  At startup the lobby restores every unfinished table from
the store.  The OpenAPI description is at ``/openapi.json``; the WebSocket protocol is in
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import DBAPIError

from erren import __version__
from erren.bots import bot_names
from erren.engine import ruleset_names
from erren.server.clock import Clock
from erren.server.lobby import Lobby, LobbyError
from erren.server.rooms import catalogue
from erren.server.socket import mount_socket
from erren.server.store import AccountError, AuthError, Store, StoreUnavailable, User
from erren.server.table import Table, TableConfig
from erren.web import mount_web

__all__ = ["create_app"]

log = logging.getLogger("erren.server")


# ---------------------------------------------------------------------------- HTTP models
class Credentials(BaseModel):
    name: str = Field(examples=["alice"])
    password: str = Field(examples=["correct horse battery staple"])


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool


class SessionOut(BaseModel):
    token: str
    user: UserOut


class BalanceOut(BaseModel):
    balance: int


class LedgerOut(BaseModel):
    id: int
    amount: int
    balance_after: int
    reason: str
    key: str | None
    counterparty_id: int | None
    created_at: str


class RoomOut(BaseModel):
    id: str
    family: str
    tier: str
    name: str
    english: str
    stake: int
    entry_min: int
    entry_max: int
    options: dict[str, Any]


class QuickMatchIn(BaseModel):
    room: str = Field(examples=["guobiao-2p/normal"])
    wait_s: float = Field(30.0, ge=0, le=120, description="How long to wait for an opponent")


class TableIn(BaseModel):
    family: str = Field("guobiao-2p", examples=["guobiao-2p", "xiamen"])
    options: dict[str, Any] = Field(default_factory=dict)


class ComputerIn(TableIn):
    bot: str = Field("efficiency", examples=["efficiency", "random"])


class StakeIn(BaseModel):
    multiplier: int = Field(1, description="The stake multiplier m (stake m × 100), 1..10")


class InviteIn(BaseModel):
    invite: str = Field(examples=["K7QX2M"])


class SeatOut(BaseModel):
    table: str
    seat: int
    invite: str | None = None
    ws: str = "/ws"
    info: dict[str, Any]


class GameOut(BaseModel):
    id: int
    ruleset: str
    room: str | None
    players: list[str | None]
    finished: bool
    summary: str | None
    created_at: str
    finished_at: str | None


def _user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)


def _seat_out(table: Table, seat: int) -> SeatOut:
    return SeatOut(table=table.spec.id, seat=seat, invite=table.spec.invite, info=table.info())


def _token(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


async def current_user(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> User:
    """The user of the request's ``Authorization: Bearer TOKEN``, or 401."""
    token = _token(authorization)
    store: Store = request.app.state.holder["store"]
    user = await store.user_for_token(token) if token else None
    if user is None:
        raise HTTPException(401, "log in first (Authorization: Bearer TOKEN)")
    return user


CurrentUser = Annotated[User, Depends(current_user)]


# ---------------------------------------------------------------------------- the app
GC_THRESHOLDS = (10_000, 50, 100)
"""The collector's thresholds in a serving process (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """A full collection walks every live object; with a thousand tables in memory it stops
    the only thread for 100 ms and more, which is the tail latency.  So: the objects of the
    start-up (modules, the app, restored tables) are frozen out of the collector's sight, and
    the thresholds are raised so that young collections are rarer and full ones rarer still
    (reference counting frees almost everything; the collector is only for cycles)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(  # noqa: PLR0915 - the routes are defined in the factory, one after another
    store: Store | str | None = None,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    config: TableConfig | None = None,
    rate: float = 100.0,
    burst: float = 200.0,
) -> FastAPI:
    """The app.  ``store``: an open store, or a database URL (``None``: the default SQLite
    file) opened at startup and closed at shutdown.  ``clock`` scales every timer (tests),
    ``rng`` makes seeds, invite codes and table ids reproducible (tests only: real play draws
    seeds from :mod:`secrets`)."""
    clock = clock or Clock()
    config = config or TableConfig()
    holder: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = not isinstance(store, Store)
        opened = store if isinstance(store, Store) else await Store.open(store)
        lobby = Lobby(opened, clock=clock, config=config, rng=rng)
        holder["store"], holder["lobby"] = opened, lobby
        restored = await lobby.restore()
        if restored:
            log.info("restored %d unfinished table(s)", restored)
        tune_gc()
        lag = asyncio.create_task(_watch_lag(holder), name="lag")
        try:
            yield
        finally:
            lag.cancel()
            await lobby.shutdown()
            if owned:
                await opened.close()

    app = FastAPI(
        title="erren",
        version=__version__,
        description="Two-player mahjong: accounts, beans (欢乐豆), rooms, tables. "
        "Play happens over the WebSocket `/ws` (see docs/protocol.md).",
        lifespan=lifespan,
    )

    def the_store() -> Store:
        return holder["store"]  # type: ignore[no-any-return]

    def the_lobby() -> Lobby:
        return holder["lobby"]  # type: ignore[no-any-return]

    app.state.holder = holder

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Any, err: LobbyError) -> JSONResponse:
        body: dict[str, Any] = {"detail": err.message, "code": err.code}
        if err.table is not None:
            body["table"] = err.table
        return JSONResponse(body, status_code=err.status)

    @app.exception_handler(StoreUnavailable)
    @app.exception_handler(DBAPIError)
    async def store_unavailable(_request: Any, err: Exception) -> JSONResponse:
        log.warning("a request failed on the database: %s", err)
        return JSONResponse(
            {
                "detail": "the database cannot be written right now; nothing was changed, "
                "try again later",
                "code": "store-unavailable",
            },
            status_code=503,
            headers={"Retry-After": "5"},
        )

    # ------------------------------------------------------------------ pages
    mount_web(app)  # the browser client at / and its files under /web (erren.web)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness, the open tables, the group commit's work so far (transactions and the
        actions they carried), and the event loop's longest stall since the last call."""
        lobby = the_lobby()
        journal = lobby.journal
        return {
            "ok": True,
            "tables": len(lobby.tables),
            "commits": journal.commits,
            "actions": journal.rows,
            "lag_ms": round(holder.pop("lag", 0.0) * 1000, 1),
        }

    # ------------------------------------------------------------------ accounts
    @app.post("/auth/register", response_model=SessionOut, status_code=201)
    async def register(body: Credentials) -> SessionOut:
        try:
            await the_store().register(body.name, body.password)
            session = await the_store().login(body.name, body.password)
        except (AccountError, AuthError) as err:
            raise HTTPException(409 if "taken" in str(err) else 422, str(err)) from None
        return SessionOut(token=session.token, user=_user_out(session.user))

    @app.post("/auth/login", response_model=SessionOut)
    async def login(body: Credentials) -> SessionOut:
        try:
            session = await the_store().login(body.name, body.password)
        except (AuthError, AccountError) as err:
            raise HTTPException(401, str(err)) from None
        return SessionOut(token=session.token, user=_user_out(session.user))

    @app.post("/auth/guest", response_model=SessionOut)
    async def guest() -> SessionOut:
        session = await the_store().guest()
        return SessionOut(token=session.token, user=_user_out(session.user))

    @app.post("/auth/logout", status_code=204)
    async def logout(
        user: CurrentUser, authorization: Annotated[str | None, Header()] = None
    ) -> None:
        token = _token(authorization)
        if token:
            await the_store().logout(token)
            holder["sockets"].log_out(token)  # its open sockets: logged-out, closed 4401

    @app.get("/me", response_model=UserOut)
    async def me(user: CurrentUser) -> UserOut:
        return _user_out(user)

    @app.get("/me/balance", response_model=BalanceOut)
    async def balance(user: CurrentUser) -> BalanceOut:
        return BalanceOut(balance=await the_store().balance(user.id))

    @app.get("/me/ledger", response_model=list[LedgerOut])
    async def ledger(
        user: CurrentUser, limit: Annotated[int, Query(ge=1, le=500)] = 50
    ) -> list[LedgerOut]:
        rows = await the_store().ledger(user.id, limit=limit)
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

    @app.get("/me/table", response_model=SeatOut | None)
    async def my_table(user: CurrentUser) -> SeatOut | None:
        table = the_lobby().table_of(user.id)
        if table is None:
            return None
        seat = table.seat_of(user.id)
        return _seat_out(table, 0 if seat is None else seat)

    # ------------------------------------------------------------------ rooms and tables
    @app.get("/families")
    async def families() -> dict[str, list[str]]:
        return {"families": list(ruleset_names()), "bots": list(bot_names())}

    @app.get("/rooms", response_model=list[RoomOut])
    async def rooms() -> list[RoomOut]:
        return [RoomOut(**room.to_json()) for room in catalogue().values()]

    @app.post("/match/quick", response_model=SeatOut)
    async def quick_match(body: QuickMatchIn, user: CurrentUser) -> SeatOut:
        table, seat = await the_lobby().quick_match(user, body.room, body.wait_s)
        return _seat_out(table, seat)

    @app.post("/tables/private", response_model=SeatOut, status_code=201)
    async def private_table(body: TableIn, user: CurrentUser) -> SeatOut:
        table = await the_lobby().private_table(user, body.family, body.options)
        return _seat_out(table, 0)

    @app.post("/tables/join", response_model=SeatOut)
    async def join_invite(body: InviteIn, user: CurrentUser) -> SeatOut:
        table, seat = await the_lobby().join_invite(user, body.invite)
        return _seat_out(table, seat)

    @app.post("/tables/vs-computer", response_model=SeatOut, status_code=201)
    async def vs_computer(body: ComputerIn, user: CurrentUser) -> SeatOut:
        table = await the_lobby().vs_computer(user, body.family, body.options, body.bot)
        return _seat_out(table, 0)

    @app.get("/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table = the_lobby().tables.get(table_id)
        if table is None:
            raise HTTPException(404, f"no open table {table_id!r}")
        info = table.info()
        info.pop("invite", None)
        return info

    # ------------------------------------------------------------------ the arcade campaign
    @app.get("/campaign")
    async def campaign(user: CurrentUser) -> dict[str, Any]:
        """The user's campaign (stage mode, arcade §3), or ``{"campaign": null}``."""
        return {"campaign": await the_lobby().campaign(user)}

    @app.post("/campaign/start", status_code=201)
    async def campaign_start(user: CurrentUser) -> dict[str, Any]:
        """A new run: bankroll 1000, stage 1 (409 while a run is unfinished)."""
        return {"campaign": await the_lobby().campaign_start(user)}

    @app.post("/campaign/hand")
    async def campaign_hand(body: StakeIn, user: CurrentUser) -> dict[str, Any]:
        """Stake ``m × 100`` and deal the next hand at the campaign table (seat 0)."""
        table, state = await the_lobby().campaign_hand(user, body.multiplier)
        return {"table": table.spec.id, "seat": 0, "ws": "/ws", "campaign": state}

    @app.post("/campaign/abandon")
    async def campaign_abandon(user: CurrentUser) -> dict[str, Any]:
        """End the run; the bankroll at that point is its score (R3.11)."""
        return await the_lobby().campaign_abandon(user)

    # ------------------------------------------------------------------ games
    @app.get("/games", response_model=list[GameOut])
    async def games(
        user: CurrentUser, limit: Annotated[int, Query(ge=1, le=500)] = 50
    ) -> list[GameOut]:
        return [
            GameOut(
                id=g.id,
                ruleset=g.ruleset,
                room=g.room,
                players=list(g.players),
                finished=g.finished,
                summary=g.summary,
                created_at=g.created_at.isoformat(),
                finished_at=None if g.finished_at is None else g.finished_at.isoformat(),
            )
            for g in await the_store().games_of(user.id, limit=limit)
        ]

    @app.get("/games/{game_id}")
    async def game(game_id: int) -> dict[str, Any]:
        """A finished game's record (seed and salt revealed); a running game shows only its
        header and commitment — its actions hold the wall."""
        found = await the_store().get_game(game_id)
        if found is None:
            raise HTTPException(404, f"no game {game_id}")
        if not found.finished or found.record is None:
            return {
                "id": found.id,
                "ruleset": found.ruleset,
                "room": found.room,
                "finished": False,
                "commitment": found.commitment,
                "actions": len(found.actions),
            }
        return {"id": found.id, "finished": True, "record": found.record}

    # ------------------------------------------------------------------ the socket
    mount_socket(app, holder, rate=rate, burst=burst)  # /ws (erren.server.socket)

    return app


async def _watch_lag(holder: dict[str, Any], every: float = 0.05) -> None:
    """Keep the event loop's longest stall (``holder["lag"]``, seconds): a timer that fires
    late shows how long the only thread was busy."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + every
        await asyncio.sleep(every)
        holder["lag"] = max(holder.get("lag", 0.0), loop.time() - due)
