"""Playing without sight, in a real Chromium against a real server: a guobiao-2p hand against
the computer played by keyboard alone, reading only the accessibility tree (Playwright's
``aria_snapshot`` and roles).  The hand's tiles are buttons named "二万, 第3张" ("2 Characters,
tile 3" in English); Tab reaches them and the claim buttons; Enter or Space on a focused tile
discards exactly that tile and the keyboard stays on the hand through the redraws; the page's
log (a polite live region) says each draw (the player's own with its tile, the opponent's without),
each discard with its tile and the result.

Screenshots of the focus ring on a tile at 390×844 and 844×390, in Chinese and English:
``a11y-*.png`` in the screenshots folder."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from erren.bots import find_bot
from erren.engine import ActionKind, Family, State
from erren.testing.scripted import Backstage, Served
from erren.testing.servers import database

from ._support import (
    guest_table,
    my_turn,
    new_computer_table,
    next_hand,
    page_errors,
    vs_computer_table,
)

SIZES = ((390, 844), (360, 740), (844, 390))
HAND_S = 40
"""How long one hand against the computer (bot_delay 0.05 s) may take, in seconds."""
TIMER_S = 7
"""The decision timers of the table of the timer's test (its rules' options), in seconds."""
WARNED_AT_S = 5
"""The player is warned once when his own decision has this many seconds left."""


@dataclass(frozen=True)
class Words:
    """What the player hears and reads in one language (the client's words, written out here)."""

    tile: re.Pattern[str]
    """A hand tile's name: the tile, then its place (and whatever the tile is besides)."""
    discard: str
    """The player's own discard, said with the tile's name."""
    draw_mine: str
    draw_theirs: re.Pattern[str]
    """The opponent's draw: who, and never which tile."""
    wins: tuple[str, ...]
    """The names of the buttons that win."""
    pass_: str
    results: tuple[str, ...]
    """The settlement's titles: the player won, the opponent won, nobody won."""
    score: str


ZH = Words(
    tile=re.compile(r"^([^,]+), (?:[^,]+, )?第(\d+)张"),
    discard="你 打出 {}",
    draw_mine="你 摸牌 {}",
    draw_theirs=re.compile(r"^电脑\S* 摸牌$"),
    wins=("胡", "自摸"),
    pass_="过",
    results=("你赢了！", "对手胡牌", "荒庄 · 流局"),
    score="你的得分 ",
)
EN = Words(
    tile=re.compile(r"^([^,]+), (?:[^,]+, )?tile (\d+)"),
    discard="You discarded {}",
    draw_mine="You drew {}",
    draw_theirs=re.compile(r"^Computer\S*.* drew$"),
    wins=("Win", "Self-draw win"),
    pass_="Pass",
    results=("You win!", "Your opponent wins", "Exhaustive draw"),
    score="Your score ",
)
ZH_TILE = re.compile(r"^(?:[一二三四五六七八九][万饼条]|[东南西北]风|白板|发财|红中)$")
EN_TILE = re.compile(
    r"^(?:[1-9] (?:Characters|Dots|Bamboo)|East|South|West|North|White|Green|Red)$"
)
"""A tile's name (guobiao-2p's tiles: no flowers), in each language."""
SNAPSHOT_BUTTON = re.compile(r'^- button "(?P<name>(?:[^"\\]|\\.)*)"(?P<flags>.*)$')


def _said(page: Page) -> list[str]:
    """The lines of the page's log (the live region), as the accessibility tree reads them."""
    out: list[str] = []
    for raw in page.get_by_role("log").aria_snapshot(timeout=2000).splitlines():
        line = raw.strip()
        if not line.startswith("- paragraph:"):
            continue
        text = line.removeprefix("- paragraph:").strip()
        out.append(str(json.loads(text)) if text.startswith('"') else text)
    return out


def _focused(page: Page) -> tuple[str, bool] | None:
    """The focused button as the accessibility tree reads it: its name, and whether it may be
    pressed; None when the focus is on no button."""
    for _ in range(5):
        try:  # the board redraws under the read: read it again
            loc = page.locator("*:focus")
            if not loc.count():
                return None
            snapshot = loc.first.aria_snapshot(timeout=500).strip().splitlines()
        except PlaywrightError:
            continue
        if not snapshot:  # read in the middle of a redraw: read it again
            page.wait_for_timeout(50)
            continue
        m = SNAPSHOT_BUTTON.match(snapshot[0] if snapshot else "")
        if not m:
            return None
        return str(json.loads(f'"{m["name"]}"')), "[disabled]" not in m["flags"]
    return None


def _tab_to(page: Page, want: re.Pattern[str] | str, back: bool = False, limit: int = 60) -> bool:
    """Press Tab (Shift+Tab) until the focus is on an enabled button whose name is ``want`` (or
    matches it); False when it is not reached in ``limit`` presses."""
    for _ in range(limit):
        now = _focused(page)
        if now and now[1] and (now[0] == want if isinstance(want, str) else want.match(now[0])):
            return True
        page.keyboard.press("Shift+Tab" if back else "Tab")
    return False


def _after(said: list[str], template: str) -> list[str]:
    """What follows the fixed words of ``template`` ("你 打出 {}") in each line that has them."""
    head = template.format("")
    return [x.removeprefix(head) for x in said if x.startswith(head)]


def _result(page: Page, w: Words) -> str | None:
    return next((x for x in _said(page) if x.startswith(w.results)), None)


def _enabled(page: Page, name: str | re.Pattern[str]) -> bool:
    buttons = page.get_by_role("button", name=name, exact=True, disabled=False)
    return buttons.count() > 0


def _discard_by_key(page: Page, w: Words, key: str) -> str:
    """The focused hand tile is played with ``key``; returns its name once the log says it."""
    focused = _focused(page)
    assert focused and focused[1], focused
    m = w.tile.match(focused[0])
    assert m, focused
    tile = m[1]
    before = _said(page).count(w.discard.format(tile))
    page.keyboard.press(key)
    deadline = time.monotonic() + 10
    while _said(page).count(w.discard.format(tile)) <= before:
        assert time.monotonic() < deadline, f"{w.discard.format(tile)!r} was not said"
        page.wait_for_timeout(30)
    return tile


def _step(page: Page, w: Words, played: list[str]) -> None:
    """One decision by keyboard: win when a win is offered, pass a claim, else discard the
    focused tile (Tab moves the focus onto an enabled tile of the hand first)."""
    for name in (*w.wins, w.pass_):
        if _enabled(page, name):
            if _tab_to(page, name, back=True, limit=20) or _tab_to(page, name):
                page.keyboard.press("Enter")
                page.wait_for_timeout(50)
            return
    if page.get_by_role("button", name=w.tile, disabled=False).count():
        if _tab_to(page, w.tile):
            played.append(_discard_by_key(page, w, "Enter" if len(played) % 2 else " "))
        return
    page.wait_for_timeout(30)


def _play(page: Page, w: Words) -> tuple[list[str], str]:
    """Play the hand to its end by keyboard; the tiles discarded, in order, and the result said."""
    played: list[str] = []
    deadline = time.monotonic() + HAND_S
    while (said := _result(page, w)) is None:
        assert time.monotonic() < deadline, f"the hand did not end within {HAND_S} s"
        _step(page, w, played)
    return played, said


def _shoot(page: Page, shots: Path, name: str) -> None:
    """The page at each size, the focus where it is: ``a11y-{name}-{w}x{h}.png``."""
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(shots / f"a11y-{name}-{w}x{h}.png"))
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def _table(
    browser: Browser, lang: str, size: tuple[int, int] = SIZES[0]
) -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    # the language the player starts in; his own switch (a later setItem) stays over reloads
    ctx.add_init_script(
        f"localStorage.getItem('erren.lang') || localStorage.setItem('erren.lang', '{lang}')"
    )
    return ctx, ctx.new_page()


