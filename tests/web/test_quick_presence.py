"""A quick match never seats a player with someone who is gone (issue 28, item 1), in Chromium.

The issue's defect: Z starts a quick match in a bean room and closes the tab while “正在寻找对手…”
shows; W picks the same room and is seated at once with Z, then sees only “等待开局…”.  Now:

* Z's closed tab is nobody to be seated with: W searches on, and X, who comes next, is the
  opponent W sees at the dealt table;
* a reload keeps the place: X, who comes while Z's page reloads, is paired with Z as soon as the
  reloaded page asks again (Z was first);
* a hidden page is paired with nobody until it shows again, then with whoever came meanwhile;
* a pairing whose opponent never comes to the table is dissolved after the show-up time (8 s on
  this server): W, at the table, is told so in her language, is searching again (first in the
  queue) and still holds exactly her 10,000 beans.

The opponents who never open a page (the ghost G, and players who only wait) are plain HTTP
clients.  Screenshots of the dissolved-pairing message at the phone sizes, in Chinese and
English, go to ``$ERREN_SHOTS`` (default ``/tmp/shots/ghost``)."""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route
from playwright.sync_api import Error as PlaywrightError

from ._support import page_errors, until

ROOM = "guobiao-2p/novice"
WELCOME = 10_000
"""Every new account's beans (docs/protocol.md): no hand is dealt here, so no bean moves."""
SHOW_UP_S = 8
"""The show-up time of the session's server (``erren serve``'s default ``--show-up``)."""
SIZES = [(390, 844), (360, 740), (844, 390), (740, 360)]
SEARCHING = {"zh": "正在寻找对手…", "en": "Looking for an opponent…"}
WAITING_START = "等待开局…"
NO_SHOW = {
    "zh": "对手没有来到牌桌，这一局已取消，谁也没有付豆。你已排回队首。",
    "en": "Your opponent never came to the table, so the match was called off and nobody paid. "
    "You are back at the front of the queue.",
}
LOST = {
    "zh": "你离开得太久，排队的位置没有保留，已重新为你排队。",
    "en": "You were away too long and lost your place in the queue; you are queued again.",
}
SHOTS = Path(os.environ.get("ERREN_SHOTS", "/tmp/shots/ghost"))
CHINESE_FIRST = "localStorage.getItem('erren.lang') || localStorage.setItem('erren.lang', 'zh')"
"""Each page opens in Chinese (the player may switch: his choice stays)."""
VISIBILITY = """state => {
    const hidden = state === 'hidden';
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
    document.dispatchEvent(new Event('visibilitychange'));
}"""
"""Chromium headless never hides a page by itself: the page is told it hid, or showed."""


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Up to three players' browsers (made on demand by :func:`_player`), closed afterwards."""
    made: list[BrowserContext] = []
    yield made
    for ctx in made:
        with contextlib.suppress(PlaywrightError):  # closed by the test already (a closed tab)
            ctx.close()


