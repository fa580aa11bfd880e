"""guobiao-2p rules on crafted walls: dealing, 补花, kongs, robbing, 报听, the end, timeouts."""

from __future__ import annotations

import pytest

from erren.engine import Action, Match, Phase, State, find_family
from erren.engine.phases import Origin
from erren.engine.result import ResultKind, WinHow
from erren.families.guobiao.game import GuobiaoOptions
from erren.tiles import Tile

from ._support import act, make_wall, phase_of, start

RULES = find_family("guobiao-2p")


def _fans(state: State) -> set[str]:
    assert state.result is not None
    return {name for name, _, _ in state.result.fans}


def test_options_defaults_and_validation() -> None:
    options = RULES.options
    assert isinstance(options, GuobiaoOptions) and options == GuobiaoOptions()
    assert (options.min_fan, options.cap_points) == (0, None)
    gb = find_family("guobiao-2p", fan_table="gb", suit="s", flowers=True)
    assert isinstance(gb.options, GuobiaoOptions)
    assert (gb.options.min_fan, gb.options.cap_points) == (8, 13)
    assert len(gb.tiles) == 72 and gb.kinds[0] == int(Tile.S1)
    with pytest.raises(ValueError):
        find_family("guobiao-2p", suit="z")
    with pytest.raises(ValueError):
        find_family("guobiao-2p", colour="red")
    with pytest.raises(ValueError):
        find_family("no-such-game")
    text = repr(gb)
    assert text.startswith("find_family('guobiao-2p', fan_table='gb', suit='s', flowers=True")


def test_dealing_order_and_counts() -> None:
    rules = RULES
    tiles = [k for k in rules.kinds for _ in range(4)]
    state = State(rules, dealer=1)
    state.apply(Action.shuffle(tuple(tiles)))
    state.apply(Action.dice(6, 6))
    order = tiles
    dealer = sorted(order[0:4] + order[8:12] + order[16:20] + [order[24], order[26]])
    other = sorted(order[4:8] + order[12:16] + order[20:24] + [order[25]])
    assert [int(t) for t in state.concealed(1)] == dealer
    assert [int(t) for t in state.concealed(0)] == other
    assert state.wall_count == 37
    assert state.current_player() == 1 and state.origin is not None
    assert state.last_added[1] == order[26]


def test_flowers_are_exposed_and_replaced_from_the_back() -> None:
    rules = find_family("guobiao-2p", flowers=True)
    state = start(rules, "1234567m 9m 11z 222z 1f", "99m 333z 444z 55z 6z 7z 2f", back="5z 3f 8m")
    assert state.flowers == [[34], [35, 36]]  # seat 1's replacement 3f is replaced too
    assert state.hands[0][int(Tile.WHITE)] == 1  # the dealer's replacement
    assert state.hands[1][7] == 1  # 8m
    # seat 1: 2f replaced by 3f (a flower: exposed too) then 8m
    state2 = start(rules, "1234567m 9m 11z 222z 3m", "99m 333z 444z 55z 6z 7z 2f", back="3f 8m")
    assert state2.flowers == [[], [35, 36]]
    assert state2.hands[1][7] == 1
    assert sum(state2.hands[1]) == 13 and state2.wall_count == 45 - 2


def test_heavenly_win_has_no_winning_tile() -> None:
    state = start(RULES, "123456789m 11122z", "99m 333z 444z 55z 6z 7z 1m")
    assert state.legal_actions()[0] == Action.parse("0:zimo")
    act(state, "0:zimo")
    result = state.result
    assert result is not None and result.kind is ResultKind.WIN and result.hand is not None
    assert result.hand.winning is None and result.claim is not None and result.claim.tianhu
    assert "天胡" in _fans(state)
    assert result.deltas == (result.points, -result.points) and result.points == result.fan_total


