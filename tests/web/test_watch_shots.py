"""A spectator at a bean table in Chromium (issue #29, point 3), for the eye: two registered
players with names of the longest allowed (16 characters, one in Chinese characters)
quick-matched in 二人国标 普通场 let everyone watch; a guest watches in Chinese and
another in English.  During the hand the spectator's view says it runs behind the game (the
bean-room delay, ``erren serve --watch-delay``, 6 events by default) and names both rivers in
full ("Discards of …", never cut, even at 844×390); at the end of the hand (托管 plays it out)
it shows both hands as tiles.  Screenshots at 390×844, 360×740 and 844×390 in both languages go
to ``/tmp/shots/friendsplay/watch/``, with the hand's replay at its last move (its rivers named
in full too)."""

from __future__ import annotations

import contextlib
import secrets
import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from ._support import PASS, REPLAY_MS, discard, page_errors, scroll_to, trustee_on, until

ROOM = "guobiao-2p/normal"
DELAY = 6  # events: erren serve's default --watch-delay
SIZES = ((390, 844), (360, 740), (844, 390))
SHOTS = Path("/tmp/shots/friendsplay/watch")
BEHIND = {
    "zh": f"观战延迟 {DELAY} 步（防止场外指导）",
    "en": f"{DELAY} moves behind the game (so nobody can coach a player)",
}
RIVER_OF = {"zh": "{0} 的弃牌", "en": "Discards of {0}"}
HAND_MS = 120_000
"""The longest a hand played by 托管 on both seats may take (it takes seconds)."""


HAN = "观战长名字测试玩家牌桌东南西北中发白春夏秋冬梅兰竹菊"


def _long_names() -> tuple[str, str]:
    """Two names of the longest allowed (16 characters): one in Chinese characters, the widest
    a label can hold, one in Latin letters and digits."""
    han = "".join(secrets.choice(HAN) for _ in range(16))
    return han, "W" + secrets.token_hex(8)[:15]


