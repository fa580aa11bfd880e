"""Two friends play together in Chromium (issue #29): A (Chinese) and B (English), each in his own
browser context, register; A adds B by his friend code and B accepts; each sees the other's
presence change live (in the lobby → at a table of a family → in the lobby); A invites B into a
bean room (二人国标 新手场) while B is on his profile; B accepts the toast there and both sit at
A's private bean table; A sends a quick-chat phrase that B sees in English; 托管 plays the hand
out for both.  The settlement shows each the beans the room's rule moves for the hand's result —
the loser pays ``fan total × 50`` (guobiao-2p §6.1–6.3: points = the fan total, 新手场's 底分 50),
at most his balance — computed here, and the line "友人房不计段位" / "Friend tables don't count
for rank" instead of a rank move; the profiles still have no rank.  Then B invites A (Chinese
this time) into the same room and A declines; and the two quick-match in the same room, play a
hand out by 托管, and their ranks move by the documented table (``erren.server.ranks``'
docstring): 新手场 win +10, draw +2, loss 10 × 50 % at 新人, where 新人一级 (threshold 20) is
protected, so a loser stops at 0.

The test has an app of its own (``erren.testing.scripted.Backstage``) so that each hand can be
steered: 托管 throws back the drawn tile, so nearly every hand it plays on both seats is drawn
(荒庄) and moves no bean; the test finds with the engine a seed that 托管 plays to a win and
has the table deal it.  Which seat wins, how and for how many fan is whatever that seed gives: the
expected figures follow from the engine's result, and a drawn hand would be checked as well.
Screenshots of the invite arriving, the seated friend table and the unranked settlement at
390×844, 360×740 and 844×390 in both languages go to ``/tmp/shots/friendsplay/``.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from erren.engine import Action, HandResult, State, find_family
from erren.engine.result import ResultKind
from erren.testing.scripted import Backstage
from erren.testing.servers import database

from ._support import api_call, page_errors, register_in_page, scroll_to, trustee_on, until

ROOM = "guobiao-2p/novice"
STAKE = 50  # 新手场's 底分 per point (guobiao-2p §6.3)
SIZES = ((390, 844), (360, 740), (844, 390))
SHOTS = Path("/tmp/shots/friendsplay")
HAND_MS = 120_000
"""The longest a hand played by 托管 on both seats may take (it takes seconds)."""
UNRANKED = {"zh": "友人房不计段位", "en": "Friend tables don't count for rank"}
AT_TABLE = {"zh": "在牌桌（厦门麻将）", "en": "At a table (Xiamen)"}
LOBBY = {"zh": "在大厅", "en": "In the lobby"}
HURRY = {"zh": "快点吧，等得花儿都谢了", "en": "Hurry up please"}
# the documented table at 新人 in 新手场: (win, draw, loss) PT; 新人一级's threshold
WIN, DRAW, LOSS = 10, 2, -(10 * 50 // 100)
THRESHOLD_0 = 20


@pytest.fixture
def stage(tmp_path: Path) -> Iterator[Backstage]:
    """An app of this test's own (a rigged generator deals the hands it is told; timers too
    long to fire), on a fresh SQLite file audited afterwards."""
    with database("sqlite", tmp_path) as url, Backstage(url) as backstage:
        yield backstage


def _steer(stage: Backstage, table_id: str) -> HandResult:
    """Make the table deal a hand that 托管 on both seats plays to a win (the first such seed
    of a fixed sequence: about one hand in 150 under 托管's discard of the drawn tile ends in
    a win), found with the engine alone; its result."""
    table = stage.app.lobby.tables[table_id]
    family = find_family(table.ruleset.name, table.ruleset.options_dict())
    rng = random.Random(f"friendsplay:{table.dealer}")
    for _ in range(5_000):
        seed = rng.getrandbits(63)
        state = State.new(family, seed=seed, dealer=table.dealer)
        for seat in (0, 1):
            if not state.is_terminal:
                state.apply_system(Action.trustee(seat, on=True))
        assert state.result is not None
        if state.result.kind is ResultKind.WIN:
            stage.app.rng.seeds.append(seed)
            return state.result
    raise AssertionError("no hand that 托管 wins in 5,000 seeds")


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for ctx in made:
        with contextlib.suppress(PlaywrightError):
            ctx.close()


def _player(
    contexts: list[BrowserContext], browser: Browser, url: str, lang: str
) -> tuple[Page, str]:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="zh-CN" if lang == "zh" else "en-US"
    )
    ctx.add_init_script(
        f"localStorage.getItem('erren.lang') || localStorage.setItem('erren.lang', '{lang}')"
    )
    contexts.append(ctx)
    page = ctx.new_page()
    return page, register_in_page(page, url)


def _presence(page: Page, name: str) -> tuple[str, str]:
    """A friend's presence on the friends screen: (``data-state``, its words)."""
    found = page.evaluate(
        """name => { for (const li of document.querySelectorAll('#friend-list .fr-row')) {
            if (li.querySelector('.fr-name')?.textContent.includes(name)) {
              const s = li.querySelector('.fr-state');
              return s ? [s.dataset.state, s.textContent] : ['', '']; } }
          return ['', '']; }""",
        name,
    )
    return str(found[0]), str(found[1])


