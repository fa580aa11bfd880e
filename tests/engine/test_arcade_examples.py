"""arcade §6 worked examples played through the engine (crafted stocks, the public API).

``test_arcade.py`` has E1, E7, E8, E11, E26–E30 and T5; this file adds every other example of
§6.1 and §6.3 that concerns play — the last-tile wins (E9, E35), claims (E5, E10, E13, E34),
报听 (E2, E24, E25, T14), wilds and flowers dealt and drawn (E12, E22, E32, E33) and the
settlements (S1, S3, S4) — each reached by the moves that make it, and scored by the engine.
"""

from __future__ import annotations

import pytest

from erren.engine import Action, Phase, State
from erren.engine.result import HandResult, ResultKind, WinHow
from erren.families.arcade.campaign import Outcome, Run, table
from erren.families.arcade.game import arcade_data
from erren.families.arcade.scoring import ArcadeResult

from ._support import start_arcade


def _arcade(result: HandResult | None) -> ArcadeResult:
    """The arcade score behind a win's detail."""
    assert result is not None and isinstance(result.detail, ArcadeResult)
    return result.detail


WILD = "7z"
"""The wild kind of the examples that say nothing of one (§6: ``W`` not in the hand)."""


def play(state: State, *texts: str) -> None:
    """Apply the moves in order; a claim or win offered in between is passed."""
    for text in texts:
        action = Action.parse(text)
        while state.phase is Phase.CLAIM and action not in state.legal_actions():
            state.apply(Action.parse(f"{state.actor}:pass"))
        state.apply(action)


def fans(state: State) -> dict[str, int]:
    assert state.result is not None and state.result.kind is ResultKind.WIN, state.result
    return {name: value * count for name, value, count in state.result.fans}


def run_out(state: State) -> None:
    """Play on until the live wall is empty at a turn: each player discards the tile just
    drawn, every claim and win offered is passed."""
    while not (state.wall_count == 0 and state.phase is Phase.TURN):
        assert not state.is_terminal and state.phase in (Phase.TURN, Phase.CLAIM), state.phase
        p = state.actor
        if state.phase is Phase.CLAIM:
            state.apply(Action.parse(f"{p}:pass"))
            continue
        drawn = state.observe(p).last_drawn
        assert drawn is not None, "a turn without a draw in the run-out"
        state.apply(Action.parse(f"{p}:discard:{drawn}"))


# ---------------------------------------------------------------------------- the last tile
def test_e9_ron_on_the_discard_after_the_live_wall_emptied() -> None:
    """E9: chi, peng, then the dealer's last discard (R2.7: only a win) is 河底捞鱼 (N27)."""
    state = start_arcade("4s2p6p119m19p19s2234z", "345m78p66s56s22p3z4z", draws="6z", wild=WILD)
    play(state, "0:discard:4s", "1:chi:456s", "1:discard:3z", "0:discard:2p", "1:peng")
    play(state, "1:discard:4z")
    run_out(state)
    assert state.actor == 0 and state.head > state.tail  # the dealer drew the last tile
    play(state, "0:discard:6p")
    assert [str(a) for a in state.legal_actions()] == ["1:hu", "1:pass"]
    play(state, "1:hu")
    assert state.result is not None and state.result.how is WinHow.DISCARD
    assert fans(state) == {"断幺九": 1, "河底捞鱼": 1}
    assert state.result.points == 2 and _arcade(state.result).stage_payout(1) == 300


def test_e35_tsumo_on_the_last_tile_of_the_live_wall() -> None:
    """E35: the last live tile (stock[70]) is a normal draw: 河底捞月 (N26), edge wait."""
    state = start_arcade("345m456p12s789s66m9m", "119m119p19s22334z", back="3s", wild=WILD)
    play(state, "0:discard:9m")
    run_out(state)
    assert state.actor == 0 and state.observe(0).last_drawn is not None
    assert str(state.observe(0).last_drawn) == "3s"
    play(state, "0:zimo")
    assert fans(state) == {"门清": 1, "门清自摸": 1, "河底捞月": 1}
    assert state.result is not None and _arcade(state.result).stage_payout(1) == 600


# ---------------------------------------------------------------------------- claims
def _claimed(dealer: str, other: str, *moves: str, base_points: int = 1) -> State:
    state = start_arcade(dealer, other, draws="1p9p", wild=WILD, base_points=base_points)
    play(state, *moves)
    return state


def test_e5_open_hand_after_a_peng_and_s4_fifty_points() -> None:
    state = _claimed(
        "6z9p119m119s122344z", "12345678p22z66z9s",
        "0:discard:6z", "1:peng", "1:discard:9s", "0:discard:9p", "1:hu",
        base_points=10,
    )  # fmt: skip
    assert fans(state) == {"混一色": 3, "一气通贯": 2}
    assert state.result is not None and state.result.deltas == (-50, 50)  # S4


