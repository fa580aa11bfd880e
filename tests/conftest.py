"""Test-wide settings: a skipped test is a hidden failure, so any skip fails the run."""

from __future__ import annotations

import pytest
from hypothesis import settings

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
