"""What the player is asked, in a real Chromium against a real server: xiamen's opening window
never asks a player whose only move is pass (the table passes it, so the hand's first real
decision comes at once, not after the window's 10 s); arcade's pung offer (R2.22) says what is
offered, with its tiles, and both choices, never "your turn"; 托管 switched on by two timeouts is
told, with why, seen and in the page's live region, and so is its end, and its end with the hand.

Screenshots of each state at 390×844, 360×740 and 844×390, in Chinese and English:
``prompts-*.png`` in the screenshots folder."""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, WebSocketRoute
from playwright.sync_api import Error as PlaywrightError

from ._support import PASS, guest_table, next_hand, page_errors, river, until, vs_computer_table

SIZES = ((390, 844), (360, 740), (844, 390))
OPENING_TIMER_S = 10
"""xiamen R-2.11: the OPENING decision's timer, 10 s; before the fix a pass-only opening window
waited it out."""
AUTO_TRUSTEE_AFTER = 2
"""guobiao-2p §2.9 ``auto_trustee_after``: consecutive timeouts that put a player in 托管."""
SEEN = """() => {
  const q = (s) => document.querySelector(s);
  const prompt = q('.seat-mine > .prompt');
  return {
    prompt: prompt ? prompt.innerText : '',
    promptTiles: prompt ? [...prompt.querySelectorAll('.tile')].map((e) => e.dataset.tile) : [],
    buttons: [...document.querySelectorAll('.actions button.act:not(.hint)')]
      .map((b) => b.dataset.key),
    discards: document.querySelectorAll('.hand-mine .tile.can').length,
    settled: !!q('.settle'),
    toasts: [...document.querySelectorAll('#toasts .toast')].map((e) => e.innerText),
  };
}"""


def _seen(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(SEEN)
    return seen


def _context(browser: Browser, lang: str = "zh") -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    ctx.add_init_script(f"localStorage.setItem('erren.lang', '{lang}')")
    return ctx, ctx.new_page()


def _lang(page: Page, lang: str) -> None:
    """Switch the page to ``lang`` with the header's switch (the table is drawn again).  The
    click goes to the switch itself: a hand that ends meanwhile (the opening window's timer can
    run out during the screenshots on a loaded machine) lays its settlement over the header."""
    if page.evaluate("document.documentElement.lang").startswith(lang):
        return
    page.dispatch_event("#lang", "click")
    until(page, f"document.documentElement.lang.startsWith('{lang}')")


def _shoot(page: Page, shots: Path, name: str) -> None:
    """The state as it is, at each size and in both languages; back to Chinese at the first
    size."""
    for lang in ("zh", "en"):
        _lang(page, lang)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(shots / f"prompts-{name}-{lang}-{width}x{height}.png"))
    _lang(page, "zh")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def _shots(page: Page, shots: Path, name: str) -> None:
    """The page at each size, in its language now (a toast stays in the language it was
    said in)."""
    lang = "zh" if page.evaluate("document.documentElement.lang").startswith("zh") else "en"
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(shots / f"prompts-{name}-{lang}-{width}x{height}.png"))
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def _click(page: Page, selector: str) -> None:
    """Click the last element matching ``selector``; the board redraws often, so a miss is
    just a retry of the caller's loop."""
    with contextlib.suppress(PlaywrightError):
        page.locator(selector).last.click(timeout=1000)


# ---------------------------------------------------------------------------- xiamen's opening
def _pass_only_offer(seen: dict[str, Any]) -> bool:
    """Offered nothing but pass, or asked to claim with no tile on offer."""
    buttons = seen["buttons"]
    only_pass = bool(buttons) and all(key == " " for key in buttons)
    return only_pass or ("要这张牌吗" in seen["prompt"] and not seen["promptTiles"])


