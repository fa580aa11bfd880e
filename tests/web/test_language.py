"""One language on every screen.  The Chinese screen is all Chinese: the lobby, an error notice
(an HTTP refusal and a WebSocket one), a table of each family, a settlement, the replay, the
history, the rules drawer, the guided hand, the player's page and the campaign show no English
word, no room id, no bot's class name and no tile notation (issue #14, point 4).  The English
screen is all English — the same screens read by a browser whose language is English, which is
the language it gets until the player picks one — with no Chinese (issue #28, item 12).

Outside the rule: tile faces (drawn, not written), key caps, the player's own name, and names
shown beside their translation, which the client marks with the other language's ``lang``
(the language switch, a fan's Chinese name on the English settlement, a Chinese term glossed in
the English rules)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page

from ._support import REPLAY_MS, discard, page_errors, trustee_on, until

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
"""Two Latin letters in a row: an English word, a room id, a class name, tile notation."""
CHINESE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
"""A Chinese character."""
ALLOWED = {"mjai", "erren", "UTC"}
"""The names of the two log formats a finished game downloads in (下载记录: mjai · erren) and
of the time standard the relief grant's day follows."""
URL = re.compile(r"https?://\S+")
IDS = ("guobiao-2p", "xiamen/", "arcade/", "/novice", "(computer)", "efficiency", "seat ")
FAMILIES = ("guobiao-2p", "xiamen", "arcade")
SHOWN = """(selector) => {
  const copy = document.querySelector(selector).cloneNode(true);
  copy.querySelectorAll('.tile, kbd, [lang], [translate="no"], svg[role="img"]')
    .forEach((e) => e.remove());
  document.documentElement.append(copy);
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
"""The text shown in a part of the page but tile faces, key caps, marked names, what is not to
be translated (other players' names on the leaderboards: the session's server has those of
every other test's accounts) and pictures (a rank badge's character is its emblem; its name in
the player's language is its ``aria-label``)."""
LAST_MOVES = "(document.querySelector('.replay .last-text') || {innerText: ''}).innerText"
"""The replay's line about the moves of the step shown."""
Check = Callable[[Page, str, str], list[str]]
"""What is wrong in a part of a page (``selector``) for a user (his name left out)."""


def _shown(page: Page, selector: str, user: str) -> str:
    text = str(page.evaluate(SHOWN, selector)).replace(user, "")
    return URL.sub("", text)


def _words(page: Page, selector: str, user: str) -> list[str]:
    """The Latin words shown in ``selector`` (a user's own name and URLs are the user's and
    the browser's, not the interface's)."""
    text = _shown(page, selector, user)
    for needle in IDS:
        assert needle not in text, (needle, text)
    return [w for w in LATIN_WORD.findall(text) if w not in ALLOWED]


def _chinese(page: Page, selector: str, user: str) -> list[str]:
    """The lines shown in ``selector`` that hold a Chinese character."""
    return [line for line in _shown(page, selector, user).splitlines() if CHINESE.search(line)]


def _toast(page: Page) -> str:
    page.wait_for_selector(".toast-error", timeout=5000)
    text = page.inner_text(".toast-error")
    page.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
    return text


def _guest(page: Page, url: str) -> str:
    """A guest at the lobby; his name as shown (a guest's hex digits)."""
    page.goto(url + "/")
    page.click("#btn-guest")
    page.wait_for_selector(".rooms .room")
    me = "fetch('/me', {headers: {Authorization: 'Bearer ' + localStorage.getItem('erren.token')}})"
    name = str(page.evaluate(me + ".then((r) => r.json()).then((u) => u.name)"))
    return name.removeprefix("guest-")  # shown as 游客 / Guest and the guest's hex digits


def test_the_chinese_screen_has_no_english(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 8 s): every screen of a hand, in Chinese, read word by word, the hand played
    out at real speed."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('erren.lang', 'zh')")
    user = _guest(page, server)
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
    page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
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


def _rules(page: Page, url: str, user: str, check: Check) -> None:
    """The rules drawer of every family (and guobiao-2p's other table) read by ``check``."""
    for address in (*(f"#rules/{f}" for f in FAMILIES), "#rules/guobiao-2p/-/gb"):
        page.goto(url + "/" + address)
        page.wait_for_selector(".rules-rows .rule-row")
        assert check(page, ".rules-drawer", user) == [], address
        page.click(".rules-close")
        page.wait_for_selector(".rules-back", state="detached")


def _tutorial(page: Page, url: str, user: str, check: Check) -> None:
    """The guided hand read at every step, its buttons included, to the scored win."""
    page.goto(url + "/#tutorial")
    for step, move in (
        ("discard", ".tut-hand .tile.teach"),
        ("draw", ".tut-hand .tile.teach"),
        ("claim", ".tut-act.act-peng"),
        ("ready", ".tut-act.act-ting"),
        ("win", ".tut-act.act-hu"),
    ):
        page.wait_for_selector(f".tut-prompt[data-step='{step}']")
        assert check(page, ".tut-card", user) == [], step
        page.click(move)
    page.wait_for_selector(".tut-done")
    assert check(page, ".tut-card", user) == []
    page.click(".tut-close")
    # closed: the page is back on its screen's address before the next one is opened
    until(page, "!document.querySelector('.tut-card') && !location.hash.includes('tutorial')")


