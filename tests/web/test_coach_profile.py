"""The profile page's review profile in Chromium (issue #31 point 3): a registered player whose
reviews are kept in the server's store (60 guobiao-2p hands, 7 xiamen hands, made up with
losses in quarters of a point) sees, per family, the match rate, bad-move rate and expected
loss per hand over his last 50 and 200 hands, the trend charts (one point per hand), the
costliest categories and the coach rating in words — each computed here from the reviews
kept — in Chinese and in English.  Screenshots at 390×844, 360×740 and 844×390 in both
languages go to ``/tmp/shots/coachprofile/``."""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path

from playwright.sync_api import Browser, Page

from erren.review.coach import MIN_HANDS, coach_rating
from erren.server.store import Passwords, Store
from erren.testing.reviews import MadeHand, keep_reviews
from erren.testing.servers import Server

from ._support import fixed, page_errors, register_in_page

SIZES = ((390, 844), (360, 740), (844, 390))
SHOTS = Path("/tmp/shots/coachprofile")
PASSWORD = "correct horse 42"  # register_in_page's
LEVELS = {  # web/js/i18n.js lv_*
    "novice": ("入门", "Beginner"),
    "normal": ("普通", "Normal"),
    "strong": ("高手", "Strong"),
    "master": ("大师", "Master"),
}
CATEGORIES = {  # web/js/i18n.js rv_c_*
    "efficiency": ("牌效", "efficiency"),
    "value": ("打点", "hand value"),
    "defence": ("防守", "defence"),
    "claim": ("吃碰杠", "claim"),
    "ting": ("报听时机", "declaring ready"),
    "win": ("和牌与否", "win or not"),
    "family": ("本玩法特有", "family move"),
}


def _pct(x: float) -> str:
    return fixed(x * 100, 1) + "%"


def _keep(database: str, name: str) -> tuple[list[MadeHand], list[MadeHand]]:
    """Keep the made-up reviews of ``name`` in the server's database (in a thread of its own:
    Playwright's sync API runs an event loop in this one)."""

    async def main() -> tuple[list[MadeHand], list[MadeHand]]:
        store = await Store.open(database, passwords=Passwords.fast())
        try:
            user = (await store.accounts.login(name, PASSWORD)).user
            gb = await keep_reviews(store, user.id, "guobiao-2p", 60, seed=31)
            xm = await keep_reviews(store, user.id, "xiamen", 7, seed=32)
            return gb, xm
        finally:
            await store.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


class _Row:
    def __init__(self, hand: MadeHand) -> None:
        self.decisions = len(hand.decisions)
        self.matches, self.bad, self.loss = hand.matches, hand.bad, hand.loss


UNITS = {"guobiao-2p": "番", "xiamen": "分"}
"""Each family's unit of points in Chinese (a room's stake is per one: guobiao-2p §6.3 counts
番, xiamen's hands move 分); English states it once, in the figure's name."""


