"""What the terminal reads from a view (erren.engine.views.ViewFacts) instead of asking which
family it is: the wild kind and its mark, a seat's 游 level, the White playing as the gold,
the family's line."""

from __future__ import annotations

import dataclasses

from erren.cli.settlement import settlement_lines
from erren.cli.table import hand_lines
from erren.display import Palette, seat_lines, view_line
from erren.engine import State, find_family
from erren.engine.result import HandResult, ResultKind, WinHow
from erren.families.arcade.game.view import ArcadeView
from erren.families.guobiao.view import GuobiaoView
from erren.families.xiamen.game.data import XiamenWinHow
from erren.families.xiamen.game.view import XiamenView
from erren.tiles import Tile

PAL = Palette(ascii=True)


def test_guobiao_has_no_wild_mark_offer_or_line() -> None:
    view = GuobiaoView()
    assert (view.wild, view.offer, view.wild_mark, view.shows_streak) == (None, None, "", False)
    assert view.seat_tag(0) is None and view.note(str) is None
    assert view.played_as(Tile.M5) is Tile.M5


def test_xiamen_gold_is_the_wild_and_the_white_plays_as_it() -> None:
    view = XiamenView(gold=Tile.P3, you_level=(0, 2))
    assert view.wild is Tile.P3 and view.wild_mark == "金" and view.follows_discards
    assert view.played_as(Tile.P3) is Tile.WHITE  # a White stands for the gold kind
    assert view.played_as(Tile.P4) is Tile.P4
    assert XiamenView(gold=Tile.WHITE).played_as(Tile.WHITE) is Tile.WHITE  # a gold White
    assert view.seat_tag(0) is None and view.seat_tag(1) == "双游 (游 level 2)"
    assert view.shows_streak and not XiamenView().shows_streak
    assert view.note(str) == (
        "金 gold 11 (indicator face up; the other three 11 are wild) · 白 White plays as 11"
    )


def test_arcade_wild_offer_and_line() -> None:
    view = ArcadeView(wild=Tile.S7, flower_kind=Tile.WHITE, reserve_count=40, offer=Tile.M1)
    assert (view.wild, view.offer, view.wild_mark) == (Tile.S7, Tile.M1, "财")
    assert view.note(lambda t: Tile(t).name) == (
        "财神 wild S7 (indicator face up; the other three S7 are wild)"
        " · 花 flowers: every WHITE is set aside · reserve 40 tiles"
    )
    assert view.transcript_line() == "wild=7s flower=5z reserve=40 offer=1m"


def test_the_terminal_marks_golds_and_the_swimming_seat() -> None:
    state = State.new(find_family("xiamen"), seed=3)
    obs = state.observe(0)
    gold = Tile(int(obs.hand[0]))
    obs = dataclasses.replace(obs, view=XiamenView(gold=gold, you_level=(1, 0)))
    assert "游金 (游 level 1)" in seat_lines(obs, 0, PAL, "You")[0]
    assert "游金" not in seat_lines(obs, 1, PAL, "Computer")[0]
    cells = hand_lines(obs, PAL, numbered=False)[0].split()
    assert cells[2] == f"金{gold}"  # the golds first, each marked
    assert view_line(obs, PAL) == obs.view.note(PAL.name)


def test_the_settlement_speaks_each_family_words() -> None:
    """xiamen names its ways to win itself (R-3.6: 平和 on a discard, 游金...); the others use
    the shared words; a drawn hand adds the family's note on who deals next."""
    xiamen, guobiao = find_family("xiamen"), find_family("guobiao-2p")
    on_discard = HandResult(ResultKind.WIN, winner=0, loser=1, how=WinHow.DISCARD)
    swim = HandResult(ResultKind.WIN, winner=0, how=XiamenWinHow.YOUJIN)
    assert settlement_lines(on_discard, PAL, words=xiamen.win_words)[0] == (
        "You win — 平和 on a discard!"
    )
    assert settlement_lines(on_discard, PAL, words=guobiao.win_words)[0] == (
        "You win — 点和 on a discard!"
    )
    assert settlement_lines(swim, PAL, words=xiamen.win_words)[0] == "You win — 游金 swimming gold!"
    assert guobiao.draw_note == ""  # §1.3: the deal passes, nothing to add
    assert "the same dealer deals again" in xiamen.draw_note
    assert "the same dealer deals again" in find_family("arcade").draw_note