def _sees(page: Page, name: str, state: str, words: str, timeout: float = 30_000) -> None:
    """Wait until ``page`` shows ``name``'s presence as ``state`` in ``words`` (a push: the
    store's friend list is read for it, which a loaded machine took over 10 s to do once)."""
    deadline = time.monotonic() + timeout / 1000
    while _presence(page, name) != (state, words):
        if time.monotonic() > deadline:
            raise AssertionError(f"{name}: {_presence(page, name)} is not {(state, words)}")
        page.wait_for_timeout(50)


def _at_a_table_and_back(player: Page, friend: Page, name: str, lang: str) -> None:
    """``player`` sits at a score-only table of xiamen and leaves it: ``friend`` (on his
    friends screen, in ``lang``) sees him go from the lobby to the table and back, live."""
    _sees(friend, name, "lobby", LOBBY[lang])
    seat = api_call(player, "POST", "/tables/private", {"family": "xiamen", "options": {}})
    _sees(friend, name, "table", AT_TABLE[lang])
    player.evaluate(f"location.hash = '#/table/{seat['table']}'")
    player.wait_for_selector(".table-top .leave", timeout=15_000)
    _leave_table(player, ".table-top .leave")
    player.wait_for_selector(".rooms .room", timeout=10_000)  # the lobby, once left
    _sees(friend, name, "lobby", LOBBY[lang])


def _shoot(page: Page, name: str, selector: str | None = None) -> None:
    """``page`` at each size (in its own language), the element ``selector`` in view."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    lang = "zh" if page.evaluate("document.documentElement.lang").startswith("zh") else "en"
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)  # the layout settles after the resize
        if selector:
            scroll_to(page, selector)
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 1, f"{name} {lang} {width}×{height}: scrolls sideways by {overflow}px"
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{width}x{height}.png"))
    page.set_viewport_size({"width": 390, "height": 844})


def _balance(page: Page) -> int:
    return int(api_call(page, "GET", "/me/balance")["balance"])


def _seat(page: Page) -> int:
    until(page, "!!(window.erren.table && window.erren.table.seat !== undefined)", 15_000)
    return int(page.evaluate("window.erren.table.seat"))


def _settled(page: Page) -> dict[str, Any]:
    page.wait_for_selector(".settle .settle-amounts", timeout=HAND_MS)
    end = page.evaluate("window.erren.table.end")
    assert isinstance(end, dict) and end["kind"] == "settlement", end
    return end


def _signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"\u2212{-n:,}" if n < 0 else "0"


def _beans(result: HandResult, before: list[int]) -> list[int]:
    """Each seat's beans by the room's rule: the loser pays the fan total × 底分, at most his
    balance (a drawn hand: nothing)."""
    if result.kind is not ResultKind.WIN or result.winner is None:
        return [0, 0]
    winner = result.winner
    paid = min(result.fan_total * STAKE, before[1 - winner])
    beans = [0, 0]
    beans[winner], beans[1 - winner] = paid, -paid
    return beans


def _shown_beans(page: Page, seat: int) -> str:
    return page.inner_text(f'.settle-amount[data-seat="{seat}"] td:nth-child(3)')


def _leave_table(page: Page, button: str) -> None:
    """Leave the table by ``button`` (confirmed when asked), back to the lobby; a table the
    other closed already (its notice has no such button) is left for the lobby."""
    if page.locator(button).count():
        page.click(button)
        with contextlib.suppress(PlaywrightError):  # asked only while a hand runs
            page.click("#btn-leave-yes", timeout=2000)
    else:
        page.evaluate("location.hash = '#/'")
    until(page, "!location.hash.startsWith('#/table/')", 10_000)


def _befriend(a: Page, b: Page, a_name: str, b_name: str) -> None:
    """A adds B by B's friend code; B accepts; each lists the other."""
    b.evaluate("location.hash = '#/friends'")
    b.wait_for_selector("#friend-code")
    code = b.inner_text("#friend-code").strip()
    a.evaluate("location.hash = '#/friends'")
    a.wait_for_selector("#friend-who")
    a.fill("#friend-who", code)
    a.click("#btn-friend-add")
    until(a, "!!document.querySelector('#friend-sent')")
    b.wait_for_selector("#friend-received .btn-accept", timeout=10_000)
    b.click("#friend-received .btn-accept")
    for page, name in ((a, b_name), (b, a_name)):
        until(
            page, f"(document.querySelector('#friend-list')?.textContent || '').includes('{name}')"
        )