def test_xiamen_opens_without_a_pass_only_prompt(
    browser: Browser, server: str, shots: Path
) -> None:
    """From the deal to the player's first real decision (a discard, or a choice with its tile)
    he is never offered pass alone nor asked to claim with no tile shown, and that decision
    comes before the opening window's 10 s would have run out.  About 10 s: the six
    screenshots."""
    ctx, page = _context(browser)
    errors = page_errors(page)
    try:
        guest_table(page, server, "xiamen")
        start = time.monotonic()
        while True:
            seen = _seen(page)
            assert not _pass_only_offer(seen), seen
            if seen["discards"] or seen["buttons"] or seen["settled"]:
                break
            assert time.monotonic() - start < 2 * OPENING_TIMER_S, "no decision came"
            page.wait_for_timeout(50)
        waited = time.monotonic() - start
        # the hand's first real decision (his discard, or a choice on the tile on offer) came
        # before a pass-only opening window would have run out
        assert waited < OPENING_TIMER_S, waited
        if seen["buttons"] and not seen["discards"]:
            assert seen["promptTiles"], seen  # a choice comes with its tile
        _shoot(page, shots, "xiamen-first-decision")
        assert errors == []
    finally:
        ctx.close()


CLAIMS = ".actions button.act[data-key='h'], .actions button.act[data-key='p'], " + (
    ".actions button.act[data-key='c'], .actions button.act[data-key='k']"
)


def _to_claim(page: Page, limit_s: float = 90) -> None:
    """Play (discard the drawn tile; the next hand after one is over) until a claim of the
    opponent's discard is offered."""
    deadline = time.monotonic() + limit_s
    while not (page.locator(CLAIMS).count() and page.locator(PASS).count()):
        assert time.monotonic() < deadline, f"no claim was offered within {limit_s:g} s"
        if page.locator(".settle-next").count():
            _click(page, ".settle-next")
        elif page.locator(".hand-mine .tile.can").count():
            _click(page, ".hand-mine .tile.can")
        page.wait_for_timeout(50)


def test_a_claim_prompt_shows_the_tile_on_offer(browser: Browser, server: str, shots: Path) -> None:
    """Asked to claim, the player sees the tile he is asked about in the prompt: the
    opponent's last discard, in Chinese and English.  About 15 s: a few turns to the first
    claim (one suit and the honours: chows come early), six screenshots."""
    ctx, page = _context(browser)
    errors = page_errors(page)
    try:
        guest_table(page, server)
        _to_claim(page)
        offered = page.get_attribute(".river-opp .tile.last", "data-tile")
        seen = _seen(page)
        assert "要这张牌吗？" in seen["prompt"] and seen["promptTiles"] == [offered], seen
        _lang(page, "en")
        seen = _seen(page)
        assert "Claim this tile?" in seen["prompt"] and seen["promptTiles"] == [offered], seen
        _shoot(page, shots, "claim")
        assert errors == []
    finally:
        ctx.close()


# ---------------------------------------------------------------------------- the pung offer
class Offers:
    """The pung offers the page hears on its table's socket (the ``pung-offer`` events) and
    how many were taken (``takepung``)."""

    def __init__(self, page: Page) -> None:
        self.tiles: list[str] = []
        self.seat: int | None = None
        self.taken = 0
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if isinstance(message, dict) and message.get("type") == "events":
            for event in message.get("events", []):
                if event.get("kind") == "pung-offer" and event.get("tile"):
                    self.tiles.append(str(event["tile"]))
                    self.seat = event["player"]  # only the player's own offers are his to see
                elif event.get("kind") == "takepung" and event.get("player") == self.seat:
                    self.taken += 1


TAKE = '.actions button.act[data-key="x"]'
OFFERED = "系统送你一副刻子"


def _to_offer(page: Page, limit_s: float = 60) -> None:
    """Play (pass claims, discard the drawn tile; the next hand after one is over: the computer
    is offered a pung at every draw too and may win before the player's first draw) until the
    pung offer's button shows."""
    deadline = time.monotonic() + limit_s
    while not page.locator(TAKE).count():
        assert time.monotonic() < deadline, f"no pung offer came within {limit_s:g} s"
        if page.locator(".settle-next").count():
            _click(page, ".settle-next")
        elif page.locator(PASS).count():
            _click(page, PASS)
        elif page.locator(".hand-mine .tile.can").count():
            _click(page, ".hand-mine .tile.can")
        page.wait_for_timeout(50)


