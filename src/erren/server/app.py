"""The FastAPI application: its factory, lifespan and middleware, and ``/ws``.

``create_app(store)`` builds the app around an open :class:`~erren.server.store.Store`, or
around a database URL that the app opens at startup (``erren serve`` does that, so the store
lives on the server's event loop).  At startup the lobby restores every unfinished table from
the store.  The HTTP routes are in :mod:`erren.server.routes` (accounts, tables, games; the
browser client's in :mod:`~erren.server.routes.web`, its files in :mod:`erren.web`), ``/docs``
in :mod:`erren.server.apidocs`.  Every response
carries the security headers (:mod:`erren.server.headers`); bodies are at most 64 KiB and
strict JSON; responses of 500 bytes and more are gzip-compressed for clients that accept it.
The OpenAPI description is at ``/openapi.json``; the WebSocket protocol is in
``docs/protocol.md``.  For operators: ``/health`` (the process answers), ``/ready`` (the
database answers and the node is not shutting down), ``/metrics`` (Prometheus,
:mod:`erren.server.metrics`); every log line names the node (:mod:`erren.server.logs`);
docs/deploy.md puts it together.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from erren import __version__
from erren.engine import family_names
from erren.server import work
from erren.server.apidocs import mount_docs
from erren.server.appstate import AppState, Running
from erren.server.clock import Clock
from erren.server.clusterconfig import ClusterConfig
from erren.server.extension import server_extensions
from erren.server.friends import Friends
from erren.server.headers import with_security_headers
from erren.server.lobby import Lobby, LobbyError
from erren.server.logs import default_node_id
from erren.server.metrics import Metrics
from erren.server.ratelimit import AccessLimits, AccountGate
from erren.server.routes import ROUTERS
from erren.server.routes.common import ApiError, StrictJSONRoute, api_error_response
from erren.server.routes.web import mount_web
from erren.server.socket import Sockets, address_sockets, mount_socket
from erren.server.store import Passwords, Store, StoreUnavailable
from erren.server.store.names import skeleton
from erren.server.table import TableConfig
from erren.server.watching import StoreWatchRules

if TYPE_CHECKING:
    from erren.server.cluster import Cluster
    from erren.server.cluster.relay import Relay

__all__ = ["READY_TIMEOUT_S", "create_app"]

log = logging.getLogger("erren.server")


# ---------------------------------------------------------------------------- the app
GC_THRESHOLDS = (1_000, 500, 100)
"""The collector's thresholds in a serving process (CPython's default: 700, 10, 10).  A young
pass comes when allocations outrun frees by the first figure; with a thousand tables the frees
of finished hands hold that count back while new objects pile up, so a first figure of 10,000
let the young generation reach 85,000 objects and a pass take up to 120 ms of the only thread.
At 1,000 a pass takes under 20 ms; the second figure keeps the middle passes (about 100 ms with
a thousand tables) to one every minute or two (``benchmarks/README.md``)."""


def tune_gc() -> None:
    """A full collection walks every live object; with a thousand tables in memory it stops
    the only thread for 100 ms and more, which is the tail latency.  So: the objects of the
    start-up (modules, the app, restored tables) are frozen out of the collector's sight, and
    the thresholds keep young passes short and the older ones rare (reference counting frees
    almost everything; the collector is only for cycles)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class ErrenApp(FastAPI):
    """The FastAPI app with the security headers outside everything else, so that even the
    500 of Starlette's last-resort error handler carries them, and an over-long declared body
    refused before any of it."""

    def build_middleware_stack(self) -> ASGIApp:
        inner = super().build_middleware_stack()
        limit = self.max_body_size
        return with_security_headers(inner if limit is None else DeclaredBodyLimit(inner, limit))


HTTP_CODES = {404: "not-found", 405: "method-not-allowed", 401: "auth", 413: "too-large"}
"""The ``code`` of the framework's own errors (an unknown path, a wrong method)."""

MAX_BODY = 64 * 1024
"""The largest request body (bytes); a larger one is refused with 413 before it is read."""