def _player(contexts: list[BrowserContext], browser: Browser, url: str) -> tuple[Page, str]:
    """A new player registered in a browser of his own, at the lobby of 二人国标: his page and
    token."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 800}, locale="zh-CN")
    ctx.add_init_script(CHINESE_FIRST)
    contexts.append(ctx)
    page = ctx.new_page()
    page.goto(url + "/")
    page.fill("#login-name", "w" + secrets.token_hex(5))
    page.fill("#login-pass", "correct horse 42")
    page.click("#btn-register")
    page.wait_for_selector(".rooms .room")
    page.click('button.fam[data-family="guobiao-2p"]')
    token = page.evaluate("localStorage.getItem('erren.token')")
    assert isinstance(token, str) and token
    return page, token


def _search(page: Page) -> None:
    """Click the room: the page searches (its request is on its way), or is seated already
    (which :func:`_until_search` reports)."""
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/match/quick")):
        page.click(f'.rooms .room[data-room="{ROOM}"]')
    until(page, "!!document.querySelector('.waiting') || location.hash.startsWith('#/table/')")


def _until_queued(url: str, auth: dict[str, str]) -> None:
    """Wait until the server has the player in the queue.  A server from before issue 28 has
    no ``GET /match/quick`` (405) and cannot say: then the request sent is all there is to
    wait for (the test runs on it, and fails there, to show the defect)."""
    for _ in range(400):
        reply = httpx.get(url + "/match/quick", headers=auth)
        if reply.status_code == 405 or (reply.status_code == 200 and not reply.json()["away"]):
            return
        threading.Event().wait(0.05)
    raise AssertionError("the player is not queued")


def _register(url: str) -> tuple[str, dict[str, str]]:
    """A player with no page (HTTP only): his name and auth header."""
    name = "h" + secrets.token_hex(5)
    reply = httpx.post(url + "/auth/register", json={"name": name, "password": "password-123"})
    assert reply.status_code == 201, reply.text
    return name, {"Authorization": f"Bearer {reply.json()['token']}"}


def _search_of(url: str, auth: dict[str, str]) -> tuple[str, bool] | None:
    """What the server says of the player's search (``None``: none, or a server that cannot
    say)."""
    reply = httpx.get(url + "/match/quick", headers=auth)
    if reply.status_code != 200:
        return None
    return str(reply.json()["room"]), bool(reply.json()["away"])


def _until_search(page: Page, url: str, auth: dict[str, str], search: tuple[str, bool]) -> None:
    """Wait (polling, the page idling between) until the server says the player's search is
    ``search``; a page that went to a table first fails at once (it was seated)."""
    for _ in range(400):
        if not page.is_closed() and page.evaluate("location.hash").startswith("#/table/"):
            raise AssertionError(f"seated at once: {page.inner_text('#app')[:200]!r}")
        if _search_of(url, auth) == search:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the search is not {search}")


class Waiter:
    """A player with no page waiting for a quick match (his request runs in a thread)."""

    def __init__(self, url: str) -> None:
        self.name, self.auth = _register(url)
        self.answer: dict[str, Any] | None = None
        body = {"room": ROOM, "wait_s": 40}

        def wait() -> None:
            reply = httpx.post(url + "/match/quick", json=body, headers=self.auth, timeout=60)
            self.answer = {"status": reply.status_code, **reply.json()}

        self.thread = threading.Thread(target=wait, daemon=True)
        self.thread.start()

    def result(self) -> dict[str, Any]:
        self.thread.join(60)
        assert self.answer is not None, "no answer within 60 s"
        return self.answer


def _at_table(page: Page, table: str) -> None:
    until(page, f"location.hash === '#/table/{table}'", 20000)


def test_a_closed_searching_tab_is_nobody_to_be_seated_with(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """Z searches and closes his tab; W picks the same room: she searches (no table with Z);
    X comes and the two play: W's table shows X's name and her tiles are dealt."""
    z, z_token = _player(contexts, browser, server)
    w, w_token = _player(contexts, browser, server)
    x, _ = _player(contexts, browser, server)
    x_name = str(x.evaluate("document.querySelector('#link-profile').textContent"))
    errors = page_errors(w)
    z_auth = {"Authorization": f"Bearer {z_token}"}
    _search(z)
    assert SEARCHING["zh"] in z.inner_text(".waiting")
    _until_queued(server, z_auth)
    z.context.close()  # the tab closes while it searches
    _search(w)
    _until_search(w, server, {"Authorization": f"Bearer {w_token}"}, (ROOM, False))
    assert SEARCHING["zh"] in w.inner_text("#app")
    assert _search_of(server, z_auth) == (ROOM, True)  # Z is away: his place kept, unpaired
    _search(x)
    for page in (w, x):
        page.wait_for_selector(".hand-mine .tile", timeout=20000)
    assert x_name in w.inner_text(".board")
    assert WAITING_START not in w.inner_text("#app")
    assert errors == []


def test_a_reload_keeps_the_place_in_the_queue(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """Z searches and reloads; Y comes while the page reloads (its request held until Y waits)
    and waits behind the away Z: the reloaded page resumes the search and is seated with Y at
    once, Y in seat 0 as the one who waited."""
    z, z_token = _player(contexts, browser, server)
    auth = {"Authorization": f"Bearer {z_token}"}
    _search(z)
    _until_search(z, server, auth, (ROOM, False))
    waiting: list[Waiter] = []

    def hold(route: Route) -> None:
        """The reloaded page's request goes out once Y waits behind the away Z."""
        if route.request.method == "POST" and not waiting:
            body = route.request.post_data_json
            assert isinstance(body, dict) and body.get("resume") is True
            assert _search_of(server, auth) == (ROOM, True)
            waiting.append(Waiter(server))
            for _ in range(400):
                if _search_of(server, waiting[0].auth) == (ROOM, False):
                    break
                threading.Event().wait(0.05)
        route.continue_()

    z.route("**/match/quick", hold)
    z.reload()
    until(z, "location.hash.startsWith('#/table/')", 20000)
    assert len(waiting) == 1
    seat = waiting[0].result()
    assert seat["status"] == 200 and seat["seat"] == 0
    _at_table(z, seat["table"])