def test_the_pung_offer_says_what_is_offered_and_the_choices(
    browser: Browser, server: str, shots: Path
) -> None:
    """The offer (every draw brings one at this table) reads as an offer of the pung, drawn
    as the three tiles the server offered, with both choices, in Chinese and English, never
    as "your turn"; taking it asks for the three tiles; a discard declines it.  About 20 s:
    a few turns to the first offer, and eighteen screenshots."""
    ctx, page = _context(browser)
    errors = page_errors(page)
    offers = Offers(page)
    try:
        # every normal draw brings the offer (R2.22 with probability 1), no opening exchange
        rules = {"pung_offer_prob": 1.0, "opening_exchange": False, "pick_any_prob": 0.0}
        vs_computer_table(page, server, "arcade", rules)
        _to_offer(page)
        offered = offers.tiles[-1]
        seen = _seen(page)
        assert "轮到你出牌" not in seen["prompt"], seen
        assert OFFERED in seen["prompt"], seen
        assert "换刻子" in seen["prompt"] and "直接出牌" in seen["prompt"], seen
        assert seen["promptTiles"] == [offered] * 3, (seen, offered)
        _lang(page, "en")
        seen = _seen(page)
        assert "Your turn" not in seen["prompt"], seen
        assert "You are offered a pung" in seen["prompt"], seen
        assert "Take the pung" in seen["prompt"] and "discard" in seen["prompt"], seen
        assert seen["promptTiles"] == [offered] * 3
        _lang(page, "zh")
        _shoot(page, shots, "pung-offer")
        # taking it: the prompt asks for the three tiles, the pung still drawn
        page.locator(TAKE).click()
        until(page, "document.querySelector('.seat-mine > .prompt').innerText.includes('选 3 张')")
        assert _seen(page)["promptTiles"] == [offered] * 3
        _shoot(page, shots, "pung-take")
        # declining, as the prompt says: back to the offer (Escape), then a discard
        page.keyboard.press("Escape")
        offer_again = f".innerText.includes({json.dumps(OFFERED)})"
        until(page, f"document.querySelector('.seat-mine > .prompt'){offer_again}")
        before = len(river(page))
        tile = page.locator(".hand-mine .tile.can").last.get_attribute("data-tile")
        page.locator(".hand-mine .tile.can").last.click()
        until(page, f"document.querySelectorAll('.river-mine .tile').length > {before}")
        assert river(page)[before] == tile and offers.taken == 0
        assert errors == []
    finally:
        ctx.close()


# ---------------------------------------------------------------------------- 托管
class Freeze:
    """The page's socket, through a route that holds the table's news back from the first
    message switching 托管 on until :meth:`release` (the page's table stands still for its
    screenshots and its other language while the server plays on; pongs pass, so the page does
    not take the connection for lost).  Once only."""

    def __init__(self, page: Page) -> None:
        self.holding = False
        self.armed = True
        self.held: list[str | bytes] = []
        self.page_side: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r".*/ws$"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        self.page_side = ws
        ws.on_message(upstream.send)
        upstream.on_message(self._down)

    def _down(self, payload: str | bytes) -> None:
        assert self.page_side is not None
        message = _message(payload)
        if self.holding and message.get("type") in ("events", "snapshot"):
            self.held.append(payload)
            return
        self.page_side.send(payload)
        events = message.get("events", []) if message.get("type") == "events" else []
        if self.armed and any(e.get("kind") == "trustee" and e["data"]["on"] for e in events):
            self.holding, self.armed = True, False

    def release(self) -> None:
        """Deliver what was held, in order, and hold nothing more."""
        assert self.page_side is not None
        self.holding = False
        for payload in self.held:
            self.page_side.send(payload)
        self.held.clear()


