"""Test-wide settings and fixtures.

* A skipped test is a hidden failure, so any skip fails the run.
* :func:`run_benchmark` runs a benchmark the way ``make bench`` does.  Tests never import another
  test module or the benchmarks: what several test files share is a fixture here or in a
  directory's ``conftest.py``, a directory's ``_support`` package, or the library's
  :mod:`erren.testing` (seeded hands, hypothesis strategies, reference oracles), which the
  benchmarks use too.  ``tests/test_layout.py`` checks the rule.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    skipped = reporter.stats.get("skipped", [])
    if skipped:
        reporter.write_line(f"FAILED: {len(skipped)} test(s) skipped; every test must run")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
