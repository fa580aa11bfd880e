"""A real ``erren serve`` on loopback with a fresh SQLite file, and Debian's Chromium headless
shell (``chromium-headless-shell``: the engine without the desktop browser) driven by
Playwright.  No Chromium → the tests fail with a message; they never skip.  A test that needs a
cluster node asks for ``cluster_node`` (PostgreSQL and Redis, its own database and
key prefix).

Screenshots go to ``artifacts/screenshots/`` (gitignored), kept as the run's artefacts.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

from erren.testing import servers
from erren.testing.servers import (
    Server,
    ServiceUnavailableError,
    database,
    new_prefix,
    require_services,
)

from ._support import ClusterNode, drop_keys

CHROMIUM = os.environ.get("ERREN_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--accept-lang=zh-CN",  # the client follows the browser's language: Chinese unless a
    # test's context asks for another locale (browser.new_context(locale="en-US"))
]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CLAIM_PAUSE_S = 0.1
"""鸣牌保护 at the browser tests' server: each of the computer's discards holds the hand 0.1 s
rather than 0.8 s (a hand of thirty discards: 3 s instead of 24).  The real 0.8 s is proven at
real speed in ``tests/server/test_trust_runtime.py``; the browser sees the same pause, only
shorter."""


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``erren serve`` on a fresh SQLite file; real timers, a quick computer opponent, and a
    short 鸣牌保护 pause (:data:`CLAIM_PAUSE_S`)."""
    tmp = tmp_path_factory.mktemp("web-server")
    try:
        with database("sqlite", tmp) as url:
            srv = Server(
                url,
                tmp / "server.log",
                *("--claim-pause", f"{CLAIM_PAUSE_S:g}"),
                time_scale=1,
                bot_delay=0.05,
            )
            srv.start()
            try:
                yield srv
            finally:
                srv.stop()
    except ServiceUnavailableError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture(scope="session")
def server(web_server: Server) -> str:
    """The address of the run's browser-test server (``web_server``)."""
    return web_server.url


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright's sync API, for one module.  While it is open, its event loop counts as
    running in this thread (``asyncio.run`` refuses to start: the tests here run their
    coroutines in a thread of their own, ``_support.drop_keys``), so it must not outlive the
    module: a server test that a worker runs next calls ``asyncio.run``."""
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    try:
        require_services("Chromium")
    except ServiceUnavailableError as err:
        pytest.fail(str(err), pytrace=False)
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium is needed by the browser tests and is missing at {CHROMIUM} "
            "(apt-get install chromium-headless-shell, or set ERREN_CHROMIUM)",
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
def server_pid(web_server: Server) -> int:
    """The process id of the ``server`` (a test may stop and resume it: a stalled server)."""
    assert web_server.proc is not None
    return web_server.proc.pid


@pytest.fixture
def cluster_node(tmp_path: Path) -> Iterator[ClusterNode]:
    """A cluster node alone (:func:`erren.testing.servers.cluster_node`: the machine's Redis
    under a fresh key prefix) on a fresh PostgreSQL database, at real speed with a quick
    computer opponent; stopped, its keys deleted, its database audited and dropped
    afterwards."""
    prefix = new_prefix()
    try:
        with database("postgresql", tmp_path) as url:
            node = servers.cluster_node(
                url, tmp_path / "web-a.log", prefix, "web-a", bot_delay=0.05
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