def _invite_to_bean_room(stage: Backstage, a: Page, b: Page) -> HandResult:
    """A, on his friends screen, invites B (on his profile) into :data:`ROOM`; B accepts the
    toast there (screenshots of it); both sit at A's table, which deals a hand 托管 wins: its
    result."""
    b.evaluate("location.hash = '#/profile'")
    b.wait_for_selector("#rk-panel #rk-none", timeout=10_000)  # no rank yet
    a.click("#friend-list .btn-invite")
    a.select_option("#invite-room", ROOM)
    a.click("#btn-invite-send")
    until(a, "location.hash.startsWith('#/table/')", 10_000)
    result = _steer(stage, str(a.evaluate("location.hash"))[len("#/table/") :])
    b.wait_for_selector("#invite-toast", timeout=10_000)
    assert "#/profile" in b.evaluate("location.hash")
    _shoot(b, "invite-arrives", "#invite-toast")
    b.click("#btn-invite-accept")
    for page in (a, b):
        page.wait_for_selector(".board", timeout=15_000)
    assert a.evaluate("location.hash") == b.evaluate("location.hash")
    info = a.evaluate("window.erren.table.info")
    assert (info["room"], info["kind"]) == (ROOM, "private")
    return result


def _chat(a: Page, b: Page) -> None:
    """A sends the phrase "hurry": B sees it beside A's seat, in English."""
    a.click("#btn-chat")
    a.click(".chat-tab >> nth=0")
    a.click('.chat-picker [data-phrase="hurry"]')
    until(b, "document.querySelector('.board .bar .chat-bubble .chat-text') !== null", 10_000)
    assert b.inner_text(".board .bar .chat-bubble .chat-text") == HURRY["en"]
    until(a, "document.querySelector('.board .chat-bubble .chat-text') !== null", 10_000)
    assert a.inner_text(".board .chat-bubble .chat-text") == HURRY["zh"]


def _play_out(pages: tuple[Page, Page]) -> list[dict[str, Any]]:
    """托管 on for both seats; each page's settlement event once it shows."""
    for page in pages:
        trustee_on(page)
    return [_settled(page) for page in pages]


def _check_friend_settlement(
    pages: dict[int, Page], ends: list[dict[str, Any]], result: HandResult, before: list[int]
) -> None:
    """Both seats see the beans of the rule and the unranked line; the ledger agrees."""
    beans = _beans(result, before)
    assert beans[0] != 0  # a win: beans move
    for seat, page in pages.items():
        end = ends[seat]
        assert end["result"]["deltas"] == list(result.deltas)  # the steered hand was played
        assert end["beans"] == beans and end["ranked"] is False and end["ranks"] == [None, None]
        lang = "zh" if seat == 0 else "en"
        for s in (0, 1):
            assert _shown_beans(page, s) == _signed(beans[s]), (seat, s, beans)
        assert page.inner_text("#rk-unranked") == UNRANKED[lang]
        assert page.locator("#rk-move").count() == 0
        assert _balance(page) == before[seat] + beans[seat]
        _shoot(page, "unranked-settlement", "#rk-unranked")


def _decline_an_invite(a: Page, b: Page) -> None:
    """B invites A (Chinese) into :data:`ROOM` from his friends screen; A, in the lobby, sees
    the toast (screenshots) and declines; B leaves the table (no hand was dealt)."""
    b.evaluate("location.hash = '#/friends'")
    b.wait_for_selector("#friend-list .btn-invite")
    b.click("#friend-list .btn-invite")
    b.select_option("#invite-room", ROOM)
    b.click("#btn-invite-send")
    until(b, "location.hash.startsWith('#/table/')", 10_000)
    a.wait_for_selector("#invite-toast", timeout=10_000)
    _shoot(a, "invite-arrives", "#invite-toast")
    a.click("#btn-invite-decline")
    b.wait_for_selector(".table-top .leave", timeout=15_000)
    _leave_table(b, ".table-top .leave")


QUICK = """room => { window.quickSeat = fetch('/match/quick', {method: 'POST',
    headers: {'Content-Type': 'application/json',
      Authorization: 'Bearer ' + localStorage.getItem('erren.token')},
    body: JSON.stringify({room, wait_s: 20})}).then(r => r.json()); }"""


