"""The server under test: ``erren serve`` in a subprocess, on SQLite or PostgreSQL."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

PG_ADMIN = os.environ.get("ERREN_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
TIME_SCALE = 0.01


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``erren serve`` process; :meth:`kill` sends SIGKILL, :meth:`start` (re)starts it on
    the same port and database."""

    def __init__(self, database: str, log: Path, *extra: str) -> None:
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [
            sys.executable,
            "-m",
            "erren.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database,
            "--time-scale",
            str(TIME_SCALE),
            "--bot-delay",
            "0.5",
            "--ready-timeout",
            "1000",
            *self.extra,
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server died at startup:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def _pg_database() -> str:
    """A fresh PostgreSQL database for this test process; fails loudly if none can be made."""
    import psycopg  # noqa: PLC0415

    name = f"erren_server_test_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as err:
        pytest.fail(
            f"PostgreSQL at {PG_ADMIN} is needed by the server tests and is unreachable: {err}",
            pytrace=False,
        )
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + name


def _drop_pg(url: str) -> None:
    import psycopg  # noqa: PLC0415

    name = url.rsplit("/", 1)[1]
    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn,
    ):
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def audit(url: str) -> None:
    """Fail unless the ledger audit (``erren audit-ledger``) finds every bean in ``url`` right:
    users' beans = beans granted, every journal balances, every finished game's settlement is
    what its replayed record owes."""
    from erren.server.audit import audit_database  # noqa: PLC0415

    # in a thread of its own, with its own event loop: ``database`` may be used in a coroutine
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        report = pool.submit(asyncio.run, audit_database(url)).result()
    if not report.ok:
        pytest.fail("the ledger audit failed:\n" + "\n".join(report.lines()), pytrace=False)


@contextlib.contextmanager
def database(backend: str, tmp: Path) -> Iterator[str]:
    """A fresh database for a server.  When the block ends normally (stop the server in it
    first), the ledger audit runs on it and fails the test (module) if a bean is wrong; the
    database is dropped in every case."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp / 'erren.sqlite3'}"
        yield url
        audit(url)
        return
    url = _pg_database()
    try:
        yield url
        audit(url)
    finally:
        _drop_pg(url)


def run(coro: Coroutine[Any, Any, None]) -> None:
    """Run a test coroutine with an overall time limit."""

    async def limited() -> None:
        await asyncio.wait_for(coro, timeout=90)

    asyncio.run(limited())