def _message(payload: str | bytes) -> dict[str, Any]:
    try:
        message = json.loads(payload)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def _toast(page: Page, text: str, timeout: float = 20000) -> None:
    """Wait for a toast holding ``text``, and check it is in the page's polite live region."""
    toasts = f"""[...document.querySelectorAll('#toasts .toast')]
      .filter((e) => e.innerText.includes({json.dumps(text)}))"""
    until(page, f"{toasts}.length", timeout)
    live = page.evaluate(
        f"{toasts}.map((e) => e.closest('[aria-live]')?.getAttribute('aria-live'))"
    )
    assert "polite" in live, live


SWITCH_ON = "document.querySelector('.bar-row .switch.on')"


def _until_trustee(page: Page, limit_s: float = 60) -> None:
    """Wait, doing nothing, until 托管 switches on; a hand over first (the computer won early)
    is followed by the next."""
    deadline = time.monotonic() + limit_s
    while not page.evaluate(SWITCH_ON):
        assert time.monotonic() < deadline, f"托管 did not come on within {limit_s:g} s"
        if page.locator(".settle-next").count():
            _click(page, ".settle-next")
        page.wait_for_timeout(50)


def test_trustee_is_told_on_off_and_at_the_next_hand(
    browser: Browser, server: str, shots: Path
) -> None:
    """A player who does nothing at a table with one-second timers is told, seen and in the
    live region, that 托管 is on because of his two timeouts (Chinese; the prompt in English
    too); at the next hand he is told it is off; switching it on and off himself is told as
    well.  About 20 s: two timeouts, a hand played out under 托管, eighteen screenshots."""
    for _ in range(3):
        ctx, page = _context(browser)
        errors = page_errors(page)
        freeze = Freeze(page)
        # one-second timers: the player who does nothing times out twice within seconds
        vs_computer_table(page, server, "guobiao-2p", {"turn_timeout_s": 1, "claim_timeout_s": 1})
        _until_trustee(page)  # the page's table stands still from there
        if not page.locator(".settle").count():
            break
        # the hand ended in the very message that switched 托管 on (the computer won on the
        # discard made for him): nothing left to be told in it; a new table
        ctx.close()
    else:
        raise AssertionError("three hands in a row ended as 托管 came on")
    try:
        on_by_timeouts = f"你连续超时 {AUTO_TRUSTEE_AFTER} 次，已自动托管"
        _toast(page, on_by_timeouts)
        assert on_by_timeouts in _seen(page)["prompt"]  # and it stays said while it lasts
        _lang(page, "en")
        in_english = f"You timed out {AUTO_TRUSTEE_AFTER} times in a row"
        assert in_english in _seen(page)["prompt"]
        _shoot(page, shots, "trustee-on")
        _lang(page, "en")
        freeze.release()  # the hand played on under 托管 meanwhile: to its end
        page.wait_for_selector(".settle", timeout=60000)
        assert page.evaluate(SWITCH_ON)
        _toast_clear_of_the_settlement(page)
        # the next hand: 托管 lasted one hand, and he is told so
        page.locator(".settle-next").click()
        _toast(page, "A new hand has started and auto-play is off")
        until(page, f"!document.querySelector('.settle') && !{SWITCH_ON}")
        _shots(page, shots, "trustee-new-hand")
        # switched on and off by the player (A): told both
        _lang(page, "zh")
        _switched_by_key_both_ways(page)
        _shots(page, shots, "trustee-off")
        assert errors == []
    finally:
        ctx.close()


TOLD_ON, TOLD_OFF = "托管中：系统替你出牌", "托管已关闭"


