"""Real servers for the server tests: ``erren serve`` in a subprocess on loopback, on a fresh
SQLite file and on a fresh database of the PostgreSQL at 127.0.0.1:5432.

* **One server per backend per test run** (per xdist worker): the ``server`` fixture hands
  every module the same running server of its backend, started at first use.  Tests keep
  apart by using fresh accounts and tables of their own.  When the run ends the server is
  stopped, its log must hold no traceback, and the ledger audit checks every bean of its
  database (``database``).  A test that needs other options or kills the server starts its
  own :class:`Server`.
* **SQLite unless the backend is the point.**  ``backend`` is ``sqlite``; a module (or test)
  where the database matters — the ledger, the journal, a restart, database faults, one
  end-to-end game per family — asks for both with ``@pytest.mark.backends("sqlite",
  "postgresql")`` (``pytestmark`` for a module).
* Timers run 100 times faster (``--time-scale 0.01``: a 20 s turn lasts 0.2 s, the 60 s grace
  0.6 s), so timeouts, 托管 and escapes happen in a fraction of a second; passwords are
  hashed with ``--fast-passwords`` (``tests/server/test_accounts_http.py`` checks the
  production argon2 parameters on a server of its own).

PostgreSQL or Redis unreachable → the tests fail with a message; they never skip.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from erren.server.cluster import Cluster

from ._support.harness import Server, database
from ._support.redis_ns import clusters as _clusters

SHARED_OPTIONS = ("--no-review-hands",)
"""The shared servers, like every test server, take any number of new accounts from 127.0.0.1
(every test registers its own; ``erren.testing.servers.Server``); ``test_accounts_http.py``
checks the limit on a server of its own.  They review only
the hands a player asks for: reviewing every settled hand in the background kept their one
low-priority review process busy all run long, so that an asked review waited behind a queue
on a loaded machine (``test_review_later.py`` checks the background reviews)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend``: ``sqlite``, or the backends a ``backends`` mark names (module scope, so a
    module's tests share a server per backend).  A test that parametrizes ``backend`` itself
    is left alone."""
    if "backend" not in metafunc.fixturenames:
        return
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if "backend" in (names.replace(" ", "").split(",") if isinstance(names, str) else names):
            return
    chosen = metafunc.definition.get_closest_marker("backends")
    names = chosen.args if chosen is not None else ("sqlite",)
    metafunc.parametrize("backend", names, scope="module")


class SharedServers:
    """The run's servers, one per backend, each started at its first use."""

    def __init__(self, tmp: pytest.TempPathFactory) -> None:
        self._tmp = tmp
        self._stack = contextlib.ExitStack()
        self._running: dict[str, Server] = {}

    def get(self, backend: str) -> Server:
        if backend not in self._running:
            self._running[backend] = self._stack.enter_context(self._serve(backend))
        return self._running[backend]

    @contextlib.contextmanager
    def _serve(self, backend: str) -> Iterator[Server]:
        tmp: Path = self._tmp.mktemp(f"server-{backend}")
        with database(backend, tmp) as url:
            srv = Server(url, tmp / "server.log", *SHARED_OPTIONS)
            srv.start()
            try:
                yield srv
            finally:
                srv.stop()
            log = srv.log.read_text(errors="replace")
            if "Traceback" in log:
                pytest.fail(f"the shared {backend} server logged a traceback:\n{log[-4000:]}")

    def close(self) -> None:
        self._stack.close()


@pytest.fixture(scope="session")
def shared_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedServers]:
    servers = SharedServers(tmp_path_factory)
    try:
        yield servers
    finally:
        servers.close()


@pytest.fixture(scope="module")
def server(backend: str, shared_servers: SharedServers) -> Server:
    """The run's server of ``backend`` (see the module docstring)."""
    return shared_servers.get(backend)


@pytest.fixture
def clusters() -> Callable[..., AbstractAsyncContextManager[list[Cluster]]]:
    """``clusters(count, lease_ms=...)``: cluster nodes on a fresh prefix of the real Redis,
    closed and emptied afterwards (``_support.redis_ns.clusters``), for the tests of the
    directories below (the store's fencing)."""
    return _clusters
