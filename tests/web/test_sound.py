"""Sound and motion at the table, in a real Chromium against a real server (issue 14, point 3).

The page's Web Audio is watched, not replaced: an init script wraps ``AudioContext`` so every
oscillator and noise source started is logged, listens to the client's ``erren:sound`` event (the
cue that sounded) and logs every Web Animation started (``Element.animate``, by its id).  The
tests play a newcomer's moves against the computer and read those logs."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from ._support import guest_table, my_turn, page_errors, until

SPY = """
(() => {
  window.__cues = [];
  window.__nodes = [];
  window.__anims = [];
  addEventListener("erren:sound", (e) => window.__cues.push(e.detail));
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() {
      const osc = super.createOscillator();
      const start = osc.start.bind(osc);
      osc.start = (...a) => { window.__nodes.push(osc.type); return start(...a); };
      return osc;
    }
    createBufferSource() {
      const src = super.createBufferSource();
      const start = src.start.bind(src);
      src.start = (...a) => { window.__nodes.push("noise"); return start(...a); };
      return src;
    }
  };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__anims.push(options && options.id);
    return animate.call(this, frames, options);
  };
})();
"""
# the client's own sound module (the same instance as the table's: the page's versioned address)
SOUND = "import(document.querySelector('script[type=module]').src.replace(/app[.]js$/, 'sound.js'))"
# every cue of the client (sound.js), by the moment of play it marks
CUES = ("draw", "discard", "chi", "peng", "gang", "hu", "warn", "win", "lose")


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1200, "height": 840})
    ctx.add_init_script(SPY)
    try:
        yield ctx
    finally:
        ctx.close()


def _sound(page: Page, fn: str, arg: object = None) -> Any:
    """Call ``fn`` (JavaScript: ``(s, arg) => ...``) with the client's sound module."""
    return page.evaluate(f"async (arg) => ({fn})(await {SOUND}, arg)", arg)


TABLE = "window.erren.table"
MINE_AFTER = (
    f"{TABLE}.events.some((e) => e.n > {{n}} && e.kind === 'discard' && e.player === {TABLE}.seat)"
)
THEIRS_AFTER = f"{TABLE}.events.some((e) => e.n > {{n}} && e.player === 1 - {TABLE}.seat)"
CAN_STYLE = "getComputedStyle(document.querySelector('.hand-mine .tile.can'))"
ANSWER_HEARD = "['draw', 'chi', 'peng', 'gang', 'hu'].some((c) => window.__cues.includes(c))"


def _discard(page: Page, limit_s: float = 30) -> int:
    """Discard the rightmost playable tile when it is our turn (passing any claim offered) and
    wait for the table to echo it; returns the last event number before the discard."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if page.locator(".settle-next").count():  # the computer won: the next hand
            with contextlib.suppress(PlaywrightError):
                page.locator(".settle-next").click(timeout=1500)
        tiles = page.locator(".hand-mine .tile.can")
        if tiles.count():
            n = int(page.evaluate("window.erren.table.lastN"))
            try:
                tiles.last.click(timeout=1500)
                until(page, MINE_AFTER.format(n=n), timeout=3000)
                return n
            except (PlaywrightError, AssertionError):
                pass
        passing = page.locator('.actions button.act[data-key=" "]')
        if passing.count():
            with contextlib.suppress(PlaywrightError):
                passing.last.click(timeout=1500)
        page.wait_for_timeout(60)
    raise AssertionError(f"no discard of ours within {limit_s} s")


def _a_turn(page: Page) -> None:
    """Wait for a discard of the player's own, in the next hand if the computer ends this one."""
    while not my_turn(page, 15000):
        page.locator(".settle-next").click()


def _opponent_moved_after(page: Page, n: int) -> None:
    """Wait until the table received the computer's next move (its draw, or a claim of our
    discard) after event ``n``."""
    until(page, THEIRS_AFTER.format(n=n), timeout=15000)


