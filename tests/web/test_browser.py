"""The browser client in a real Chromium against a real server: a newcomer logs in as a guest,
plays the computer (discards, claims, reloads mid-hand and carries on, reaches the settlement),
opens the replay; a phone-size run; screenshots in ``artifacts/screenshots/``."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from ._support import REPLAY_MS, guest_table, next_hand, page_errors, trustee_on, until

CLAIM_KEYS = ("h", "p", "c", "k")


def _shot(page: Page, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def _count(page: Page, selector: str) -> int:
    return page.locator(selector).count()


def _click(page: Page, selector: str) -> bool:
    """Click the last element matching ``selector``; the board redraws often, so a miss is
    just a retry."""
    loc = page.locator(selector)
    if loc.count() == 0:
        return False
    try:
        loc.last.click(timeout=1500)
    except PlaywrightError:
        return False
    return True


def _step(page: Page, *, claim: bool) -> str:
    """One newcomer's move: claim when offered, otherwise discard the drawn tile (the rightmost),
    otherwise confirm or pass.  Returns what was done ("" when it is not our turn)."""
    if claim:
        for key in CLAIM_KEYS:
            if _click(page, f'.actions button.act[data-key="{key}"]'):
                if page.locator(".chooser .option").count():
                    _click(page, ".chooser .option")
                return "claim"
    if _click(page, ".hand-mine .tile.can"):
        return "discard"
    if _click(page, '.actions button.act[data-key="Enter"]'):  # arcade: keep the dealt tiles
        return "confirm"
    if _click(page, '.actions button.act[data-key=" "]'):
        return "pass"
    return ""


def _play(page: Page, until: str, *, claim: bool, limit_s: float = 40) -> str:
    """Play until ``until`` is on the page (or the settlement shows); returns the last move."""
    deadline = time.monotonic() + limit_s
    last = ""
    while time.monotonic() < deadline:
        if page.locator(until).count() or page.locator(".settle").count():
            return last
        done = _step(page, claim=claim)
        if done:
            last = done
            page.wait_for_timeout(120)
        else:
            page.wait_for_timeout(60)
    raise AssertionError(f"{until!r} did not show within {limit_s} s")


def _claim(page: Page, shots: Path) -> None:
    """Play on, claiming the first chow, pung, kong or win offered (next hand if none)."""
    claimed = False
    for _ in range(4):
        last = _play(page, ".seat-mine .meld", claim=True, limit_s=45)
        if page.locator(".seat-mine .meld").count() or last == "claim":
            claimed = True
            break
        page.click(".settle-next")
        page.wait_for_selector(".settle", state="detached", timeout=10000)
    assert claimed, "no claim came up in four hands"
    _shot(page, shots, "04-claimed")


def _reload_and_carry_on(page: Page, shots: Path) -> None:
    """Reload mid-hand: the page comes back to the same table and play carries on."""
    if not page.locator(".settle").count():
        _play(page, ".hand-mine .tile.can", claim=False, limit_s=20)
        hand_no = page.inner_text(".center-line")
        river = _count(page, ".river-mine .tile")
        page.reload()
        page.wait_for_selector(".board", timeout=15000)
        page.wait_for_selector("#conn.conn-open", timeout=10000)
        assert page.inner_text(".center-line") == hand_no
        assert _count(page, ".river-mine .tile") >= river
        assert page.evaluate("window.erren.table.lastN") > 0
        if not page.locator(".settle").count():
            _play(page, ".hand-mine .tile.can", claim=False, limit_s=20)
            if not page.locator(".settle").count():
                river = _count(page, ".river-mine .tile")
                _step(page, claim=False)
                until(
                    page,
                    f"document.querySelectorAll('.river-mine .tile').length > {river}"
                    " || document.querySelector('.settle')",
                    timeout=5000,
                )
        _shot(page, shots, "05-after-reload")


def _finish_by_trustee(page: Page, shots: Path) -> None:
    """托管 finishes the hand: the settlement screen, a pattern's tiles lit on hover."""
    trustee_on(page)
    page.wait_for_selector(".settle", timeout=60000)
    assert page.inner_text(".settle-title")
    _check_fan_tiles(page)
    _shot(page, shots, "06-settlement")