def test_robbing_the_kong_discard_type_win() -> None:
    # Seat 1 deals here.  Dealer seat 1 throws 9m, seat 0 pengs, later draws the last 9m and
    # adds it; seat 1 is ready on 6m/9m and robs.
    state = start(
        RULES,
        "12345678m 11z 222z 9m",
        "99m 333z 444z 6z 7z 1m 3m 4m",
        draws="5z 9m",
        seat=1,
    )
    assert state.legal_actions()[0].kind.value == "zimo"  # his dealt hand wins: decline it
    act(state, "1:discard:9m", "0:peng", "0:discard:1m", "1:pass")
    # seat 1 drew 5z and must throw it; seat 0 then draws the fourth 9m
    act(state, "1:discard:5z")
    assert state.current_player() == 0
    assert Action.parse("0:jiagang:9m") in state.legal_actions()
    act(state, "0:jiagang:9m")
    assert state.phase is Phase.ROB and state.current_player() == 1
    assert state.legal_actions() == [Action.parse("1:hu"), Action.parse("1:pass")]
    act(state, "1:hu")
    result = state.result
    assert result is not None and result.how is WinHow.ROBBING and result.loser == 0
    assert "抢杠和" in _fans(state)
    assert [m.kind.value for m in state.melds[0]] == ["peng"]  # the peng stays a peng


def test_passing_the_rob_completes_the_kong_with_a_back_draw() -> None:
    state = start(
        RULES,
        "12345678m 11z 222z 9m",
        "99m 333z 444z 6z 7z 1m 3m 4m",
        draws="5z 9m",
        back="2m",
        seat=1,
    )
    act(state, "1:discard:9m", "0:peng", "0:discard:1m", "1:pass", "1:discard:5z")
    act(state, "0:jiagang:9m", "1:pass")
    assert [m.kind.value for m in state.melds[0]] == ["jia_gang"]
    assert state.current_player() == 0 and state.origin is not None
    assert state.origin is Origin.REPLACEMENT and state.last_added[0] == 1  # 2m from the back


def test_the_opponents_discard_never_completes_a_peng() -> None:
    state = start(RULES, "1234567m 9m 11z 222z 3z", "99m 333z 444z 55z 6z 7z 1m", draws="9m")
    act(state, "0:discard:9m", "1:peng", "1:discard:1m", "0:pass")
    # the dealer drew the fourth 9m and throws it: seat 1 may not add it to his peng
    act(state, "0:discard:9m")
    assert state.phase is Phase.TURN and state.current_player() == 1  # no claim window


def test_concealed_kong_and_kong_replacement_win() -> None:
    state = start(RULES, "1111m 234m 567m 89m 5z 6z", "99m 333z 444z 55z 7z 1z 2z", back="7m")
    act(state, "0:angang:1m")
    assert state.origin is not None and state.origin is Origin.REPLACEMENT
    # 234 567 789m with 5z 6z left: not complete
    assert state.legal_actions()[0].kind.value != "zimo"
    assert state.melds[0][0].kind.value == "an_gang"
    seen = state.observe(1)
    assert seen.melds[0] == () and seen.hidden_kongs == (1, 0)
    assert state.observe(0).melds[0][0].kind.value == "an_gang"


def test_last_discard_allows_only_hu_or_pass_and_pass_ends_in_a_draw() -> None:
    state = State.new(RULES, seed=3)
    while state.wall_count > 0 or state.phase is not Phase.TURN:
        legal = state.legal_actions()
        plain = [a for a in legal if a.kind.value in ("discard", "pass")]
        state.apply(plain[-1] if plain else legal[-1])
        assert not state.is_terminal, "seed 3 is expected to reach the last tile"
    p = state.current_player()
    hand = state.hands[p]
    tile = next(k for k in range(34) if hand[k])
    act(state, f"{p}:discard:{Tile(tile)}")
    if phase_of(state) is Phase.CLAIM:
        kinds = {a.kind.value for a in state.legal_actions()}
        assert kinds <= {"hu", "pass"}
        act(state, f"{1 - p}:pass")
    assert state.result is not None and state.result.kind is ResultKind.DRAW


