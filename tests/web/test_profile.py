"""The player's page in the browser: after a settled hand in a bean room, the header's beans
change at once (no reload), and the page shows the hand in the figures, the chart, the
leaderboards and the filtered history — with no error on the page.

The hand: two new registered players (10,000 beans each) meet in 二人国标 新手场 and the first
leaves the running hand: an escape, 13 points × the stake 50 = 650 beans to the other
(guobiao-2p §6.5, §6.3), who never had a win — an escape is not a won hand."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from playwright.sync_api import Browser, Page

from ._support import until

WELCOME = 10_000  # every new account's beans (docs/protocol.md)
ESCAPE = 13 * 50  # guobiao-2p §6.5 escape points × 新手场's stake (§6.3)
PROVISIONAL = 10  # rated hands before a rating shows as a number (erren.server.rating's doc)


def _register(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.fill("#login-name", name)
    page.fill("#login-pass", "correct horse 42")
    page.click("#btn-register")
    page.wait_for_selector(".rooms .room")


def test_a_settled_hand_moves_the_header_and_shows_on_the_page(
    browser: Browser, server: str, shots: Path
) -> None:
    """Slow (8–14 s): two Chromium players register, meet in a bean room and one escapes; then
    the other's header, page, leaderboards, history and an authenticated download."""
    ctx_a = browser.new_context(viewport={"width": 1100, "height": 800})
    ctx_b = browser.new_context(viewport={"width": 1100, "height": 900})
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for page in (a, b):
        page.on("pageerror", lambda err: errors.append(str(err)))
    leaver, stayer = "pa" + secrets.token_hex(5), "pb" + secrets.token_hex(5)
    try:
        for page, name in ((a, leaver), (b, stayer)):
            _register(page, server, name)
            page.click('button.fam[data-family="guobiao-2p"]')
            page.click('.rooms .room[data-room="guobiao-2p/novice"]')
        for page in (a, b):
            page.wait_for_selector(".board", timeout=20000)
        assert b.inner_text("#beans").startswith(f"{WELCOME:,}")
        a.evaluate("window.erren.table.conn.send({type: 'leave'})")  # an escape
        # the header follows the settlement at once, on the table, without a reload
        until(
            b,
            f"document.getElementById('beans').textContent.startsWith('{WELCOME + ESCAPE:,}')",
            10000,
        )
        assert b.locator(".board, .closed").count() >= 1  # still on the table screen

        b.evaluate("location.hash = '#/profile'")  # the header's link (the settlement may cover it)
        row = b.wait_for_selector('#pf-stats tr.pf-family[data-family="guobiao-2p"]', timeout=10000)
        assert row is not None
        assert b.inner_text('tr[data-family="guobiao-2p"] .pf-hands') == "1"
        assert b.inner_text('tr[data-family="guobiao-2p"] .pf-win-rate') == "0.0%"
        assert b.inner_text('tr[data-family="guobiao-2p"] .pf-beans') == f"+{ESCAPE:,}"
        assert b.inner_text("#pf-balance") == f"{WELCOME + ESCAPE:,}"
        # the chart: the welcome grant and the escape's settlement, the last one a gain
        assert b.locator("#pf-chart circle").count() == 2
        assert b.locator("#pf-chart circle.plus").count() == 2
        _check_boards(b, stayer, leaver)
        _check_filters(b, leaver)
        b.screenshot(path=str(shots / "40-profile.png"), full_page=True)
        href = b.get_attribute("#pf-games .r-open", "href")
        assert href is not None and href.startswith("#/replay/")
        _check_download(b, href, stayer, leaver)
        _check_replay_amounts(b, browser, server + "/" + href)
        # the leaver's own page: one rated hand (his escape), a provisional rating
        a.goto(server + "/#/profile")
        a.wait_for_selector('#pf-stats tr[data-family="guobiao-2p"]', timeout=10000)
        rating = a.inner_text('tr[data-family="guobiao-2p"] .pf-rating')
        assert rating == f"暂定（1/{PROVISIONAL} 局）", rating
        assert not errors, errors
    finally:
        ctx_a.close()
        ctx_b.close()