def _expected(hands: list[MadeHand], lang: str, family: str) -> dict[str, object]:
    """What the page shows for these hands (oldest first) of ``family``, counted here."""
    zh = lang == "zh"
    newest = hands[::-1]
    cells: dict[str, list[str]] = {}
    for size in (50, 200):
        part = newest[:size]
        decisions = sum(len(h.decisions) for h in part)
        cells[f"match_rate-{size}"] = [_pct(sum(h.matches for h in part) / decisions)]
        cells[f"bad_rate-{size}"] = [_pct(sum(h.bad for h in part) / decisions)]
        cells[f"loss_per_hand-{size}"] = [fixed(sum(h.loss for h in part) / len(part), 2)]
    loss: dict[str, float] = {}
    count: dict[str, int] = {}
    for hand in newest[:200]:
        for category, lost, _ in hand.decisions:
            loss[category] = loss.get(category, 0.0) + lost
            count[category] = count.get(category, 0) + 1
    top = sorted((c for c in loss if loss[c] > 0), key=lambda c: (-loss[c], c))[:3]
    per = len(newest[:200])
    cats = [
        f"{CATEGORIES[c][0]} 每手 {fixed(loss[c] / per, 2)} {UNITS[family]} · {count[c]} 次决策"
        if zh
        else f"{CATEGORIES[c][1]} {fixed(loss[c] / per, 2)} a hand · {count[c]} decisions"
        for c in top
    ]
    if len(hands) < MIN_HANDS:
        sentence = (
            f"手数不足：已复盘 {len(hands)} 手，满 {MIN_HANDS} 手后评定水平"
            if zh
            else f"Not enough hands: {len(hands)} reviewed, a level is given from {MIN_HANDS}"
        )
    else:
        r = coach_rating("guobiao-2p", [_Row(h) for h in newest[:200]])
        assert r.level is not None
        lower = LEVELS[r.level.value][0 if zh else 1]
        if r.upper is not None:
            upper = LEVELS[r.upper.value][0 if zh else 1]
            sentence = (
                f"你的下法介于 {lower} 和 {upper} 之间"
                if zh
                else f"Your play lies between {lower} and {upper}"
            )
        else:
            sentence = f"你的下法最接近 {lower}" if zh else f"Your play is closest to {lower}"
    count_text = f" · 已复盘 {len(hands)} 手" if zh else f" · {len(hands)} hands reviewed"
    return {"cells": cells, "categories": cats, "sentence": sentence, "count": count_text}


def _shown(page: Page, family: str) -> dict[str, object]:
    block = f'.pf-coach-family[data-family="{family}"]'
    page.wait_for_selector(block, timeout=10000)
    cells = {
        f"{key}-{size}": page.locator(
            f'{block} tr[data-key="{key}"] .pf-cw-{size}'
        ).all_inner_texts()
        for key in ("match_rate", "bad_rate", "loss_per_hand")
        for size in (50, 200)
    }
    return {
        "cells": cells,
        "categories": page.locator(f"{block} .pf-coach-cats li").all_inner_texts(),
        "sentence": page.inner_text(f"{block} .pf-coach-rating"),
        "count": page.inner_text(f"{block} .pf-coach-count"),
    }


def _check(page: Page, lang: str, gb: list[MadeHand], xm: list[MadeHand]) -> None:
    assert _shown(page, "guobiao-2p") == _expected(gb, lang, "guobiao-2p")
    assert _shown(page, "xiamen") == _expected(xm, lang, "xiamen")
    # one point per reviewed hand in each of the three charts
    for key in ("match_rate", "bad_rate", "loss_per_hand"):
        chart = f'.pf-coach-chart[data-family="guobiao-2p"][data-key="{key}"] polyline'
        points = page.get_attribute(chart, "points")
        assert points is not None and len(points.split()) == len(gb)
    assert page.locator('.pf-coach-family[data-family="arcade"]').count() == 0


def test_the_review_profile_shows_the_kept_reviews_figures(
    browser: Browser, web_server: Server
) -> None:
    """Slow (about 10 s): a registered player, 67 reviews kept, the page in both languages and
    at three sizes, 12 screenshots."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    errors = page_errors(page)
    try:
        name = register_in_page(page, web_server.url)
        gb, xm = _keep(web_server.database, name)
        for lang in ("zh", "en"):
            page.evaluate(f"localStorage.setItem('erren.lang', '{lang}')")
            page.goto(web_server.url + "/#/profile")
            page.reload()
            _check(page, lang, gb, xm)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.locator("#pf-coach").scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / f"{lang}-{width}x{height}.png"))
                section = SHOTS / f"{lang}-{width}x{height}-section.png"
                page.locator("#pf-coach").screenshot(path=str(section))
            page.set_viewport_size({"width": 1100, "height": 900})
        assert not errors, errors
    finally:
        ctx.close()
