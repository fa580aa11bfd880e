"""Friends in Chromium (issue #29, point 1): A adds B by B's friend code, B accepts, A sees B's
presence change to "in the lobby" live, A invites B into a bean room, B accepts the invite's
toast on another page, and both sit at the same bean table.  Screenshots of the friends screen
at the phone sizes in Chinese and English go to ``$ERREN_SHOTS`` (default
``/tmp/shots/friends``)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute
from playwright.sync_api import Error as PlaywrightError

from ._support import api_call, page_errors, register_in_page, until

ROOM = "guobiao-2p/novice"
SIZES = [(390, 844), (360, 740), (844, 390)]
SHOTS = Path(os.environ.get("ERREN_SHOTS", "/tmp/shots/friends"))
LOBBY = {"zh": "在大厅", "en": "In the lobby"}
LISTED = "(document.querySelector('#friend-list')?.textContent || '').includes('NAME')"
IN_LOBBY = (
    "[...document.querySelectorAll('#friend-list .fr-state')]"
    ".some(s => s.dataset.state === 'lobby')"
)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for ctx in made:
        with contextlib.suppress(PlaywrightError):
            ctx.close()


def _player(contexts: list[BrowserContext], browser: Browser, url: str) -> tuple[Page, str]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 800}, locale="zh-CN")
    ctx.add_init_script(
        "localStorage.getItem('erren.lang') || localStorage.setItem('erren.lang', 'zh')"
    )
    contexts.append(ctx)
    page = ctx.new_page()
    return page, register_in_page(page, url)


def _two_friends(
    contexts: list[BrowserContext], browser: Browser, url: str
) -> tuple[Page, str, Page, int]:
    """A and B, new players in pages of their own, made friends over the API: ``(A's page,
    A's name, B's page, B's id)``."""
    a, a_name = _player(contexts, browser, url)
    b, _ = _player(contexts, browser, url)
    code = api_call(b, "GET", "/friends")["code"]
    api_call(a, "POST", "/friends/requests", {"who": code})
    b_id = int(api_call(b, "GET", "/me")["id"])
    api_call(b, "POST", f"/friends/requests/{api_call(a, 'GET', '/me')['id']}/accept")
    return a, a_name, b, b_id


def _befriend(c: Page, b: Page) -> None:
    """C asks B by his friend code and B accepts (over the API, each with his page's session)."""
    api_call(c, "POST", "/friends/requests", {"who": api_call(b, "GET", "/friends")["code"]})
    api_call(b, "POST", f"/friends/requests/{api_call(c, 'GET', '/me')['id']}/accept")


def _state_of(page: Page, name: str) -> str:
    return str(
        page.evaluate(
            """name => { for (const li of document.querySelectorAll('#friend-list .fr-row')) {
            if (li.textContent.includes(name)) {
              const s = li.querySelector('.fr-state'); return s ? s.dataset.state : ''; } }
          return ''; }""",
            name,
        )
    )


def test_add_by_code_accept_presence_and_a_bean_invite(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """Slow (about 10 s): two players register, befriend, go offline and back, and one invites
    the other into a bean room — each step waits for the other page's live update."""
    a, a_name = _player(contexts, browser, server)
    b, b_name = _player(contexts, browser, server)
    errors = page_errors(a) + page_errors(b)
    # B's code, from his friends screen; then B goes offline (his page closes)
    b.click("#link-friends")
    b.wait_for_selector("#friend-code")
    code = b.inner_text("#friend-code").strip()
    assert len(code) == 6
    b_ctx = contexts[1]
    b.close()
    # A adds B by the code
    a.click("#link-friends")
    a.wait_for_selector("#friend-who")
    a.fill("#friend-who", code.lower())
    a.click("#btn-friend-add")
    until(a, "!!document.querySelector('#friend-sent')")
    assert b_name in a.inner_text("#friend-sent")
    a.fill("#friend-who", "half-typed")  # A is typing when B's answer redraws his list
    # B comes back and accepts: A's list shows B, offline or in the lobby, then in the lobby
    b = b_ctx.new_page()
    b.goto(server + "/#/friends")
    b.wait_for_selector("#friend-received .btn-accept")
    b.set_viewport_size({"width": 360, "height": 740})
    _shot(b, "b-request-zh-360x740")
    b.click("#friend-received .btn-accept")
    until(b, LISTED.replace("NAME", a_name))
    until(a, LISTED.replace("NAME", b_name), 8000)
    assert a.input_value("#friend-who") == "half-typed"  # a live update keeps what he types
    assert a.evaluate("document.activeElement && document.activeElement.id") == "friend-who"
    a.fill("#friend-who", "")
    until(a, IN_LOBBY, 8000)
    assert _state_of(a, b_name) == "lobby"
    assert LOBBY["zh"] in a.inner_text("#friend-list")
    _shots(a, "a-friends")
    # B goes to the lobby (any page): A invites him into a bean room
    b.goto(server + "/#/")
    b.wait_for_selector(".rooms .room")
    b.set_viewport_size({"width": 390, "height": 844})
    a.set_viewport_size({"width": 390, "height": 844})
    _open_invite(a)
    a.select_option("#invite-room", ROOM)
    _shot(a, "a-invite-chooser-zh-390x844")
    a.click("#btn-invite-send")
    until(a, "location.hash.startsWith('#/table/')", 8000)
    b.wait_for_selector("#invite-toast", timeout=8000)
    _shot(b, "b-invite-toast-zh")
    b.click("#btn-invite-accept")
    for page in (a, b):
        page.wait_for_selector(".board", timeout=15000)
    table_a, table_b = (page.evaluate("location.hash") for page in (a, b))
    assert table_a == table_b and table_a.startswith("#/table/")
    info = a.evaluate("window.erren.table && window.erren.table.info")
    assert info["room"] == ROOM and info["kind"] == "private"
    assert not [e for e in errors if "favicon" not in e]


def _open_invite(page: Page) -> None:
    """Open the invite chooser beside the (only) friend: the button toggles it, so it is
    pressed again only when the chooser did not show (a click on a list being redrawn by a
    live update may be lost)."""
    for _ in range(3):
        page.click("#friend-list .btn-invite")
        try:
            page.wait_for_selector("#invite-room", timeout=5000)
            return
        except PlaywrightError:
            continue
    raise AssertionError("the invite chooser did not open")


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


TITLE = {"zh": "好友", "en": "Friends"}
"""The friends screen's heading in each language."""


def _switch_language(page: Page, lang: str) -> None:
    """The header's switch, then wait until the friends screen is drawn again in ``lang``: the
    old screen stays until the new one has its data, and a click on it meanwhile is lost."""
    page.click("#lang")
    until(page, f"document.documentElement.lang.startsWith('{lang}')")
    title = json.dumps(TITLE[lang])
    until(page, f"document.querySelector('.fr-me h2')?.textContent === {title}")
    page.wait_for_selector("#friend-list")


def _shots(page: Page, name: str) -> None:
    """The friends screen at each phone size, in Chinese and English (the header's switch)."""
    before = page.viewport_size
    for lang in ("zh", "en"):
        if page.evaluate("document.documentElement.lang").split("-")[0] != lang:
            _switch_language(page, lang)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 1, f"{lang} {width}×{height}: scrolls sideways by {overflow}px"
            _shot(page, f"{name}-{lang}-{width}x{height}")
    _switch_language(page, "zh")
    if before:
        page.set_viewport_size(before)


TOAST_REMOVALS = """() => { window.toastRemovals = 0;
  new MutationObserver(changes => { for (const c of changes) for (const n of c.removedNodes)
    if (n.id === 'invite-toast') window.toastRemovals += 1; })
  .observe(document.body, { childList: true }); }"""
"""Count in ``window.toastRemovals`` the times the invite toast is taken off the page."""


class SocketGate:
    """A page's sockets through Playwright's WebSocket route: let through, or cut (the open ones
    closed, every new one refused: the page tries again after a pause).  The invites the server
    sends through it are kept in :attr:`invites`."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.cut = False
        self.open: list[WebSocketRoute] = []
        self.invites: list[str] = []
        page.route_web_socket(lambda u: u.endswith("/ws"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        if self.cut:
            ws.close()
            return
        to_server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "invite":
                self.invites.append(message)
            with contextlib.suppress(PlaywrightError):  # the page's side closed meanwhile
                ws.send(message)

        to_server.on_message(to_page)  # the page gets every message, and the test sees them
        self.open.append(ws)

    def drop(self) -> None:
        self.cut = True
        for ws in self.open:
            ws.close()
        self.open.clear()

    def back(self) -> None:
        """Let the sockets through, and wait until the page has one open again."""
        self.cut = False
        for _ in range(200):
            if self.open:
                return
            self.page.wait_for_timeout(50)
        raise AssertionError("the page never opened its socket again")


def test_a_friend_who_came_online_while_the_socket_was_away_shows_once_it_is_back(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """A's friends socket is cut (every new one refused) while B comes online: no presence can
    reach A then, and none is pushed again later.  Once A's socket is let through and welcomed,
    his friends screen reads the list again and shows B in the lobby."""
    a, _ = _player(contexts, browser, server)
    b, b_name = _player(contexts, browser, server)
    code = api_call(b, "GET", "/friends")["code"]
    api_call(a, "POST", "/friends/requests", {"who": code})
    api_call(b, "POST", f"/friends/requests/{api_call(a, 'GET', '/me')['id']}/accept")
    b_ctx = contexts[1]
    b.close()  # B is offline
    gate = SocketGate(a)
    a.goto(server + "/#/friends")
    a.reload()  # the page's sockets are opened anew, through the route
    until(a, LISTED.replace("NAME", b_name))
    gate.back()
    assert _state_of(a, b_name) == "offline"
    gate.drop()  # A's friends socket drops; its next ones are refused
    b = b_ctx.new_page()
    b.goto(server + "/")
    b.wait_for_selector(".rooms .room")

    for _ in range(200):  # the server counts B in the lobby (asked with A's session)
        if [f["state"] for f in api_call(a, "GET", "/friends")["friends"]] == ["lobby"]:
            break
        a.wait_for_timeout(50)
    else:
        raise AssertionError("the server never counted B in the lobby")
    assert _state_of(a, b_name) == "offline"  # nothing reached A's page meanwhile
    gate.back()
    until(a, IN_LOBBY, 8000)  # the socket is back: the screen read the list again
    assert _state_of(a, b_name) == "lobby"


def test_an_invite_sent_while_the_socket_was_away_shows_once_it_is_back(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """B sits in the lobby with his sockets cut (a phone that put the page away) when A invites
    him: nothing reaches his page.  Once his socket is let through, the server sends the invite
    it held, and the toast shows A's invite; a second drop and return leaves that toast as it
    is (one toast, not one per return), and accepting it seats B at A's table."""
    a, a_name, b, b_id = _two_friends(contexts, browser, server)
    gate = SocketGate(b)
    b.goto(server + "/")
    b.reload()  # the page's sockets are opened anew, through the route
    b.wait_for_selector(".rooms .room")
    gate.back()
    gate.drop()
    for _ in range(200):  # the server no longer counts a socket of B's (asked with A's session)
        if [f["state"] for f in api_call(a, "GET", "/friends")["friends"]] == ["offline"]:
            break
        a.wait_for_timeout(50)
    else:
        raise AssertionError("the server still counts a socket of B's")
    seat = api_call(a, "POST", f"/friends/{b_id}/invite", {"family": "xiamen"})
    assert gate.invites == []  # no socket of B's was open: nothing reached his page
    assert b.locator("#invite-toast").count() == 0
    gate.back()
    toast = b.wait_for_selector("#invite-toast", timeout=10000)
    assert toast is not None
    assert len(gate.invites) == 1
    assert toast.get_attribute("data-invite") == seat["invite"]
    assert a_name in toast.inner_text() and "邀请你到" in toast.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        b.set_viewport_size({"width": width, "height": height})
        b.screenshot(path=str(SHOTS / f"held-invite-{width}x{height}.png"))
    b.evaluate(TOAST_REMOVALS)
    gate.drop()
    gate.back()
    for _ in range(200):  # welcomed again: the server sends the held invite once more
        if len(gate.invites) == 2:
            break
        b.wait_for_timeout(50)
    assert len(gate.invites) == 2
    b.wait_for_timeout(500)  # margin for the page to handle it (a pass, never a flake)
    assert b.evaluate("window.toastRemovals") == 0  # the same toast, not one shown anew
    assert b.locator("#invite-toast").count() == 1 and toast.is_visible()
    b.click("#btn-invite-accept")
    until(b, f"location.hash === '#/table/{seat['table']}'", 10000)


def test_switching_the_language_says_the_invite_anew_and_takes_the_short_toasts_away(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """B, on his Friends screen in Chinese, has just sent C a request (a short toast says so)
    when A's invite comes.  He switches to English: the short toast, which cannot be translated,
    is gone, and the invite's toast says the same invite in English, its buttons working."""
    a, a_name, b, b_id = _two_friends(contexts, browser, server)
    _, c_name = _player(contexts, browser, server)
    b.goto(server + "/#/friends")
    b.wait_for_selector("#friend-who")
    b.fill("#friend-who", c_name)
    b.click("#btn-friend-add")
    until(b, "(document.querySelector('#toasts')?.textContent || '').includes('已向')")
    seat = api_call(a, "POST", f"/friends/{b_id}/invite", {"family": "xiamen"})
    toast = b.wait_for_selector("#invite-toast", timeout=10000)
    assert toast is not None and "邀请你到" in toast.inner_text()
    b.click("#lang")
    until(b, "document.documentElement.lang === 'en'")
    assert b.inner_text("#toasts") == ""  # the short toast went with its language
    said = b.inner_text("#invite-toast")
    assert f"{a_name} invites you to" in said and "Accept" in said and "Decline" in said
    assert "邀请" not in said
    assert b.get_attribute("#invite-toast", "aria-label") == "A friend's invite"
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        b.set_viewport_size({"width": width, "height": height})
        b.screenshot(path=str(SHOTS / f"invite-after-switch-en-{width}x{height}.png"))
    b.click("#btn-invite-accept")
    until(b, f"location.hash === '#/table/{seat['table']}'", 10000)


@dataclass
class TwoInvites:
    """B's page in the lobby shows A's invite (xiamen), C's (arcade) waiting behind it."""

    a: Page
    a_name: str
    b: Page
    b_errors: list[str]
    c: Page
    c_name: str
    from_a: dict[str, Any]
    from_c: dict[str, Any]


def _two_invites(contexts: list[BrowserContext], browser: Browser, url: str) -> TwoInvites:
    a, a_name, b, b_id = _two_friends(contexts, browser, url)
    c, c_name = _player(contexts, browser, url)
    _befriend(c, b)
    errors = page_errors(b)
    b.goto(url + "/")
    b.wait_for_selector(".rooms .room")
    from_a = api_call(a, "POST", f"/friends/{b_id}/invite", {"family": "xiamen"})
    until(b, f"document.querySelector('#invite-toast')?.dataset.invite === '{from_a['invite']}'")
    from_c = api_call(c, "POST", f"/friends/{b_id}/invite", {"family": "arcade"})
    until(b, "!!document.querySelector('#invite-toast .invite-more')")
    return TwoInvites(a, a_name, b, errors, c, c_name, from_a, from_c)


def test_a_second_invite_waits_behind_the_first_and_shows_when_it_is_answered(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """A invites B, then C does, while B's page is open: the toast shows A's invite and says
    one more waits.  B declines A's (A hears it): the toast shows C's, with nothing more
    waiting; accepting it seats B at C's table."""
    two = _two_invites(contexts, browser, server)
    a, a_name, b, c_name, from_c = two.a, two.a_name, two.b, two.c_name, two.from_c
    said = b.inner_text("#invite-toast")
    assert a_name in said and "之后还有 1 个邀请" in said and c_name not in said
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        b.set_viewport_size({"width": width, "height": height})
        b.screenshot(path=str(SHOTS / f"two-invites-{width}x{height}.png"))
    b.click("#lang")  # in English too, then back
    until(b, "document.documentElement.lang === 'en'")
    assert "1 more after this one" in b.inner_text("#invite-toast")
    for width, height in SIZES:
        b.set_viewport_size({"width": width, "height": height})
        b.screenshot(path=str(SHOTS / f"two-invites-en-{width}x{height}.png"))
    b.click("#lang")
    until(b, "document.documentElement.lang === 'zh-CN'")
    b.click("#btn-invite-decline")
    until(a, "(document.querySelector('#toasts')?.textContent || '').includes('拒绝了邀请')")
    until(b, f"document.querySelector('#invite-toast')?.dataset.invite === '{from_c['invite']}'")
    said = b.inner_text("#invite-toast")
    assert c_name in said and "街机麻将" in said and "之后还有" not in said
    assert b.locator("#invite-toast").count() == 1
    b.click("#btn-invite-accept")
    until(b, f"location.hash === '#/table/{from_c['table']}'", 10000)
    assert b.locator("#invite-toast").count() == 0


def _host_leaves(page: Page, table: str) -> None:
    """The page's player opens the table he sits at (no hand dealt yet) and leaves it."""
    page.evaluate(f"location.hash = '#/table/{table}'")
    page.wait_for_selector(".table-top .leave", timeout=15_000)
    page.click(".table-top .leave")
    with contextlib.suppress(PlaywrightError):  # asked only while a hand runs
        page.click("#btn-leave-yes", timeout=2000)
    until(page, "!location.hash.startsWith('#/table/')", 10_000)


def _toasts_say(page: Page, words: str) -> None:
    said = f"(document.querySelector('#toasts')?.textContent || '').includes({json.dumps(words)})"
    until(page, said)


def test_an_invite_whose_table_is_gone_leaves_the_screen(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """A invites B, then C does, while B's page is open: the toast shows A's invite, one more
    waiting.  A leaves his table: the toast shows C's invite at once, nothing more waiting,
    and a short toast says A's table no longer waits for B.  In English, C leaves his: the
    invite toast goes, and the short toast says so in English."""
    two = _two_invites(contexts, browser, server)
    a_name, b, c, c_name, from_c = two.a_name, two.b, two.c, two.c_name, two.from_c
    _host_leaves(two.a, two.from_a["table"])
    until(b, f"document.querySelector('#invite-toast')?.dataset.invite === '{from_c['invite']}'")
    said = b.inner_text("#invite-toast")
    assert c_name in said and "之后还有" not in said
    _toasts_say(b, f"{a_name} 的牌桌已不再等你")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        b.set_viewport_size({"width": width, "height": height})
        b.screenshot(path=str(SHOTS / f"invite-over-{width}x{height}.png"))
    b.click("#lang")
    until(b, "document.documentElement.lang === 'en'")
    _host_leaves(c, from_c["table"])
    until(b, "!document.querySelector('#invite-toast')")
    _toasts_say(b, f"{c_name}'s table no longer waits for you")
    for width, height in SIZES:
        b.set_viewport_size({"width": width, "height": height})
        b.screenshot(path=str(SHOTS / f"invite-over-en-{width}x{height}.png"))
    assert two.b_errors == []


def test_taking_the_seat_on_one_page_takes_the_invite_away_on_the_other(
    browser: Browser, server: str, contexts: list[BrowserContext]
) -> None:
    """B has two pages open when A invites him: both show the toast.  He accepts on the first,
    which goes to A's table; the second's toast goes too, with no notice (he is seated)."""
    a, _, b, b_id = _two_friends(contexts, browser, server)
    other = b.context.new_page()
    for page in (b, other):
        page.goto(server + "/")
        page.wait_for_selector(".rooms .room")
    from_a = api_call(a, "POST", f"/friends/{b_id}/invite", {"family": "xiamen"})
    shown = f"document.querySelector('#invite-toast')?.dataset.invite === '{from_a['invite']}'"
    for page in (b, other):
        until(page, shown)
    b.click("#btn-invite-accept")
    until(b, f"location.hash === '#/table/{from_a['table']}'", 10000)
    until(other, "!document.querySelector('#invite-toast')")
    assert "不再等你" not in other.evaluate("document.querySelector('#toasts')?.textContent || ''")
