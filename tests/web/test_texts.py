"""The words and numbers a player reads: a replay names its hand as the history does, the
campaign's payout writes every amount one way and a purse the payout empties as 0 (the stage
cleared, arcade R3.6), and a guest sees no bean balance he could not spend (issue #28, items
7, 13 and 21)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from erren.families.arcade.campaign import COMPUTER, Outcome, Run
from erren.families.arcade.campaign.save import FORMAT, VERSION
from erren.families.arcade.campaign.service.runs import settlement_json
from erren.server.store import Store
from erren.testing.servers import Server

from ._support import REPLAY_MS, page_errors, register_in_page, trustee_on, until

UNGROUPED = re.compile(r"(?<![\d,.])\d{4,}")
"""An amount of four digits or more written without its thousands separator (1000)."""
HYPHEN_MINUS = re.compile(r"(?<![\w])-\d")
"""A negative amount written with a hyphen (-2,000) rather than the minus sign (−2,000)."""


def _guest(page: Page, url: str, lang: str) -> int:
    """A guest in ``lang`` at the lobby; his user id."""
    page.goto(url + "/")
    page.evaluate(f"localStorage.setItem('erren.lang', {lang!r})")
    page.reload()
    page.click("#btn-guest")
    page.wait_for_selector(".rooms .room")
    me = "fetch('/me', {headers: {Authorization: 'Bearer ' + localStorage.getItem('erren.token')}})"
    return int(page.evaluate(me + ".then((r) => r.json()).then((u) => u.id)"))


def test_a_replay_names_its_hand_as_the_history_does(browser: Browser, server: str) -> None:
    """Slow (10–20 s): 托管 plays two hands against the computer; the second hand's replay
    and its line in the history both say 第 2 局."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors = page_errors(page)
    _guest(page, server, "zh")
    page.click(".tutorial-offer .tutorial-dismiss")
    page.click("#btn-computer")
    page.wait_for_selector(".board", timeout=15000)
    for hand in (1, 2):
        assert f"第 {hand} 局" in page.inner_text(".center-line")
        trustee_on(page)
        page.wait_for_selector(".settle", timeout=60000)
        if hand == 1:
            page.click(".settle-next")
            page.wait_for_selector(".settle", state="detached", timeout=10000)
            until(page, "document.querySelector('.center-line').innerText.includes('第 2 局')")
    page.click(".settle-replay")
    page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
    game = int(page.url.rsplit("/", 1)[1])  # #/replay/<game>
    assert "第 2 局" in page.inner_text(".replay .center-line")
    page.click(".r-last")
    assert "第 2 局" in page.inner_text(".replay .center-line")
    page.goto(server + "/#/games")
    page.wait_for_selector(f"li.game:has-text('#{game} ')")
    line = page.locator(f"li.game:has-text('#{game} ') .game-sum").inner_text()
    assert line.startswith("第 2 局 · "), line
    assert not errors, errors
    context.close()


def _store_campaign(database: str, user_id: int, state: dict[str, Any]) -> None:
    """Write ``state`` as the user's campaign in the server's database (in a thread of its
    own: Playwright's sync API runs an event loop in this one)."""

    async def put() -> None:
        store = await Store.open(database)
        try:
            await store.games.put_campaign(user_id, state)
        finally:
            await store.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, put()).result()