def _check_fan_tiles(page: Page) -> None:
    """Hovering each fan row lights exactly the tiles the server says the fan came from."""
    result = page.evaluate("window.erren.table.end && window.erren.table.end.result")
    if not result or result.get("kind") != "win":
        return
    if page.locator(".settle-campaign").count() and result["winner"] != 0:
        return  # the campaign shows no fan for the computer's win (arcade R3.4)
    fan_tiles = result["fan_tiles"]
    assert fan_tiles is not None and len(fan_tiles) == len(result["fans"])
    rows = page.locator("tr.fan")
    assert rows.count() == len(fan_tiles)
    for i, groups in enumerate(fan_tiles):
        rows.nth(i).hover()
        lit = page.eval_on_selector_all(
            ".settle-hand .tile.lit", "els => els.map(e => e.dataset.tile)"
        )
        expected = [tile for group in groups for tile in group["tiles"]]
        assert sorted(lit) == sorted(expected), (result["fans"][i], lit, expected)


def _open_replay(page: Page, shots: Path) -> None:
    """The replay of the hand: both hands open, step by step, a link to share."""
    page.click(".settle-replay")
    page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
    assert "#/replay/" in page.inner_text(".r-link")
    page.click(".r-next")
    page.click(".r-next")
    assert page.inner_text(".r-step").startswith(("第 2/", "Step 2/"))
    assert page.locator(".replay .hand-opp .tile:not([data-tile='back'])").count() >= 7
    _shot(page, shots, "07-replay")
    page.click(".r-last")
    page.wait_for_selector(".replay .settle-card")
    # the log to download, as mjai (the full log) and as the erren record
    origin = page.evaluate("location.origin")
    for selector, first in ((".r-dl-mjai", '{"type": "start_game"'), (".r-dl-erren", "{")):
        href = page.locator(f".replay-controls {selector}").get_attribute("href")
        assert href is not None
        reply = page.request.get(origin + href)
        assert reply.status == 200, href
        assert reply.headers["content-disposition"].startswith("attachment; filename=")
        assert reply.text().startswith(first)


def test_newcomer_plays_the_computer(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 10 s): a real Chromium plays a newcomer's hands against the computer at real
    speed, claims, reloads and reaches the settlement."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(server + "/")
    page.wait_for_selector("#btn-guest")
    _shot(page, shots, "01-welcome")
    page.click("#btn-guest")
    page.wait_for_selector(".rooms .room")
    assert "新手场" in page.inner_text(".rooms")  # the room tiers with their entry limits
    _shot(page, shots, "02-lobby")

    page.click('button.level[data-level="strong"]')  # 高手, remembered for the next table
    assert page.locator("button.level.on").get_attribute("data-level") == "strong"
    page.click("#btn-computer")
    page.wait_for_selector(".board", timeout=15000)
    page.wait_for_selector(".hand-mine .tile.can", timeout=15000)
    assert _count(page, ".hand-opp .tile") >= 13  # the opponent's tile backs
    assert page.inner_text('.bar[data-seat="1"] .who').endswith("电脑·高手")
    # the hint: the expert's move is marked (a tile to discard, or a button)
    page.click("#btn-hint")
    page.wait_for_selector(".hand-mine .tile.advised, .actions .act.advised", timeout=10000)
    _shot(page, shots, "03-hint")
    before = _count(page, ".river-mine .tile")
    page.locator(".hand-mine .tile.can").last.click()
    until(page, f"document.querySelectorAll('.river-mine .tile').length > {before}", timeout=5000)
    _shot(page, shots, "03-table")

    _claim(page, shots)
    _reload_and_carry_on(page, shots)
    _finish_by_trustee(page, shots)
    _open_replay(page, shots)

    # the history lists the game; English is one click away
    page.goto(server + "/#/games")
    page.wait_for_selector("li.game")
    assert page.locator("li.game .r-downloads a").count() >= 2  # 下载记录: mjai · erren
    page.click("#lang")
    page.wait_for_selector("text=My games")
    page.goto(server + "/#/")
    page.wait_for_selector("text=Play the computer")
    _shot(page, shots, "08-lobby-english")
    page.click("#lang")
    assert not errors, errors
    context.close()


