"""The Chinese screen is all Chinese: the lobby, an error notice (an HTTP refusal and a
WebSocket one), a table against the computer, its settlement, the replay and the history show
no English word, no room id and no bot's class name (issue #14, point 4)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page

from ._support import trustee_on, until

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
"""Two Latin letters in a row: an English word, a room id, a class name, tile notation."""
ALLOWED = {"English", "mjai", "erren"}
"""The language switch, which names the other language in that language, and the names of the
two log formats a finished game downloads in (下载记录: mjai · erren), which are names."""
URL = re.compile(r"https?://\S+")
IDS = ("guobiao-2p", "xiamen/", "arcade/", "/novice", "(computer)", "efficiency", "seat ")


def _words(page: Page, selector: str, user: str) -> list[str]:
    """The Latin words shown in ``selector`` (a user's own name and URLs are the user's and
    the browser's, not the interface's)."""
    text = page.inner_text(selector).replace(user, "")
    text = URL.sub("", text)
    for needle in IDS:
        assert needle not in text, (needle, text)
    return [w for w in LATIN_WORD.findall(text) if w not in ALLOWED]


def _toast(page: Page) -> str:
    page.wait_for_selector(".toast-error", timeout=5000)
    text = page.inner_text(".toast-error")
    page.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
    return text


def test_the_chinese_screen_has_no_english(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 8 s): every screen of a hand, in Chinese, read word by word, the hand played
    out at real speed."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('erren.lang', 'zh')")
    page.reload()
    page.click("#btn-guest")
    page.wait_for_selector(".rooms .room")
    me = "fetch('/me', {headers: {Authorization: 'Bearer ' + localStorage.getItem('erren.token')}})"
    user = str(page.evaluate(me + ".then((r) => r.json()).then((u) => u.name)"))
    user = user.removeprefix("guest-")  # shown as 游客 and the guest's hex digits
    assert "新手场" in page.inner_text(".rooms")
    assert _words(page, "body", user) == []

    # an HTTP refusal: an invite code nobody has
    page.fill("#invite-code", "ZZZZZZ")
    page.click("#btn-join")
    assert _toast(page) == "没有这个邀请码的牌桌"

    page.click('button.level[data-level="normal"]')
    page.click("#btn-computer")
    page.wait_for_selector(".board", timeout=15000)
    page.wait_for_selector(".hand-mine .tile", timeout=15000)
    assert page.inner_text('.bar[data-seat="1"] .who').endswith("电脑·普通")
    assert _words(page, "body", user) == []

    # a WebSocket refusal: a move the server cannot read
    page.evaluate("window.erren.table.conn.send({type: 'act', action: 'nonsense'})")
    assert _toast(page) == "服务器看不懂这一步"

    trustee_on(page)  # 托管 plays the hand out
    page.wait_for_selector(".settle", timeout=60000)
    assert _words(page, "body", user) == []
    page.screenshot(path=str(shots / "i18n-settlement-zh.png"), full_page=True)

    page.click(".settle-replay")
    page.wait_for_selector(".replay .board", timeout=15000)
    for _ in range(6):
        page.click(".r-next")
    assert _words(page, "body", user) == []
    page.click(".r-last")
    page.wait_for_selector(".replay .settle-card")
    assert _words(page, "body", user) == []

    page.goto(server + "/#/games")
    page.wait_for_selector("li.game")
    until(page, "document.querySelector('li.game .game-sum').innerText.includes('第')")
    history = page.inner_text("ul.games")
    assert "二人国标 · 人机对战" in history, history
    assert re.search(r"第 1 局 · (你胡牌|对手胡牌|荒庄)", history), history
    assert _words(page, "body", user) == []
    page.screenshot(path=str(shots / "i18n-history-zh.png"), full_page=True)
    context.close()
