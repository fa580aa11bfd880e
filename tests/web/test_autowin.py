"""自动和 takes every kind of win, not only 和 and 自摸 (issue 28): in a real Chromium at a real
xiamen table against the computer, a player with 自动和 switched on whose opening window offers
抢金 or 三金倒 wins at once — the page sends the win itself, nobody presses anything — and
the settlement says he won.  The server marks which legal moves win (``state.wins``,
``AnyActionKind.is_win``); the page no longer guesses from the verbs.

The hand is steered: the app runs in this process (:class:`~erren.testing.scripted.Backstage`,
a rigged generator), the table is made from the page, and before the page joins it (the deal)
a hand seed is queued whose opening window offers the player such a win, found here with the
engine for the table's dealer and rules (the computer, when it deals, has only its pass)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, WebSocket

from erren.engine import Action, ActionKind, Family, State
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.testing.scripted import Backstage, Served
from erren.testing.servers import database

from ._support import new_computer_table, page_errors

PLAYER = 0
"""The guest's seat at a table against the computer."""
WON = "你赢了！"
"""The settlement's title when the player won."""
OPENING_WINS = (XiamenVerb.SANJINDAO, XiamenVerb.QIANGJIN)
"""xiamen's wins of the opening window: 三金倒, 抢金 (R-2.2, R-2.3)."""
WAIT_S = 20
"""How long the win may take to come (the table's timers run 600 s here: never the timer)."""


def opening_win(ruleset: Family, dealer: int) -> tuple[int, Action]:
    """A hand seed whose opening window (R-2.2, R-2.3) offers the player a win that is no 和 or
    自摸 (三金倒 or 抢金) — the computer, when it deals, has only its pass — and the first such
    win offered (the one 自动和 takes)."""
    rng = random.Random("autowin")
    for _ in range(20_000):
        seed = rng.getrandbits(63)
        state = State.new(ruleset, seed=seed, dealer=dealer)
        if state.current_player() != PLAYER:
            if [a.kind for a in state.legal_actions()] != [ActionKind.PASS]:
                continue
            state.apply(state.legal_actions()[0])
        if state.is_terminal or state.current_player() != PLAYER:
            continue
        wins = [a for a in state.legal_actions() if a.kind in OPENING_WINS]
        if wins:
            return seed, wins[0]
    raise AssertionError("no seed offers the player 三金倒 or 抢金")


async def _table_of(served: Served, table: str) -> tuple[Family, int, bool]:
    """The table's rules, its dealer, and whether a hand was dealt there already."""
    found = served.lobby.tables[table]
    return found.ruleset, found.dealer, found.state is not None


def test_auto_win_takes_a_xiamen_opening_win(browser: Browser, tmp_path: Path) -> None:
    """Slow: an app of this process, one xiamen table, one opening window."""
    with database("sqlite", tmp_path) as url, Backstage(url) as stage:
        served = stage.app
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        ctx.add_init_script(
            "localStorage.setItem('erren.lang', 'zh'); localStorage.setItem('erren.autowin', 'on')"
        )
        try:
            page = ctx.new_page()
            errors = page_errors(page)
            sent: list[dict[str, Any]] = []

            def listen(ws: WebSocket) -> None:
                ws.on("framesent", lambda payload: sent.append(_json(payload)))

            page.on("websocket", listen)
            table = new_computer_table(page, served.url, "xiamen", {})
            ruleset, dealer, dealt = stage.call(_table_of(served, table))
            assert not dealt, "the hand was dealt before the page joined"
            seed, win = opening_win(ruleset, dealer)
            served.rng.seeds.append(seed)
            page.evaluate(f"location.hash = '#/table/{table}'")
            page.wait_for_selector(".board", timeout=15000)
            deadline = time.monotonic() + WAIT_S
            acts: list[str] = []
            while not page.locator(".settle").count():
                acts = [str(m["action"]) for m in sent if m.get("type") == "act"]
                assert time.monotonic() < deadline, f"no settlement; the page's moves: {acts}"
                page.wait_for_timeout(50)
            acts = [str(m["action"]) for m in sent if m.get("type") == "act"]
            assert acts == [str(win).split(":", 1)[1]], acts  # the win, sent by the page itself
            title = page.get_by_role("dialog").get_by_role("heading").first.inner_text()
            assert title == WON, title
            assert not errors, errors
        finally:
            ctx.close()


def _json(payload: str | bytes) -> dict[str, Any]:
    try:
        msg = json.loads(payload)
    except ValueError:
        return {}
    return msg if isinstance(msg, dict) else {}