def test_e10_chi_peng_and_two_dealt_flowers() -> None:
    state = start_arcade("7m3z1s1199p19s22446z", "456p23s55m89m33z5z5z", back="9s1z", wild=WILD)
    assert [str(t) for t in state.observe(0).flowers[1]] == ["5z", "5z"]
    play(state, "0:discard:7m", "1:chi:789m", "1:discard:9s", "0:discard:3z", "1:peng")
    play(state, "1:discard:1z", "0:discard:1s", "1:hu")
    assert fans(state) == {"推倒胡": 1, "花牌": 2}
    assert state.result is not None and _arcade(state.result).stage_payout(1) == 600


def test_e13_a_pung_completed_by_the_discard_is_open_and_s4_pays_the_cap() -> None:
    state = _claimed(
        "2z4z1195678m119p19s", "111z333z44z66z22z9s",
        "0:discard:2z", "1:peng", "1:discard:9s", "0:discard:4z", "1:hu",
        base_points=10,
    )  # fmt: skip
    assert fans(state) == {"大四喜": 2, "字一色": 1}
    result = state.result
    assert result is not None and _arcade(result).yakuman == 3
    assert result.points == 130 and result.deltas == (-130, 130)  # S4: N ≥ 1 is the cap
    assert _arcade(result).stage_payout(1) == 30000


def test_e34_sanshoku_in_an_open_hand() -> None:
    state = _claimed(
        "1z7s119m119p19s2234z", "567m567p56s99s11z9m",
        "0:discard:1z", "1:peng", "1:discard:9m", "0:discard:7s", "1:hu",
    )  # fmt: skip
    assert fans(state) == {"三色同顺": 2}


# ---------------------------------------------------------------------------- 报听
def test_e2_tsumo_after_baoting_with_a_concealed_hand() -> None:
    # the non-dealer's first turn passes without 报听 (else 天听), the second declares
    state = start_arcade("119m119p19s223344z", "123m789m456p78s9p6z", draws="3z1p9p2z9s", wild=WILD)
    play(state, "0:discard:2z", "1:discard:3z", "0:discard:1p", "1:ting:6z")
    assert arcade_data(state).baoting_kind[1] == "menqing"
    play(state, "0:discard:2z")
    assert state.actor == 1 and [str(a) for a in state.legal_actions()] == [
        "1:zimo",
        "1:discard:9s",
    ]  # R2.13: the win is asked
    play(state, "1:zimo")
    assert fans(state) == {"门清": 1, "门清报听": 1, "平和": 1, "门清自摸": 1}


def _declared_with_a_flower(other: str, win: str, *, base_points: int = 1) -> State:
    """The non-dealer (13 tiles ``other``) draws a flower at its first draw, discards the
    replacement, declares 报听 at the second, and is asked about ``win`` at the third."""
    state = start_arcade(
        "119m119p19s223344z",
        other,
        draws=f"5z1p3z2z{win}",
        back="6z",
        wild=WILD,
        base_points=base_points,
    )
    play(state, "0:discard:2z", "1:discard:6z", "0:discard:1p", "1:ting:3z")
    assert arcade_data(state).baoting_kind[1] == "menqing" and len(state.flowers[1]) == 1
    play(state, "0:discard:2z", "1:zimo")
    return state


def test_e24_limit_hand_beats_the_capped_reading() -> None:
    state = _declared_with_a_flower("2233445566788p", "7p")
    assert fans(state) == {"大车轮": 1}
    assert state.result is not None and _arcade(state.result).stage_payout(1) == 10000


def test_e25_cap_and_s4_points() -> None:
    state = _declared_with_a_flower("2233334455667p", "7p", base_points=10)
    assert fans(state) == {
        "门清": 1,
        "门清报听": 1,
        "平和": 1,
        "断幺九": 1,
        "门清自摸": 1,
        "花牌": 1,
        "两杯口": 4,
        "清一色": 5,
    }
    result = state.result
    assert result is not None and _arcade(result).fan == 15
    assert result.points == 130 and result.deltas == (-130, 130)  # S4: capped at 13
    assert _arcade(result).stage_payout(1) == 9100


def test_t14_baoting_with_an_open_hand_earns_nothing() -> None:
    state = start_arcade("4s2p6p119m19p19s2234z", "345m78p66s56s22p3z4z", draws="1z6z6p", wild=WILD)
    play(state, "0:discard:4s", "1:chi:456s", "1:discard:3z", "0:discard:2p", "1:peng")
    play(state, "1:ting:4z")
    assert arcade_data(state).baoting_kind[1] == "open"  # R2.12
    play(state, "0:discard:6z")
    assert state.actor == 1 and "1:zimo" in {str(a) for a in state.legal_actions()}
    play(state, "1:zimo")
    assert fans(state) == {"断幺九": 1}


