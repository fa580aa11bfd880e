"""Real servers for the server tests: ``erren serve`` in a subprocess on loopback, on a fresh
SQLite file and on a fresh database of the PostgreSQL at 127.0.0.1:5432.

Timers run 100 times faster (``--time-scale 0.01``: a 20 s turn lasts 0.2 s, the 60 s grace
0.6 s), so timeouts, 托管 and escapes happen in a fraction of a second.  PostgreSQL unreachable
→ the tests fail with a message; they never skip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager

import pytest

from erren.server.cluster import Cluster

from ._support.harness import Server, database
from ._support.redis_ns import clusters as _clusters


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server shared by the tests of a module, per backend; once they are done and the
    server stopped, the ledger audit checks every bean of its database (see ``database``)."""
    tmp = tmp_path_factory.mktemp(f"server-{backend}")
    with database(backend, tmp) as url:
        srv = Server(url, tmp / "server.log")
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture
def clusters() -> Callable[..., AbstractAsyncContextManager[list[Cluster]]]:
    """``clusters(count, lease_ms=...)``: cluster nodes on a fresh prefix of the real Redis,
    closed and emptied afterwards (``_support.redis_ns.clusters``), for the tests of the
    directories below (the store's fencing)."""
    return _clusters