def _told_by_key(page: Page, text: str, timeout: float = 20000) -> bool:
    """Press A (托管 on/off) and wait for a new toast holding ``text``, in the polite live
    region: True; False if the hand ends first (the switch may have been refused)."""
    page.evaluate("document.querySelectorAll('#toasts .toast').forEach((e) => e.dataset.old = 1)")
    new = f"""[...document.querySelectorAll('#toasts .toast:not([data-old])')]
      .filter((e) => e.innerText.includes({json.dumps(text)}))"""
    page.keyboard.press("a")
    until(page, f"{new}.length || document.querySelector('.settle')", timeout)
    live = page.evaluate(f"{new}.map((e) => e.closest('[aria-live]')?.getAttribute('aria-live'))")
    if not live:
        return False
    assert "polite" in live, live
    return True


def _switched_by_key_both_ways(page: Page) -> None:
    """Switch 托管 with A until both ways have been told (on, then off; or off first, where the
    one-second timers switched it on meanwhile), in a running hand; a hand that ends in
    between (托管 plays quickly) is followed by the next."""
    told: set[str] = set()
    for _ in range(6):
        if page.locator(".settle").count():
            next_hand(page)
        on = bool(page.evaluate(SWITCH_ON))
        text = TOLD_OFF if on else TOLD_ON
        if _told_by_key(page, text):
            told.add(text)
            # the switch shows the change before it is pressed again
            until(page, f"!!{SWITCH_ON} !== {json.dumps(on)} || document.querySelector('.settle')")
        if told == {TOLD_ON, TOLD_OFF}:
            return
    raise AssertionError(f"托管 switched by A was told only {sorted(told)} in six tries")


def _toast_clear_of_the_settlement(page: Page) -> None:
    """A toast shown over the settlement leaves the card's last lines (its buttons) in sight:
    the card ends above the toast (it used to run under it), on a phone held sideways."""
    size = page.viewport_size
    page.set_viewport_size({"width": 844, "height": 390})
    page.evaluate(
        "document.getElementById('toasts').append(Object.assign("
        "document.createElement('div'), {className: 'toast probe', textContent: 'probe'}))"
    )
    card = page.eval_on_selector(".settle-card", "e => e.getBoundingClientRect().bottom")
    shown = "[...document.querySelectorAll('.toast')].filter((e) => e.offsetParent)"
    tops = page.evaluate(f"{shown}.map((e) => e.getBoundingClientRect().top)")
    assert tops and card <= min(tops)
    page.evaluate("document.querySelector('.toast.probe').remove()")
    if size is not None:
        page.set_viewport_size(size)


def test_the_tables_toasts_go_with_the_table(browser: Browser, server: str) -> None:
    """ "托管 is on" is no news in the lobby: a player switches 托管 on (told by a toast) and
    leaves the table at once; back in the lobby, within the toast's four seconds, no toast about
    the table is left.  A toast that is not the table's (a lobby's) is untouched by the rule."""
    ctx, page = _context(browser)
    errors = page_errors(page)
    vs_computer_table(page, server, "guobiao-2p", {})
    page.wait_for_selector(".bar-row .switch")
    page.keyboard.press("a")
    _toast(page, "托管中：系统替你出牌")
    # 托管 plays fast and the table is drawn again at each move: a click by the script
    page.evaluate("document.querySelector('.table-top .leave').click()")
    with contextlib.suppress(PlaywrightError):  # asked only while the hand runs
        page.click("#btn-leave-yes", timeout=2000)
    until(page, "!location.hash.startsWith('#/table/')", 10_000)
    left = page.evaluate("[...document.querySelectorAll('#toasts .toast')].map((e) => e.innerText)")
    assert not any("托管" in text for text in left), left
    # the lobby's own toasts stay: the rule takes only the table's
    dom = "document.querySelector('script[type=module]').src.replace(/app[.]js$/, 'dom.js')"
    page.evaluate(f"import({dom}).then((m) => m.toast('lobby news'))")
    news = (
        "[...document.querySelectorAll('#toasts .toast')].some((e) => e.innerText === 'lobby news')"
    )
    until(page, news)
    ctx.close()
    assert errors == []
