"""Both hands at every settlement, as the player sees them: at a drawn hand, at a win holding
wilds and after an escape the settlement draws both hands as tiles — the wilds marked as on the
board (the badge, and the name said with the tile's) — each seat's 听 at a drawn hand, and what
each player received in points and beans; after an escape the opponent also gets a button that
starts a new search.

A drawn hand and a win are steered (:mod:`erren.testing.scripted`): the app runs in this process
on a thread of its own (:class:`~erren.testing.scripted.Backstage`) with a rigged generator, two
WebSocket clients play a line found with the engine alone, and Chromium then opens the table as
one of the two players (the settlement comes in its snapshot).  The escape is played in Chromium
at the session's ``erren serve``.  Every tile, 听 and amount expected is worked out here from
the engine's replay of the line and the rules (the room's stake, the family's payment formula),
never read back from the page or the server's settlement.
"""

from __future__ import annotations

import secrets
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from erren.engine import HandResult, State
from erren.engine.result import ResultKind
from erren.families.arcade.scoring import ArcadeResult
from erren.families.xiamen.scoring import XiamenScore
from erren.tiles import Tile

from ._support import page_errors, until
from ._support.steering import at_table, held, marks_of, ready, say, steered

SIZES = ((390, 844), (360, 740), (844, 390), (740, 360))
LANGS = ("zh", "en")
NOVICE = ("novice", 50)  # 新手场 and its 底分 (guobiao-2p §6.3)
JUNIOR = ("junior", 500)  # 初级场
WELCOME = 10_000  # a new account's beans (docs/protocol.md)
ESCAPE_POINTS = 13  # guobiao-2p §6.5
BADGE = {"gold": ("金", "G"), "wild": ("财", "W"), "fake": ("假", "=G")}
NAME = {
    "gold": ("金", "Gold"),
    "wild": ("财神", "Wild"),
    "fake": ("假金", "White as the gold's tile"),
}
READY = {True: ("听牌", "Ready"), False: ("未听", "Not ready")}
ESCAPED = (
    "对手在牌局中离开，本局按逃跑结算。",
    "Your opponent left during the hand; it was settled as an escape.",
)
AGAIN = ("再找对手", "Find another game")
SEARCHING = ("正在寻找对手", "Looking for an opponent")


def signed(n: int) -> str:
    """A change as the screens write it: +6,500, −6,500 (a real minus sign), 0."""
    return f"+{n:,}" if n > 0 else f"−{-n:,}" if n < 0 else "0"


# ---------------------------------------------------------------- the rules, worked out here


def shown_hand(state: State, seat: int) -> Counter[str]:
    """What the settlement must draw for ``seat``: the winner's hand as scored (its winning
    tile included), anyone else's as held."""
    result = state.result
    if (
        result is None
        or result.kind is not ResultKind.WIN
        or result.winner != seat
        or result.hand is None
    ):
        return held(state, seat)
    hand = result.hand
    out = Counter(str(t) for t in hand.concealed)
    for meld in hand.melds:
        out.update(str(t) for t in meld.tiles)
    if hand.winning is not None:
        out[str(hand.winning)] += 1
    out.update(str(Tile(f)) for f in state.flowers[seat])
    return out


def win_points(family: str, result: HandResult) -> int:
    """What the loser of a win pays in points: xiamen R-4.2–4.6 min((底 + 水) × M, 100) + bonus;
    arcade R2.25 13 for a limit hand, else min(13, fan)."""
    detail = result.detail
    if family == "xiamen":
        assert isinstance(detail, XiamenScore)
        s = detail.settlement
        return int(min((s.base + s.water) * s.multiplier, 100) + s.bonus)
    assert isinstance(detail, ArcadeResult)
    return 13 if detail.yakuman >= 1 else int(min(13, detail.fan))


# ---------------------------------------------------------------- the steered hands