def _check_boards(b: Page, stayer: str, leaver: str) -> None:
    """The leaderboards: by rating the leaver alone (an escape is his rated loss and rates
    nobody else); by beans the stayer above the leaver."""
    b.wait_for_selector("#pf-board")
    names = b.locator("#pf-board .pf-name").all_inner_texts()
    assert leaver in names and stayer not in names, names
    # one rated hand: provisional, not the raw μ − 3σ of a newcomer who lost (−1.8)
    scores = b.locator("#pf-board .pf-score").all_inner_texts()
    assert scores[names.index(leaver)] == f"暂定（1/{PROVISIONAL} 局）"
    assert b.inner_text("#pf-board-note").startswith("按等级分：")
    b.click("#pf-by-beans")
    b.wait_for_selector('#pf-board[data-by="beans"]')
    assert b.inner_text("#pf-board-note").startswith("按欢乐豆：")
    names = b.locator("#pf-board .pf-name").all_inner_texts()
    assert names.index(stayer) < names.index(leaver), names
    # each net as its band (0–1,000: the escape's 650), never the exact figure
    scores = b.locator("#pf-board .pf-score").all_inner_texts()
    assert scores[names.index(stayer)] == "0 ~ +1,000"
    assert scores[names.index(leaver)] == "\u22121,000 ~ 0"  # a real minus sign


def _check_filters(b: Page, leaver: str) -> None:
    """The history's filters: a win (the opponent escaped), none lost — the filter matched
    nothing although games exist, and it clears — and one against him."""
    b.wait_for_selector("#pf-games")
    b.select_option("#pf-f-result", "loss")
    b.wait_for_selector("#pf-no-games")
    assert b.inner_text("#pf-no-games") == "没有符合筛选条件的牌局。 清除筛选"
    b.click("#pf-clear")
    b.wait_for_selector("#pf-games")
    assert b.locator("#pf-games .pf-game").count() == 1
    assert b.eval_on_selector("#pf-f-result", "e => e.value") == ""
    b.select_option("#pf-f-result", "win")
    b.fill("#pf-f-opponent", leaver.upper())
    b.click("#pf-filter")
    b.wait_for_selector("#pf-games .pf-game.pf-win")
    assert b.locator("#pf-games .pf-game").count() == 1


def _check_download(b: Page, href: str, stayer: str, leaver: str) -> None:
    """The game's record downloads with the session: a player's own bean-room game is named."""
    b.evaluate(f"location.hash = {href!r}")
    b.wait_for_selector(".replay-controls .r-dl-erren")
    with b.expect_download() as download:
        b.click(".replay-controls .r-dl-erren")
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert sorted(saved["seats"]) == sorted([stayer, leaver])


def _check_replay_amounts(b: Page, browser: Browser, address: str) -> None:
    """The replay's settlement: the stayer sees the beans the escape moved (never "score
    only"); a stranger sees the seats numbered from 1 and the beans kept for the players."""
    b.click(".replay-controls .r-last")
    b.wait_for_selector(".replay .settle-amounts")
    amounts = b.locator(".replay tr.settle-amount td:last-child").all_inner_texts()
    assert amounts == [f"+{ESCAPE:,}", f"\u2212{ESCAPE:,}"], amounts  # his own row first
    assert b.inner_text(".replay tr.settle-amount.mine th").startswith("你 · ")
    stranger = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = stranger.new_page()
        page.goto(address)
        page.click(".replay-controls .r-last")
        page.wait_for_selector(".replay .settle-amounts")
        cells = page.locator(".replay tr.settle-amount td:last-child").all_inner_texts()
        assert cells == ["仅对局双方可见"] * 2, cells
        names = page.locator(".replay tr.settle-amount th").all_inner_texts()
        assert sorted(names) == ["1 号位", "2 号位"], names
        title = page.inner_text(".replay .settle-title")
        assert title == "牌局中止（逃跑）", title
        assert page.locator(".replay .settle-title.draw").count() == 1  # no side taken
    finally:
        stranger.close()
