"""The table in the ways people hold a screen (issue 28: items 2, 16-19, deliverable 3).

At every size a player meets (a phone held sideways, 844×390 and 740×360; upright, 390×844 and
360×740; a desktop, 1280×800), in Chinese and in English, at a real table against the computer in
each family: the page does not scroll, every tile of the hand and every button lies inside the
screen, tiles are big enough to touch (32 px tall sideways, 24 px each way upright), the header
is one row, and both discard rows say whose they are, the opponent's nearer him.  The countdown
never blanks when the board is redrawn and never counts down on the player's side while he has
nothing to decide.  A whole arcade hand (the longest discard rows) still fits sideways; its
replay's first and last step buttons are drawn (no font glyph needed) and named.  The 复盘 at the
settlement fits every size too: nothing leaves its card, each move is said on one row.

Screenshots: ``artifacts/screenshots/layout/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from ._support import (
    REPLAY_MS,
    discard,
    discards_in_one_hand,
    guest_table,
    my_turn,
    page_errors,
    trustee_on,
    until,
)

SIZES = [(844, 390), (740, 360), (390, 844), (360, 740), (1280, 800)]
"""Width × height: a phone sideways (two sizes), upright (two sizes), a desktop."""
FAMILIES = ("guobiao-2p", "xiamen", "arcade")
LANGS = ("zh", "en")
RIVERS = {"zh": ("对手的弃牌", "你的弃牌"), "en": ("Opponent's discards", "Your discards")}
"""The labels of the opponent's and the player's discard rows."""
REPLAY_ENDS = {"zh": ("第一步", "最后一步"), "en": ("First step", "Last step")}
"""The accessible names of the replay's first and last step buttons."""
MIN_SIDEWAYS_TILE = 32
"""The least height of a tile of the hand, sideways and on the desktop (px)."""
MIN_TOUCH = 24
"""The least width and height of a touch target on a phone held upright (px)."""

MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const seen = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const name = (e) => (e.getAttribute("aria-label") || e.textContent || e.className).trim();
  const doc = document.scrollingElement;
  return {
    vw: innerWidth, vh: innerHeight, sw: doc.scrollWidth, sh: doc.scrollHeight,
    tiles: [...document.querySelectorAll(".hand-mine > .tile")].map(box),
    discards: [...document.querySelectorAll(".river > .tile")].map(box),
    buttons: [...document.querySelectorAll("button")].filter(seen)
      .map((e) => ({name: name(e), ...box(e)})),
    header: box(document.querySelector("header")),
    items: [...document.querySelectorAll("header > *")].filter(seen)
      .map((e) => ({name: name(e), ...box(e)})).filter((b) => b.w > 0 && b.h > 0),
  };
}"""
"""What the player meets on the screen: the viewport and the document's scroll size, the hand's
tiles, the discards, the visible buttons, the header and its items (each a box in CSS px: x, y,
right, bottom, w, h)."""

OBSERVE = """() => {
  window.__timers = [];
  const note = () => {
    const el = document.querySelector(".board .timer");
    if (!el || document.querySelector(".settle")) return;
    const decide = document.querySelectorAll(".hand-mine .tile.can, .actions button").length > 0;
    const seen = {text: el.textContent.trim(), color: getComputedStyle(el).color, decide};
    const last = window.__timers[window.__timers.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(seen)) window.__timers.push(seen);
  };
  new MutationObserver(note).observe(document.getElementById("app"),
    {subtree: true, childList: true, characterData: true, attributes: true});
  note();
}"""
"""Record the countdown as each redraw leaves it (a MutationObserver's callback runs after the
redraw, before the screen is painted): its text, its colour, and whether the player has a
decision (a tile to play or a button to press)."""

COUNTDOWN = re.compile(r"^([▼▲])\s*(\d+)s$")
"""A countdown: whose turn (▼ the player's, ▲ the opponent's) and the seconds left."""


def _shots(shots: Path) -> Path:
    folder = shots / "layout"
    folder.mkdir(exist_ok=True)
    return folder


KEEP = '.actions button.act[data-key="Enter"]'
"""The confirm button of arcade's opening exchange (不换, "Keep all" while no tile is chosen)."""


