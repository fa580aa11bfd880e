"""The server under test: ``erren serve`` in a subprocess, on SQLite or PostgreSQL.

The harness itself lives in the package (:mod:`erren.testing.servers`, which the benchmarks
use too); here are its pytest faces: :func:`database` fails the test with a message when
PostgreSQL is unreachable or the ledger audit finds a bean wrong, :func:`audit` likewise, and
:func:`run` bounds a test coroutine in time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from erren.testing import servers
from erren.testing.servers import (
    CLUSTER_LEASE_S,
    PG_ADMIN,
    TIME_SCALE,
    Server,
    cluster_node,
    free_port,
)

__all__ = [
    "CLUSTER_LEASE_S",
    "PG_ADMIN",
    "TIME_SCALE",
    "Server",
    "audit",
    "cluster_node",
    "cluster_pair",
    "database",
    "free_port",
    "run",
    "serving",
]


def audit(url: str) -> None:
    """Fail unless the ledger audit finds every bean in ``url`` right
    (:func:`erren.testing.servers.audit`)."""
    try:
        servers.audit(url)
    except servers.LedgerAuditError as err:
        pytest.fail(str(err), pytrace=False)


@contextlib.contextmanager
def database(backend: str, tmp: Path) -> Iterator[str]:
    """A fresh database for a server (:func:`erren.testing.servers.database`): the ledger
    audit fails the test (module) if a bean is wrong, PostgreSQL unreachable fails it too."""
    try:
        with servers.database(backend, tmp) as url:
            yield url
    except servers.ServiceUnavailableError as err:
        pytest.fail(f"{err} (the server tests need it)", pytrace=False)
    except servers.LedgerAuditError as err:
        pytest.fail(str(err), pytrace=False)


@contextlib.contextmanager
def serving(backend: str, tmp: Path, *extra: str, **options: Any) -> Iterator[Server]:
    """A server of its own on a fresh ``backend`` database in ``tmp`` (``extra``: more ``erren
    serve`` options, ``options``: :class:`Server`'s), stopped and audited afterwards."""
    with database(backend, tmp) as url:
        server = Server(url, tmp / "server.log", *extra, **options)
        server.start()
        try:
            yield server
        finally:
            server.stop()


@contextlib.contextmanager
def cluster_pair(
    tmp: Path, names: tuple[str, str], *extra: str, time_scale: float = 1
) -> Iterator[tuple[Server, Server, str]]:
    """Two nodes of one cluster on a fresh PostgreSQL database in ``tmp`` (``extra``: more
    ``erren serve`` options for both) and the cluster's Redis prefix; stopped, the ledger
    audited and the Redis keys deleted afterwards."""
    prefix = servers.new_prefix()
    with database("postgresql", tmp) as url:
        pair = tuple(
            cluster_node(url, tmp / f"{name}.log", prefix, name, *extra, time_scale=time_scale)
            for name in names
        )
        try:
            for node in pair:
                node.start()
            yield pair[0], pair[1], prefix
        finally:
            for node in pair:
                node.stop()
            asyncio.run(servers.drop_prefix(prefix))


def run(coro: Coroutine[Any, Any, None], timeout: float = 90) -> None:
    """Run a test coroutine with an overall time limit."""

    async def limited() -> None:
        await asyncio.wait_for(coro, timeout=timeout)

    asyncio.run(limited())
