"""Test-wide settings and fixtures.

* Two tiers (tests/README.md): ``make check`` runs every test that needs no service
  (``-m "not slow and not services"``, with ``ERREN_TEST_SERVICES=none``), ``make test`` runs
  everything.  A test needs services when it is marked ``services`` or uses one of
  :data:`SERVICE_FIXTURES`, or a parameter of it is ``postgresql``; it is marked here, at
  collection.  A test left unmarked that reaches for a service anyway fails in ``make check``
  with a message naming the service (:func:`erren.testing.servers.require_services`).
* A skipped test is a hidden failure, so any skip fails the run.
* Close what you open: after every test the collector runs (:func:`_collect_garbage`), so a
  socket, transport or file a test left open raises its ``ResourceWarning`` in that test's own
  teardown (an error: warnings are errors), not in whichever later test the collector happened
  to run in.
* :func:`run_benchmark` runs a benchmark the way ``make bench`` does.  Tests never import another
  test module or the benchmarks: what several test files share is a fixture here or in a
  directory's ``conftest.py``, a directory's ``_support`` package, or the library's
  :mod:`erren.testing` (seeded hands, hypothesis strategies, reference oracles), which the
  benchmarks use too.  ``tests/test_layout.py`` checks the rule.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

SERVICE_FIXTURES = frozenset(
    {
        "server",  # erren serve in a subprocess (tests/server, tests/web)
        "shared_servers",
        "clusters",  # the real Redis
        "postgres_url",  # a database of the real PostgreSQL
        "browser",  # Chromium
        "context",
        "cluster_node",
    }
)
"""Fixtures that bring up a service: a test using one is in the full tier only."""

SLOW_WITHOUT_REASON_S = 10.0
"""A test that takes longer says why in its docstring (listed at the end of the run)."""

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")


def _needs_services(item: pytest.Item) -> bool:
    if item.get_closest_marker("services") is not None:
        return True
    if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "postgresql" in callspec.params.values()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that need services before ``-m`` selects (the tiers)."""
    for item in items:
        if _needs_services(item) and item.get_closest_marker("services") is None:
            item.add_marker(pytest.mark.services)


def _has_doc(item: pytest.Item) -> bool:
    function = getattr(item, "function", None)
    return bool(function is not None and (function.__doc__ or "").strip())


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Note whether the test has a docstring, in its reports (for the slow-test list)."""
    item.user_properties.append(("has_doc", _has_doc(item)))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """List the tests over :data:`SLOW_WITHOUT_REASON_S` whose docstring does not say why."""
    slow = []
    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get(
        "failed", []
    ):
        total = getattr(report, "duration", 0.0)
        has_doc = dict(report.user_properties).get("has_doc", True)
        if report.when == "call" and total > SLOW_WITHOUT_REASON_S and not has_doc:
            slow.append((total, report.nodeid))
    if slow:
        terminalreporter.write_sep("=", "slow tests that do not say why (a docstring)")
        for total, nodeid in sorted(slow, reverse=True):
            terminalreporter.write_line(f"{total:6.1f}s {nodeid}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    skipped = reporter.stats.get("skipped", [])
    if skipped:
        reporter.write_line(f"FAILED: {len(skipped)} test(s) skipped; every test must run")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _collect_garbage() -> Iterator[None]:
    """Run the collector after the test (see the module docstring).  What survives it is frozen
    out of later passes (``gc.freeze``), so each pass only walks what the last test made."""
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture
def run_benchmark() -> Callable[..., str]:
    """``run_benchmark(name, *args)`` runs ``python -m benchmarks.<name> <args>`` from the
    repository root, in its own process as ``make bench`` does, checks that it exits 0 and
    returns what it printed."""

    def run(name: str, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", f"benchmarks.{name}", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, f"benchmarks.{name} exited {done.returncode}:\n{done.stderr}"
        return done.stdout

    return run