def _ready(page: Page) -> bool:
    """Wait until the player is to discard (the hand at its biggest), keeping his dealt tiles
    at arcade's opening exchange; False when the hand ended first (the settlement shows)."""
    while my_turn(page, 30000):
        keep = page.locator(KEEP)
        if not keep.count():
            return True
        keep.click()
        until(page, f"!document.querySelector({KEEP!r})", timeout=10000)
    return False


def _open(
    browser: Browser, server: str, size: tuple[int, int], family: str, lang: str = "zh"
) -> Page:
    """A guest at a table against the computer in ``family``, in ``lang``, at ``size``, waiting
    for his discard.  A hand the computer wins before the player's first discard (a xiamen
    抢金, a 天和) is left for a new guest's table."""
    width, height = size
    for _ in range(3):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('erren.lang', {lang!r})")
        guest_table(page, server, family)
        if _ready(page):
            return page
        page.context.close()
    raise AssertionError(f"three {family} hands ended before the player's first discard")


def _switch_language(page: Page, lang: str) -> None:
    """Switch the language with the header's button (it names the other language)."""
    page.click("header #lang")
    other = "中文" if lang == "en" else "English"
    until(page, f"document.querySelector('header #lang').textContent === {other!r}")
    page.wait_for_selector(".board .hand-mine .tile")


def _inside(box: dict[str, float], size: tuple[int, int]) -> bool:
    """Whether ``box`` lies wholly on a screen of ``size`` (half a pixel of rounding allowed)."""
    width, height = size
    left_top = min(box["x"], box["y"]) >= -0.5
    return left_top and box["right"] <= width + 0.5 and box["bottom"] <= height + 0.5


def _check_fits(page: Page, size: tuple[int, int], where: str) -> None:
    """The page does not scroll; the hand's tiles and the visible buttons are inside the screen
    and big enough; the header is one row."""
    width, height = size
    page.mouse.move(0, 0)  # no tile lifted by the pointer
    m = page.evaluate(MEASURE)
    assert (m["vw"], m["vh"]) == size
    scrolled = f"{where}: the page scrolls ({m['sw']}×{m['sh']})"
    assert m["sh"] <= height and m["sw"] <= width, scrolled
    assert m["tiles"], f"{where}: no hand"
    for i, tile in enumerate(m["tiles"]):
        assert _inside(tile, size), f"{where}: hand tile {i} is off the screen: {tile}"
    for button in m["buttons"]:
        assert _inside(button, size), f"{where}: {button['name']!r} is off the screen"
    upright = height > width
    if upright:
        for i, tile in enumerate(m["tiles"]):
            assert min(tile["w"], tile["h"]) >= MIN_TOUCH, f"{where}: hand tile {i} is {tile}"
        for button in m["buttons"]:
            assert min(button["w"], button["h"]) >= MIN_TOUCH, f"{where}: {button}"
    else:
        low = min(tile["h"] for tile in m["tiles"])
        assert low >= MIN_SIDEWAYS_TILE, f"{where}: hand tiles {low:.1f} px tall"
    items = m["items"]
    tallest = max(item["h"] for item in items)
    one_row = max(item["y"] for item in items) < min(item["bottom"] for item in items)
    assert one_row and m["header"]["h"] < 2 * tallest, f"{where}: the header wraps: {items}"


def _check_rivers(page: Page, lang: str, where: str) -> None:
    """Both discard rows are labelled, for the eye and for a screen reader, the opponent's above
    the player's (nearer the opponent's hand, at the top)."""
    boxes = []
    for label in RIVERS[lang]:
        group = page.get_by_role("group", name=label, exact=True)
        assert group.count() == 1, f"{where}: no discard row named {label!r}"
        assert group.get_by_text(label, exact=True).is_visible(), f"{where}: {label!r} unseen"
        box = group.bounding_box()
        assert box is not None
        boxes.append(box)
    theirs, mine = boxes
    assert theirs["y"] + theirs["height"] <= mine["y"] + 0.5, (
        f"{where}: the opponent's discards are not above the player's: {boxes}"
    )
    hand = page.locator(".hand-opp").bounding_box()
    assert hand is not None and hand["y"] < theirs["y"], f"{where}: his hand is not above"