class DeclaredBodyLimit:
    """Refuse a request whose ``Content-Length`` is over the limit at once, with the JSON 413
    of the API, before anything reads it.  (A body without a length, or longer than it said,
    is cut by FastAPI's ``max_body_size`` while it streams in.)"""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            declared = Headers(scope=scope).get("content-length", "")
            if declared.isdigit() and int(declared) > self.max_body:
                response = api_error_response(_too_large(self.max_body))
                response.headers["Connection"] = "close"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


READY_TIMEOUT_S = 2.0
"""How long ``/ready`` waits for the database's answer before it says ``store-unavailable``."""


def _too_large(max_body: int) -> ApiError:
    return ApiError(
        413,
        "too-large",
        f"the request body is larger than {max_body:,} bytes",
        params={"limit": max_body},
    )


def create_app(
    store: Store | str | None = None,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    config: TableConfig | None = None,
    rate: float = 100.0,
    burst: float = 200.0,
    limits: AccessLimits | None = None,
    max_body: int = MAX_BODY,
    node: str | None = None,
    metrics: bool = True,
    cluster: ClusterConfig | None = None,
    passwords: Passwords | None = None,
) -> FastAPI:
    """The app.  ``store``: an open store, or a database URL (``None``: the default SQLite
    file) opened at startup and closed at shutdown.  ``clock`` scales every timer (tests),
    ``rng`` makes seeds, invite codes and table ids reproducible (tests only: real play draws
    seeds from :mod:`secrets`).  ``limits``: the account throttles (registrations per address,
    wrong passwords); ``max_body``: the largest request body in bytes.  ``node``: this
    server's name in ``/health``, ``/ready``, the metrics and the logs (default ``HOST-PID``);
    ``metrics``: serve ``/metrics``.  ``cluster``: run as one node of a cluster (``erren serve
    --redis``); ``None``: a single server, no Redis.  ``passwords``: the hashing of the store
    the app opens (default: argon2id's recommended cost; tests pass ``Passwords.fast()``)."""
    node = node or default_node_id()
    gate = AccountGate(limits or AccessLimits())
    state = AppState(
        node=node,
        metrics=Metrics(node),
        gate=gate,
        sockets=Sockets(),
        addresses=address_sockets(gate.limits),
    )
    start = _Start(store, clock or Clock(), config or TableConfig(), rng, cluster, passwords)
    app = ErrenApp(
        title="erren",
        version=__version__,
        description="Two-player mahjong: accounts, beans (欢乐豆), rooms, tables. "
        "Play happens over the WebSocket `/ws` (see docs/protocol.md).",
        lifespan=partial(_lifespan, state=state, start=start),
        docs_url=None,  # served by erren.server.apidocs, from local files
        redoc_url=None,
        max_body_size=max_body,
    )
    app.router.route_class = StrictJSONRoute  # NaN, Infinity, > 64-bit numbers: 422
    app.state.erren = state  # read back typed: erren.server.appstate.app_state
    app.state.metrics = state.metrics
    app.add_middleware(GZipMiddleware, minimum_size=500)  # the client's files, large replies
    _handle_errors(app, max_body)
    mount_web(app)  # the browser client at / and its files under /web (routes.web)
    mount_docs(app)  # /docs, Swagger UI from local files
    _mount_operations(app, state, metrics=metrics)
    for router in ROUTERS:  # accounts, tables, games (erren.server.routes)
        app.include_router(router)
    for extension in server_extensions():  # the families' own routes (erren.server.extension)
        app.include_router(extension.router())
    mount_socket(app, state, rate=rate, burst=burst)  # /ws (erren.server.socket)
    state.metrics.watch(
        tables=lambda: (
            [] if state.running is None else [t.spec.family for t in state.lobby.tables.values()]
        ),
        connections=lambda: len(state.sockets),
        families=family_names(),
    )
    return app


@dataclass(frozen=True)
class _Start:
    """What the lifespan opens the app with."""

    store: Store | str | None
    clock: Clock
    config: TableConfig
    rng: random.Random | None
    cluster: ClusterConfig | None
    passwords: Passwords | None


