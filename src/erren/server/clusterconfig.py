"""How a server joins a cluster (``erren serve --redis URL``): plain settings, importable
without Redis (the cluster itself is :mod:`erren.server.cluster`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LEASE_S", "DEFAULT_PREFIX", "ClusterConfig"]

DEFAULT_PREFIX = "erren:"
"""Every Redis key of the cluster begins with it."""

DEFAULT_LEASE_S = 5.0
"""How long a table's lease lasts unless renewed (renewed every third of it): after a node's
death its tables are free for another node this long after its last renewal."""


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """``redis``: the Redis URL; ``node_id``: this node's name (``None``: ``HOST-PID``);
    ``prefix``: the key namespace; ``lease_s``: the table leases' length."""

    redis: str
    node_id: str | None = None
    prefix: str = DEFAULT_PREFIX
    lease_s: float = DEFAULT_LEASE_S