def _pages(page: Page, url: str, user: str, check: Check) -> None:
    """The player's page and the campaign's first screen."""
    page.goto(url + "/#/profile")
    page.wait_for_selector("#profile .pf-board-body table, #profile .pf-board-body p")
    page.wait_for_selector("#profile .pf-games ul, #profile .pf-games p")
    page.wait_for_selector("#rk-leaderboard .pf-board-body table, #rk-leaderboard .pf-board-body p")
    assert check(page, "body", user) == []
    page.goto(url + "/#/campaign")
    page.wait_for_selector("#btn-camp-start")
    assert check(page, "body", user) == []


def _table(browser: Browser, url: str, family: str, locale: str, check: Check) -> None:
    """A table of ``family`` against the computer, read as it opens (a guest of his own, in a
    browser of ``locale``)."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale=locale)
    page = context.new_page()
    user = _guest(page, url)
    page.click(f'button.fam[data-family="{family}"]')
    page.click("#btn-computer")
    page.wait_for_selector(".hand-mine .tile", timeout=15000)
    until(page, "!!document.querySelector('.center-line')")
    assert check(page, "body", user) == [], family
    context.close()


def test_the_chinese_pages_have_no_english(browser: Browser, server: str) -> None:
    """Slow (about 10 s): the rules, the guided hand, the player's page, the campaign and a
    table of each other family, in Chinese; each room's stake per its family's point."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="zh-CN")
    page = context.new_page()
    errors = page_errors(page)
    user = _guest(page, server)
    page.click(".tutorial-offer .tutorial-dismiss")
    # 新手场's stake, 50 (guobiao-2p §6.3), per 番 in guobiao (1 番 = 1 分) and per 分 elsewhere
    for family, unit in (("guobiao-2p", "番"), ("xiamen", "分"), ("arcade", "分")):
        page.click(f'button.fam[data-family="{family}"]')
        room = page.locator(f'.rooms .room[data-room="{family}/novice"]')
        assert f"底注 50/{unit}" in room.inner_text(), (family, room.inner_text())
        assert _words(page, "body", user) == []
    _rules(page, server, user, _words)
    _tutorial(page, server, user, _words)
    _pages(page, server, user, _words)
    for family in ("xiamen", "arcade"):
        _table(browser, server, family, "zh-CN", _words)
    assert not errors, errors
    context.close()


def test_an_english_browser_reads_english(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 15 s): a browser set to English, the player never having chosen, gets
    English on every screen — the lobby of each family, the rules, the guided hand, the
    player's page, the campaign, a table of each family, a hand to its settlement and its
    replay; a choice of Chinese is kept over the browser's language."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    page = context.new_page()
    errors = page_errors(page)
    user = _guest(page, server)
    assert page.inner_text("#btn-computer") == "Play the computer"
    page.click(".tutorial-offer .tutorial-dismiss")
    for family, unit in (("guobiao-2p", "fan"), ("xiamen", "point"), ("arcade", "point")):
        page.click(f'button.fam[data-family="{family}"]')
        room = page.locator(f'.rooms .room[data-room="{family}/novice"]')
        assert f"50 per {unit}" in room.inner_text(), (family, room.inner_text())
        assert _chinese(page, "body", user) == []
    _rules(page, server, user, _chinese)
    _tutorial(page, server, user, _chinese)
    _pages(page, server, user, _chinese)
    for family in ("xiamen", "arcade"):
        _table(browser, server, family, "en-US", _chinese)

    page.goto(server + "/#/")
    page.click('button.fam[data-family="guobiao-2p"]')
    page.click("#btn-computer")
    page.wait_for_selector(".hand-mine .tile", timeout=15000)
    assert _chinese(page, "body", user) == []
    discard(page)  # one discard of the player's own, then 托管 plays on
    trustee_on(page)
    page.wait_for_selector(".settle", timeout=60000)
    assert _chinese(page, "body", user) == []
    # the review counts the player's own decisions: one discard (and any claim he passed)
    page.click(".rv-ask")
    page.wait_for_selector(".rv-sum", timeout=30000)
    summary = page.inner_text(".rv-sum")
    said = re.fullmatch(
        r"Match (\d+)% \((\d+)/(\d+)\) · bad moves (\d+) · expected loss (\d+\.\d) fan", summary
    )
    assert said and int(said[2]) <= int(said[3]) and int(said[3]) >= 1, summary
    page.screenshot(path=str(shots / "i18n-settlement-en.png"), full_page=True)
    page.click(".settle-replay")
    page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
    page.click(".r-next")
    assert _chinese(page, "body", user) == []
    # the replay's line about the moves: 托管 switched on, said in English
    switched = ""
    for _ in range(int(page.get_attribute(".r-range", "max") or 0)):
        switched = str(page.evaluate(LAST_MOVES))
        if "auto-play" in switched:
            break
        page.click(".r-next")
    assert f"Guest {user} switched auto-play on" in switched, switched
    page.click(".r-last")
    page.wait_for_selector(".replay .settle-card")
    assert _chinese(page, "body", user) == []

    # the player's choice outlives the browser's language
    page.click("#lang")
    page.wait_for_selector("#lang:text('English')")
    page.reload()
    page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
    assert page.inner_text("#rules") == "规则"
    assert not errors, errors
    context.close()