@pytest.mark.parametrize("family", FAMILIES)
def test_the_table_fits_every_screen(
    browser: Browser, server: str, shots: Path, family: str
) -> None:
    """About 10 s a family (a page of each size joins the table again, and is looked at in
    both languages): one table, seen on a page of each of the five sizes at the player's
    discard, who then discards (so the next page finds a fresh countdown); a page starts in the
    language the page before switched to, and switches to the other."""
    folder = _shots(shots)
    lang = "zh"
    page = _open(browser, server, SIZES[0], family, lang)
    try:
        for size in SIZES:
            if page.is_closed():
                page = _again(page, size)
            errors = page_errors(page)
            if not _ready(page):  # the computer won: a new table
                page.context.close()
                page = _open(browser, server, size, family, lang)
            for switch in (False, True):
                if switch:
                    lang = "en" if lang == "zh" else "zh"
                    _switch_language(page, lang)
                where = f"{family} {lang} {size[0]}×{size[1]}"
                page.screenshot(path=str(folder / f"{family}-{lang}-{size[0]}x{size[1]}.png"))
                _check_fits(page, size, where)
                _check_rivers(page, lang, where)
            discard(page)  # the next page finds a new turn, its countdown full
            assert errors == []
            page.close()
    finally:
        page.context.close()


def _again(closed: Page, size: tuple[int, int]) -> Page:
    """A new page of ``closed``'s browser at ``size``, back at its table."""
    page = closed.context.new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(closed.url)
    return page


def test_the_countdown_never_blanks(browser: Browser, server: str) -> None:
    """Three discards at a phone's size: every redraw leaves the countdown written, and a
    countdown on the player's side (▼) only while he has something to decide (not while the
    table passes the opponent's discard for him, nor while his move is on its way)."""
    page = _open(browser, server, (390, 844), "guobiao-2p")
    for _ in range(3):  # a hand the computer ends before the fourth turn: a new table
        errors = page_errors(page)
        page.evaluate(OBSERVE)
        if discards_in_one_hand(page, 3):
            break
        page.context.close()
        page = _open(browser, server, (390, 844), "guobiao-2p")
    else:
        raise AssertionError("three hands in a row ended before the player's fourth turn")
    try:
        seen: list[dict[str, Any]] = page.evaluate("window.__timers")
        for state in seen:
            assert state["text"], f"the countdown blanked: {seen}"
            shown = COUNTDOWN.match(state["text"])
            assert shown or not re.search("[▼▲]", state["text"]), f"no seconds: {state} in {seen}"
            if shown and shown.group(1) == "▼":
                assert state["decide"], f"a countdown with nothing to decide: {state} in {seen}"
        sides = {m.group(1) for s in seen if (m := COUNTDOWN.match(s["text"]))}
        assert sides == {"▼", "▲"}, seen  # both players' countdowns were seen
        assert errors == []
    finally:
        page.context.close()


def _check_replay_ends(page: Page, lang: str) -> None:
    """The first and last step buttons: named, their icon drawn (not a font's glyph)."""
    for name in REPLAY_ENDS[lang]:
        button = page.get_by_role("button", name=name, exact=True)
        assert button.count() == 1, f"no button named {name!r}"
        drawn = button.evaluate(
            """(b) => [...b.querySelectorAll("svg path, svg rect, svg polygon")]
                 .map((e) => e.getBoundingClientRect()).filter((r) => r.width >= 6 && r.height >= 6)
                 .length"""
        )
        assert drawn, f"{name!r}: nothing drawn"
    first, last = (page.get_by_role("button", name=name, exact=True) for name in REPLAY_ENDS[lang])
    first.click()
    at, steps = _step(page)
    assert at == 0 and steps > 0, (at, steps)
    last.click()
    assert _step(page) == (steps, steps)