def test_phone_layout_xiamen(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 6 s): a xiamen hand played out at real speed on a phone-sized page."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, server, "xiamen")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    _play(page, ".river-mine .tile", claim=False, limit_s=30)
    page.wait_for_timeout(300)
    _shot(page, shots, "10-phone-table")
    assert page.locator(".center .indicator").count() >= 1  # the gold indicator
    trustee_on(page)  # unless the hand is over already (三金倒, a quick win)
    page.wait_for_selector(".settle", timeout=60000)
    _shot(page, shots, "11-phone-settlement")
    # the next hand is dealt (it may end at once, by 三金倒: its own settlement shows)
    next_hand(page, timeout=15000)
    page.wait_for_selector(".board")
    assert not errors, errors
    context.close()


def test_arcade_wild_and_exchange(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 12 s): an arcade hand (136 tiles) played out by 托管 at real speed, every event
    drawn by Chromium."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, server, "arcade")
    page.wait_for_selector(".center .indicator", timeout=15000)  # the 财神 indicator
    _play(page, ".river-mine .tile", claim=False, limit_s=30)
    _shot(page, shots, "12-arcade-table")
    trustee_on(page)  # unless the hand is over already (a quick win)
    page.wait_for_selector(".settle", timeout=60000)
    _shot(page, shots, "13-arcade-settlement")
    assert not errors, errors
    context.close()


def _campaign_hand_by_trustee(page: Page) -> None:
    """Stake, deal, let 托管 play the hand to its settlement (the payout explained)."""
    page.wait_for_selector("#btn-camp-hand")
    page.click('.camp-stakes .stake[data-m="2"]')
    page.click("#btn-camp-hand")
    page.wait_for_selector(".board", timeout=15000)
    page.wait_for_selector(".bar-row .switch", timeout=15000)
    trustee_on(page)
    page.wait_for_selector(".settle .settle-campaign .camp-payout", timeout=90000)


def test_campaign_in_the_browser(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 8 s): two campaign hands played out by 托管 at real speed."""
    context = browser.new_context(viewport={"width": 1100, "height": 860})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-campaign")
    page.click("#btn-campaign")
    page.wait_for_selector("#btn-camp-start")
    _shot(page, shots, "14-campaign-start")
    page.click("#btn-camp-start")
    page.wait_for_selector(".camp-stats")
    assert "1,000" in page.inner_text(".camp-stats .bankroll") or "1000" in page.inner_text(
        ".camp-stats .bankroll"
    )
    # stage 1's computer is the sparring partner, and the screen says how it plays
    assert "陪练" in page.inner_text(".campaign .camp-style")
    _campaign_hand_by_trustee(page)
    _check_fan_tiles(page)
    assert "200" in page.inner_text(".settle-campaign .camp-lines")  # the stake 2 × 100
    _shot(page, shots, "15-campaign-settlement")
    page.click(".settle-next")
    page.wait_for_selector(".campaign .camp-payout")
    # reload: the run comes back from the server, the last stake kept
    page.reload()
    page.wait_for_selector(".campaign .camp-stats")
    assert page.locator(".campaign .camp-payout").count() == 1
    status = page.evaluate(
        "fetch('/campaign', {headers: {Authorization: 'Bearer ' + "
        "localStorage.getItem('erren.token')}}).then(r => r.json())"
    )
    assert status["campaign"]["hands"] == 1
    if status["campaign"]["status"] == "ready":
        assert page.locator('.camp-stakes .stake.on[data-m="2"]').count() == 1
        _shot(page, shots, "16-campaign-continue")
        # continue: the next hand, reloaded mid-hand, then abandoned
        page.click("#btn-camp-hand")
        page.wait_for_selector(".board", timeout=15000)
        page.reload()
        page.wait_for_selector(".board", timeout=15000)
        page.goto(server + "/#/campaign")
        page.wait_for_selector("#btn-camp-continue, .camp-stakes")
    page.on("dialog", lambda dialog: dialog.accept())
    if page.locator("#btn-camp-abandon").count():
        page.click("#btn-camp-abandon")
        page.wait_for_selector("#btn-camp-start")
    assert not errors, errors
    context.close()


def test_campaign_phone_layout(browser: Browser, server: str, shots: Path) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-campaign")
    page.goto(server + "/#/campaign")
    page.click("#btn-camp-start")
    page.wait_for_selector(".camp-stakes")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the campaign is {width} px wide on a 360 px phone"
    _shot(page, shots, "17-phone-campaign")
    _campaign_hand_by_trustee(page)
    _shot(page, shots, "18-phone-campaign-settlement")
    context.close()
