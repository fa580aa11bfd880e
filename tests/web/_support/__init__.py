"""Support code of the browser tests (not a test module).

Waiting on the page without ``wait_for_function``: its in-page polling evaluates the
predicate with ``eval``, which the client's Content-Security-Policy (no unsafe-eval) refuses;
``page.evaluate`` goes through the DevTools protocol and is not bound by the page's CSP."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import secrets
import time
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from erren.testing.servers import Server, drop_prefix

REPLAY_MS = 60_000
"""How long a test waits for a replay's board: ``POST /web/replay`` is worked out in a process
at nice 10 (:mod:`erren.server.work`), which a loaded machine serves last (two such waits of
15 s ran out during a full run beside two busy processes); a generous limit costs nothing while
the test passes."""


@dataclass(frozen=True)
class ClusterNode:
    """One ``erren serve --redis`` node (``server``) and its private Redis key prefix (the
    ``cluster_node`` fixture)."""

    server: Server
    prefix: str


def until(page: Page, expression: str, timeout: float = 15000) -> None:
    """Poll ``expression`` (JavaScript, may return a promise) until it is truthy; ``timeout``
    in milliseconds, as in Playwright (15 s unless said: what goes through the server may be
    slow on a loaded machine, and a generous limit costs nothing while the test passes)."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        if page.evaluate(expression):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{expression!r} did not hold within {timeout / 1000:g} s")
        page.wait_for_timeout(50)


def scroll_to(page: Page, selector: str) -> None:
    """Bring the first element matching ``selector`` into view, found and scrolled in one step
    inside the page: a live view (a table, a spectator's board) that re-renders between a
    locator's lookup and its scroll would detach the element from under Playwright."""
    page.wait_for_selector(selector)
    page.eval_on_selector(selector, "e => e.scrollIntoViewIfNeeded(true)")  # Chromium's: centred


def page_errors(page: Page) -> list[str]:
    """The page's uncaught script errors, collected from now on (a test asserts it stays
    empty)."""
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


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


PASS = '.actions button.act[data-key=" "]'
"""The pass button of a claim offer (a chow, pung, kong or win on the opponent's discard)."""


