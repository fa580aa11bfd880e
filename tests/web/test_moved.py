"""A table that moves to another server comes back by itself, in a real Chromium: a cluster
node loses its table mid-hand (every Redis key of the cluster deleted, as a Redis restart does)
and closes it with ``moved``; the page keeps the table behind the "moving" overlay, joins again
with ``game`` and ``since`` until the node has taken the table back from the database, and the
player plays on — the closed panel never shows.  A moved table that never comes back is given
up when the rejoin window runs out: the closed panel, as before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, WebSocketRoute

from ._support import (
    ClusterNode,
    discard,
    drop_keys,
    guest_table,
    my_turn,
    page_errors,
    river,
    trustee_on,
    until,
)

OVERLAY = ".conn-overlay"
CLOSED = ".panel.closed"
WINDOW_MS = 4000
"""The give-up window the dropped-table test sets on the page (a real one lasts longer)."""
MOVING_ZH = "这一桌正在转到另一台服务器"

WATCH_JS = """() => {
  window.__seen = {overlays: [], closed: false};
  const look = () => {
    const el = document.querySelector('.conn-overlay');
    const at = performance.now();
    if (el) window.__seen.overlays.push({state: el.dataset.state, text: el.innerText, at});
    if (document.querySelector('.panel.closed') && window.__seen.closed === false) {
      window.__seen.closed = at;
    }
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
}"""  # every overlay the page showed, however briefly, and when a closed panel first did (the
# page's clock, performance.now())

TABLE_JS = """() => {
  const tv = window.erren.table;
  return {game: tv.game, lastN: tv.lastN, events: tv.events.map((e) => [e.n, e.kind]),
          rejoining: tv.rejoin.active, syncing: tv.syncing};
}"""


def _table(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(TABLE_JS))


def _two_discards_then_my_turn(page: Page) -> list[str]:
    """Discard twice and wait for the third turn, all in one hand (the deal is random: a hand
    the computer ends early gives way to the next); returns the two tiles discarded."""
    for _ in range(4):
        played: list[str] = []
        while len(played) < 2 and my_turn(page, 10000):
            played.append(discard(page, 5000))
        if len(played) == 2 and my_turn(page, 10000):
            return played
        page.click(".settle-next")
        page.wait_for_selector(".settle", state="detached", timeout=10000)
    raise AssertionError("four hands in a row ended before the player's third discard")


def test_a_table_moved_by_a_redis_restart_comes_back_by_itself(
    context: BrowserContext, cluster_node: ClusterNode, shots: Path
) -> None:
    """Slow (about 10 s): a cluster node of its own (PostgreSQL, Redis) and the page's real
    rejoin timers."""
    node, prefix = cluster_node.server, cluster_node.prefix
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, node.url)  # in Chinese, the page's first language
    played = _two_discards_then_my_turn(page)  # every wait bounded
    assert river(page)[:2] == played
    before = _table(page)
    assert before["game"] is not None and before["lastN"] > 0
    page.evaluate(WATCH_JS)

    drop_keys(prefix)  # a Redis restart: the node loses its lease, then retakes

    until(page, "window.__seen.overlays.some((o) => o.state === 'moving')", timeout=5000)
    moving = [o for o in page.evaluate("window.__seen.overlays") if o["state"] == "moving"]
    assert MOVING_ZH in moving[0]["text"], moving
    page.screenshot(path=str(shots / "moved-rejoining.png"), full_page=True)
    until(page, "!window.erren.table.rejoin.active && !window.erren.table.syncing", timeout=8000)
    page.wait_for_selector(OVERLAY, state="detached", timeout=3000)
    log = node.log.read_text()
    assert re.search(r"lost the lease of table \S+", log), log[-3000:]
    assert "took over 1 table(s) nobody held" in log, log[-3000:]

    assert page.evaluate("window.__seen.closed") is False
    assert not page.locator(CLOSED).count()
    after = _table(page)
    assert after["game"] == before["game"]
    assert after["events"][: len(before["events"])] == before["events"]
    assert after["lastN"] >= before["lastN"]
    assert river(page)[:2] == played
    table_id = str(page.evaluate("window.erren.table.tableId"))
    saved = json.loads(page.evaluate(f"sessionStorage.getItem('erren.table.{table_id}')"))
    assert saved["game"] == before["game"]

    # the player plays on: the node that took the table back accepts his discard
    if my_turn(page, 8000):  # unless the computer won meanwhile
        played.append(discard(page, 5000))
        assert river(page)[:3] == played
    page.screenshot(path=str(shots / "moved-back.png"), full_page=True)
    assert page.evaluate("window.__seen.closed") is False
    assert not errors, errors


def test_a_moved_table_that_never_comes_back_is_given_up_after_the_window(
    context: BrowserContext, server: str, shots: Path
) -> None:
    """The page hears ``closed`` ``moved`` (injected) and every join again is answered
    ``not-seated``: it tries again with growing pauses, and when the window (shortened to
    4 s here; 60 s in production) runs out it shows the closed panel and forgets the table.

    Slow (about 9 s): the page's rejoin window runs at real speed (4 s here), and the test
    watches it pass."""
    page = context.new_page()
    errors = page_errors(page)
    sockets: list[WebSocketRoute] = []
    cut = {"on": False}
    joins: list[dict[str, Any]] = []  # the joins again, each answered not-seated

    def route(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        upstream = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            msg = json.loads(message)
            if not (cut["on"] and msg.get("type") == "join"):
                upstream.send(message)
                return
            joins.append(msg)
            refusal = {"type": "error", "code": "not-seated", "message": "-", "params": {}}
            ws.send(json.dumps(refusal))

        def down(message: str | bytes) -> None:  # the table's news stops: it moved
            if not cut["on"] or json.loads(message).get("type") == "pong":
                ws.send(message)

        ws.on_message(up)
        upstream.on_message(down)

    page.route_web_socket(re.compile(r".*/ws$"), route)
    guest_table(page, server)
    assert my_turn(page, 10000)
    table_id = str(page.evaluate("window.erren.table.tableId"))
    page.evaluate(f"window.erren.table.rejoin.windowMs = {WINDOW_MS}")
    page.evaluate(WATCH_JS)
    cut["on"] = True
    moved = {"type": "closed", "table": table_id, "code": "moved", "reason": "-", "params": {}}
    sockets[-1].send(json.dumps(moved))

    until(page, "window.__seen.overlays.some((o) => o.state === 'moving')", timeout=5000)
    panel = page.wait_for_selector(CLOSED + '[data-code="moved"]', timeout=15000)
    assert panel is not None
    # the closed panel only once the window was over (the page's own clock: a test process
    # slow to look cannot make it early), and the page joined again meanwhile
    seen = page.evaluate("window.__seen")
    moving = next(o["at"] for o in seen["overlays"] if o["state"] == "moving")
    assert seen["closed"] - moving >= WINDOW_MS - 100, seen
    assert len(joins) >= 2, joins  # after 0.5 s, then 1 s later
    assert all(j["game"] is not None and j["since"] >= 0 for j in joins), joins
    assert "牌局接着打" in panel.inner_text()
    assert not page.locator(OVERLAY).count()
    tried = len(joins)
    page.wait_for_timeout(1500)
    assert len(joins) == tried  # given up: nothing joins again
    assert page.evaluate(f"sessionStorage.getItem('erren.table.{table_id}')") is None
    page.screenshot(path=str(shots / "moved-given-up.png"), full_page=True)
    assert not errors, errors


def test_a_table_moved_between_hands_comes_back_and_deals_the_next(
    context: BrowserContext, cluster_node: ClusterNode, shots: Path
) -> None:
    """The hand is over (托管 played it out) and the settlement shows when the node loses the
    table (every Redis key deleted): the table waited for a deal, so the node puts it back and
    picks it up again; the page rejoins behind the overlay, never shows the closed panel, and
    the next hand is dealt (a new game, hand 2).

    Slow (about 9 s): a cluster node of its own and a hand played out by 托管 at real speed."""
    node, prefix = cluster_node.server, cluster_node.prefix
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, node.url)
    assert my_turn(page, 10000) or page.locator(".settle").count()
    trustee_on(page)  # 托管 plays the hand out
    page.wait_for_selector(".settle", timeout=60000)
    first = page.evaluate("window.erren.table.game")
    page.evaluate(WATCH_JS)

    drop_keys(prefix)

    until(page, "window.__seen.overlays.some((o) => o.state === 'moving')", timeout=5000)
    until(page, f"window.erren.table.game !== {first}", timeout=15000)  # the next hand
    page.wait_for_selector(OVERLAY, state="detached", timeout=5000)
    log = node.log.read_text()
    assert re.search(r"table \S+ is waiting to be picked up again", log), log[-3000:]
    assert page.evaluate("window.__seen.closed") is False
    assert page.evaluate("window.erren.table.handNo") == 2
    page.screenshot(path=str(shots / "moved-between-hands.png"), full_page=True)
    assert not errors, errors
