"""The settings panel (设置, issue 28 point 5), in a real Chromium against a real server.

A guest opens the panel from the header's gear by its accessible name, changes every setting
and sees each one take effect on the table at once (the words, the speaker button, the hints
switch, the hand's tile height, the tiles' outline, the table's colour, the tiles' transition),
then reloads the page and finds them all kept; Escape closes the panel and gives the focus back
to the gear.  On a 360 px phone the header stays one row with the gear in it.  The play aids
(自动和, 不吃碰) answer at once the decisions they are for: the page's socket is routed, a chow
and pung window and then a self-drawn win are put into two of the player's decisions, and the
answers the page sends are read (and turned into a real move for the server)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from ._support import guest_table, page_errors, until

HAND_TILE = "document.querySelector('.hand-mine .tile').getBoundingClientRect().height"
FACE_STROKE = (
    "getComputedStyle(document.querySelector('.hand-mine .tile svg rect[fill=\"#fffaf0\"]')).stroke"
)
BOARD = "getComputedStyle(document.querySelector('.board')).backgroundImage"
TILE_TRANSITION = "getComputedStyle(document.querySelector('.hand-mine .tile')).transitionDuration"
# the tile size setting scales the hand's tiles by these factors (style.css: --hand-k)
SMALL, LARGE = 0.8, 1.25
# the blue table's middle colour (style.css: html.felt-blue --board: #1d5689)
BLUE = "rgb(29, 86, 137)"


def _open(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.get_by_role("dialog", name=name)).to_be_visible()


def _tile_height(page: Page) -> float:
    return float(page.evaluate(HAND_TILE))


def _close_by_escape(page: Page, name: str) -> None:
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    until(page, "document.activeElement && document.activeElement.id === 'btn-settings'")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == name


def test_every_setting_shows_at_once_and_survives_a_reload(browser: Browser, server: str) -> None:
    """Slow: a table against the computer, opened twice (the reload)."""
    context = browser.new_context(viewport={"width": 1200, "height": 840}, locale="zh-CN")
    page = context.new_page()
    errors = page_errors(page)
    try:
        guest_table(page, server)
        page.wait_for_selector(".hand-mine .tile")
        normal = _tile_height(page)
        assert page.evaluate(TILE_TRANSITION) != "0s"
        _open(page, "设置")
        dialog = page.get_by_role("dialog", name="设置")
        # the browser's language is the default, and the focus is in the panel
        expect(dialog.get_by_label("中文")).to_be_checked()
        assert page.evaluate("!!document.activeElement.closest('[role=dialog]')")
        # the language: the header, the panel and the table speak English
        # (click, not check: the panel is redrawn in the new language)
        dialog.get_by_label("English").click()
        dialog = page.get_by_role("dialog", name="Settings")
        expect(dialog).to_be_visible()
        expect(page.get_by_role("button", name="Settings", exact=True)).to_be_visible()
        expect(page.locator("#lang")).to_have_text("中文")
        # redrawn, the panel's focus is on the checked choice, not on the first radio button
        expect(dialog.get_by_label("English")).to_be_focused()
        expect(page.locator(".table-top .hn-switch")).to_contain_text("Hints")
        # the sound: the speaker button shows it off
        dialog.get_by_label("Sound", exact=True).uncheck()
        expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#btn-sound")).to_have_attribute("aria-label", "Sound off (M)")
        # the motion: the tiles stop moving
        dialog.get_by_label("Reduce").check()
        until(page, f"{TILE_TRANSITION} === '0s'")
        # the hints, for every game: the table's switch goes off
        dialog.get_by_label("Hints (every game)").uncheck()
        expect(page.locator(".table-top .hn-switch")).to_have_attribute("aria-checked", "false")
        # the tile size: small, then large, by the factors of the rule
        dialog.get_by_label("Small").check()
        assert _tile_height(page) == pytest.approx(normal * SMALL, abs=0.6)
        dialog.get_by_label("Large").check()
        assert _tile_height(page) == pytest.approx(normal * LARGE, abs=0.6)
        # high contrast: a dark outline on every tile face
        dialog.get_by_label("High-contrast tiles").check()
        assert page.evaluate(FACE_STROKE) == "rgb(17, 17, 17)"
        # the table's colour
        dialog.get_by_label("Blue").check()
        assert BLUE in page.evaluate(BOARD)
        _close_by_escape(page, "Settings")

        page.reload()
        _all_kept(page, normal)
        assert errors == []
    finally:
        context.close()


def _all_kept(page: Page, normal: float) -> None:
    """After the reload: the table shows every setting, and so does the panel."""
    page.wait_for_selector(".hand-mine .tile")
    expect(page.get_by_role("button", name="Settings", exact=True)).to_be_visible()
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".table-top .hn-switch")).to_have_attribute("aria-checked", "false")
    assert _tile_height(page) == pytest.approx(normal * LARGE, abs=0.6)
    assert page.evaluate(FACE_STROKE) == "rgb(17, 17, 17)"
    assert BLUE in page.evaluate(BOARD)
    assert page.evaluate(TILE_TRANSITION) == "0s"
    _open(page, "Settings")
    dialog = page.get_by_role("dialog", name="Settings")
    for label in ("English", "Reduce", "Large", "High-contrast tiles", "Blue"):
        expect(dialog.get_by_label(label, exact=True)).to_be_checked()
    for label in ("Sound", "Hints (every game)"):
        expect(dialog.get_by_label(label, exact=True)).not_to_be_checked()
    _close_by_escape(page, "Settings")


@pytest.mark.parametrize(("locale", "name"), [("zh-CN", "设置"), ("en-US", "Settings")])
def test_the_header_stays_one_row_on_a_phone(
    browser: Browser, server: str, locale: str, name: str
) -> None:
    """Slow: a table against the computer, on a 360 px phone."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
    page = context.new_page()
    try:
        guest_table(page, server)
        gear = page.get_by_role("button", name=name, exact=True)
        expect(gear).to_be_visible()
        rows = page.evaluate(
            "[...document.querySelectorAll('#header > *')]"
            ".filter(e => e.getClientRects().length && e.getBoundingClientRect().width > 0)"
            ".map(e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.right]; })"
        )
        assert len(rows) >= 5, rows
        # one row: every item overlaps the first vertically, and none leaves the screen
        top, bottom = rows[0][0], rows[0][1]
        assert all(r[0] < bottom and r[1] > top for r in rows), rows
        assert max(r[2] for r in rows) <= 360, rows
        _open(page, name)
        _close_by_escape(page, name)
    finally:
        context.close()


