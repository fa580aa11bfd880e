"""何切る drills in Chromium (issue #31 point 5): the lobby and the profile link to them; a
puzzle answered right and then one answered wrong, the verdict, 大师's tile, the reason in the
hint button's words, the loss and the session's score checked against numbers computed here
from the shipped corpus file; the same in English.  Screenshots at 390×844, 360×740 and
844×390 in both languages go to ``/tmp/shots/drills/``."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from ._support import fixed, page_errors, until

SIZES = ((390, 844), (360, 740), (844, 390))
SHOTS = Path("/tmp/shots/drills")
LOCALES = {"zh": "zh-CN", "en": "en-US"}
WORDS = {  # web/js/i18n.js: the drills' rows and the hint button's reasons (hn_r_*)
    "zh": {
        "right": "答对了：和大师打的一样",
        "wrong": "大师会打另一张",
        "why": "理由：",
        "loss": "你这张的期望损失：{0} {1}",
        "score": "本次 {0} 题，答对 {1} 题，期望损失合计 {2}",
        "ready": "听{kinds}种，还剩{left}张",
        "keeps": "留下{left}张有用的牌（{kinds}种，{shanten}向听）",
        "other": "高手的选择",
    },
    "en": {
        "right": "Right: the Master discards the same tile",
        "wrong": "The Master would discard another tile",
        "why": "Why: ",
        "loss": "Expected loss of your tile: {0} {1}",
        "score": "{1} of {0} right this session, {2} expected loss in all",
        "ready": "ready on {kinds} kinds, {left} left",
        "keeps": "keeps {left} tiles that help ({kinds} kinds, {shanten} from ready)",
        "other": "the expert's choice",
    },
}
UNITS = {
    "guobiao-2p": ("番", "fan", "fan"),
    "xiamen": ("分", "point", "points"),
    "arcade": ("分", "point", "points"),
}
"""Each family's unit: Chinese, English for one, English for any other figure (a loss is shown
with two decimals, so never as one: "0.50 points", "1.00 points")."""


def _corpus() -> dict[str, dict[str, Any]]:
    text = resources.files("erren.review").joinpath("drills.json").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines()[1:]]
    return {r["id"]: r for r in rows}


def _reason(lang: str, row: dict[str, Any], tile: str) -> str:
    code, params = next((c[2], c[3]) for c in row["choices"] if c[0] == tile)
    return WORDS[lang]["why"] + WORDS[lang][code].format(**params)


def _shown(page: Page, corpus: dict[str, dict[str, Any]]) -> dict[str, Any]:
    page.wait_for_selector(".dr-board .hand-mine .tile.can")
    ident = page.get_attribute(".dr-body", "data-id")
    assert ident in corpus
    return corpus[ident]


def _answer(page: Page, tile: str) -> None:
    page.locator(f'.dr-board .hand-mine .tile.can[data-tile="{tile}"]').last.click()
    page.wait_for_selector(".dr-answer")


def _check(page: Page, lang: str, row: dict[str, Any], tile: str) -> float:
    """The answer shown for ``tile``: verdict, tiles, reasons, loss and table; the loss."""
    ev: dict[str, float] = {c[0]: float(c[1]) for c in row["choices"]}
    best = row["answer"]
    loss = max(0.0, ev[best] - ev[tile])
    w = WORDS[lang]
    unit = UNITS[row["family"]][0 if lang == "zh" else 2]
    assert page.inner_text(".dr-verdict") == w["right" if tile == best else "wrong"]
    assert page.get_attribute(".dr-master .tile", "data-tile") == best
    assert page.inner_text(".dr-why-master") == _reason(lang, row, best)
    if tile != best:
        assert page.get_attribute(".dr-yours .tile", "data-tile") == tile
        assert page.inner_text(".dr-why-yours") == _reason(lang, row, tile)
    else:
        assert page.locator(".dr-yours").count() == 0
    assert page.inner_text(".dr-loss") == w["loss"].format(fixed(loss, 2), unit)
    cells = page.eval_on_selector_all(
        ".dr-choices tbody tr",
        "rows => rows.map(r => [r.dataset.tile, r.cells[1].innerText, r.cells[2].innerText])",
    )
    assert cells == [
        [c[0], fixed(c[1], 2), fixed(max(0.0, ev[best] - c[1]), 2)] for c in row["choices"]
    ]
    assert page.locator(".dr-board .tile.advised").get_attribute("data-tile") == best
    assert page.locator(".dr-board .hand-mine .tile.can").count() == 0  # answered
    return loss


def _drill_two(page: Page, lang: str, corpus: dict[str, dict[str, Any]]) -> None:
    """Answer the shown puzzle right, the next one wrong (its foil); the score follows."""
    w = WORDS[lang]
    first = _shown(page, corpus)
    _answer(page, first["answer"])
    assert _check(page, lang, first, first["answer"]) == 0.0
    assert page.inner_text(".dr-score") == w["score"].format(1, 1, "0.00")
    page.click(".dr-next")
    until(page, f"document.querySelector('.dr-body').dataset.id !== {json.dumps(first['id'])}")
    second = _shown(page, corpus)
    assert second["family"] == first["family"] and second["id"] != first["id"]
    _answer(page, second["foil"])
    loss = _check(page, lang, second, second["foil"])
    assert loss > 0
    assert page.inner_text(".dr-score") == w["score"].format(2, 1, fixed(loss, 2))


def test_drills_answered_right_and_wrong(browser: Browser, server: str) -> None:
    """Two puzzles in each language through a real browser (about 5 s)."""
    corpus = _corpus()
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#link-drills")
    page.click("#link-drills")
    _drill_two(page, "zh", corpus)
    page.goto(server + "/#/profile")
    page.wait_for_selector("#pf-link-drills")
    assert page.get_attribute("#pf-link-drills", "href") == "#/drills"
    ctx.close()
    en = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    page = en.new_page()
    errors += page_errors(page)
    page.goto(server + "/#/drills/xiamen")  # open to anyone, logged in or not
    _drill_two(page, "en", corpus)
    en.close()
    assert errors == []


def test_drills_screenshots(browser: Browser, server: str) -> None:
    """One family per size, the board then the answer to a wrong tile, in both languages
    (about 11 s: over 10 s because it is six page loads and eighteen full screenshots)."""
    corpus = _corpus()
    SHOTS.mkdir(parents=True, exist_ok=True)
    families = ("guobiao-2p", "xiamen", "arcade")
    for lang, locale in LOCALES.items():
        for (width, height), family in zip(SIZES, families, strict=True):
            ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
            page = ctx.new_page()
            errors = page_errors(page)
            page.goto(f"{server}/#/drills/{family}")
            row = _shown(page, corpus)
            name = f"{lang}-{width}x{height}-{family}"
            page.screenshot(path=str(SHOTS / f"{name}-ask.png"))
            _answer(page, row["foil"])
            _check(page, lang, row, row["foil"])
            page.eval_on_selector(
                ".dr-answer", "el => { el.scrollIntoView(); window.scrollBy(0, -44); }"
            )
            page.screenshot(path=str(SHOTS / f"{name}-answer.png"))
            page.locator(".dr-next").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"{name}-next.png"))
            assert errors == []
            ctx.close()


GUEST_NOTES = {
    "zh": "“我的错题”只给注册玩家：注册后，你每手牌的复盘会把代价最大的出牌变成练习题。"
    "现在做的是题库的题。",
    "en": "“My mistakes” are for registered players: once you register, the costliest discards "
    "of your reviewed hands become your drills. These are the corpus's puzzles.",
}
"""web/js/i18n.js dr_mine_guest."""


def test_own_drills_asked_by_a_guest_say_they_are_a_registered_players(
    browser: Browser, server: str
) -> None:
    """A guest (Chinese, 390×844) and a visitor who is not logged in (English, 360×740) who
    open ``#/drills/F/mine`` are told that one's own puzzles are a registered player's, with
    the way to register, and are given the corpus's puzzles meanwhile (about 3 s)."""
    corpus = _corpus()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang, (width, height), guest in (("zh", (390, 844), True), ("en", (360, 740), False)):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=LOCALES[lang])
        page = ctx.new_page()
        errors = page_errors(page)
        if guest:
            page.goto(server + "/")
            page.click("#btn-guest")
            page.wait_for_selector("#link-drills")
        page.goto(f"{server}/#/drills/guobiao-2p/mine")
        _shown(page, corpus)  # a corpus puzzle on the board
        assert page.inner_text(".dr-guest p") == GUEST_NOTES[lang]
        assert page.get_attribute(".dr-guest .dr-register", "href") == "#/register"
        assert page.locator(".dr-own").count() == 0  # nothing of his own to switch to
        page.screenshot(path=str(SHOTS / f"guest-mine-{lang}-{width}x{height}.png"))
        assert errors == []
        ctx.close()