def test_a_payout_that_empties_the_purse(
    browser: Browser, web_server: Server, server: str, shots: Path
) -> None:
    """The run (erren.families.arcade.campaign's own model, stored as the server stores it) had
    5,000 in the
    bankroll and the computer 300 in its purse; the player staked m = 2 as the non-dealer and
    won a 4-fan hand.  The screen shows every step in one number format, the purse at 0 — not
    below — and the stage cleared (arcade R3.3, R3.4, R3.6), in Chinese and in English."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors = page_errors(page)
    user = _guest(page, server, "zh")
    run = Run.new(seed=7)
    run.bankroll, run.purse, run.dealer = 5000, 300, COMPUTER
    m, fan = 2, 4
    run.start_hand(m)
    last = settlement_json(run.settle(Outcome.player_win(fan)))
    _store_campaign(
        web_server.database,
        user,
        {"format": FORMAT, "version": VERSION, "run": run.to_dict(), "last": last},
    )
    stake = m * 100  # R3.3: m × the unit stake 100
    base = fan * (fan + 1) * 50  # R3.4: f × (f + 1) × 50
    payout = m * base
    bankroll = 5000 - stake + stake + payout  # the stake comes back with the payout
    page.goto(server + "/#/campaign")
    page.wait_for_selector(".camp-payout")
    lines = page.locator(".camp-lines li").all_inner_texts()
    assert lines == [
        f"押分 {m} × 100 = {stake}，本金 5,000 → {5000 - stake:,}",
        "你胡牌了！",
        f"底分 = f × (f + 1) × 50，f = {fan}：{base:,}",
        f"赢分 = {m} × {base:,} = {payout:,}",
        f"退还押分 {stake}",
        f"本金 {bankroll:,}（本局 +{bankroll - 5000:,}）",
        f"电脑分数 300 − {payout:,} → 0：分数清空（赢分全额照付）",
    ]
    banner = page.inner_text(".camp-banner")
    assert "第 1 关通过！" in banner and "电脑分数 20,000" in banner  # R3.6: stage 2's purse
    assert page.inner_text(".stat.bankroll .value") == f"{bankroll:,}"
    assert page.inner_text(".stat.purse .value") == "20,000 / 20,000"
    text = page.inner_text("#app")
    assert not UNGROUPED.search(text) and not HYPHEN_MINUS.search(text), text
    page.screenshot(path=str(shots / "texts-campaign-zh.png"), full_page=True)
    page.click("#lang")
    page.wait_for_selector(".camp-payout h3:text('Hand 1: the payout')")
    lines = page.locator(".camp-lines li").all_inner_texts()
    assert lines[3] == f"Payout = {m} × {base:,} = {payout:,}"
    assert (
        lines[-1] == f"Computer's purse 300 − {payout:,} → 0: emptied (the payout is paid in full)"
    )
    text = page.inner_text("#app")
    assert not UNGROUPED.search(text) and not HYPHEN_MINUS.search(text), text
    assert not errors, errors
    context.close()


def test_a_guest_has_no_bean_balance(browser: Browser, server: str) -> None:
    """Bean rooms are for registered players: a guest's header and page show no balance (his
    welcome beans could enter no room); the page says what beans need."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors = page_errors(page)
    _guest(page, server, "zh")
    assert page.locator("#beans").count() == 0
    assert "欢乐豆" not in page.inner_text("#header")
    page.click("#link-profile")
    page.wait_for_selector("#profile")
    assert page.locator("#pf-balance").count() == 0
    assert (
        page.inner_text(".pf-head").split("\n")[-1]
        == "豆子场需要注册账号。游客可以和电脑对战、开好友房（只记分）。"
    )
    assert not errors, errors
    context.close()


WELCOME = 10_000
"""A new account's beans (the server's default welcome grant)."""


def test_the_balance_is_never_cut_in_the_header(browser: Browser, server: str) -> None:
    """On a phone held upright the header shows a coin and the whole number (it read "10,000
    be…" in English at 360 px); wider screens add the unit; the link's name always says both."""
    for (width, height), lang, shown in (
        ((360, 740), "en", f"{WELCOME:,}"),
        ((390, 844), "zh", f"{WELCOME:,}"),
        ((844, 390), "en", f"{WELCOME:,} beans"),
        ((844, 390), "zh", f"{WELCOME:,} 欢乐豆"),
    ):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors = page_errors(page)
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('erren.lang', {lang!r})")
        register_in_page(page, server)
        until(page, f"document.getElementById('beans')?.innerText === {shown!r}")
        unit = "beans" if lang == "en" else "欢乐豆"
        assert page.get_attribute("#beans", "aria-label") == f"{WELCOME:,} {unit}"
        assert page.eval_on_selector("#beans", "e => e.scrollWidth <= e.clientWidth")
        assert page.eval_on_selector("#beans", "e => e.getBoundingClientRect().right") <= width
        assert errors == []
        context.close()