def _quick_match(stage: Backstage, a: Page, b: Page) -> tuple[tuple[Page, Page], HandResult]:
    """Both ask for a quick match in :data:`ROOM` (the lobby's request, from each page) and are
    paired; their table is made to deal a hand 托管 wins, and both open it: the pages by seat
    and the hand's result."""
    for page in (a, b):
        page.evaluate(QUICK, ROOM)
    seated = [page.evaluate("window.quickSeat") for page in (a, b)]
    assert seated[0]["table"] == seated[1]["table"], seated
    table = str(seated[0]["table"])
    result = _steer(stage, table)
    for page in (a, b):
        page.evaluate(f"location.hash = '#/table/{table}'")
    for page in (a, b):  # dealt once both joined
        page.wait_for_selector(".board", timeout=15_000)
    assert a.evaluate("window.erren.table.info.kind") == "quick"
    return ((a, b) if seated[0]["seat"] == 0 else (b, a)), result


def _check_rank_moves(
    seats: tuple[Page, Page], ends: list[dict[str, Any]], result: HandResult
) -> None:
    """Each seat's rank moved by the documented table (both at 新人一级 with 0 PT before)."""
    for seat, page in enumerate(seats):
        end = ends[seat]
        assert end["ranked"] is True and end["result"]["deltas"] == list(result.deltas)
        if result.kind is ResultKind.WIN:
            won = result.winner == seat
            change, after = (WIN, WIN) if won else (LOSS, 0)  # 新人一级 is protected: stops at 0
        else:
            change, after = DRAW, DRAW
        assert after < THRESHOLD_0  # no promotion in one hand of 新手场
        move = end["ranks"][seat]
        moved = (move["change"], move["after"]["step"], move["after"]["points"])
        assert moved == (change, 0, after)
        pt = "段位分" if page.evaluate("document.documentElement.lang").startswith("zh") else "PT"
        assert page.inner_text("#rk-move .rk-change") == f"{_signed(change)} {pt}"
        [rank] = api_call(page, "GET", "/me/profile")["ranks"]
        shown = (rank["standing"]["step"], rank["standing"]["points"], rank["hands"])
        assert shown == (0, after, 1)


def test_friends_play_a_bean_table_unranked_then_a_ranked_quick_match(
    browser: Browser, stage: Backstage, contexts: list[BrowserContext]
) -> None:
    """Slow (about a minute): two accounts befriend, see presence, play an invited bean-room hand
    and a quick-matched one out by 托管, with screenshots at three sizes in two languages."""
    server = stage.app.url
    a, a_name = _player(contexts, browser, server, "zh")
    b, b_name = _player(contexts, browser, server, "en")
    errors = page_errors(a) + page_errors(b)
    _befriend(a, b, a_name, b_name)
    _at_a_table_and_back(b, a, b_name, "zh")  # A sees B go to a xiamen table and back
    b.evaluate("location.hash = '#/friends'")
    b.wait_for_selector("#friend-list .fr-row")
    _at_a_table_and_back(a, b, a_name, "en")  # and B sees A
    a.evaluate("location.hash = '#/friends'")
    a.wait_for_selector("#friend-list .fr-row")
    balances = {a: _balance(a), b: _balance(b)}
    result = _invite_to_bean_room(stage, a, b)
    assert _seat(a) == 0 and _seat(b) == 1  # the host sits in seat 0
    _chat(a, b)
    for page in (a, b):
        _shoot(page, "friend-table", ".board")
    ends = _play_out((a, b))
    _check_friend_settlement({0: a, 1: b}, ends, result, [balances[a], balances[b]])
    for page in (a, b):
        _leave_table(page, ".settle .settle-leave")
        assert api_call(page, "GET", "/me/profile")["ranks"] == []  # no rank: the friend table
    b.evaluate("location.hash = '#/profile'")
    b.wait_for_selector("#rk-panel #rk-none", timeout=10_000)
    assert b.locator(".rk-card").count() == 0
    _decline_an_invite(a, b)
    before = {page: _balance(page) for page in (a, b)}
    seats, result = _quick_match(stage, a, b)
    ends = _play_out(seats)
    beans = _beans(result, [before[page] for page in seats])
    for seat, page in enumerate(seats):
        assert ends[seat]["beans"] == beans
        page.wait_for_selector("#rk-move", timeout=10_000)
        assert page.locator("#rk-unranked").count() == 0
    _check_rank_moves(seats, ends, result)
    assert not [e for e in errors if "favicon" not in e], errors