@asynccontextmanager
async def _lifespan(app: FastAPI, *, state: AppState, start: _Start) -> AsyncIterator[None]:
    """Open the store (unless given open), make the lobby (a cluster node's: its handle on
    Redis and its relay first), restore the unfinished tables; close it all at the end."""
    store = start.store
    opened = (
        store if isinstance(store, Store) else await Store.open(store, passwords=start.passwords)
    )
    running = await _open_lobby(opened, state, start)
    lobby = running.lobby
    lobby.metrics = state.metrics
    opened.database.on_error = state.metrics.database_error
    state.running = running
    running.friends = friends = Friends(opened, state.sockets, lobby.ground, running.cluster)
    state.sockets.on_change = lambda user_id: friends.moved([user_id])
    lobby.ground.on_moved = friends.moved
    if running.relay is not None:  # relayed spectators count in their friends' presence
        friends.relayed = running.relay.hosted
        running.relay.hosted.on_watching = lambda user_id, guest: friends.moved(
            [user_id], guest=guest
        )
    await friends.start()
    state.shutting_down = False
    await asyncio.to_thread(skeleton, "warm")  # load the confusables table before play
    restored = await lobby.restore()
    if restored:
        log.info("restored %d unfinished table(s)", restored)
    tune_gc()
    lag = asyncio.create_task(_watch_lag(state), name="lag")
    try:
        yield
    finally:
        state.shutting_down = True  # /ready: 503 from now on
        lag.cancel()
        state.sockets.on_change = None
        lobby.ground.on_moved = None
        if running.relay is not None:
            running.relay.hosted.on_watching = None
        await friends.close()
        await lobby.shutdown()
        if running.relay is not None:
            await running.relay.close()
        if running.cluster is not None:
            await running.cluster.close()
        if not isinstance(store, Store):
            await opened.close()
        work.close()


async def _open_lobby(store: Store, state: AppState, start: _Start) -> Running:
    """The lobby of a single server, or of a cluster node (only a cluster node imports
    redis)."""
    if start.cluster is None:
        return Running(store, Lobby(store, clock=start.clock, config=start.config, rng=start.rng))
    from erren.server.cluster import Cluster  # noqa: PLC0415

    config, meter = start.cluster, state.metrics
    joined = await Cluster.connect(
        config.redis,
        node_id=config.node_id or state.node,
        prefix=config.prefix,
        lease_ms=round(config.lease_s * 1000),
    )
    joined.leases.on_renewed = meter.lease_renewed
    joined.leases.on_error = meter.redis_error
    lobby = Lobby(store, clock=start.clock, config=start.config, rng=start.rng, cluster=joined)
    node = lobby.cluster_node
    assert node is not None
    relay = node.relay = await _relay(joined, lobby, meter)
    relay.answering = node.answer
    return Running(store, lobby, joined, relay)