def my_turn(page: Page, timeout: float = 20000) -> bool:
    """Wait until the hand waits for the player's discard, passing every claim offered on the
    way (the deal is random: the computer's discard may be claimable).  True when a discard is
    offered, False when the hand ended first (the settlement shows); ``timeout`` in ms."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        if page.locator(".hand-mine .tile.can").count():
            return True
        if page.locator(".settle").count():
            return False
        passing = page.locator(PASS)
        if passing.count():
            with contextlib.suppress(PlaywrightError):  # the board redraws: a miss is a retry
                passing.last.click(timeout=1000)
        if time.monotonic() > deadline:
            raise AssertionError(f"no discard was offered within {timeout / 1000:g} s")
        page.wait_for_timeout(50)


def discard(page: Page, timeout: float = 20000) -> str:
    """Wait until a discard is offered (passing any claim) and play the tile on the right (the
    one just drawn); return it once the server has put it in the river (``timeout`` ms for
    each wait).  The hand must not end first."""
    assert my_turn(page, timeout), "the hand ended before a discard was offered"
    before = len(river(page))
    tile = page.locator(".hand-mine .tile.can").last.get_attribute("data-tile")
    assert tile
    page.locator(".hand-mine .tile.can").last.click()
    until(page, f"document.querySelectorAll('.river-mine .tile').length > {before}", timeout)
    assert river(page)[before] == tile, (tile, river(page))
    return tile


def next_hand(page: Page, timeout: float = 20000) -> None:
    """From a settlement, ask for the next hand (下一局) and wait until it has started (the
    table's game changes).  The button stays on the screen, disabled, until then: a second
    click would wait on it and then on a settlement that does not come."""
    game = page.evaluate("window.erren.table.game")
    page.locator(".settle-next:enabled").click(timeout=timeout)
    until(page, f"window.erren.table.game !== {json.dumps(game)}", timeout)


def discards_in_one_hand(page: Page, n: int, timeout: float = 20000) -> bool:
    """Discard ``n`` tiles (the one on the right each time, passing any claim) and wait for the
    turn after them, all in the hand being played: True, or False as soon as the hand ends
    first (the deal is random: the computer may win before; about 4 hands in 100 end before
    the player's fourth discard in guobiao-2p against 普通)."""
    for _ in range(n):
        if not my_turn(page, timeout):
            return False
        discard(page, timeout)
    return my_turn(page, timeout)


def trustee_on(page: Page, timeout: float = 15000) -> None:
    """Switch 托管 on for the hand being played, unless it is over already (the settlement
    shows), and wait until the server says it is on (the switch turns ``.on``).  A click the
    board's redraw swallowed is made again, after a pause long enough for the first one's
    answer (a second click in flight would switch it off again)."""
    settled_or_on = (
        "document.querySelector('.settle') || document.querySelector('.bar-row .switch.on')"
    )
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        if page.evaluate(settled_or_on):
            return
        with contextlib.suppress(PlaywrightError):
            page.locator(".bar-row .switch").click(timeout=1000)
        with contextlib.suppress(AssertionError):
            until(page, settled_or_on, timeout=3000)
    raise AssertionError(f"托管 did not come on within {timeout / 1000:g} s")


def drop_keys(prefix: str) -> None:
    """Delete every Redis key under ``prefix`` (in a thread of its own: Playwright's sync API
    runs an event loop in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, drop_prefix(prefix)).result()


def register_in_page(page: Page, url: str) -> str:
    name = "w" + secrets.token_hex(5)
    page.goto(url + "/")
    page.fill("#login-name", name)
    page.fill("#login-pass", "correct horse 42")
    page.click("#btn-register")
    page.wait_for_selector(".rooms .room")
    return name


def leave_text(page: Page) -> str:
    page.click(".table-top .leave")
    until(
        page,
        "document.querySelector('.leave-cost')"
        " && document.querySelector('.leave-cost').textContent !== '…'",
    )
    return page.inner_text(".leave-cost")


def pair_at_room(browser: Browser, url: str, room: str) -> tuple[BrowserContext, Page, Page]:
    """Two registered players quick-match in ``room`` (``family/tier``)."""
    ctx_a = browser.new_context(viewport={"width": 1100, "height": 800})
    ctx_b = browser.new_context(viewport={"width": 1100, "height": 800})
    a, b = ctx_a.new_page(), ctx_b.new_page()
    family = room.split("/", maxsplit=1)[0]
    for page in (a, b):
        register_in_page(page, url)
        page.click(f'button.fam[data-family="{family}"]')
        page.click(f'.rooms .room[data-room="{room}"]')
    for page in (a, b):
        page.wait_for_selector(".board", timeout=20000)
    return ctx_a, a, b


def vs_computer_table(page: Page, url: str, family: str, options: dict[str, Any]) -> None:
    """A guest at a table against the computer with the rules ``options`` (the lobby's own
    request, made from the page)."""
    table = new_computer_table(page, url, family, options)
    page.evaluate(f"location.hash = '#/table/{table}'")
    page.wait_for_selector(".board", timeout=15000)


def api_call(page: Page, method: str, path: str, body: object = None) -> Any:
    """The page's own request to the API (its session's token): the answer's JSON (``None``:
    an empty answer); a refusal raises with its status and body."""
    return page.evaluate(
        """async ([method, path, body]) => {
          const r = await fetch(path, {method, headers: {'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('erren.token')},
            body: body === null ? undefined : JSON.stringify(body)});
          const text = await r.text();
          if (!r.ok) throw new Error(r.status + ' ' + text);
          return text ? JSON.parse(text) : null; }""",
        [method, path, body],
    )


def new_computer_table(page: Page, url: str, family: str, options: dict[str, Any]) -> str:
    """A guest's new table against the computer with the rules ``options`` (the lobby's own
    request, made from the page), not yet joined: its id.  The hand is dealt when the page
    joins it (``location.hash = '#/table/<id>'``)."""
    page.goto(url + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-computer")
    table = page.evaluate(
        """async ([family, options]) => {
          const r = await fetch('/tables/vs-computer', {method: 'POST', headers: {
            'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('erren.token')},
            body: JSON.stringify({family, options})});
          const body = await r.json();
          if (!r.ok) throw new Error(JSON.stringify(body));
          return body.table; }""",
        [family, options],
    )
    return str(table)


def fixed(x: float, places: int) -> str:
    """``x.toFixed(places)`` as the browser writes it: the exact binary value, a half rounded
    away from zero (Python's format rounds a half to even: 13.25 → "13.2" where the page
    writes "13.3")."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