def test_a_hidden_page_is_paired_with_nobody_until_it_shows(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """Z searches and hides the page (another app on the phone): Y, who comes, waits; the page
    shows again and Z is seated with Y at once."""
    z, z_token = _player(contexts, browser, server)
    auth = {"Authorization": f"Bearer {z_token}"}
    _search(z)
    _until_search(z, server, auth, (ROOM, False))
    _visibility(z, "hidden")
    _until_search(z, server, auth, (ROOM, True))
    y = Waiter(server)
    _until_search(z, server, y.auth, (ROOM, False))
    assert y.answer is None
    _visibility(z, "visible")
    seat = y.result()
    assert seat["status"] == 200 and seat["seat"] == 0
    _at_table(z, seat["table"])


def test_a_place_lost_while_away_is_said_and_the_search_goes_on(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """Z's page stays hidden past the grace (5 s): his place is gone; when it shows again he is
    told so, in his language, and searches again (at the back of the queue)."""
    z, z_token = _player(contexts, browser, server)
    auth = {"Authorization": f"Bearer {z_token}"}
    _search(z)
    _until_search(z, server, auth, (ROOM, False))
    _visibility(z, "hidden")
    _until_search(z, server, auth, (ROOM, True))
    for _ in range(400):  # the grace (5 s) ends
        if _search_of(server, auth) is None:
            break
        z.wait_for_timeout(50)
    assert _search_of(server, auth) is None
    _visibility(z, "visible")
    note = z.wait_for_selector(".search-note", timeout=10000)
    assert note is not None and note.inner_text() == LOST["zh"]
    assert SEARCHING["zh"] in z.inner_text(".waiting")
    _until_search(z, server, auth, (ROOM, False))
    _shots(z, "zh", "lost", SIZES[:1])
    z.click("#lang")
    until(z, f"document.querySelector('.search-note')?.textContent === {LOST['en']!r}")
    _shots(z, "en", "lost", SIZES[2:3])
    z.click(".waiting button")  # 取消 / Cancel
    until(z, "!!document.querySelector('.rooms .room')")
    assert _search_of(server, auth) is None


def _visibility(page: Page, state: str) -> None:
    """The page hides or shows (:data:`VISIBILITY`)."""
    page.evaluate(VISIBILITY, state)


def test_a_pairing_the_opponent_never_comes_to_is_dissolved(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """W searches; G is paired with her and never comes.  W sees “等待开局…”, then, after the
    show-up time, the message (in Chinese, and in English once she switches) above her search
    again; her beans are exactly 10,000; Y, who comes next, is seated with her at once."""
    w, w_token = _player(contexts, browser, server)
    auth = {"Authorization": f"Bearer {w_token}"}
    errors = page_errors(w)
    _search(w)
    _until_queued(server, auth)
    ghost = Waiter(server).result()
    assert ghost["status"] == 200 and ghost["seat"] == 1
    _at_table(w, ghost["table"])
    w.wait_for_selector(f"text={WAITING_START}")
    note = w.wait_for_selector(".search-note", timeout=(SHOW_UP_S + 20) * 1000)
    assert note is not None and note.inner_text() == NO_SHOW["zh"]
    assert SEARCHING["zh"] in w.inner_text(".waiting")
    assert w.inner_text("#beans") == f"{WELCOME:,} 欢乐豆"
    assert _search_of(server, auth) == (ROOM, False)
    _shots(w, "zh")
    w.click("#lang")
    until(w, f"document.querySelector('.search-note')?.textContent === {NO_SHOW['en']!r}")
    assert SEARCHING["en"] in w.inner_text(".waiting")
    _shots(w, "en")
    y = Waiter(server)
    seat = y.result()
    assert seat["status"] == 200 and seat["seat"] == 1  # W waited: seat 0
    _at_table(w, seat["table"])
    assert errors == []


def _shots(
    page: Page, lang: str, what: str = "no-show", sizes: list[tuple[int, int]] = SIZES
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{what}-{lang}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1100, "height": 800})
