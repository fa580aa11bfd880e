"""The settings panel follows a registered player's account, not the browser (issue 28, point
5), in a real Chromium against a real server.

A registered player picks large tiles, the blue table and English in one browser; signing in
from a second, fresh browser he finds the page in English with large tiles on the blue table,
and the panel says so (and says his settings are kept with his account).  A change made there
(high-contrast tiles) reaches the first browser when it opens the page again.  A guest in a
third browser keeps the defaults, and his page never asks the server for settings.  A change
the server did not take is kept by the browser and sent at the next sign-in there."""

from __future__ import annotations

import json
from collections.abc import Callable

from playwright.sync_api import Browser, BrowserContext, Page, Request, Response, expect

from ._support import page_errors, register_in_page

PASSWORD = "correct horse 42"
"""``register_in_page``'s password."""
LOOK = "[...document.documentElement.classList].sort().join(' ')"
LANG = "document.documentElement.lang"


def _context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport={"width": 1200, "height": 840}, locale="zh-CN")


def _sent(**wanted: object) -> Callable[[Response], bool]:
    """A response to a ``PUT /me/settings`` whose panel holds ``wanted``, and was taken."""

    def match(response: Response) -> bool:
        request = response.request
        if request.method != "PUT" or not request.url.endswith("/me/settings"):
            return False
        body = json.loads(request.post_data or "{}")
        return response.ok and all(body.get(k) == v for k, v in wanted.items())

    return match


def _panel(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.get_by_role("dialog", name=name)).to_be_visible()


def _close(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)


def _log_in(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.fill("#login-name", name)
    page.fill("#login-pass", PASSWORD)
    page.click("#btn-login")
    page.wait_for_selector(".rooms .room")


def _look(page: Page) -> set[str]:
    return set(str(page.evaluate(LOOK)).split())


def _choose_large_blue_english(page: Page, url: str) -> str:
    """Register in the first browser and pick large tiles, the blue table and English; the
    account's name, once the server has taken them."""
    name = register_in_page(page, url)
    assert page.evaluate(LANG) == "zh-CN"
    _panel(page, "设置")
    dialog = page.get_by_role("dialog", name="设置")
    expect(dialog).to_contain_text("设置随账号保存")
    with page.expect_response(_sent(tiles="large", felt="blue", lang="en"), timeout=10000):
        dialog.get_by_label("大", exact=True).check()
        dialog.get_by_label("蓝", exact=True).check()
        dialog.get_by_label("English", exact=True).click()
        expect(page.get_by_role("dialog", name="Settings")).to_be_visible()
    _close(page)
    assert {"tiles-large", "felt-blue"} <= _look(page)
    return name


def _finds_them_on_signing_in(page: Page, url: str, name: str) -> None:
    """A fresh browser, in Chinese with the defaults until he signs in, then his settings."""
    page.goto(url + "/")
    assert page.evaluate(LANG) == "zh-CN"
    assert not {"tiles-large", "felt-blue"} & _look(page)
    _log_in(page, url, name)
    assert page.evaluate(LANG) == "en"
    assert {"tiles-large", "felt-blue"} <= _look(page)
    expect(page.locator("#logout")).to_have_text("Log out")
    expect(page.locator("#lang")).to_have_text("中文")
    _panel(page, "Settings")
    dialog = page.get_by_role("dialog", name="Settings")
    for label in ("English", "Large", "Blue"):
        expect(dialog.get_by_label(label, exact=True)).to_be_checked()
    expect(dialog).to_contain_text("kept with your account")


def _guest_keeps_the_defaults(page: Page, url: str) -> None:
    """A guest's page shows the defaults, keeps his change in the browser and asks the server
    nothing about settings."""
    asked: list[str] = []
    page.on("request", lambda r: _note(asked, r))
    page.goto(url + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-computer")
    assert page.evaluate(LANG) == "zh-CN"
    assert not {"tiles-large", "felt-blue", "high-contrast"} & _look(page)
    _panel(page, "设置")
    dialog = page.get_by_role("dialog", name="设置")
    for label in ("中文", "标准", "绿"):
        expect(dialog.get_by_label(label, exact=True)).to_be_checked()
    expect(dialog).to_contain_text("设置保存在这个浏览器里")
    dialog.get_by_label("红棕", exact=True).check()
    _close(page)
    assert "felt-brown" in _look(page)
    assert asked == []


def test_a_registered_players_settings_follow_him_to_another_browser(
    browser: Browser, server: str
) -> None:
    """Slow: three browsers at the lobby."""
    first, second, third = _context(browser), _context(browser), _context(browser)
    try:
        a, b, c = first.new_page(), second.new_page(), third.new_page()
        errors = [page_errors(a), page_errors(b), page_errors(c)]
        name = _choose_large_blue_english(a, server)
        _finds_them_on_signing_in(b, server, name)
        # a change in the second browser reaches the first when it opens the page again
        dialog = b.get_by_role("dialog", name="Settings")
        with b.expect_response(_sent(contrast=True, felt="blue", lang="en"), timeout=10000):
            dialog.get_by_label("High-contrast tiles", exact=True).check()
        _close(b)
        a.reload()
        a.wait_for_selector(".rooms .room")  # drawn once the account's settings are taken
        assert {"tiles-large", "felt-blue", "high-contrast"} <= _look(a)
        assert a.evaluate(LANG) == "en"
        _guest_keeps_the_defaults(c, server)
        assert errors == [[], [], []]
    finally:
        for context in (first, second, third):
            context.close()


def _note(asked: list[str], request: Request) -> None:
    if "/me/settings" in request.url:
        asked.append(f"{request.method} {request.url}")


def test_a_change_the_server_did_not_take_is_kept_and_sent_later(
    browser: Browser, server: str
) -> None:
    """Slow: two browsers at the lobby, one reloaded."""
    first, second = _context(browser), _context(browser)
    try:
        a, b = first.new_page(), second.new_page()
        errors = [page_errors(a), page_errors(b)]
        name = register_in_page(a, server)
        a.route("**/me/settings", lambda route: route.abort())  # the server is out of reach
        _panel(a, "设置")
        dialog = a.get_by_role("dialog", name="设置")
        with a.expect_event("requestfailed", lambda r: r.url.endswith("/me/settings")):
            dialog.get_by_label("红棕", exact=True).check()
        _close(a)
        assert "felt-brown" in _look(a)
        assert a.evaluate("localStorage.getItem('erren.settings.unsaved')") is not None
        # the server is back: opening the page again sends the browser's panel
        a.unroute_all()
        with a.expect_response(_sent(felt="brown"), timeout=10000):
            a.reload()
        a.wait_for_selector(".rooms .room")
        assert "felt-brown" in _look(a)
        # and the account has it: another browser signing in shows it
        _log_in(b, server, name)
        assert "felt-brown" in _look(b)
        assert errors == [[], []]
    finally:
        for context in (first, second):
            context.close()