def _handle_errors(app: FastAPI, max_body: int) -> None:
    """Every error the app answers, as JSON with a ``code``."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, err: ApiError) -> JSONResponse:
        return api_error_response(err)

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, err: LobbyError) -> JSONResponse:
        body: dict[str, Any] = {"detail": err.message, "code": err.code, "params": err.params}
        if err.table is not None:
            body["table"] = err.table
        return JSONResponse(body, status_code=err.status)

    @app.exception_handler(StoreUnavailable)
    @app.exception_handler(DBAPIError)
    async def store_unavailable(_request: Request, err: Exception) -> JSONResponse:
        log.warning("a request failed on the database: %s", err)
        return JSONResponse(
            {
                "detail": "the database cannot be written right now; nothing was changed, "
                "try again later",
                "code": "store-unavailable",
                "params": {"retry_after": 5},
            },
            status_code=503,
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(work.BusyError)
    async def busy(_request: Request, err: work.BusyError) -> JSONResponse:
        return JSONResponse(
            {
                "detail": str(err),
                "code": "busy",
                "params": {**err.params, "retry_after": 1},
            },
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(413)
    async def too_large(_request: Request, err: Exception) -> JSONResponse:
        # a route's own, smaller limit (PUT /me/settings) says its own number
        return api_error_response(err if isinstance(err, ApiError) else _too_large(max_body))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(err.status_code, "http-error")
        body = {"detail": err.detail, "code": code, "params": {"status": err.status_code}}
        return JSONResponse(body, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, err: RequestValidationError) -> JSONResponse:
        errors = err.errors()
        field = ".".join(str(x) for x in errors[0]["loc"][1:]) if errors else ""
        body = {
            "detail": jsonable_encoder(errors),
            "code": "invalid",
            "params": {"field": field[:80], "count": len(errors)},
        }
        return JSONResponse(body, status_code=422)


def _mount_operations(app: FastAPI, state: AppState, *, metrics: bool) -> None:
    """``/health``, ``/ready`` and (when ``metrics``) ``/metrics``, for operators."""
    node, meter = state.node, state.metrics

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness, the open tables, the group commit's work so far (transactions and the
        actions they carried), and the event loop's longest stall since the last call."""
        lobby = state.lobby
        journal = lobby.journal
        lag, state.lag_s = state.lag_s, 0.0
        return {
            "ok": True,
            "tables": len(lobby.tables),
            "commits": journal.commits,
            "actions": journal.rows,
            "lag_ms": round(lag * 1000, 1),
            "node": node,
        }

    @app.get("/ready", responses={503: {"description": "not ready: `code` says why"}})
    async def ready() -> JSONResponse:
        """Readiness, for a load balancer: 200 ``{"ready": true, "node"}`` while the
        database answers a trivial query within 2 s (and would take a write), no table of
        this node is retrying a write the database refused, a cluster node's Redis answers
        within 2 s, and the server is not shutting down; else 503 with ``code``
        ``store-unavailable``, ``cluster-unavailable`` or ``shutting-down``."""
        if state.shutting_down:
            return _not_ready(node, "shutting-down", "the server is shutting down")
        try:
            await asyncio.wait_for(state.store.ping(), READY_TIMEOUT_S)
        except TimeoutError:
            why = f"the database did not answer within {READY_TIMEOUT_S:g} s"
            return _not_ready(node, "store-unavailable", why)
        except (StoreUnavailable, SQLAlchemyError, OSError) as err:
            detail = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
            return _not_ready(node, "store-unavailable", f"the database fails: {detail}")
        retrying = sum(1 for t in state.lobby.tables.values() if t.store_failures)
        if retrying:
            why = f"the database refuses writes: {retrying} table(s) retrying their record"
            return _not_ready(node, "store-unavailable", why)
        joined = state.running.cluster if state.running is not None else None
        if joined is not None and not await joined.healthy(READY_TIMEOUT_S):
            meter.redis_error()
            why = f"the cluster's Redis does not answer within {READY_TIMEOUT_S:g} s"
            return _not_ready(node, "cluster-unavailable", why)
        return JSONResponse({"ready": True, "node": node})

    if metrics:

        @app.get("/metrics", include_in_schema=False)
        async def metrics_page(request: Request) -> Response:
            """The metrics in Prometheus's text format (OpenMetrics when asked for)."""
            body, content_type = meter.render(request.headers.get("accept", ""))
            return Response(body, headers={"Content-Type": content_type})


async def _relay(cluster: Cluster, lobby: Lobby, meter: Metrics) -> Relay:
    """A cluster node's relay (any node serves any player: erren.server.cluster.relay),
    started before the node restores or makes any table."""
    from erren.server.cluster.relay import Relay  # noqa: PLC0415

    relay = Relay(cluster, lobby.tables, on_error=meter.redis_error)
    relay.hosted.watch_rules = StoreWatchRules(lobby.store)
    await relay.start()
    return relay


def _not_ready(node: str, code: str, detail: str) -> JSONResponse:
    body = {"ready": False, "node": node, "code": code, "detail": detail, "params": {}}
    return JSONResponse(body, status_code=503, headers={"Retry-After": "5"})


async def _watch_lag(state: AppState, every: float = 0.05) -> None:
    """Keep the event loop's longest stall (``state.lag_s``, seconds): a timer that fires
    late shows how long the only thread was busy."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + every
        await asyncio.sleep(every)
        state.lag_s = max(state.lag_s, loop.time() - due)
