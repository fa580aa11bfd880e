"""Real servers for tests and benchmarks: ``erren serve`` in a subprocess on loopback, a fresh
database per run (a SQLite file, or a database of the PostgreSQL at ``ERREN_TEST_PG``), the
ledger audit of what the run left, and a private key prefix of the Redis at ``REDIS_URL``.

A run without services (``ERREN_TEST_SERVICES=none``, as ``make check`` sets it) refuses at once,
with a message naming the service, to start a server or open a database or a Redis prefix: a
test that needs one belongs to the full tier (``make test``) and must be marked ``services``.

Nothing here knows pytest: a missing PostgreSQL or Redis raises :class:`ServiceUnavailableError`,
a wrong bean :class:`LedgerAuditError` (an :class:`AssertionError`); the tests' thin wrappers
(``tests/server/_support``) turn them into failures with a message, and a benchmark prints
them.  It needs the ``server`` extra (``httpx``, ``psycopg``, ``redis``).
"""

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

__all__ = [
    "CLUSTER_LEASE_S",
    "PG_ADMIN",
    "REDIS_URL",
    "TIME_SCALE",
    "LedgerAuditError",
    "Server",
    "ServiceUnavailableError",
    "audit",
    "cluster_node",
    "database",
    "drop_pg_database",
    "drop_prefix",
    "free_port",
    "new_pg_database",
    "new_prefix",
    "require_services",
]

PG_ADMIN = os.environ.get("ERREN_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
"""The PostgreSQL maintenance database fresh databases are created from (``ERREN_TEST_PG``)."""

REDIS_URL = os.environ.get("ERREN_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis cluster nodes under test share, each run under a key prefix of its own."""

TIME_SCALE = 0.01
"""The tests' timers run 100 times faster (a 20 s turn lasts 0.2 s)."""

CLUSTER_LEASE_S = 3.0
"""The table lease of the cluster nodes under test (``erren serve --lease``).  A lease runs on
Redis's clock, at real speed: the owner renews it every second and gives a table up 0.6 s before
it could lapse, so a node the loaded machine stalls for up to two seconds keeps its tables (with
1 s, a stall of 0.8 s moved tables under the tests' feet); a test that kills a node waits about
this long for the takeover."""


class ServiceUnavailableError(RuntimeError):
    """PostgreSQL or Redis, which the run needs, cannot be reached, or the run has no services
    (``ERREN_TEST_SERVICES=none``); the message says which."""


def require_services(what: str) -> None:
    """Raise :class:`ServiceUnavailableError` naming ``what`` when the run has no services
    (``ERREN_TEST_SERVICES=none``: ``make check``), instead of reaching for it."""
    if os.environ.get("ERREN_TEST_SERVICES", "").strip().lower() == "none":
        raise ServiceUnavailableError(
            f"{what} is needed, and this run has no services (ERREN_TEST_SERVICES=none, as in "
            "`make check`): the test belongs to the full tier (`make test`); mark it "
            "`services` (tests/README.md)"
        )


class LedgerAuditError(AssertionError):
    """The ledger audit found a bean wrong; the message lists the findings."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``erren serve`` process on 127.0.0.1 (a free port, kept across restarts), its output
    appended to ``log``.  :meth:`start` (re)starts it and waits until ``/health`` answers,
    :meth:`kill` sends SIGKILL, :meth:`stop` SIGTERM (SIGKILL after 10 s).  ``extra``: more
    ``erren serve`` options (``--redis URL --node-id ID``, ``--grace S``, ...).  Passwords are
    hashed with ``--fast-passwords`` unless ``fast_passwords`` is off (the test of the
    production argon2 parameters).  Guests and new accounts are not throttled (``--guest-limit
    0 --register-limit 0``: the tests make them by the hundred from 127.0.0.1, and how many
    one server sees depends on which tests its worker runs) unless ``throttle_guests`` is on
    (the flood test), ``throttle_registrations`` (the account throttle's test) or ``extra``
    sets a limit of its own.
    Every account counts as seasoned (``--new-player-hands 0``: the tests' fresh accounts
    escape and pay) unless ``new_player_hands`` says otherwise (the pumping test)."""

    def __init__(
        self,
        database: str,
        log: Path,
        *extra: str,
        time_scale: float = TIME_SCALE,
        bot_delay: float = 0.5,
        ready_timeout: float = 1000,
        fast_passwords: bool = True,
        throttle_guests: bool = False,
        throttle_registrations: bool = False,
        new_player_hands: int = 0,
    ) -> None:
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.extra = extra
        self.time_scale = time_scale
        self.bot_delay = bot_delay
        self.ready_timeout = ready_timeout
        self.fast_passwords = fast_passwords
        self.throttle_guests = throttle_guests
        self.throttle_registrations = throttle_registrations
        self.new_player_hands = new_player_hands
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        """The command line :meth:`start` runs."""
        return [
            sys.executable,
            "-m",
            "erren.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database,
            "--time-scale",
            f"{self.time_scale:g}",
            "--bot-delay",
            f"{self.bot_delay:g}",
            "--ready-timeout",
            f"{self.ready_timeout:g}",
            *(["--fast-passwords"] if self.fast_passwords else []),
            *([] if self.throttle_guests else ["--guest-limit", "0"]),
            *([] if self.throttle_registrations else ["--register-limit", "0"]),
            *("--new-player-hands", str(self.new_player_hands)),
            "--no-review-hands",  # a test asks for it in ``extra`` (--review-hands)
            *self.extra,
        ]

    def start(self, timeout: float = 30) -> None:
        """Start the process and wait until it answers ``/health`` (:class:`RuntimeError`
        with the end of its log if it dies or does not answer within ``timeout`` s)."""
        require_services("a server (erren serve)")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server died at startup:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        self.kill()  # not left running behind the error
        raise RuntimeError(
            f"the server did not start within {timeout:g} s:\n{self.log.read_text()[-3000:]}"
        )

    def flushed_log(self, timeout: float = 10) -> str:
        """The server's log with everything it logged before this call: a request for
        ``/health`` carrying a fresh marker goes out, and the log is read until the marker's
        access line is in it (the server must log requests: ``--log-level info``)."""
        marker = uuid.uuid4().hex
        httpx.get(f"{self.url}/health?flushed={marker}", timeout=timeout)
        deadline = time.monotonic() + timeout
        while True:
            text = self.log.read_text(errors="replace")
            if marker in text:
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"the server did not log the marker request:\n{text[-2000:]}")
            time.sleep(0.02)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL (``kill -9``), and wait for the process to be gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM (a graceful stop), SIGKILL if it has not ended within 10 s.  A paused
        process (SIGSTOP) is continued first."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def cluster_node(
    database: str,
    log: Path,
    prefix: str,
    node_id: str,
    *extra: str,
    redis: str = REDIS_URL,
    **options: Any,
) -> Server:
    """One ``erren serve --redis`` node of a test cluster: the Redis at ``redis`` under
    ``prefix``, leases of :data:`CLUSTER_LEASE_S`, a long grace period (a player who
    reconnects on a slow machine is back in time).  Its timers run at real speed (a turn lasts
    20 s, ``options`` may say otherwise): while a test moves a table from node to node (a
    lease to lapse, a takeover), nothing at the table times out and plays on by itself (at a
    hundredth of the time, two timeouts put both seats in 托管, which finished the hand before
    the takeover).  The 鸣牌保护 pause is 20 ms, so that the tests' hands still play quickly."""
    options.setdefault("time_scale", 1)
    return Server(
        database,
        log,
        *("--redis", redis, "--redis-prefix", prefix, "--lease", f"{CLUSTER_LEASE_S:g}"),
        *("--node-id", node_id, "--grace", "1000", "--claim-pause", "0.02"),
        *extra,
        **options,
    )