def test_a_declared_hand_is_not_offered_claims() -> None:
    """R2.12 step 4: after 报听 no chi, peng or kong, only the asked win."""
    state = start_arcade("119m119p19s223344z", "123m789m456p78s9p6z", draws="3z1p9p2z1z", wild=WILD)
    play(state, "0:discard:2z", "1:discard:3z", "0:discard:1p", "1:ting:6z")
    assert state.ting[1]
    events = state.event_count
    play(state, "0:discard:9m")  # 78m would chow it: nothing is offered (R2.12)
    kinds = [e.kind for e in state.events[events:]]
    assert "claim" not in " ".join(kinds) and state.discards[1][-1] == 27  # the 1z drawn
    assert state.phase is Phase.TURN and state.actor == 0


# ---------------------------------------------------------------------------- wilds, flowers
def test_e12_thirteen_orphans_with_the_wild_as_white() -> None:
    state = start_arcade("1m9m119p19s223344z6z", "19m19p19s123467z5s", draws="2m", wild="5s")
    play(state, "0:discard:6z", "1:discard:2m", "0:discard:1m", "1:hu")
    assert fans(state) == {"国士无双": 1}


def test_e22_free_form_all_green_by_self_draw() -> None:
    state = start_arcade("119m119p19s223344z", "2233446688s666z", draws="1p9m4s", wild=WILD)
    play(state, "0:discard:2z", "1:discard:1p", "0:discard:9m")
    assert "1:zimo" in {str(a) for a in state.legal_actions()}
    play(state, "1:zimo")
    assert fans(state) == {"绿一色": 1}


def test_e32_white_is_wild_and_red_is_the_flower() -> None:
    state = start_arcade(
        "119m119p19s22334z4s", "345m11345p3789s5z", draws="7z2m", back="6z", wild="5z"
    )
    assert arcade_data(state).wild == 31 and arcade_data(state).flower == 33
    play(state, "0:discard:2z", "1:discard:6z", "0:discard:4s", "1:hu")
    assert state.flowers[1] == [33]  # the drawn Red, set aside and replaced from the tail
    assert fans(state) == {"门清": 1, "花牌": 1, "三色同顺": 2}


def test_e33_three_wilds_make_the_big_four_winds() -> None:
    state = start_arcade("1199m1199p1199s6z7z", "1112223334z555s", draws="1p2m4z", wild="5s")
    play(state, "0:discard:6z", "1:discard:1p", "0:discard:2m")
    play(state, "1:zimo")
    assert fans(state) == {"大四喜": 2, "四暗刻": 1, "字一色": 1}


# ---------------------------------------------------------------------------- stage settlement
def test_s1_a_played_e1_hand_through_the_run() -> None:
    state = start_arcade(
        "1119m1119p1119s66z", "234m567m234p45s77p", draws="9p3s", wild=WILD, human_seat=1
    )
    play(state, "0:discard:9m", "1:discard:9p", "0:discard:3s", "1:hu")
    run = Run.new(seed=1)
    run.bankroll = 900  # S1 hand 3: 900 before the stake
    run.start_hand(1)
    settlement = run.settle(table.outcome_of(state, human=1))
    assert settlement.payout == 600 and run.bankroll == 1500  # 800 + 100 + 600


def test_s1_a_computer_win_costs_the_stake() -> None:
    state = start_arcade(
        "1119m1119p1119s66z", "234m567m234p45s77p", draws="9p3s", wild=WILD, human_seat=0
    )
    play(state, "0:discard:9m", "1:discard:9p", "0:discard:3s", "1:hu")
    assert table.outcome_of(state, human=0) == Outcome.computer_win()
    run = Run.new(seed=1)
    run.start_hand(1)
    run.settle(table.outcome_of(state, human=0))
    assert run.bankroll == 900


def test_s3_e13_at_three_units_clears_stage_one() -> None:
    state = start_arcade(
        "2z4z1195678m119p19s", "111z333z44z66z22z9s", draws="1p9p", wild=WILD, human_seat=1
    )
    play(state, "0:discard:2z", "1:peng", "1:discard:9s", "0:discard:4z", "1:hu")
    run = Run.new(seed=1)
    run.start_hand(3)
    settlement = run.settle(table.outcome_of(state, human=1))
    assert settlement.payout == 90000 and settlement.cleared and run.stage == 2


@pytest.mark.parametrize("base_points", [1, 10])
def test_s4_a_drawn_hand_moves_nothing(base_points: int) -> None:
    state = start_arcade(
        "1359m1359p1379s77z", "234m456p789s13s66z", wild="4z", base_points=base_points
    )
    play(state, "0:discard:7z")
    run_out(state)
    p = state.actor
    play(state, f"{p}:discard:{state.observe(p).last_drawn}")
    while not state.is_terminal:
        play(state, f"{state.actor}:pass")
    assert state.result is not None and state.result.kind is ResultKind.DRAW
    assert state.result.deltas in ((0, 0), ())
