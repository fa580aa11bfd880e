"""Support code of the browser tests (not a test module).

Waiting on the page without ``wait_for_function``: its in-page polling evaluates the
predicate with ``eval``, which the client's Content-Security-Policy (no unsafe-eval) refuses;
``page.evaluate`` goes through the DevTools protocol and is not bound by the page's CSP."""

from __future__ import annotations

import time

from playwright.sync_api import Page


def until(page: Page, expression: str, timeout: float = 5000) -> None:
    """Poll ``expression`` (JavaScript, may return a promise) until it is truthy; ``timeout``
    in milliseconds, as in Playwright."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        if page.evaluate(expression):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{expression!r} did not hold within {timeout / 1000:g} s")
        page.wait_for_timeout(50)