def test_a_hand_by_keyboard_alone(browser: Browser, server: str, shots: Path) -> None:
    """A whole hand against the computer played by keyboard alone, reading only the
    accessibility tree (slow: a hand is played to its end): every discard is said with its tile,
    the player's draws with theirs, the opponent's without, and the result once, as the
    settlement's title says it, with the player's score signed by the outcome."""
    for _ in range(3):
        ctx, page = _table(browser, "zh")
        errors = page_errors(page)
        guest_table(page, server)
        played, result = _play(page, ZH)
        said = _said(page)
        if played and any(x.startswith("电脑") and "摸牌" in x for x in said):
            break
        # the deal is random: the computer won before drawing a tile, or before his first
        # discard; nothing to hear of a draw of his in that hand: a new table
        ctx.close()
    else:
        raise AssertionError("three hands in a row ended before the computer drew")
    try:
        assert played, "no discard was made by keyboard"
        for tile in played:  # each of the player's discards said with its tile, in order
            assert ZH.discard.format(tile) in said, (tile, said)
        assert _after(said, ZH.discard) == played, (said, played)
        # each of his draws with its tile; the opponent's never say which
        drawn = _after(said, ZH.draw_mine)
        assert drawn and all(ZH_TILE.match(x) for x in drawn), drawn
        theirs = [x for x in said if x.startswith("电脑") and "摸牌" in x]
        assert theirs and all(ZH.draw_theirs.match(x) for x in theirs), theirs
        # the result as the settlement says it, with the player's score, signed by the outcome
        title = page.get_by_role("dialog").get_by_role("heading").first.inner_text()
        assert result.startswith(title), (result, title)
        score = result.split(ZH.score)[1]
        sign = {ZH.results[0]: "+", ZH.results[1]: "−"}.get(title)
        assert score[0] == sign if sign else score == "0", result
        assert said.count(result) == 1, said
        assert not errors, errors
    finally:
        ctx.close()


