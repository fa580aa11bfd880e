"""Watching a table in a real Chromium (issue #29, point 3): a registered player who lets
everyone watch plays the computer; a guest opens ``#/watch/<table>`` and sees the public view
read-only — both rivers, both hands face down, no hand actions — in both languages and at the
phone sizes; the player's own page counts him.  Screenshots go to ``/tmp/shots/watch/``."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from ._support import discards_in_one_hand, next_hand, page_errors, register_in_page, until

SHOTS = Path("/tmp/shots/watch")
SIZES = {"390x844": (390, 844), "360x740": (360, 740), "844x390": (844, 390)}


def _computer_table(page: Page, url: str) -> str:
    """The registered player at ``page`` lets everyone watch and opens a table against the
    computer: its id (joined)."""
    register_in_page(page, url)
    table = page.evaluate(
        """async () => {
          const auth = {'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('erren.token')};
          const s = await fetch('/me/settings', {method: 'PUT', headers: auth,
            body: JSON.stringify({watch: 'everyone'})});
          if (!s.ok) throw new Error(await s.text());
          const r = await fetch('/tables/vs-computer', {method: 'POST', headers: auth,
            body: JSON.stringify({family: 'guobiao-2p', options: {}})});
          const body = await r.json();
          if (!r.ok) throw new Error(JSON.stringify(body));
          return body.table; }"""
    )
    page.evaluate(f"location.hash = '#/table/{table}'")
    page.wait_for_selector(".board", timeout=15000)
    return str(table)


def test_a_guest_watches_a_table(browser: Browser, server: str) -> None:
    """Slow: six pages (two languages, three phone sizes) each log in and draw the table."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    player_ctx = browser.new_context(viewport={"width": 1200, "height": 840})
    player = player_ctx.new_page()
    errors = page_errors(player)
    table = _computer_table(player, server)
    while not discards_in_one_hand(player, 3):  # the computer ended the hand: the next one
        next_hand(player)
    for lang in ("zh", "en"):
        for label, (width, height) in SIZES.items():
            ctx = browser.new_context(viewport={"width": width, "height": height})
            page = ctx.new_page()
            errors += page_errors(page)
            page.goto(server + "/")
            page.evaluate(f"localStorage.setItem('erren.lang', '{lang}')")
            page.goto(server + "/")
            page.click("#btn-guest")
            page.wait_for_selector("#btn-computer")
            page.evaluate(f"location.hash = '#/watch/{table}'")
            page.wait_for_selector(".watch .board", timeout=15000)
            until(page, "document.querySelectorAll('.watch .hand-mine .tile').length > 0")
            # face down: no tile of either concealed hand is drawn, and nothing to press
            faces = page.eval_on_selector_all(
                ".watch .hand .tile", "els => els.filter(e => e.dataset.tile !== 'back').length"
            )
            assert faces == 0, f"{faces} face-up tiles in a spectator's hands"
            assert page.query_selector_all(".watch .actions button, .watch .hand .tile.can") == []
            count = "1 人观战" if lang == "zh" else "1 watching"
            until(page, f"document.querySelector('.watch-count').textContent.includes('{count}')")
            page.screenshot(path=str(SHOTS / f"watch-{lang}-{label}.png"))
            # the player sees how many watch (a count, no names)
            until(player, "!!document.querySelector('.table-top .watchers')")
            if lang == "zh" and label == "390x844":
                player.screenshot(path=str(SHOTS / "player-sees-the-count.png"))
            ctx.close()
    assert not errors, errors
    player_ctx.close()
