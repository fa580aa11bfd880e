"""Support code of the browser tests (not a test module).

Waiting on the page without ``wait_for_function``: its in-page polling evaluates the
predicate with ``eval``, which the client's Content-Security-Policy (no unsafe-eval) refuses;
``page.evaluate`` goes through the DevTools protocol and is not bound by the page's CSP."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from dataclasses import dataclass

from playwright.sync_api import Page

from erren.testing.servers import Server, drop_prefix


@dataclass(frozen=True)
class ClusterNode:
    """One ``erren serve --redis`` node (``server``) and its private Redis key prefix (the
    ``cluster_node`` fixture)."""

    server: Server
    prefix: str


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


def guest_table(page: Page, url: str, family: str = "guobiao-2p") -> None:
    """Log in as a guest at ``url`` and open a table against the computer."""
    page.goto(url + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-computer")
    page.click(f'button.fam[data-family="{family}"]')
    page.click("#btn-computer")
    page.wait_for_selector(".board", timeout=15000)


def river(page: Page) -> list[str]:
    """The tiles of the player's own river, in order."""
    tiles = page.eval_on_selector_all(".river-mine .tile", "els => els.map(e => e.dataset.tile)")
    return [str(tile) for tile in tiles]


def discard(page: Page, timeout: float = 20000) -> str:
    """Wait until a discard is offered and play the tile on the right (the one just drawn);
    return it once the server has put it in the river (``timeout`` ms for each wait)."""
    page.wait_for_selector(".hand-mine .tile.can", timeout=timeout)
    before = len(river(page))
    tile = page.locator(".hand-mine .tile.can").last.get_attribute("data-tile")
    assert tile
    page.locator(".hand-mine .tile.can").last.click()
    until(page, f"document.querySelectorAll('.river-mine .tile').length > {before}", timeout)
    assert river(page)[before] == tile, (tile, river(page))
    return tile


def drop_keys(prefix: str) -> None:
    """Delete every Redis key under ``prefix`` (in a thread of its own: Playwright's sync API
    runs an event loop in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, drop_prefix(prefix)).result()