def test_ting_locks_the_hand_and_plays_automatically() -> None:
    # Dealer ready on 6m/9m after throwing 5z: declares 报听 (天听: his first discard).
    state = start(RULES, "12345678m 11z 222z 5z", "99m 333z 444z 6z 7z 1m 3m 4m", draws="7z 2z 9m")
    assert Action.parse("0:ting:5z") in state.legal_actions()
    act(state, "0:ting:5z")
    assert state.ting[0] and state.tianting[0]
    # seat 1 drew 7z and throws it; the dealer draws 2z... no: W[28] goes to the dealer
    act(state, "1:discard:7z")
    # the dealer's draw (2z) is thrown automatically; seat 1 draws 9m and throws it
    assert state.current_player() == 1
    assert state.discards[0][-1] == int(Tile.SOUTH)
    act(state, "1:discard:9m")
    result = state.result
    assert result is not None and result.winner == 0 and result.how is WinHow.DISCARD
    assert {"报听", "天听"} & _fans(state)


def test_ting_auto_hu_off_asks_and_a_timeout_accepts() -> None:
    rules = find_family("guobiao-2p", ting_auto_hu=False)
    state = start(rules, "12345678m 11z 222z 5z", "99m 333z 444z 6z 7z 1m 3m 4m", draws="7z 2z 9m")
    act(state, "0:ting:5z", "1:discard:7z", "1:discard:9m")
    assert state.phase is Phase.CLAIM and state.legal_actions() == [
        Action.parse("0:hu"),
        Action.parse("0:pass"),
    ]
    act(state, "0:timeout")
    assert state.result is not None and state.result.winner == 0


def test_timeouts_play_the_default_move_and_lead_to_trustee() -> None:
    state = start(RULES, "1234567m 9m 11z 222z 3z", "99m 333z 444z 55z 6z 7z 1m", draws="8m 6m")
    act(state, "0:timeout")  # the dealer's first turn: W[26] is his latest tile
    assert state.discards[0] == [state.last_added[0]] or state.discards[0]
    assert state.timeouts[0] == 1 and not state.trustee[0]
    # seat 1 may peng? no claim options on the thrown tile decide the flow; drive to seat 0
    while state.current_player() != 0 and not state.is_terminal:
        legal = state.legal_actions()
        pass_or_discard = [a for a in legal if a.kind.value in ("pass", "discard")]
        state.apply(pass_or_discard[0])
    act(state, "0:timeout")
    assert state.trustee[0]
    assert any(e.kind == "trustee" and e.auto for e in state.events)


def test_trustee_plays_for_the_player() -> None:
    state = State.new(RULES, seed=11)
    act(state, "0:trustee:on", "1:trustee:on")
    assert state.is_terminal  # both seats on auto-play finish the hand by themselves
    assert state.history[-2:] == [Action.trustee(0, True), Action.trustee(1, True)]


def test_escape_aborts_with_the_penalty() -> None:
    state = State.new(RULES, seed=2)
    act(state, "1:escape")
    assert state.result is not None and state.result.kind is ResultKind.ABORT
    assert state.result.deltas == (13, -13)


def test_match_rotation_and_scores() -> None:
    match = Match(RULES, seed=4)
    dealers = []
    for _ in range(6):
        state = match.new_hand()
        dealers.append(state.dealer)
        act(state, "0:trustee:on", "1:trustee:on")
        before = match.dealer
        result = match.finish_hand(state)
        if result.kind is ResultKind.WIN and result.winner == before:
            assert match.dealer == before and match.streak >= 1
        else:
            assert match.dealer == 1 - before and match.streak == 0
    assert sum(match.scores) == 0 and len(match.hands) == 6


def test_make_wall_puts_back_draws_at_the_tail() -> None:
    wall = make_wall(RULES, "1234567m 9m 11z 222z 3z", "99m 333z 444z 55z 6z 7z 1m", "8m", "5z 6z")
    assert wall[27] == 7 and wall[-1] == int(Tile.WHITE) and wall[-2] == int(Tile.GREEN)