CLAIMS = ["chi:3m4m5m", "peng:5m", "pass"]
"""A claim window offering only a chow and a pung (and the pass): 不吃碰 passes it."""


class Aids:
    """The page's socket through a route: each of the player's next decisions gets one of
    ``offers`` (a list of legal moves; ``None``: the real ones plus a self-drawn win), and the
    answers to them are recorded, then sent to the server as the first real legal move."""

    def __init__(self, page: Page) -> None:
        self.offers: list[list[str] | None] = [CLAIMS, None]
        self.real: list[str] = []
        self.answers: list[str] = []
        self.seat = -1
        page.route_web_socket(re.compile(r".*/ws$"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(lambda payload: upstream.send(self._up(payload)))
        upstream.on_message(lambda payload: ws.send(self._down(payload)))

    def _down(self, payload: str | bytes) -> str | bytes:
        msg = _json(payload)
        if isinstance(msg.get("seat"), int):
            self.seat = msg["seat"]
        state = msg.get("state") if msg.get("type") in ("events", "snapshot") else None
        legal = state.get("legal") if isinstance(state, dict) else None
        if not (isinstance(state, dict) and legal and state.get("to_act") == self.seat):
            return payload
        if not self.offers or self.real or legal == ["pass"]:
            return payload
        offer = self.offers.pop(0)
        self.real = list(legal)
        state["legal"] = offer if offer is not None else ["zimo", *legal]
        state["wins"] = [] if offer is not None else ["zimo"]  # the server marks the wins
        return json.dumps(msg)

    def _up(self, payload: str | bytes) -> str | bytes:
        msg = _json(payload)
        if msg.get("type") != "act" or not self.real:
            return payload
        self.answers.append(str(msg["action"]))
        real = next((a for a in self.real if a.startswith("discard:")), self.real[0])
        self.real = []
        return json.dumps({**msg, "action": real})


def _json(payload: str | bytes) -> dict[str, Any]:
    try:
        msg = json.loads(payload)
    except ValueError:
        return {}
    return msg if isinstance(msg, dict) else {}


def test_the_play_aids_answer_at_once(browser: Browser, server: str) -> None:
    """Slow: a table against the computer, up to the player's second decision."""
    context = browser.new_context(viewport={"width": 1200, "height": 840}, locale="zh-CN")
    page = context.new_page()
    try:
        aids = Aids(page)
        page.goto(server + "/")
        _open(page, "设置")
        dialog = page.get_by_role("dialog", name="设置")
        for label in ("自动和（能和牌时立即和）", "不吃碰（只能吃、碰时自动过）"):
            box = dialog.get_by_label(label)
            expect(box).not_to_be_checked()  # off unless switched on
            box.check()
        _close_by_escape(page, "设置")
        guest_table(page, server)
        deadline = page.evaluate("Date.now()") + 30000
        while len(aids.answers) < 2 and page.evaluate("Date.now()") < deadline:
            page.wait_for_timeout(50)
        assert aids.answers == ["pass", "zimo"]
    finally:
        context.close()