# ---------------------------------------------------------------- what the page shows
def seat_tiles(page: Page, seat: int) -> list[dict[str, str]]:
    """Each tile drawn in ``seat``'s settled hand: its face, badge and spoken name."""
    tiles: list[dict[str, str]] = page.eval_on_selector_all(
        f'.settle-seat[data-seat="{seat}"] .tile',
        """els => els.map(e => ({tile: e.dataset.tile, label: e.getAttribute('aria-label') || '',
            badge: (e.querySelector('.tile-badge') || {}).textContent || ''}))""",
    )
    return tiles


def check_hand(
    page: Page, seat: int, expected: Counter[str], marks: dict[str, str], lang: str
) -> None:
    """``seat``'s hand is drawn tile by tile, every marked kind wearing its badge and saying its
    name, no other tile marked."""
    tiles = seat_tiles(page, seat)
    assert Counter(t["tile"] for t in tiles) == expected, (seat, tiles, expected)
    for t in tiles:
        mark = marks.get(t["tile"])
        if mark is None:
            assert t["badge"] == "", t
            continue
        assert t["badge"] == say(BADGE[mark], lang), t
        assert say(NAME[mark], lang) in t["label"], t


def amounts(page: Page, seat: int) -> list[str]:
    cells: list[str] = page.eval_on_selector_all(
        f'.settle-amounts tr[data-seat="{seat}"] td', "els => els.map(e => e.textContent.trim())"
    )
    return cells


def shoot(page: Page, shots: Path, name: str) -> None:
    out = shots / "settle"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------- the tests
def test_a_drawn_hand_shows_both_hands_and_each_seats_ready(
    browser: Browser, shots: Path, tmp_path: Path
) -> None:
    """荒庄 in 二人国标 新手场: each player sees his own hand and his opponent's drawn as tiles,
    under each name 听牌 or 未听 (the ready seat by the hand's analysis), and 0 points and 0
    beans each; at the four sizes, in Chinese and English.

    Slow (about 11 s, more under load): an app of its own, a line searched with the engine, a
    hand played over WebSockets, then the table opened eight times (each size, each language)."""
    with steered(tmp_path, "guobiao-2p", NOVICE[0], "draw") as hand:
        state = hand.state
        assert [ready(state, 0), ready(state, 1)] == [True, False]
        for i, (size, lang) in enumerate((s, lang) for s in SIZES for lang in LANGS):
            me = i % 2  # each seat in turn
            with at_table(browser, hand, me, lang, size) as page:
                seats = page.eval_on_selector_all(
                    ".settle-seat", "els => els.map(e => e.dataset.seat)"
                )
                assert seats == [str(me), str(1 - me)]  # the player's own hand first
                for seat in (0, 1):
                    check_hand(page, seat, held(state, seat), {}, lang)
                    head = page.inner_text(f'.settle-seat[data-seat="{seat}"] .settle-seat-head')
                    assert hand.names[seat] in head
                    assert say(READY[ready(state, seat)], lang) in head
                    assert amounts(page, seat) == ["0", "0"]
                shoot(page, shots, f"draw-{lang}-{size[0]}x{size[1]}")


@pytest.mark.parametrize("family", ["xiamen", "arcade"])
def test_a_win_marks_the_wilds_in_both_hands_and_says_what_each_received(
    browser: Browser, shots: Path, tmp_path: Path, family: str
) -> None:
    """A win in 新手场 whose winner holds wilds (xiamen: a gold and a White playing as the
    gold's tile, 假金; arcade: a 财神): both hands drawn, every gold, 假金 and 财神 in either
    wearing the board's badge and saying what it is; the points by the family's formula and
    the beans at 50 a point, + to the winner and − to the loser.

    About 5 s (more under load): an app of its own, a line searched with the engine, a hand
    played over WebSockets, the table opened in Chinese and in English."""
    with steered(tmp_path, family, NOVICE[0], "win") as hand:
        state = hand.state
        result = state.result
        assert result is not None and result.winner is not None and result.loser is not None
        marks = marks_of(state)
        points = win_points(family, result)
        beans = min(points * NOVICE[1], WELCOME)
        for lang, size in (("zh", SIZES[0]), ("en", SIZES[2])):
            with at_table(browser, hand, result.loser, lang, size) as page:
                for seat in (0, 1):
                    check_hand(page, seat, shown_hand(state, seat), marks, lang)
                    sign = 1 if seat == result.winner else -1
                    assert amounts(page, seat) == [signed(sign * points), signed(sign * beans)]
                marked = [t for t in seat_tiles(page, result.winner) if t["badge"]]
                assert len(marked) == sum(shown_hand(state, result.winner)[k] for k in marks)
                shoot(page, shots, f"win-{family}-{lang}-{size[0]}x{size[1]}")