def _pair(browser: Browser, url: str, room: str) -> tuple[BrowserContext, Page, Page]:
    """Two players with :func:`_long_names` register and quick-match in ``room``."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    pages = (
        ctx.new_page(),
        browser.new_context(viewport={"width": 1100, "height": 800}).new_page(),
    )
    for page, name in zip(pages, _long_names(), strict=True):
        page.goto(url + "/")
        page.fill("#login-name", name)
        page.fill("#login-pass", "correct horse 42")
        page.click("#btn-register")
        page.wait_for_selector(".rooms .room")
        page.click('button.fam[data-family="guobiao-2p"]')
        page.click(f'.rooms .room[data-room="{room}"]')
    for page in pages:
        page.wait_for_selector(".board", timeout=20_000)
    return ctx, pages[0], pages[1]


def _one_discard(a: Page, b: Page, timeout: float = 20_000) -> bool:
    """Whoever is to discard discards (a claim offered on the way is passed): True, or False
    when the hand ended first; ``timeout`` in ms."""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        for page in (a, b):
            if page.locator(".settle").count():
                return False
            if page.locator(".hand-mine .tile.can").count():
                discard(page)
                return True
            passing = page.locator(PASS)
            if passing.count():
                with contextlib.suppress(PlaywrightError):  # the board redraws: a retry
                    passing.last.click(timeout=1000)
        a.wait_for_timeout(50)
    raise AssertionError(f"nobody was offered a discard within {timeout / 1000:g} s")


def _let_everyone_watch(page: Page) -> None:
    page.evaluate(
        """async () => {
          const r = await fetch('/me/settings', {method: 'PUT', headers: {
            'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('erren.token')},
            body: JSON.stringify({watch: 'everyone'})});
          if (!r.ok) throw new Error(await r.text()); }"""
    )


def _spectator(browser: Browser, url: str, table: str, lang: str) -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_init_script(f"localStorage.setItem('erren.lang', '{lang}')")
    page = ctx.new_page()
    page.goto(url + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-computer")
    page.evaluate(f"location.hash = '#/watch/{table}'")
    page.wait_for_selector(".watch .watch-delay", timeout=15_000)  # the board comes behind
    return ctx, page


def _labels_whole(page: Page, view: str) -> None:
    """Both river labels of the ``view`` (``.watch``, ``.replay``) show their whole text: none
    is cut, across (an ellipsis) or down (a clamp of its lines)."""
    cut = page.eval_on_selector_all(
        f"{view} .river-label",
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1"
        " || e.scrollHeight > e.clientHeight + 1).map(e => e.textContent)",
    )
    assert cut == [], f"river labels cut: {cut}"


def _shoot(page: Page, name: str, selector: str, names: list[str] | None, lang: str) -> None:
    """``page`` at each size, ``selector`` in view; the open board's two river labels named in
    full (``view``: the selector's first class, ``.watch`` or ``.replay``), after ``names``
    when given (a replay says seats, a guest's replay no names)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    view = selector.split(maxsplit=1)[0]
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)  # the layout settles after the resize
        scroll_to(page, selector)
        labels = page.locator(f"{view} .river-label").all_inner_texts()
        assert len(labels) == 2, labels
        if names is not None:
            assert sorted(labels) == sorted(RIVER_OF[lang].format(n) for n in names), labels
        _labels_whole(page, view)
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 1, f"{name} {lang} {width}×{height}: scrolls sideways by {overflow}px"
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{width}x{height}.png"))


def test_a_spectator_at_a_bean_table_for_the_eye(browser: Browser, server: str) -> None:
    """Slow (about a minute): a quick match, two spectators, twenty-seven screenshots."""
    ctx_a, a, b = _pair(browser, server, ROOM)
    errors = page_errors(a) + page_errors(b)
    spectators: list[BrowserContext] = []
    try:
        for page in (a, b):
            _let_everyone_watch(page)
        table = str(a.evaluate("location.hash")).removeprefix("#/table/")
        names = [str(s["name"]) for s in a.evaluate("window.erren.table.info.seats")]
        watchers = {}
        for lang in ("zh", "en"):
            ctx, page = _spectator(browser, server, table, lang)
            spectators.append(ctx)
            errors += page_errors(page)
            watchers[lang] = page
        # a few discards each (any claim passed), so that the delayed view shows rivers
        for _ in range(2 * DELAY):
            if not _one_discard(a, b):
                break
        for lang, page in watchers.items():
            page.wait_for_selector(".watch .board", timeout=15_000)
            until(page, "document.querySelectorAll('.watch .river .tile').length > 0", 15_000)
            assert page.inner_text(".watch-delay") == BEHIND[lang]
            _shoot(page, "watch-bean-table", ".watch .board", names, lang)
        for page in (a, b):
            trustee_on(page)
        for page in (a, b):
            page.wait_for_selector(".settle", timeout=HAND_MS)
        for lang, page in watchers.items():
            page.wait_for_selector(".watch-end .watch-hand", timeout=15_000)
            hands = page.eval_on_selector_all(
                ".watch-end .watch-hand",
                "els => els.map(e => [e.querySelector('b').textContent,"
                " [...e.querySelectorAll('.tile')].filter(t => t.dataset.tile !== 'back').length])",
            )
            assert [name for name, _ in hands] == names
            assert all(count >= 13 for _, count in hands), hands  # 13 or 14 tiles, face up
            _shoot(page, "watch-end", ".watch .watch-end", names, lang)
        game = a.evaluate("window.erren.table.end.game")
        for lang, page in watchers.items():  # the hand's replay, its last move
            page.evaluate(f"location.hash = '#/replay/{game}'")
            page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
            page.click(".replay .r-last")
            until(page, "document.querySelectorAll('.replay .river .tile').length > 0")
            _shoot(page, "replay", ".replay .board", None, lang)
        assert not [e for e in errors if "favicon" not in e], errors
    finally:
        for ctx in spectators:
            ctx.close()
        ctx_a.close()
        b.context.close()