def _step(page: Page) -> tuple[int, int]:
    """The replay's step and its number of steps, as it shows them ("第 3/40 步", "Step 3/40")."""
    shown = re.search(r"(\d+)/(\d+)", page.inner_text(".r-step"))
    assert shown, page.inner_text(".r-step")
    return int(shown.group(1)), int(shown.group(2))


def test_a_whole_arcade_hand_fits_sideways_and_replays(
    browser: Browser, server: str, shots: Path
) -> None:
    """Slow (a whole arcade hand at real speed, on auto-play): at its end, the discard rows as
    long as the hand made them (arcade's are the longest), the table still fits a phone held
    sideways; the replay's ⏮ ⏭ are drawn and named, in both languages and at every size."""
    folder = _shots(shots)
    size = (740, 360)
    page = _open(browser, server, size, "arcade")
    errors = page_errors(page)
    try:
        trustee_on(page)
        page.wait_for_selector(".settle", timeout=90000)
        page.screenshot(path=str(folder / "arcade-end-zh-740x360.png"))
        m = page.evaluate(MEASURE)
        assert m["sh"] <= size[1] and m["sw"] <= size[0], f"the page scrolls: {m['sw']}×{m['sh']}"
        for i, tile in enumerate(m["discards"]):
            assert _inside(tile, size), f"discard {i} is off the screen: {tile}"
        page.click(".settle-replay")
        page.wait_for_selector(".replay .board", timeout=REPLAY_MS)
        for lang in LANGS:
            if lang != "zh":
                page.click("header #lang")
                until(page, "document.querySelector('header #lang').textContent === '中文'")
                page.wait_for_selector(".replay .board")
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.screenshot(path=str(folder / f"replay-{lang}-{width}x{height}.png"))
                _check_replay_ends(page, lang)
        _check_replay_opens_at_a_step(page)
        assert errors == []
    finally:
        page.context.close()


def _check_replay_opens_at_a_step(page: Page) -> None:
    """``#/replay/ID?review=0&step=N`` (a drill's link to its hand) opens at the position
    before the record's action N: one frame per action but the claim answers (``c:``)."""
    game = int(str(page.evaluate("location.hash")).split("/")[2].split("?")[0])
    record = page.evaluate(
        f"fetch('/games/{game}', {{headers: {{Authorization: "
        "'Bearer ' + localStorage.getItem('erren.token')}}).then((r) => r.json())"
        ".then((g) => g.record)"
    )
    actions = [str(a) for a in record["actions"]]
    step = len(actions) // 2
    frame = sum(1 for a in actions[:step] if not a.startswith("c:"))
    page.evaluate(f"location.hash = '#/replay/{game}?review=0&step={step}'")
    shown = "(document.querySelector('.replay .r-step')?.textContent || '').match(/(\\d+)\\//)?.[1]"
    until(page, f"{shown} === '{frame}'")
    assert _step(page)[0] == frame, (step, frame, page.inner_text(".r-step"))


# ------------------------------------------------------------------ the review (复盘)
def _decision(
    step: int, category: str, player: tuple[str, list[str]], bot: tuple[str, list[str]], loss: float
) -> dict[str, Any]:
    """One decision of a review (erren-review/1), the two moves differing."""
    return {
        "hand": 0,
        "step": step,
        "seat": 0,
        "category": category,
        "player": {"text": player[0], "tiles": player[1]},
        "bot": {"text": bot[0], "tiles": bot[1]},
        "match": False,
        "ev_player": -loss,
        "ev_bot": 0.0,
        "loss": loss,
        "stderr": 1.0,
        "bad": loss > 2.0,
        "reasons": {},
    }


