"""A registered player's own 何切る puzzles in Chromium (issue #31 point 5): two puzzles kept for
him in the server's store (two of the shipped corpus's positions, stored as his, from a game of
his), the "我的错题 / My mistakes" choice beside the families with his count, his newest
unanswered puzzle answered wrong and the next one right — the verdict, the loss computed here
from the puzzle's data, where it came from and the link to that hand's replay and review —
and the empty state of a family he has none of, in Chinese and in English.  Screenshots at
390×844, 360×740 and 844×390 in both languages go to ``/tmp/shots/mydrills/``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from importlib import resources
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from erren.server.store import Passwords, Store
from erren.testing.servers import Server

from ._support import fixed, page_errors, register_in_page, until

SIZES = ((390, 844), (360, 740), (844, 390))
SHOTS = Path("/tmp/shots/mydrills")
PASSWORD = "correct horse 42"  # register_in_page's
FAMILY = "guobiao-2p"
WORDS = {  # web/js/i18n.js: the drills' rows
    "zh": {
        "mine": "我的错题",
        "right": "答对了：和大师打的一样",
        "wrong": "大师会打另一张",
        "loss": "你这张的期望损失：{0} 番",
        "source": "出自牌局 #{0}，第 {1} 步。 看回放和复盘",
        "none": "这个玩法你还没有错题",
    },
    "en": {
        "mine": "My mistakes",
        "right": "Right: the Master discards the same tile",
        "wrong": "The Master would discard another tile",
        "loss": "Expected loss of your tile: {0} fan",
        "source": "From game #{0}, step {1}. Replay and review",
        "none": "No mistakes of yours in this game yet",
    },
}


def _corpus_rows(count: int) -> list[dict[str, Any]]:
    text = resources.files("erren.review").joinpath("drills.json").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines()[1:]]
    return [r for r in rows if r["family"] == FAMILY][:count]


def _keep(database: str, name: str, rows: list[dict[str, Any]]) -> tuple[int, list[int]]:
    """Keep ``rows`` as ``name``'s own puzzles from one game of his (steps 10, 20, …): the game
    id and the puzzles' ids, oldest first (in a thread: Playwright's sync API runs an event
    loop in this one)."""

    async def main() -> tuple[int, list[int]]:
        store = await Store.open(database, passwords=Passwords.fast())
        try:
            user = (await store.accounts.login(name, PASSWORD)).user
            game = await store.games.create(FAMILY, {}, (user.id, None), 1, "00" * 16)
            ids = []
            for i, row in enumerate(rows):
                kept = await store.drills.put(
                    user.id, FAMILY, game, 10 * (i + 1), {**row, "id": ""}, seat=0
                )
                assert kept is not None
                ids.append(kept.id)
            return game, ids
        finally:
            await store.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def _answer(page: Page, row: dict[str, Any], tile: str, lang: str, *, game: int, step: int) -> None:
    """Tap ``tile`` on the shown puzzle (``row``'s position) and check the answer."""
    page.wait_for_selector(".dr-board .hand-mine .tile.can")
    page.locator(f'.dr-board .hand-mine .tile.can[data-tile="{tile}"]').last.click()
    page.wait_for_selector(".dr-answer")
    ev = {c[0]: float(c[1]) for c in row["choices"]}
    best = row["answer"]
    w = WORDS[lang]
    assert page.inner_text(".dr-verdict") == w["right" if tile == best else "wrong"]
    assert page.get_attribute(".dr-master .tile", "data-tile") == best
    assert page.inner_text(".dr-loss") == w["loss"].format(fixed(max(0.0, ev[best] - ev[tile]), 2))
    assert page.inner_text(".dr-source") == w["source"].format(game, step)
    assert page.get_attribute(".dr-replay", "href") == f"#/replay/{game}?review=0&step={step}"


def _mine_count(page: Page) -> str:
    # polled through the DevTools protocol: a string wait_for_function is eval'ed in the page,
    # which its CSP refuses once the predicate is not true at once
    until(page, "document.querySelector('.dr-own-count')?.textContent !== ''", 10000)
    return page.inner_text(".dr-own-count")


def _drill(page: Page, url: str, lang: str, *, game: int, ids: list[int], rows: list[Any]) -> None:
    """From the corpus's screen to his own: the newest unanswered, then the other; then a
    family he has none of."""
    w = WORDS[lang]
    page.goto(f"{url}/#/drills/{FAMILY}")
    page.wait_for_selector(".dr-board .hand-mine .tile.can")
    assert _mine_count(page) == "2"
    assert page.inner_text(".dr-own").rsplit(maxsplit=1) == [w["mine"], "2"]
    assert page.get_attribute(".dr-own", "aria-pressed") == "false"
    page.click(".dr-own")
    page.wait_for_selector(f'.dr-body[data-id="my.{ids[1]}"] .dr-board .tile.can')
    assert page.get_attribute(".dr-own", "aria-pressed") == "true"
    assert page.get_attribute(".dr-body", "data-id") == f"my.{ids[1]}"
    _answer(page, rows[1], rows[1]["foil"], lang, game=game, step=20)
    page.click(".dr-next")
    page.wait_for_selector(f'.dr-body[data-id="my.{ids[0]}"] .dr-board .tile.can')
    _answer(page, rows[0], rows[0]["answer"], lang, game=game, step=10)
    # a family he has none of: how to get some
    page.click('.dr-family[data-family="xiamen"]')
    page.wait_for_selector(".dr-empty")
    assert page.inner_text(".dr-empty h3") == w["none"]
    assert _mine_count(page) == "0"


def test_his_own_puzzles_answered_in_both_languages(browser: Browser, web_server: Server) -> None:
    """Slow (about 15 s): a registered player per language, two puzzles answered by each, and
    eighteen screenshots at three sizes."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    rows = _corpus_rows(2)
    for lang, locale in (("zh", "zh-CN"), ("en", "en-US")):
        ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale=locale)
        page = ctx.new_page()
        errors = page_errors(page)
        try:
            name = register_in_page(page, web_server.url)
            game, ids = _keep(web_server.database, name, rows)
            _drill(page, web_server.url, lang, game=game, ids=ids, rows=rows)
            _shots(page, web_server.url, lang)
            assert not errors, errors
        finally:
            ctx.close()


def _shots(page: Page, url: str, lang: str) -> None:
    """His own puzzle asked and answered, and the empty state, at three sizes."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        name = f"{lang}-{width}x{height}"
        page.goto(f"{url}/#/drills/{FAMILY}/mine")
        page.reload()
        page.wait_for_selector(".dr-board .hand-mine .tile.can")
        _mine_count(page)
        page.screenshot(path=str(SHOTS / f"{name}-ask.png"))
        page.locator(".dr-board .hand-mine .tile.can").first.click()
        page.wait_for_selector(".dr-source")
        page.locator(".dr-source").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{name}-answer.png"))
        page.goto(f"{url}/#/drills/arcade/mine")
        page.wait_for_selector(".dr-empty")
        page.screenshot(path=str(SHOTS / f"{name}-empty.png"))
    page.set_viewport_size({"width": 1100, "height": 900})
