"""The hindsight beside the review in a real Chromium, in Chinese and in English (issue #31,
point 4): after a hand against the computer the settlement's review carries a block titled
"看牌复盘（事后诸葛）" / "With the tiles known (hindsight)" that says it is hindsight and not
advice, the points the player made, the best line's, and that line from the move where it
leaves the record (its first moves as tiles), or that nothing would have done better: the
numbers of the hindsight this test works out from the game's record with
``erren.review.hindsight`` (and, drawn by the page's own code, the same record's hindsight
with no search budget: nothing better).  The shared replay shows the same block, its step a
button that jumps there.  Screenshots at 390x844, 360x740 and 844x390 under /tmp/shots/hindsight."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from erren.engine import Record
from erren.review.hindsight import hindsight

from ._support import discard, guest_table, page_errors, trustee_on, until

SHOTS = Path("/tmp/shots/hindsight")
SIZES = ((390, 844), (360, 740), (844, 390))
SHOWN = 4
"""The line's moves drawn (then "…")."""

WORDS: dict[str, dict[str, str]] = {
    "zh": {
        "title": "看牌复盘（事后诸葛）",
        "note": "不是建议",
        "points": "实际 {actual} · 最好的打法 {best}",
        "unit": "番",
        "none": "本手已是最好结果",
        "from": "第 {frame} 步起：",
    },
    "en": {
        "title": "With the tiles known (hindsight)",
        "note": "not advice",
        "points": "Actual {actual} · best line {best}",
        "unit": "fan",
        "none": "Nothing would have done better",
        "from": "From step {frame}:",
    },
}
"""The words the test expects (guobiao-2p counts its points in 番 / fan)."""


def _signed(n: int, unit: str) -> str:
    return f"{'+' if n > 0 else '−' if n < 0 else ''}{abs(n)} {unit}"


def _frame_of_step(actions: list[str], step: int) -> int:
    """The replay's frame of a step: the moves before it (chance folded in)."""
    return sum(not a.startswith("c:") for a in actions[:step])


def _block(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => {
            const b = document.querySelector('.rv-hindsight');
            const from = b.querySelector('.rv-hs-from');
            const none = b.querySelector('.rv-hs-none');
            return {
                title: b.querySelector('h4').innerText.trim(),
                note: b.querySelector('.rv-hs-note').innerText.trim(),
                points: b.querySelector('.rv-hs-points').innerText.trim(),
                none: none ? none.innerText.trim() : null,
                from: from ? from.innerText.trim() : null,
                step: from ? Number(from.dataset.step) : null,
                moves: [...b.querySelectorAll('.rv-hs-move')].map((m) => m.dataset.move),
                tiles: [...b.querySelectorAll('.rv-hs-move')].map((m) =>
                    [...m.querySelectorAll('.tile')].map((t) => t.dataset.tile)),
                more: b.querySelectorAll('.rv-hs-more').length,
            };
        }"""
    )
    return found


def _tiles(move: str) -> list[str]:
    """The tiles a move names ("chi:345m" → 3m 4m 5m)."""
    if ":" not in move:
        return []
    out: list[str] = []
    digits = ""
    for ch in move.split(":", 1)[1]:
        if ch.isdigit():
            digits += ch
        elif ch in "mpszf":
            out += [d + ch for d in digits]
            digits = ""
    return out


def _check_block(page: Page, lang: str, record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The block shows the hindsight this test works out from the game's record."""
    expected = hindsight(Record.from_dict(record), seat)
    words = WORDS[lang]
    block = _block(page)
    assert block["title"] == words["title"]
    assert words["note"] in block["note"]
    points = words["points"].format(
        actual=_signed(expected.actual, words["unit"]), best=_signed(expected.best, words["unit"])
    )
    assert block["points"] == points
    if expected.departs_at is None:
        assert block["none"] == words["none"]
        assert (block["from"], block["moves"]) == (None, [])
        return block
    assert expected.departs_action is not None and expected.best > expected.actual
    line = [m.split(":", 1)[1] for m in expected.moves[expected.departs_at :]]
    frame = _frame_of_step(list(record["actions"]), expected.departs_action)
    assert block["none"] is None
    assert block["from"] == words["from"].format(frame=frame)
    assert block["step"] == expected.departs_action
    assert block["moves"] == line[:SHOWN]
    assert block["tiles"] == [_tiles(m) for m in line[:SHOWN]]
    assert block["more"] == (1 if len(line) > SHOWN else 0)
    return block


def _check_none(page: Page, lang: str, record: dict[str, Any], seat: int) -> None:
    """A hindsight whose best line is the record (the library's with no budget: the record
    alone is played), drawn by the page's own ``hindsightEl``: "nothing would have done
    better", no line."""
    found = hindsight(Record.from_dict(record), seat, budget=0)
    assert found.departs_at is None and found.best == found.actual
    shown: dict[str, Any] = page.evaluate(
        """async (hs) => {
            const src = document.querySelector('script[type=module]').src;
            const m = await import(src.replace(/app\\.js$/, 'review.js'));
            const el = m.hindsightEl(hs, {zh: '番', en: 'fan'}, 'zh', null);
            return {
                points: el.querySelector('.rv-hs-points').textContent,
                none: el.querySelector('.rv-hs-none').textContent,
                moves: el.querySelectorAll('.rv-hs-move, .rv-hs-from').length,
            };
        }""",
        found.to_dict(),
    )
    words = WORDS[lang]
    signed = _signed(found.actual, words["unit"])
    assert shown == {
        "points": words["points"].format(actual=signed, best=signed),
        "none": words["none"],
        "moves": 0,
    }


def _shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.locator(".rv-hindsight").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))
    page.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hindsight_beside_the_review(browser: Browser, server: str, lang: str) -> None:
    """Slow (about 15 s): a hand against the computer (one discard, then 托管) at real speed,
    its review and hindsight worked out by the server, the hindsight searched again here, then
    the shared replay opened in a fresh context."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('erren.lang', '{lang}')")
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, server)
    discard(page)
    trustee_on(page)
    page.wait_for_selector(".settle", timeout=60000)
    page.click(".rv-ask")
    page.wait_for_selector(".rv-hindsight", timeout=30000)
    message = page.evaluate("window.erren.table.review")
    game, seat = message["game"], message["seat"]
    record = httpx.get(f"{server}/games/{game}").json()["record"]
    assert message["hindsight"] == hindsight(Record.from_dict(record), seat).to_dict()
    block = _check_block(page, lang, record, seat)
    _check_none(page, lang, record, seat)
    until(page, "!document.querySelector('#toasts .toast')", timeout=10000)  # 托管's notice
    _shoot(page, f"settle-{lang}")
    assert not errors, errors
    context.close()

    visitor = browser.new_context(viewport={"width": 390, "height": 844})
    visitor.add_init_script(f"localStorage.setItem('erren.lang', '{lang}')")
    view = visitor.new_page()
    errors = page_errors(view)
    view.goto(f"{server}/#/replay/{game}?review={seat}")
    view.wait_for_selector(".r-review .rv-hindsight", timeout=30000)
    assert _check_block(view, lang, record, seat) == block
    if block["step"] is not None:  # the step is a button: it jumps to where the line departs
        view.locator(".rv-hs-from").click()
        frame = _frame_of_step(list(record["actions"]), block["step"])
        assert view.eval_on_selector(".r-range", "(e) => Number(e.value)") == frame
    _shoot(view, f"replay-{lang}")
    assert not errors, errors
    visitor.close()