# ------------------------------------------------------------------------------ databases
def new_pg_database(prefix: str = "erren_server_test") -> str:
    """Create a fresh database on :data:`PG_ADMIN`'s server; its URL
    (:class:`ServiceUnavailableError` if PostgreSQL cannot be reached)."""
    import psycopg  # noqa: PLC0415

    require_services(f"PostgreSQL ({PG_ADMIN})")
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # a name of our own making
    except psycopg.Error as err:
        raise ServiceUnavailableError(
            f"PostgreSQL at {PG_ADMIN} is needed and is unreachable: {err}"
        ) from None
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + name


def drop_pg_database(url: str) -> None:
    """Drop the database :func:`new_pg_database` made (its connections closed by force)."""
    import psycopg  # noqa: PLC0415

    name = url.rsplit("/", 1)[1]
    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn,
    ):
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def audit(url: str) -> None:
    """Raise :class:`LedgerAuditError` unless the ledger audit (``erren audit-ledger``) finds
    every bean in ``url`` right: users' beans = beans granted, every journal balances, every
    finished game's settlement is what its replayed record owes."""
    from erren.server.audit import audit_database  # noqa: PLC0415

    # in a thread of its own, with its own event loop: the caller may be inside a coroutine
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        report = pool.submit(asyncio.run, audit_database(url)).result()
    if not report.ok:
        raise LedgerAuditError("the ledger audit failed:\n" + "\n".join(report.lines()))


@contextlib.contextmanager
def database(backend: str, tmp: Path) -> Iterator[str]:
    """A fresh database for a run: ``sqlite`` (a file in ``tmp``) or ``postgresql``.  When
    the block ends normally (stop the servers in it first) the ledger audit runs on it
    (:func:`audit`); a PostgreSQL database is dropped in every case."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp / 'erren.sqlite3'}"
        yield url
        audit(url)
        return
    if backend != "postgresql":
        raise ValueError(f"no backend {backend!r}: sqlite or postgresql")
    url = new_pg_database()
    try:
        yield url
        audit(url)
    finally:
        drop_pg_database(url)


# ------------------------------------------------------------------------------ Redis
def new_prefix() -> str:
    """A fresh key prefix of the shared Redis (``erren-test:HEX:``)."""
    require_services(f"Redis ({REDIS_URL})")
    return f"erren-test:{uuid.uuid4().hex[:12]}:"


async def drop_prefix(prefix: str, url: str = REDIS_URL) -> None:
    """Delete every key under ``prefix``."""
    import redis.asyncio as aioredis  # noqa: PLC0415

    client = aioredis.Redis.from_url(url, decode_responses=True)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()
