"""The rules drawer and the guided first hand in a real browser: offered on the first visit,
played to the win with only the taught moves, its fans linked to their rule entries; the
rules opened from the header, searched in both languages, deep links lighting a row."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from ._support import trustee_on, until


def _visible_rows(page: Page) -> list[str]:
    return list(
        page.eval_on_selector_all(
            ".rules-rows .rule-row:not([hidden])", "els => els.map(e => e.dataset.row)"
        )
    )


def _guided_hand(page: Page) -> None:
    """The first visit offers the guided hand; it walks draw, discard, claim, ready, win."""
    page.click(".tutorial-offer .tutorial-start")
    page.wait_for_selector(".tut-prompt[data-step='discard']")
    page.locator(".tut-hand .tile:not(.teach)").first.click()  # not the taught move
    assert page.is_visible(".tut-wrong")
    assert page.locator(".tut-prompt[data-step='discard']").count() == 1
    page.click(".tut-hand .tile.teach")  # 东
    page.wait_for_selector(".tut-prompt[data-step='draw']")
    assert page.get_attribute(".tut-hand .tile.teach", "data-tile") == "6z"  # the drawn 发
    page.click(".tut-hand .tile.teach")
    page.wait_for_selector(".tut-prompt[data-step='claim']")
    page.click(".tut-act.act-pass")  # passing is not this step
    assert page.is_visible(".tut-wrong")
    page.click(".tut-act.act-peng")
    page.wait_for_selector(".tut-prompt[data-step='ready']")
    assert page.locator(".tut-melds .tile").count() == 3  # the pung of 中
    page.click(".tut-act.act-ting")
    page.wait_for_selector(".tut-prompt[data-step='win']")
    page.click(".tut-act.act-hu")
    page.wait_for_selector(".tut-done")
    # the table's settlement: 连六 8, 箭刻 4, 幺九刻 2, 报听 2
    assert page.locator(".tut-card .settle tr.fan").count() == 4
    assert "16" in page.inner_text(".tut-card .settle tr.total")
    # a fan row of the settlement links to its rule entry
    page.click(".settle tr.fan a.rule-link[href$='/dragon_pung']")
    page.wait_for_selector("#rule-dragon_pung.lit")
    assert page.locator(".tut-back").count() == 0
    page.click(".rules-close")
    page.wait_for_selector(".rooms .room")
    page.reload()
    page.wait_for_selector(".rooms .room")
    assert page.locator(".tutorial-offer").count() == 0  # remembered


def _search(page: Page) -> None:
    # the rules from the header: search by name, id and value
    page.click("#rules")
    page.wait_for_selector(".rules-rows .rule-row")
    assert len(_visible_rows(page)) == 54  # table 2p
    page.fill(".rules-search", "七对")
    assert _visible_rows(page) == ["seven_shifted_pairs", "seven_pairs"]  # 连七对, 七对
    page.fill(".rules-search", "24")
    assert "seven_pairs" in _visible_rows(page)
    page.fill(".rules-search", "zzz")
    assert _visible_rows(page) == [] and page.is_visible(".rules-none")
    # each example hand is drawn with the game's tiles
    page.fill(".rules-search", "")
    assert page.locator("#rule-seven_pairs .rule-hand .tile").count() == 14
    page.click(".rules-table:has-text('gb')")
    until(page, "document.querySelectorAll('.rules-rows .rule-row').length === 81")
    page.click(".rules-close")


def test_rules_and_the_guided_hand(browser: Browser, server: str) -> None:
    """Slow (about 8 s): a real Chromium plays the guided hand at real speed."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector(".rooms .room")

    _guided_hand(page)
    _search(page)

    # in English, and a deep link to an arcade pattern
    page.click("#lang")
    page.wait_for_selector("text=Play the computer")
    page.click("#rules")
    page.wait_for_selector(".rules-rows .rule-row")
    page.fill(".rules-search", "Seven Pairs")
    assert _visible_rows(page) == ["seven_pairs"]  # Seven Shifted Pairs does not contain it
    page.goto(server + "/#rules/arcade/N11")
    page.wait_for_selector("#rule-N11.lit")
    assert "Seven pairs" in page.inner_text("#rule-N11")
    # the drawer's own language switch: back to Chinese, the header too
    page.click(".rules-lang")
    page.wait_for_selector("#rule-N11.lit .rule-name:text('七对子')")
    assert page.inner_text("#rules") == "规则"
    assert not errors, errors
    context.close()


def test_rules_over_a_running_table(browser: Browser, server: str) -> None:
    """The header's Rules button opens the drawer over a live table (the game goes on under
    it); a fan row of the settlement links to its entry, and closing it leaves the table.

    Slow (about 10 s, more when no early hand has a scored win): 托管 plays hands against the
    computer at real speed until one ends in a win with fan rows."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector(".rooms .room")
    page.click(".tutorial-offer .tutorial-dismiss")
    page.click("#btn-computer")
    page.wait_for_selector(".board", timeout=15000)
    table = page.evaluate("window.erren.table.tableId")
    page.click("#rules")
    page.wait_for_selector(".rules-rows .rule-row")
    assert page.evaluate("window.erren.table && window.erren.table.tableId") == table
    page.keyboard.press("Escape")
    page.wait_for_selector(".rules-back", state="detached")
    assert f"#/table/{table}" in page.url
    for _ in range(6):  # 托管 plays the hands (switched on in each); look for a win with rows
        trustee_on(page)
        page.wait_for_selector(".settle", timeout=60000)
        if page.locator(".settle tr.fan a.rule-link").count():
            break
        page.click(".settle-next")
        page.wait_for_selector(".settle", state="detached", timeout=10000)
    link = page.locator(".settle tr.fan a.rule-link").first
    href = link.get_attribute("href")
    assert href is not None and href.startswith("#rules/guobiao-2p/")
    link.click()
    page.wait_for_selector(f"#rule-{href.split('/')[2]}.lit")
    assert page.evaluate("window.erren.table && window.erren.table.tableId") == table
    page.click(".rules-close")
    page.wait_for_selector(".settle")
    assert f"#/table/{table}" in page.url
    assert not errors, errors
    context.close()
