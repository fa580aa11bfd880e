"""Quick chat and stickers at a bean table (issue 29, point 2), in a real Chromium: two players
quick-matched in a room, each in his own browser context.

A sends a phrase: both see the bubble beside A's seat (worded in each one's language) and A's
chat button greys for the 3 s wait.  B mutes A with the picker's switch: A's next sticker shows
only on A's own screen.  B unmutes him and switches 屏蔽聊天 on in the settings panel: nothing
again, and the switch is kept with B's account (``GET /me/settings``); switched off, A's next
phrase shows again.
"""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from ._support import guest_table, page_errors, pair_at_room, until

ROOM = "guobiao-2p/novice"
CHAT_AGAIN_MS = 8000
"""How long a test waits for the chat button to come back after the 3 s between two messages
of one player (it waits for the button, not for the clock)."""


def _bubbles(page: Page) -> list[str]:
    """The bubbles shown now: ``seat:text-or-sticker``."""
    found = page.eval_on_selector_all(
        ".board .chat-bubble",
        "els => els.map(e => e.dataset.seat + ':' + (e.querySelector('.sticker')"
        " ? e.querySelector('.sticker').dataset.sticker"
        " : e.querySelector('.chat-text').textContent))",
    )
    return [str(x) for x in found]


def _say(page: Page, kind: str, id_: str) -> None:
    page.click("#btn-chat")
    page.click(f".chat-tab >> nth={1 if kind == 'sticker' else 0}")
    page.click(f'.chat-picker [data-{kind}="{id_}"]')


def _mute_opponent(page: Page) -> bool:
    """Press the picker's 屏蔽对手 switch; whether it is on now."""
    page.click("#btn-chat")
    page.click("#btn-mute-opp")
    on = page.get_attribute("#btn-mute-opp", "aria-pressed") == "true"
    page.click(".chat-close")
    return on


def _mute_all(page: Page, on: bool) -> None:
    """Switch 屏蔽聊天 in the settings panel."""
    page.click("#btn-settings")
    page.set_checked('[data-setting="mutechat"] input', on)
    page.click("#btn-settings-close")


def _kept_with_account(server: str, page: Page) -> object:
    """The account's ``mutechat``, once the panel's change was sent (or after 5 s)."""
    token = page.evaluate("localStorage.getItem('erren.token')")
    headers = {"Authorization": f"Bearer {token}"}
    kept: object = None
    for _ in range(50):
        kept = httpx.get(server + "/me/settings", headers=headers).json()["settings"]["mutechat"]
        if kept is True:
            break
        page.wait_for_timeout(100)
    return kept


def _seat(page: Page) -> int:
    return int(page.evaluate("document.querySelector('.seat-mine .bar').dataset.seat"))


def test_a_phrase_is_seen_by_both_and_muting_hides_the_opponent(
    browser: Browser, server: str
) -> None:
    """Slow (about 20 s): two players matched in a room, three 3 s waits between A's messages
    and a bubble's 4 s life."""
    ctx_a, a, b = pair_at_room(browser, server, ROOM)
    errors = page_errors(a) + page_errors(b)
    try:
        seat_a = _seat(a)
        assert _seat(b) == 1 - seat_a
        # A speaks: both see the bubble beside A's bar, and A's button waits
        _say(a, "phrase", "hurry")
        until(b, "document.querySelector('.board .bar .chat-bubble') !== null")
        assert _bubbles(b) == [f"{seat_a}:快点吧，等得花儿都谢了"]
        assert b.locator(f'.seat-opp .bar[data-seat="{seat_a}"] .chat-bubble').count() == 1
        until(a, "document.querySelector('.board .chat-bubble') !== null")
        assert _bubbles(a) == [f"{seat_a}:快点吧，等得花儿都谢了"]
        # his own bubble stands above his hand, not over its first tiles (his bar is under it)
        assert a.locator(".seat-mine > .hand-row > .chat-bubble").count() == 1
        bubble = a.locator(".seat-mine .chat-bubble").bounding_box()
        hand = a.locator(".hand-mine").bounding_box()
        assert bubble and hand and bubble["y"] + bubble["height"] <= hand["y"]
        assert a.locator("#btn-chat").is_disabled()
        # the bubble goes after a few seconds
        until(b, "document.querySelector('.chat-bubble') === null", timeout=6000)
        # B mutes A: A's sticker shows on A's screen only
        until(a, "!document.querySelector('#btn-chat').disabled", timeout=4000)
        assert _mute_opponent(b)
        _say(a, "sticker", "tea")
        until(a, "document.querySelector('.seat-mine .chat-bubble .sticker') !== null")
        assert _bubbles(a) == [f"{seat_a}:tea"]
        b.wait_for_timeout(800)
        assert _bubbles(b) == []
        # B unmutes A and mutes everyone in the settings: nothing either
        assert not _mute_opponent(b)
        _mute_all(b, True)
        assert _kept_with_account(server, b) is True
        until(a, "!document.querySelector('#btn-chat').disabled", timeout=CHAT_AGAIN_MS)
        _say(a, "phrase", "nice-play")
        until(a, "document.querySelector('.chat-bubble .chat-text') !== null")
        b.wait_for_timeout(800)
        assert _bubbles(b) == []
        # switched off again: A's next phrase shows
        _mute_all(b, False)
        until(a, "!document.querySelector('#btn-chat').disabled", timeout=CHAT_AGAIN_MS)
        _say(a, "phrase", "thanks")
        until(b, "document.querySelector('.board .chat-bubble') !== null")
        assert _bubbles(b) == [f"{seat_a}:谢谢"]
        assert not errors, errors
    finally:
        ctx_a.close()
        b.context.close()


ASIDE_JS = """(errors) => {
  const tv = window.erren.table;
  const seen = [];
  for (const code of errors) {
    tv.steps = ["give:2m"];  // the rest of a multi-step answer, its first step on its way
    tv.inflight = {action: "give:1m", n: 1e9};
    tv.onMessage({type: "error", code, message: "-", params: {retry_ms: 1000, interval_s: 3}});
    seen.push([code, tv.steps.length, tv.inflight !== null]);
  }
  tv.steps = [];
  tv.inflight = null;
  return seen;
}"""
"""Each error in turn arriving while a move is on its way with one step left: what is left."""


def test_a_refused_chat_line_leaves_the_move_on_its_way_alone(
    context: BrowserContext, server: str
) -> None:
    """A chat line refused (too fast, or blocked), a review refused or a busy hint are not
    answers to the player's move: the move on its way and the rest of a multi-step answer (an
    exchange's or a kong's next tiles) stay; an error about the move itself drops both."""
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, server)
    aside = ["chat-too-fast", "chat-blocked", "no-review", "busy"]
    seen = page.evaluate(ASIDE_JS, [*aside, "illegal", "stale"])
    about_the_move = [["illegal", 0, False], ["stale", 0, False]]
    assert seen == [[code, 1, True] for code in aside] + about_the_move
    assert not errors, errors
