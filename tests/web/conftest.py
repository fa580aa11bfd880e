"""A real ``erren serve`` on loopback with a fresh SQLite file, and Debian's Chromium driven
headless by Playwright.  No Chromium → the tests fail with a message; they never skip.  A test
that needs a cluster node asks for ``cluster_node`` (PostgreSQL and Redis, its own database and
key prefix).

Screenshots go to ``artifacts/screenshots/`` (gitignored), kept as the run's artefacts.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

from erren.testing.servers import (
    REDIS_URL,
    Server,
    ServiceUnavailableError,
    database,
    new_prefix,
)

from ._support import ClusterNode, drop_keys

CHROMIUM = os.environ.get("ERREN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
_PIDS: dict[str, int] = {}  # the server's address → its process id (for SIGSTOP/SIGCONT)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``erren serve`` on a fresh SQLite file; real timers, a quick computer opponent."""
    tmp = tmp_path_factory.mktemp("web-server")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp / "server.log"
    args = [
        sys.executable,
        "-m",
        "erren.cli.main",
        "serve",
        "--port",
        str(port),
        "--database",
        f"sqlite:///{tmp / 'erren.sqlite3'}",
        "--bot-delay",
        "0.05",
        "--ready-timeout",
        "1000",
    ]
    with log.open("ab") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server died at startup:\n{log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        _PIDS[url] = proc.pid
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium is needed by the browser tests and is missing at {CHROMIUM} "
            "(apt-get install chromium, or set ERREN_CHROMIUM)",
            pytrace=False,
        )
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (its own storage) at the desktop size the screenshots use."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 840})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture(scope="session")
def server_pid(server: str) -> int:
    """The process id of the ``server`` (a test may stop and resume it: a stalled server)."""
    return _PIDS[server]


LEASE_S = 1.0
"""The lease of the cluster node below: a lost table is taken back within a second or two."""


@pytest.fixture
def cluster_node(tmp_path: Path) -> Iterator[ClusterNode]:
    """A cluster node alone (``--redis`` on the machine's Redis under a fresh key prefix,
    ``--lease 1``) on a fresh PostgreSQL database, at real speed with a quick computer
    opponent; stopped, its keys deleted, its database audited and dropped afterwards."""
    prefix = new_prefix()
    try:
        with database("postgresql", tmp_path) as url:
            node = Server(
                url,
                tmp_path / "web-a.log",
                "--redis",
                REDIS_URL,
                "--redis-prefix",
                prefix,
                "--node-id",
                "web-a",
                "--lease",
                f"{LEASE_S:g}",
                time_scale=1,
                bot_delay=0.05,
            )
            try:
                node.start()
                yield ClusterNode(node, prefix)
            finally:
                node.stop()
    except ServiceUnavailableError as err:
        pytest.fail(str(err), pytrace=False)
    finally:
        drop_keys(prefix)