def test_enter_and_space_discard_the_focused_tile(
    browser: Browser, server: str, shots: Path
) -> None:
    """Space, then Enter, on the focused third tile of the hand discards exactly that tile (the
    river's new tile has its name), and the keyboard stays on the third tile after the redraw
    (slow: two turns against the computer)."""
    ctx, page = _table(browser, "zh")
    errors = page_errors(page)
    try:
        guest_table(page, server)
        for key in (" ", "Enter"):
            deadline = time.monotonic() + 20
            while not page.get_by_role("button", name=ZH.tile, disabled=False).count():
                assert time.monotonic() < deadline, "no discard was offered"
                if page.locator(".settle-next").count():  # the computer won: the next hand
                    next_hand(page)
                elif _enabled(page, ZH.pass_):
                    page.get_by_role("button", name=ZH.pass_, exact=True).focus()
                    page.keyboard.press("Enter")
                page.wait_for_timeout(30)
            # the third tile, by its name and place
            third = re.compile(r"^[^,]+, (?:[^,]+, )?第3张")
            assert _tab_to(page, third)
            if key == " ":
                _shoot(page, shots, "focus-zh")
            river = page.get_by_role("group", name="你的弃牌")
            before = river.get_by_role("img").count()
            tile = _discard_by_key(page, ZH, key)
            assert river.get_by_role("img").nth(before).get_attribute("aria-label") == tile
            assert river.get_by_role("img").count() == before + 1
            # the keyboard stays on the hand, at the same place (unless the computer won on
            # that discard: the settlement takes the keyboard)
            focused = _focused(page)
            if not page.locator(".settle").count():
                assert focused and third.match(focused[0]), focused
        assert not errors, errors
    finally:
        ctx.close()


