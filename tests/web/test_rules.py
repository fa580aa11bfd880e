"""The rules drawer and the guided first hand in a real browser: offered on the first visit,
played to the win with only the taught moves, its fans linked to their rule entries; the
rules opened from the header, searched in both languages, deep links lighting a row."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from ._support import page_errors, trustee_on, until


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
    # the fan table's columns are named (the Chinese screen leaves the other name out)
    heads = page.locator(".tut-card .settle table.fans th").all_inner_texts()
    assert heads == ["番种", "", "分值", "小计"], heads
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
    page.click(".rules-table[data-table='gb']")  # 国标番表
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


NOTATION = re.compile(r"\d+[mpszf]\b")
"""A tile in the notation (8m, 567f): the rules drawer draws tiles, it never writes them."""


def _sum(page: Page, row: str) -> str:
    page.goto(page.url.split("#")[0] + f"#rules/{row}")
    page.wait_for_selector(f"#rule-{row.split('/')[1]}.lit")
    scored = page.inner_text(f"#rule-{row.split('/')[1]} .rule-scored")
    assert not NOTATION.search(scored), scored
    return page.inner_text(f"#rule-{row.split('/')[1]} .rule-sum")


def _tiles(page: Page, selector: str) -> list[str]:
    return [
        str(t) for t in page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.tile)")
    ]


def test_worked_examples_add_up_as_the_spec_says(browser: Browser, server: str) -> None:
    """Each example's line adds its rows up the family's way: arcade's limit hands in 役满
    (R4.13), its other patterns in fan with the 13-fan cap (R5.7), xiamen's 水 items at their
    value per occurrence (R-4.3); the circumstances are words and drawn tiles, no notation; the
    tables have column headings."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors = page_errors(page)
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('erren.lang', 'zh')")
    big_four, all_honors = 2, 1  # R4.13: 大四喜 is a double yakuman, 字一色 a single one
    assert (
        _sum(page, "arcade/L5")
        == f"大四喜 {big_four} + 字一色 {all_honors} = {big_four + all_honors} 役满"
    )
    assert _sum(page, "arcade/L1") == "天和 1 = 1 役满"  # every other limit hand is worth 1
    # N19: 门清 1, 平和 1, 花牌 1 per flower, 两杯口 4, 纯全带幺 4, 清一色 5 (§4.2, R4.14)
    flowers = int(page.inner_text("#rule-N19 .rule-label").split()[1])  # "花 2"
    fan = 1 + 1 + flowers + 4 + 4 + 5
    cap = 13  # R5.7: 封顶 13番
    assert fan > cap
    expected = f"门清 1 + 平和 1 + 花牌 1×{flowers} + 两杯口 4 + 纯全带幺 4 + 清一色 5 = {fan} 番"
    assert _sum(page, "arcade/N19") == f"{expected}（封顶 {cap} 番）"
    # xiamen S-1: 1 水 for each gold in the hand; the gold is drawn in the label
    line = _sum(page, "xiamen/S-1")
    (gold,) = _tiles(page, "#rule-S-1 .rule-label .tile")
    golds = _tiles(page, "#rule-S-1 .rule-hand .tile").count(gold)
    assert golds == 2 and line == f"金牌 1×{golds} = {golds} 水"
    # S-2: 1 水 for each flower held while its group is incomplete; the flowers are drawn
    line = _sum(page, "xiamen/S-2")
    held = page.locator("#rule-S-2 .rule-label").first
    assert held.evaluate("e => e.firstChild.textContent") == "花"  # then the flowers' tiles
    n = held.locator(".tile").count()
    assert line == f"花牌 1×{n} = {n} 水"
    # the win types: one language, with headings
    page.goto(server + "/#rules/xiamen")
    page.wait_for_selector(".rules-wins")
    assert page.locator(".rules-wins thead th").all_inner_texts() == ["和法", "倍数", "和牌奖励"]
    assert page.locator(".rules-wins tbody tr").first.inner_text().split() == ["平和", "×1", "—"]
    assert page.locator(".rule-heads").inner_text().split() == ["名称", "英文", "分值"]
    # the same in English
    page.click(".rules-lang")
    page.wait_for_selector(".rules-wins thead th:text('Win type')")
    assert page.locator(".rule-heads").inner_text().split() == ["Name", "Chinese", "Value"]
    assert page.locator(".rules-wins tbody tr").nth(1).inner_text().split()[-2:] == ["×2", "—"]
    line = _sum(page, "arcade/L5")
    assert line == f"Big four winds {big_four} + All honors {all_honors} = 3 yakuman"
    assert _sum(page, "xiamen/S-1") == f"gold 1×{golds} = {golds} water"
    assert not errors, errors
    context.close()
