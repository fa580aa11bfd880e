"""Ranks (段位) in the browser: after a bean-room win, the settlement card shows each player his
PT change and a promotion; the profile shows his rank badge, step and points toward the next
step, and his rank move; the rank leaderboard lists both, with the season picker — at 390×844,
360×740 and 844×390, in Chinese and English, with no error on the page.

The hand is steered (``test_settlement.steered``: a win in 二人国标 初级场 played over
WebSockets by two new registered players).  The expected figures come from the documented table
(``erren.server.ranks``' docstring, README): 初级场 win +30, loss −30 × 50 % at 新人; 新人一级's
threshold 20, 新人二级 starts at 40 // 2 = 20 and its threshold is 40.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from ._support import until
from ._support.steering import at_table, say, steered

SIZES = ((390, 844), (360, 740), (844, 390))
WIN, LOSS = 30, -(30 * 50 // 100)  # 初级场 at 新人 (the documented table)
STEP = {True: ("新人二级", "Newcomer II"), False: ("新人一级", "Newcomer I")}
BAR = {True: ("20 / 40 段位分", "20 / 40 PT"), False: ("0 / 20 段位分", "0 / 20 PT")}
"""The winner promoted at 20 of 40; the loser at the floor, 0 of 20."""
PT = ("段位分", "PT")
PROMOTED = ("▲ 升级", "▲ Promoted")
KEPT = ("段位保护：不掉段", "Protected: no demotion")


def signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"\u2212{-n:,}"


def shoot(page: Page, name: str) -> None:
    out = Path("/tmp/shots/ranks")
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)


def test_a_bean_room_win_moves_the_rank_on_the_card_and_the_profile(
    browser: Browser, tmp_path: Path
) -> None:
    """Slow (about 20 s): an app of its own, a steered hand, then the table and the profile
    opened at three sizes in two languages, each seat in turn."""
    with steered(tmp_path, "guobiao-2p", "junior", "win") as hand:
        result = hand.state.result
        assert result is not None and result.winner is not None
        for i, (size, lang) in enumerate((s, lang) for s in SIZES for lang in ("zh", "en")):
            me = (i // 2) % 2  # each seat in both languages
            won = me == result.winner
            tag = f"{size[0]}x{size[1]}-{lang}-{'winner' if won else 'loser'}"
            with at_table(browser, hand, me, lang, size) as page:
                move = page.wait_for_selector("#rk-move", timeout=10000)
                assert move is not None
                assert (
                    page.inner_text("#rk-move .rk-change")
                    == f"{signed(WIN if won else LOSS)} {say(PT, lang)}"
                )
                assert page.inner_text("#rk-move .rk-step") == say(STEP[won], lang)
                assert page.locator("#rk-move .rk-up").count() == (1 if won else 0)
                if won:
                    assert page.inner_text("#rk-move .rk-up") == say(PROMOTED, lang)
                else:  # 0 − 15 < 0 at 新人一级: it stops at 0
                    assert page.inner_text("#rk-move .rk-kept") == say(KEPT, lang)
                assert say(BAR[won], lang) in page.inner_text("#rk-move .rk-points")
                page.locator("#rk-move").scroll_into_view_if_needed()
                shoot(page, f"settle-{tag}")
                page.evaluate("location.hash = '#/profile'")
                card = page.wait_for_selector('.rk-card[data-family="guobiao-2p"]', timeout=10000)
                assert card is not None
                assert card.get_attribute("data-step") == ("1" if won else "0")
                assert page.inner_text(".rk-card .rk-step") == say(STEP[won], lang)
                assert page.inner_text(".rk-card .rk-figure") == say(BAR[won], lang)
                share = page.eval_on_selector(
                    ".rk-card .rk-fill",
                    "e => e.getBoundingClientRect().width"
                    " / e.parentElement.getBoundingClientRect().width",
                )
                assert abs(share - (0.5 if won else 0.0)) < 0.02, share  # 20 of 40; 0 of 20
                assert page.locator(".rk-card svg.rk-badge").count() == 1
                page.wait_for_selector("#rk-history .rk-line")
                assert (
                    page.inner_text("#rk-history .rk-change")
                    == f"{signed(WIN if won else LOSS)} {say(PT, lang)}"
                )
                page.wait_for_selector("#rk-board")
                names = page.locator("#rk-board .pf-name").all_inner_texts()
                winner, loser = hand.names[result.winner], hand.names[1 - result.winner]
                assert names == [winner, loser], names
                assert page.locator("#rk-season option").count() >= 1
                # an earlier season's moves (none: the hand was played in this one), then back
                until(page, "document.querySelectorAll('#rk-history-season option').length > 1")
                now = page.eval_on_selector("#rk-history-season", "e => e.value")
                page.select_option("#rk-history-season", str(int(now) - 1))
                page.wait_for_selector("#rk-history p.muted")
                assert page.locator("#rk-history .rk-line").count() == 0
                page.select_option("#rk-history-season", now)
                page.wait_for_selector("#rk-history .rk-line")
                page.locator("#rk-panel").scroll_into_view_if_needed()
                shoot(page, f"profile-{tag}")