def test_the_keyboard_keeps_its_place_past_a_ready_hint(browser: Browser, server: str) -> None:
    """A ready hint on the hand's first tiles (a popover drawing the waits as small tiles inside
    the tile) does not move the keyboard: after a redraw it is on the third tile still, not
    on the tile a count of every tile drawn in the hand would give."""
    ctx, page = _table(browser, "zh")
    errors = page_errors(page)
    try:
        guest_table(page, server)
        while not my_turn(page):  # the computer won before the player's first discard
            next_hand(page)
        # the first two tiles shown get a hint each (every copy of their kinds)
        hinted = page.evaluate(
            """() => { const t = window.erren.table;
            const shown = [...document.querySelectorAll('.hand-mine > .tile')]
              .map((e) => e.dataset.tile);
            const discards = {[shown[0]]: [['3m', 2]], [shown[1]]: [['6m', 3], ['9m', 1]]};
            t.state = {...t.state, hints: {discards, waits: null}}; t.render();
            return document.querySelectorAll('.hand-mine .tile .tile').length; }"""
        )
        assert hinted >= 3, hinted  # the small tiles drawn inside the first two
        third = re.compile(r"^[^,]+, (?:[^,]+, )?第3张")
        assert _tab_to(page, third)
        page.evaluate("window.erren.table.render()")
        focused = _focused(page)
        assert focused and third.match(focused[0]), focused
        assert page.evaluate("document.activeElement.dataset.index") == "2"
        assert not errors, errors
    finally:
        ctx.close()


def test_names_in_english(browser: Browser, server: str, shots: Path) -> None:
    """After the switch to English (and a reload) the hand's tiles are named "2 Characters,
    tile 3" in order, and the hand played by keyboard is said in English (slow: a whole hand)."""
    ctx, page = _table(browser, "zh")
    try:
        guest_table(page, server)
        page.get_by_role("button", name=ZH.tile).first.wait_for()
        page.evaluate("localStorage.setItem('erren.lang', 'en')")
        page.reload()
        tiles = page.get_by_role("button", name=EN.tile)
        tiles.first.wait_for()
        names = [str(x.get_attribute("aria-label")) for x in tiles.all()]
        assert len(names) >= 13, names
        assert _tab_to(page, EN.tile)
        _shoot(page, shots, "focus-en")
        for i, name in enumerate(names):
            m = EN.tile.match(name)
            assert m and EN_TILE.match(m[1]) and m[2] == str(i + 1), name
        played, result = _play(page, EN)
        said = _said(page)
        assert _after(said, EN.discard) == played, (said, played)
        assert result.startswith(EN.results), result
    finally:
        ctx.close()


def test_the_timer_warns_once(browser: Browser, server: str) -> None:
    """A player who lets his own decision run (timers of 7 s) hears "还剩 5 秒" once, when five
    seconds are left, and not again before the server plays for him (slow: one timeout)."""
    ctx, page = _table(browser, "zh")
    try:
        timers = {"turn_timeout_s": TIMER_S, "claim_timeout_s": TIMER_S}
        vs_computer_table(page, server, "guobiao-2p", timers)
        warning = f"还剩 {WARNED_AT_S} 秒"
        deadline = time.monotonic() + 3 * TIMER_S
        while warning not in _said(page):
            assert time.monotonic() < deadline, _said(page)
            page.wait_for_timeout(50)
        # the decision timed out (the server played for him): said once only
        timed_out = re.compile(r"^你 超时")
        while not any(timed_out.match(x) for x in _said(page)):
            assert time.monotonic() < deadline, _said(page)
            page.wait_for_timeout(50)
        said = _said(page)
        assert said.count(warning) == 1, said
        assert not any(re.match(r"^还剩 \d+ 秒$", x) for x in said if x != warning), said
    finally:
        ctx.close()


# ------------------------------------------------------------------ the player's own claim
ZH_SUITS = {"m": "万", "p": "饼", "s": "条"}
ZH_HONORS = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
PUNG = "碰"
"""The claim button's name, and what the log says of a pung (``你 碰`` and its three tiles)."""
PLAYER = 0
"""The guest's seat at a table against the computer."""


def _zh(tile: str) -> str:
    """A tile's name in Chinese ("5m" → 五万, "7z" → 红中)."""
    n, suit = int(tile[0]), tile[1]
    return ZH_HONORS[n - 1] if suit == "z" else "一二三四五六七八九"[n - 1] + ZH_SUITS[suit]