REVIEW: dict[str, Any] = {
    "hand": 0,
    "ruleset": "guobiao-2p",
    "seat": 0,
    "threshold": 2.0,
    "result": None,
    "summary": {
        "decisions": 24,
        "matches": 20,
        "match_rate": 20 / 24,
        "bad": 2,
        "bad_rate": 2 / 24,
        "loss": 14.25,
        "costliest": [],
    },
    "decisions": [
        _decision(52, "win", ("pass", []), ("hu", []), 8.0),
        _decision(40, "ting", ("discard:5s", ["5s"]), ("ting:2z", ["2z"]), 4.5),
        _decision(33, "claim", ("pass", []), ("chi:3m", ["3m", "4m", "5m"]), 1.25),
        _decision(28, "efficiency", ("discard:5s", ["5s"]), ("discard:2z", ["2z"]), 0.5),
    ],
}
"""A review listing four decisions unlike the Master's, the longest moves in words among them
(报听: "Declare ready, discard" and its tile, a chow's three tiles), losses of each colour."""

REVIEW_MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const card = document.querySelector(".settle-card");
  const rows = (el) => {  // the rows the element's words are laid out on (not a tile's face)
    const tops = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.parentElement.closest(".tile")) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width && !tops.some((t) => Math.abs(t - r.top) < 4)) tops.push(r.top);
      }
    }
    return tops.length;
  };
  const doc = document.scrollingElement;
  return {
    sw: doc.scrollWidth, sh: doc.scrollHeight, card: box(card),
    parts: [...document.querySelectorAll(".rv-panel *")].filter((e) => e.getClientRects().length)
      .map((e) => ({name: e.className || e.tagName, ...box(e)})),
    moves: [...document.querySelectorAll(".rv-line")]
      .map((e) => ({text: e.textContent, rows: rows(e)})),
    last: box(document.querySelector(".rv-list > :last-child")),
  };
}"""
"""The review as it lies: the page's scroll size, the settlement's card, every part of the
review (a box each), each move of its lines ("Master Declare ready, discard 南") with the
number of rows its words take, and the review's last part."""


FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Wait for two frames of the page (a change laid out and painted)."""


@pytest.mark.parametrize("lang", LANGS)
def test_the_review_fits_every_screen(
    browser: Browser, server: str, shots: Path, lang: str
) -> None:
    """Slow (a hand on auto-play): the review at the settlement, listing four decisions, seen at
    every size: the page does not scroll, nothing of it leaves the settlement's card sideways,
    each move is said on one row (what it leaves may go under it), and its last decision
    scrolls into the screen."""
    folder = _shots(shots)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors = page_errors(page)
    try:
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('erren.lang', {lang!r})")
        guest_table(page, server)
        trustee_on(page)
        page.wait_for_selector(".settle", timeout=60000)
        page.click(".rv-ask")
        page.wait_for_selector(".rv-sum", timeout=30000)
        page.evaluate(
            """(review) => { const t = window.erren.table;
            t.onMessage({type: 'review', game: t.game, seat: t.seat, review}); }""",
            REVIEW,
        )
        assert page.locator(".rv-row").count() == len(REVIEW["decisions"])
        until(page, "!document.querySelector('#toasts .toast')", timeout=10000)  # 托管's notice
        for size in SIZES:
            width, height = size
            where = f"review {lang} {width}×{height}"
            page.set_viewport_size({"width": width, "height": height})
            page.locator(".rv-list > *").last.scroll_into_view_if_needed()
            page.evaluate(FRAMES)  # the scrolled card painted before the screenshot
            page.screenshot(path=str(folder / f"review-{lang}-{width}x{height}.png"))
            m = page.evaluate(REVIEW_MEASURE)
            assert m["sh"] <= height and m["sw"] <= width, f"{where}: the page scrolls"
            card = m["card"]
            for part in m["parts"]:
                inside = part["x"] >= card["x"] - 0.5 and part["right"] <= card["right"] + 0.5
                assert inside, f"{where}: {part} leaves the card {card}"
            for move in m["moves"]:
                assert move["rows"] == 1, f"{where}: {move['text']!r} takes {move['rows']} rows"
            assert _inside(m["last"], size), f"{where}: the last decision is off the screen"
        assert errors == []
    finally:
        page.context.close()