def _register_in_browser(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.evaluate("localStorage.setItem('erren.lang', 'zh')")
    page.reload()
    page.fill("#login-name", name)
    page.fill("#login-pass", "correct horse 42")
    page.click("#btn-register")
    page.wait_for_selector(".rooms .room")


def _own_hand(page: Page) -> Counter[str]:
    """The tiles of the player's own hand on the board, as he sees them (not the wait tiles in a
    ready hint's popover, drawn inside the tile that readies the hand)."""
    tiles = page.eval_on_selector_all(".hand-mine > .tile", "els => els.map(e => e.dataset.tile)")
    return Counter(str(t) for t in tiles)


def _every_size(page: Page, shots: Path) -> None:
    """The escape's settlement at the four sizes in both languages, its button worded in each."""
    for lang in LANGS:
        if lang == "en":
            page.click("#lang")
            until(page, "document.documentElement.lang === 'en'")
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            assert page.locator(".settle-again").inner_text() == say(AGAIN, lang)
            shoot(page, shots, f"escape-{lang}-{w}x{h}")
    page.click("#lang")
    until(page, "document.documentElement.lang === 'zh-CN'")


def test_after_an_escape_the_opponent_sees_both_hands_what_he_received_and_can_search_again(
    browser: Browser, server: str, shots: Path
) -> None:
    """Two new players (10,000 beans each) meet in 二人国标 初级场 and one leaves the running
    hand: under the notice that his opponent escaped the other sees both hands as they stood,
    +13 points and 13 × 500 = +6,500 beans (the escaper −13 and −6,500), and a button that
    starts a new search in the same room.

    About 8 s (more under load): two registrations, a match, eight screenshots."""
    room, stake = JUNIOR
    sizes = (SIZES[0], (1100, 800))
    contexts = [browser.new_context(viewport={"width": w, "height": h}) for w, h in sizes]
    try:
        stayer, leaver = (ctx.new_page() for ctx in contexts)
        errors = page_errors(stayer)
        for page, name in ((stayer, "st"), (leaver, "lv")):
            _register_in_browser(page, server, name + secrets.token_hex(5))
            page.click('button.fam[data-family="guobiao-2p"]')
            page.click(f'.rooms .room[data-room="guobiao-2p/{room}"]')
        for page in (stayer, leaver):
            page.wait_for_selector(".hand-mine .tile", timeout=20000)
        seen = [_own_hand(page) for page in (stayer, leaver)]
        seats = [int(page.evaluate("window.erren.table.seat")) for page in (stayer, leaver)]
        leaver.click(".table-top .leave")
        leaver.click("#btn-leave-yes")
        stayer.wait_for_selector('.closed[data-code="escaped"] ~ .settle .settle-seat')
        assert stayer.inner_text(".closed-why") == say(ESCAPED, "zh")
        for who in (0, 1):
            tiles = Counter(t["tile"] for t in seat_tiles(stayer, seats[who]))
            assert tiles == seen[who], (who, tiles, seen[who])
        points, beans = ESCAPE_POINTS, ESCAPE_POINTS * stake
        assert amounts(stayer, seats[0]) == [signed(points), signed(beans)]
        assert amounts(stayer, seats[1]) == [signed(-points), signed(-beans)]
        _every_size(stayer, shots)
        until(
            stayer,
            f"document.getElementById('beans').textContent.startsWith('{WELCOME + beans:,}')",
        )
        stayer.click(".settle-again")
        stayer.wait_for_selector(".panel.waiting", timeout=10000)
        assert say(SEARCHING, "zh") in stayer.inner_text(".panel.waiting")
        stayer.click(".panel.waiting button")
        stayer.wait_for_selector(".rooms .room")
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