def _pung_line(ruleset: Family, dealer: int) -> tuple[int, str | None, str]:
    """A hand seed at which the player is offered a pung at his first decision after his
    first discard (or before it, when the computer deals): the seed, the tile he discards
    first (None: no discard before the offer) and the tile he may pung.  The computer's moves
    are the normal level's (the efficiency bot, which has no randomness) until the offer."""
    bot = find_bot("efficiency")
    bot.bind(ruleset)

    def computer_until_the_player(state: State) -> None:
        while not state.is_terminal and state.current_player() != PLAYER:
            state.apply(bot.choose(state.observe(1 - PLAYER), state.legal_actions()))

    def offered_pung(state: State) -> bool:
        return not state.is_terminal and any(
            a.kind is ActionKind.PENG for a in state.legal_actions()
        )

    rng = random.Random("a11y-pung")
    for _ in range(2_000):
        seed = rng.getrandbits(63)
        start = State.new(ruleset, seed=seed, dealer=dealer)
        computer_until_the_player(start)
        if start.is_terminal or any(a.kind.is_win for a in start.legal_actions()):
            continue
        if offered_pung(start):
            return seed, None, str(start.observe(PLAYER).pending)
        for tile in sorted(
            {str(a.tile) for a in start.legal_actions() if a.kind is ActionKind.DISCARD}
        ):
            state = start.clone()
            state.apply(
                next(a for a in state.legal_actions() if str(a) == f"{PLAYER}:discard:{tile}")
            )
            computer_until_the_player(state)
            if offered_pung(state):
                return seed, tile, str(state.observe(PLAYER).pending)
    raise AssertionError("no seed offers the player a pung at his first decisions")


async def _table_of(served: Served, table: str) -> tuple[Family, int, bool]:
    """The table's rules, its dealer, and whether a hand was dealt there already."""
    found = served.lobby.tables[table]
    return found.ruleset, found.dealer, found.state is not None


def test_a_pung_by_keyboard_alone(browser: Browser, tmp_path: Path) -> None:
    """The player's own claim by keyboard alone, reading only the accessibility tree: he
    discards a tile he finds by its name (Tab, Enter), the computer's discard offers him a pung,
    he Tabs to the button named 碰 and presses Enter, and the log says "你 碰" with the three
    tiles, once.  The hand is steered (slow: an app of this process): a seed queued before the
    page joins the table makes the offer come (found here with the engine)."""
    with database("sqlite", tmp_path) as url, Backstage(url) as stage:
        served = stage.app
        ctx, page = _table(browser, "zh")
        errors = page_errors(page)
        try:
            table = new_computer_table(page, served.url, "guobiao-2p", {})
            ruleset, dealer, dealt = stage.call(_table_of(served, table))
            assert not dealt, "the hand was dealt before the page joined"
            seed, first, pung = _pung_line(ruleset, dealer)
            served.rng.seeds.append(seed)
            page.evaluate(f"location.hash = '#/table/{table}'")
            if first is not None:  # his first discard, the tile found by its name
                named = re.compile(rf"^{_zh(first)}, (?:[^,]+, )?第\d+张")
                page.get_by_role("button", name=named, disabled=False).first.wait_for()
                assert _tab_to(page, named)
                assert _discard_by_key(page, ZH, "Enter") == _zh(first)
            deadline = time.monotonic() + 20
            while not _enabled(page, PUNG):
                assert time.monotonic() < deadline, f"no pung was offered: {_said(page)}"
                page.wait_for_timeout(30)
            assert _tab_to(page, PUNG, back=True, limit=20) or _tab_to(page, PUNG)
            page.keyboard.press("Enter")
            said = f"你 {PUNG} " + " ".join([_zh(pung)] * 3)
            while said not in _said(page):
                assert time.monotonic() < deadline, (said, _said(page))
                page.wait_for_timeout(30)
            lines = _said(page)
            assert lines.count(said) == 1, lines
            # the offer was said before, with the tile and the buttons, 碰 among them
            offer = re.compile(rf"^要这张牌吗？ {_zh(pung)} \((?:.* / )?{PUNG}(?: / .*)?\)$")
            assert any(offer.match(x) for x in lines[: lines.index(said)]), lines
            assert not errors, errors
        finally:
            ctx.close()
