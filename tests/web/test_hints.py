"""The hints in a real Chromium: the ready hint of a tile on hover and on a long press (which
does not discard it), the hint button's reason, the hints switch remembered over a reload, and
the review at the settlement; no page errors."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from ._support import my_turn, trustee_on, until

WAITS = [["3m", 2], ["6m", 3]]


def _ready_hint(page: Page, shots: Path) -> None:
    """A position where throwing a tile leaves the hand ready on 3m (2 left) and 6m (3 left):
    its popover on hover, and on a long press whose release does not discard it."""
    tile = page.evaluate(
        """(waits) => { const t = window.erren.table; const tile = t.state.hand[0];
        t.state = {...t.state, hints: {discards: {[tile]: waits}, waits: null}}; t.render();
        return tile; }""",
        WAITS,
    )
    ready = page.locator(".hand-mine .tile.readies")
    assert ready.count() == page.evaluate(
        "(tile) => window.erren.table.state.hand.filter((x) => x === tile).length", tile
    )
    assert ready.first.get_attribute("data-tile") == tile
    ready.first.hover()
    pop = ready.first.locator(".hn-pop")
    pop.wait_for(state="visible", timeout=3000)
    shown = [w.get_attribute("data-tile") for w in pop.locator(".hn-wait .tile").all()]
    assert shown == ["3m", "6m"]
    text = pop.inner_text()
    assert "剩2张" in text and "剩3张" in text and "共5张" in text
    page.screenshot(path=str(shots / "hints-01-ready.png"))
    page.mouse.move(0, 0)
    river = page.locator(".river-mine .tile").count()
    ready.first.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    until(page, "document.querySelector('.hand-mine .tile.readies.hn-open')", timeout=3000)
    ready.first.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    ready.first.dispatch_event("click")
    page.wait_for_timeout(300)
    assert page.locator(".river-mine .tile").count() == river


def _switch_remembered(page: Page) -> None:
    """The switch turns hints off, and it is remembered over a reload; then on again."""
    page.click(".table-top .hn-switch")
    page.wait_for_selector(".table-top .hn-switch:not(.on)")
    assert page.locator("#btn-hint").count() == 0
    assert page.evaluate("localStorage.getItem('erren.hints.guobiao-2p')") == "off"
    page.reload()
    page.wait_for_selector(".board", timeout=15000)
    page.wait_for_selector(".table-top .hn-switch:not(.on)")
    assert page.locator("#btn-hint").count() == 0
    page.click(".table-top .hn-switch")
    page.wait_for_selector(".table-top .hn-switch.on")


def _own_discards(page: Page, n: int) -> int:
    """Discard ``n`` tiles by hand (fewer if the hand ends); returns how many."""
    own = 0
    for _ in range(n):
        if not my_turn(page, 20000):  # the hand ended
            break
        river = page.locator(".river-mine .tile").count()
        page.locator(".hand-mine .tile.can").last.click()
        until(
            page,
            f"document.querySelectorAll('.river-mine .tile').length > {river}"
            " || document.querySelector('.settle')",
            timeout=5000,
        )
        own += 1
    return own


def test_ready_hints_reason_switch_and_review(browser: Browser, server: str, shots: Path) -> None:
    """Slow (about 8 s): a hand at real speed with the hints on, then the review computed on the
    server."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server + "/")
    page.click("#btn-guest")
    page.wait_for_selector("#btn-computer")
    page.click('button.fam[data-family="guobiao-2p"]')
    page.click("#btn-computer")
    assert my_turn(page, 15000)
    # the server sends the ready hints with the player's own state
    assert page.evaluate("typeof window.erren.table.state.hints.discards") == "object"
    _ready_hint(page, shots)

    # the hint button: the expert's move is marked and says why
    page.click("#btn-hint")
    page.wait_for_selector(".hn-why", timeout=10000)
    assert page.inner_text(".hn-why").strip()
    page.screenshot(path=str(shots / "hints-02-reason.png"))
    _switch_remembered(page)

    # two discards of his own, then 托管 finishes the hand; 大师's review lists his own
    # decisions (托管's are not his), those unlike 大师's shown
    own = _own_discards(page, 2)
    trustee_on(page)
    page.wait_for_selector(".settle", timeout=60000)
    page.click(".rv-ask")
    page.wait_for_selector(".rv-sum", timeout=30000)
    review = page.evaluate("window.erren.table.review")["review"]
    assert len(review["decisions"]) >= own
    differ = [d for d in review["decisions"] if d["player"]["text"] != d["bot"]["text"]]
    assert page.locator(".rv-row").count() == len(differ)
    page.screenshot(path=str(shots / "hints-03-review.png"), full_page=True)
    assert not errors, errors
    context.close()
