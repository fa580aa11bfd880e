"""The app's state, one typed object: what is made with the app (its node's name, metrics,
throttles, the open sockets) and what the lifespan opens at startup (:class:`Running`: the
store, the lobby, a cluster node's handle and relay).  The app keeps it as
``app.state.erren``; :func:`app_state` reads it back, typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from erren.server.cluster import Cluster
    from erren.server.cluster.relay import Relay
    from erren.server.friends import Friends
    from erren.server.lobby import Lobby
    from erren.server.metrics import Metrics
    from erren.server.ratelimit import AccessLimits, AccountGate, AddressSockets
    from erren.server.socket import Sockets
    from erren.server.store import Store

__all__ = ["AppState", "NotStartedError", "Running", "app_state"]


class NotStartedError(RuntimeError):
    """The app's store and lobby are asked for before its startup (or after its shutdown)."""


@dataclass
class Running:
    """What the app's lifespan opened: the store, the lobby, and on a cluster node its handle
    on Redis and its relay."""

    store: Store
    lobby: Lobby
    cluster: Cluster | None = None
    relay: Relay | None = None
    friends: Friends | None = None
    """Presence and delivery to friends (:mod:`erren.server.friends`), set at startup."""


@dataclass
class AppState:
    """Everything the routes and the socket share."""

    node: str
    """This server's name (``/health``, ``/ready``, the metrics, the logs)."""
    metrics: Metrics
    gate: AccountGate
    """The account throttles (registrations, logins) and the access limits."""
    sockets: Sockets
    """The open, authenticated WebSockets (:mod:`erren.server.socket`)."""
    addresses: AddressSockets
    """The sockets each client address holds."""
    running: Running | None = None
    """Set at startup, kept until the process ends."""
    shutting_down: bool = False
    """``/ready`` answers 503 ``shutting-down`` from the first signal on."""
    lag_s: float = 0.0
    """The event loop's longest stall since ``/health`` last read it."""

    @property
    def limits(self) -> AccessLimits:
        return self.gate.limits

    @property
    def store(self) -> Store:
        return self._running().store

    @property
    def lobby(self) -> Lobby:
        return self._running().lobby

    def _running(self) -> Running:
        if self.running is None:
            raise NotStartedError("the app has not started (its lifespan opens the store)")
        return self.running


def app_state(app: Starlette) -> AppState:
    """The state :func:`erren.server.app.create_app` gave ``app``."""
    state: AppState = app.state.erren
    return state
