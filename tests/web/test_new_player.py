"""A new account at a bean room, in a real Chromium against ``erren serve --new-player-hands
10`` (the production rule; the session's web server counts everyone as seasoned): the leave
dialog says an escape costs him no bean — in both languages — and after he leaves, both
balances are still the welcome grant, to the bean."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from erren.testing.servers import Server, database

from ._support import leave_text, page_errors, pair_at_room

NEW_PLAYER_HANDS = 10
WELCOME = 10_000
ROOM = "guobiao-2p/novice"


@pytest.fixture(scope="module")
def new_player_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("new-player")
    with database("sqlite", tmp) as url:
        srv = Server(
            url, tmp / "server.log", time_scale=1, bot_delay=0.05, new_player_hands=NEW_PLAYER_HANDS
        )
        srv.start()
        try:
            yield srv.url
        finally:
            srv.stop()


def _balance(url: str, page: Page) -> tuple[int, int]:
    token = page.evaluate("localStorage.getItem('erren.token')")
    reply = httpx.get(url + "/me/balance", headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    return int(body["balance"]), int(body["new_player_hands_left"])


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("zh", f"你还是新玩家（再打完 {NEW_PLAYER_HANDS} 局欢乐豆场牌局为止），逃跑不扣欢乐豆"),
        ("en", f"you are still a new player (for {NEW_PLAYER_HANDS} more bean-room hands"),
    ],
)
def test_a_new_players_leave_dialog_says_no_beans_and_none_move(
    browser: Browser, new_player_server: str, shots: Path, language: str, says: str
) -> None:
    url = new_player_server
    ctx_a, a, b = pair_at_room(browser, url, ROOM)
    errors = page_errors(a)
    try:
        assert _balance(url, a) == (WELCOME, NEW_PLAYER_HANDS)
        if language == "en":
            a.evaluate("localStorage.setItem('erren.lang', 'en')")
            a.reload()
            a.wait_for_selector(".board", timeout=15000)
        text = leave_text(a)
        assert says in text, text
        assert "你要付给对手" not in text and "you pay your opponent" not in text
        a.screenshot(path=str(shots / f"27-leave-new-player-{language}.png"))
        a.click("#btn-leave-yes")
        # the opponent is told (the closing notice, or the escape's settlement card)
        b.wait_for_selector('.closed[data-code="escaped"], .settle-escape', timeout=10000)
        assert _balance(url, a) == (WELCOME, NEW_PLAYER_HANDS)  # an escape is no hand played
        assert _balance(url, b) == (WELCOME, NEW_PLAYER_HANDS)
        assert not errors, errors
    finally:
        ctx_a.close()
        b.context.close()
