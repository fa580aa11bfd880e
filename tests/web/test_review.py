"""The 复盘 (review) at the settlement, in a real Chromium, in Chinese and in English: after a
hand the panel says how many of the player's decisions were the computer's own; when every
one agrees it says so with no heading over an empty list, and when some differ it lists them
under "the moves that differ most", each with its kind (a win, 报听, a claim, a turn) and both
moves in words (issue #28, item 11)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from ._support import discard, guest_table, page_errors, trustee_on, until

TEXT: dict[str, dict[str, Any]] = {
    "zh": {
        "sum": "你做了{count}次决定，其中{agreed}次和电脑一样",
        "same": "每一手都和电脑一样",
        "diff": "差别最大的几手：",
        "kinds": {"win": "和牌", "ting": "报听", "claim": "吃碰杠", "discard": "出牌"},
        "you": "你：",
        "computer": "电脑：",
        "pass": "过",
        "hu": "胡",
        "offered": "对方打出",
        "ready": "之后听牌",
        "won": "和牌",
    },
    "en": {
        "sum": "{agreed} of {count} decisions as the computer would",
        "same": "Every decision as the computer would have made it",
        "diff": "Where it differs most:",
        "kinds": {
            "win": "wins",
            "ting": "declaring ready",
            "claim": "claims",
            "discard": "discards",
        },
        "you": "You:",
        "computer": "Computer:",
        "pass": "Pass",
        "hu": "Win",
        "offered": "offered",
        "ready": "then ready",
        "won": "a win",
    },
}

ALL_AGREE: dict[str, Any] = {
    "count": 3,
    "agreed": 3,
    "kinds": {"claim": {"count": 1, "agreed": 1}, "discard": {"count": 2, "agreed": 2}},
    "decisions": [],
}
"""Three decisions, every one as the computer would: a claim and two discards."""

ONE_DIFFERS: dict[str, Any] = {
    "count": 4,
    "agreed": 3,
    "kinds": {"win": {"count": 1, "agreed": 0}, "discard": {"count": 3, "agreed": 3}},
    "decisions": [
        {
            "kind": "win",
            "n": 30,
            "hand": ["1m", "2m", "3m", "4m", "5m", "6m", "5z", "5z", "7z", "7z"],
            "drawn": None,
            "offered": "7z",
            "played": "pass",
            "expert": "hu",
            "played_after": {"shanten": 0, "left": None},
            "expert_after": None,
        }
    ],
}
"""Four decisions: three discards as the computer would, and a winning 7z passed."""


def _show(page: Page, body: dict[str, Any]) -> None:
    """The server's ``review`` message for the hand just ended, with ``body`` for its fields."""
    page.evaluate(
        """(body) => { const t = window.erren.table;
        t.onMessage({type: 'review', game: t.game, ...body}); }""",
        body,
    )


def _texts(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(f".hn-review {selector}").all_inner_texts()]


def _kinds_line(lang: str, body: dict[str, Any]) -> str:
    words = TEXT[lang]["kinds"]
    order = ("win", "ting", "claim", "discard")
    kinds = body["kinds"]
    parts = [f"{words[k]} {kinds[k]['agreed']}/{kinds[k]['count']}" for k in order if k in kinds]
    return " · ".join(parts)


def _consistent(page: Page, lang: str, count: int, agreed: int, listed: int) -> None:
    """The count line, and either "every decision agrees" or the heading over ``listed`` rows."""
    words = TEXT[lang]
    assert _texts(page, ".hn-rv-sum") == [words["sum"].format(count=count, agreed=agreed)]
    body = page.inner_text(".hn-review")
    if listed:
        assert _texts(page, ".hn-rv-diff") == [words["diff"]]
        assert words["same"] not in body
    else:
        assert _texts(page, ".hn-rv-same") == [words["same"]]
        assert words["diff"] not in body
    assert page.locator(".hn-rv-row").count() == listed


def _shoot(page: Page, shots: Path, name: str) -> None:
    until(page, "!document.querySelector('#toasts .toast')", timeout=10000)  # 托管's notice
    for width, height in ((390, 844), (844, 390)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator(".hn-review > *").last.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"))
    page.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_review_says_what_it_lists(
    browser: Browser, server: str, shots: Path, lang: str
) -> None:
    """Slow (about 10 s): a hand against the computer (one discard, then 托管), its review from
    the server, then the panel for a review where every decision agrees and one where a win
    was passed."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('erren.lang', '{lang}')")
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, server)
    discard(page)
    trustee_on(page)
    page.wait_for_selector(".settle", timeout=60000)
    page.click(".hn-review-ask")
    page.wait_for_selector(".hn-rv-sum", timeout=20000)
    real = page.evaluate("window.erren.table.review")
    assert real["count"] >= 1  # the discard he made himself
    _consistent(page, lang, real["count"], real["agreed"], len(real["decisions"]))

    _show(page, ALL_AGREE)
    _consistent(page, lang, 3, 3, 0)
    assert _texts(page, ".hn-rv-kinds") == [_kinds_line(lang, ALL_AGREE)]
    _shoot(page, shots, f"review-same-{lang}")

    _show(page, ONE_DIFFERS)
    _consistent(page, lang, 4, 3, 1)
    assert _texts(page, ".hn-rv-kinds") == [_kinds_line(lang, ONE_DIFFERS)]
    words = TEXT[lang]
    row = page.locator(".hn-rv-row")
    assert row.locator(".hn-rv-kind").inner_text().strip() == words["kinds"]["win"]
    hand = [t.get_attribute("data-tile") for t in row.locator(".hn-rv-hand > .tile").all()]
    assert hand == ONE_DIFFERS["decisions"][0]["hand"]
    offered = row.locator(".hn-rv-offered")
    assert offered.evaluate("(e) => e.firstChild.textContent") == words["offered"]
    assert offered.locator(".tile").get_attribute("data-tile") == "7z"
    lines = [" ".join(line.split()) for line in row.locator(".hn-rv-line").all_inner_texts()]
    assert lines == [
        f"{words['you']} {words['pass']} {words['ready']}",
        f"{words['computer']} {words['hu']} {words['won']}",
    ]
    _shoot(page, shots, f"review-differs-{lang}")
    assert not errors, errors
    context.close()