def test_cues_of_a_hand_the_mute_switch_and_motion(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    errors = page_errors(page)
    guest_table(page, server)

    # a discard is heard and travels to the river; the computer's answer (its draw, softly, or a
    # claim, or its win) is heard
    n = _discard(page)
    until(page, "window.__cues.includes('discard')")
    _opponent_moved_after(page, n)
    until(page, ANSWER_HEARD)
    assert page.evaluate("window.__nodes.length") > 0  # real oscillators and noise started
    assert "discard" in page.evaluate("window.__anims")
    _a_turn(page)
    assert page.evaluate(f"{CAN_STYLE}.transitionDuration") == "0.1s"

    # every cue sounds, and each is made of different notes
    notes = _sound(
        page,
        """(s, cues) => {
        const out = {};
        for (const cue of cues) {
          const at = window.__nodes.length;
          s.play(cue);
          out[cue] = window.__nodes.slice(at).sort().join(",");
        }
        return out;
    }""",
        list(CUES),
    )
    assert all(notes[c] for c in CUES), notes
    assert len(set(notes.values())) == len(CUES), notes

    # the events a seat receives, to their cues: one move cue per batch (the strongest), then
    # the end of the hand (my win's fanfare, the opponent's win's falling line)
    batches = [
        ([{"n": 1, "kind": "draw", "player": 1}], ["draw"]),
        ([{"n": 1, "kind": "ting", "player": 0, "tile": "5m"}], ["discard"]),
        ([{"n": 1, "kind": "chi", "player": 0}], ["chi"]),
        (
            [
                {"n": 1, "kind": "discard", "player": 1, "tile": "3s"},
                {"n": 2, "kind": "peng", "player": 0},
            ],
            ["peng"],
        ),
        ([{"n": 1, "kind": k, "player": 1} for k in ("minggang", "angang", "jiagang")], ["gang"]),
        (
            [
                {"n": 1, "kind": "zimo", "player": 0},
                {"n": 2, "kind": "settlement", "result": {"kind": "win", "winner": 0}},
            ],
            ["hu", "win"],
        ),
        (
            [
                {"n": 1, "kind": "hu", "player": 1},
                {"n": 2, "kind": "settlement", "result": {"kind": "win", "winner": 1}},
            ],
            ["hu", "lose"],
        ),
        ([{"n": 1, "kind": "settlement", "result": {"kind": "draw"}}], []),
        ([{"n": 1, "kind": "pass", "player": 0}], []),
    ]
    for events, expected in batches:
        heard = _sound(
            page,
            """(s, events) => {
                window.__cues = [];
            s.soundEvents(events, 0);
            return window.__cues;
        }""",
            events,
        )
        assert heard == expected, (events, heard)

    # the last seconds of the player's own countdown beep, once a second from 5 to 1
    page.evaluate("window.__cues = []")
    page.evaluate(
        """() => {
        const el = document.createElement("div");
        el.className = "timer test-timer";
        el.dataset.end = String(Date.now() + 3500);
        el.dataset.mine = "1";
        el.append(Object.assign(document.createElement("span"), {className: "secs"}));
        document.body.append(el);
    }"""
    )
    until(page, "window.__cues.includes('warn')", timeout=4000)
    page.evaluate("document.querySelectorAll('.test-timer').forEach((e) => e.remove())")
    beeps = _sound(
        page,
        """(s) => {
        window.__cues = [];
        for (const left of [7, 6, 5, 5, 5, 4, 3, 3, 2, 1, 1, 0]) s.warnTimer("a test timer", left);
        return window.__cues;
    }""",
    )
    assert beeps == ["warn"] * 5

    # the mute switch silences everything, and the browser remembers it
    switch = page.locator("#btn-sound")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.click()
    assert page.locator("#btn-sound").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('erren.sound')") == "off"
    page.evaluate("window.__cues = []; window.__nodes = []")
    n = _discard(page)
    _opponent_moved_after(page, n)
    page.evaluate(f"{SOUND}.then((s) => s.play('hu'))")
    assert page.evaluate("window.__cues") == []
    assert page.evaluate("window.__nodes") == []
    page.reload()
    page.wait_for_selector("#btn-sound", timeout=15000)
    assert page.locator("#btn-sound").get_attribute("aria-pressed") == "true"
    page.keyboard.press("m")  # the shortcut switches the sounds back on
    assert page.locator("#btn-sound").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('erren.sound')") is None
    assert errors == []


def test_reduced_motion_moves_nothing(browser: Browser, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1200, "height": 840}, reduced_motion="reduce")
    ctx.add_init_script(SPY)
    try:
        page = ctx.new_page()
        errors = page_errors(page)
        guest_table(page, server)
        n = _discard(page)
        until(page, "window.__cues.includes('discard')")  # still heard
        _opponent_moved_after(page, n)
        _a_turn(page)
        assert page.evaluate("window.__anims") == []
        assert page.evaluate("document.getAnimations().length") == 0
        assert page.evaluate(f"{CAN_STYLE}.transitionDuration") == "0s"
        assert errors == []
    finally:
        ctx.close()
