"""arcade's opening exchange in the browser (R2.21): the tiles are sent one ``give:X`` at a time,
in canonical order, then ``exchange``; after a reload in the middle the tiles already given
(``view.giving``) show as given and the confirm button counts them.

The vs-computer arcade table has the opening exchange on, so every hand opens with it; the
computer exchanges at once, so the newcomer's turn to choose comes within seconds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket

from ._support import until

SUITS = "mpszf"
MY_EXCHANGE = (
    "(() => { const t = window.erren && window.erren.table;"
    " return !!(t && t.state && !t.blocked() && t.state.phase === 'exchange'"
    " && t.state.to_act === t.seat && t.legal().length > 0); })()"
)
CONFIRM = '.actions button.act[data-key="Enter"]'


def _key(tile: str) -> int:
    """The canonical order of a tile (NOTATION.md: 1m..9m, p, s, z)."""
    return SUITS.index(tile[1]) * 10 + int(tile[0])


class Wire:
    """The table's WebSocket messages: the moves sent, the events received."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: self.sent.append(_json(payload)))
        ws.on("framereceived", lambda payload: self.received.append(_json(payload)))

    def acts(self) -> list[str]:
        return [str(m["action"]) for m in self.sent if m.get("type") == "act"]

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            e
            for m in self.received
            if m.get("type") == "events"
            for e in m.get("events", [])
            if e.get("kind") == kind
        ]


def _json(payload: str | bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _to_my_exchange(page: Page, url: str) -> int:
    """A guest plays the computer at arcade up to his opening exchange; returns his seat."""
    page.goto(url + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-computer")
    page.click('button.fam[data-family="arcade"]')
    page.click("#btn-computer")
    page.wait_for_selector(".board", timeout=15000)
    until(page, MY_EXCHANGE, timeout=20000)
    return int(page.evaluate("window.erren.table.seat"))


def _can_tiles(page: Page) -> list[tuple[int, str]]:
    """The hand positions that may be selected now, with their tiles."""
    return [
        (int(str(el.get_attribute("data-index"))), str(el.get_attribute("data-tile")))
        for el in page.locator(".hand-mine .tile.can").all()
    ]


def _select(page: Page, index: int) -> None:
    page.locator(f'.hand-mine .tile[data-index="{index}"]').click()
    until(page, f"!!document.querySelector('.hand-mine .tile.selected[data-index=\"{index}\"]')")


def _exchanged(page: Page, wire: Wire, seat: int) -> dict[str, Any]:
    """Wait for the seat's exchange event and return it."""
    for _ in range(200):
        mine = [e for e in wire.events("exchange") if e.get("player") == seat]
        if mine:
            return mine[0]
        page.wait_for_timeout(50)
    raise AssertionError(f"no exchange event for seat {seat}; sent {wire.acts()}")


def test_exchange_two_tiles_sends_two_gives_then_exchange(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    wire = Wire(page)
    seat = _to_my_exchange(page, server)
    assert wire.acts() == []
    assert re.match(r"不换", page.inner_text(CONFIRM))  # nothing selected: keep all
    can = _can_tiles(page)
    first, second = can[0], can[-1]
    _select(page, first[0])
    _select(page, second[0])
    assert re.match(r"换牌 2", page.inner_text(CONFIRM))
    page.click(CONFIRM)
    event = _exchanged(page, wire, seat)
    low, high = sorted((first[1], second[1]), key=_key)
    assert wire.acts() == [f"give:{low}", f"give:{high}", "exchange"]
    assert event["data"] == {"count": 2}
    assert page.locator(".hand-mine .tile.given").count() == 0
    assert not errors, errors
    context.close()


def test_reload_after_the_first_give_shows_it_given(
    browser: Browser, server: str, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    wire = Wire(page)
    seat = _to_my_exchange(page, server)
    gives = [a for a in page.evaluate("window.erren.table.legal()") if a.startswith("give:")]
    given = gives[len(gives) // 2].removeprefix("give:")  # a tile from the middle of the hand
    page.evaluate(f"window.erren.table.act('give:{given}')")  # the client's first step
    until(page, f"(window.erren.table.state.view.giving || []).join() === '{given}'")
    assert wire.acts() == [f"give:{given}"]
    page.evaluate("localStorage.setItem('erren.lang', 'en')")
    page.reload()
    page.wait_for_selector(".board", timeout=15000)
    page.wait_for_selector("#conn.conn-open", timeout=10000)
    until(page, MY_EXCHANGE, timeout=10000)
    shown = page.locator(".hand-mine .tile.given")
    assert shown.count() == 1
    assert shown.get_attribute("data-tile") == given
    assert "can" not in str(shown.get_attribute("class")).split()
    assert re.match(r"Exchange 1", page.inner_text(CONFIRM))  # not "Keep all"
    page.screenshot(path=str(shots / "14-arcade-given.png"), full_page=True)
    can = _can_tiles(page)
    assert can and all(_key(tile) >= _key(given) for _, tile in can)  # canonical order
    index, more = can[-1]
    _select(page, index)
    assert re.match(r"Exchange 2", page.inner_text(CONFIRM))
    page.click(CONFIRM)
    event = _exchanged(page, wire, seat)
    assert wire.acts() == [f"give:{given}", f"give:{more}", "exchange"]
    assert event["data"] == {"count": 2}
    assert not errors, errors
    context.close()
