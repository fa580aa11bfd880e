"""The arcade game (arcade.md §1–§2, §3.5, §6): crafted stocks through the public API."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from erren.analysis.shanten import shanten
from erren.analysis.shapes import ARCADE
from erren.engine import Action, ActionKind, Phase, Record, State, find_family, replay
from erren.engine.result import HandResult, ResultKind, WinHow
from erren.errors import IllegalActionError
from erren.families.arcade.game import (
    BLEED_NORMAL,
    BLEED_YAKUMAN,
    ArcadePhase,
    arcade_data,
    bleed_target,
    stage_options,
)
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.scoring import ArcadeResult
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS, Tile

from ._support import act, phase_of, start_arcade, tile_census


def _arcade(result: HandResult | None) -> ArcadeResult:
    """The arcade score behind a win's detail."""
    assert result is not None and isinstance(result.detail, ArcadeResult)
    return result.detail


AK = ActionKind
DEALER = "119m119p19s223344z"
"""A dealer's hand that claims nothing useful and never wins early."""


def _fans(state: State) -> dict[str, int]:
    assert state.result is not None and state.result.kind is ResultKind.WIN, state.result
    return {name: value * count for name, value, count in state.result.fans}


def _census_ok(state: State) -> None:
    assert tile_census(state) == Counter({k: 4 for k in range(NUM_KINDS)})


# ---------------------------------------------------------------------------- the stock
def test_stock_live_wall_indicator_reserve_and_flower_kind() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p", wild="6z")
    assert state.wall_count == 71 - 27  # R1.3, R1.14: 27 dealt, no flower
    assert arcade_data(state).wild == 32 and arcade_data(state).flower == 31
    obs = state.observe(0)
    assert obs.view == ArcadeView(wild=Tile.GREEN, flower_kind=Tile.WHITE, reserve_count=64)
    _census_ok(state)
    white_wild = start_arcade(DEALER, "234m567m234p45s77p", wild="5z")
    assert arcade_data(white_wild).flower == 33  # R1.10: Red stands in for White


def test_dealt_flowers_are_set_aside_and_replaced_from_the_tail() -> None:
    state = start_arcade("119m119p19s223345z", "234m567m234p45s77p", back="4z")
    assert [str(t) for t in state.observe(1).flowers[0]] == ["5z"]
    assert state.hands[0][30] == 2 and state.tail == 69
    _census_ok(state)


def test_random_hands_replay_exactly_with_events() -> None:
    rules = find_family("arcade", pung_offer_prob=0.5, pick_any_prob=0.5)
    for seed in range(40):
        rng = random.Random(seed)
        state = State.new(rules, seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            _census_ok(state)
        again = replay(Record.from_json(state.record().to_json()))
        assert again.fingerprint() == state.fingerprint()


# ---------------------------------------------------------------------------- wilds
def test_a_discarded_wild_is_dead() -> None:
    state = start_arcade("119m119p1s9s223344z", "234m567m234p44s77p", wild="9s")
    act(state, "0:discard:9s")  # a wild: no response window (R2.6), the opponent draws
    assert state.actor == 1 and state.phase is Phase.TURN
    with pytest.raises(IllegalActionError) as err:
        act(state, "1:peng")
    assert err.value.rule == "dead-wild"


def test_no_chow_or_pung_with_a_wild() -> None:
    # W = 3m: the non-dealer's 3m is a wild, so 4m is neither chowed as 234m nor punged
    state = start_arcade(DEALER.replace("9m", "4m"), "2344m567p234s77p9s", wild="3m")
    act(state, "0:discard:4m")
    legal = {str(a) for a in state.legal_actions()}
    assert "1:chi:234m" not in legal
    with pytest.raises(IllegalActionError) as err:
        act(state, "1:chi:234m")
    assert err.value.rule == "wild-in-meld"


def test_peng_using_a_wild_is_refused() -> None:
    state = start_arcade(DEALER.replace("9m", "4m"), "3m4m5m567p234s77p99s", wild="3m")
    act(state, "0:discard:4m")
    assert "1:peng" not in {str(a) for a in state.legal_actions()}
    with pytest.raises(IllegalActionError) as err:
        act(state, "1:peng")
    assert err.value.rule == "wild-in-meld"


def test_baoting_when_not_ready_is_refused() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p")
    with pytest.raises(IllegalActionError) as err:
        act(state, "0:ting:9m")
    assert err.value.rule == "not-ready"


def test_exchange_pick_and_takepung_out_of_place_are_refused() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p")
    for text, rule in (
        ("0:exchange:9m", "no-exchange"),
        ("0:pick:1m", "no-pick-offer"),
        ("0:takepung:119m", "no-pung-offer"),
    ):
        with pytest.raises(IllegalActionError) as err:
            act(state, text)
        assert err.value.rule == rule


def test_wild_completes_a_hand_and_is_counted_in_the_ready_test() -> None:
    # E11: W = 5s, `12345678m1112z5s`: ready (the wild plays), 自摸 on 2z
    state = start_arcade(DEALER, "12345678m1112z5s", draws="6z2z", wild="5s")
    act(state, "0:discard:9p", "1:discard:6z", "0:discard:3z")
    act(state, "1:pass") if state.phase is Phase.CLAIM else None
    assert state.actor == 1 and "1:zimo" in {str(a) for a in state.legal_actions()}
    act(state, "1:zimo")
    assert _fans(state) == {"门清": 1, "门清自摸": 1, "混一色": 3, "一气通贯": 2}


# ---------------------------------------------------------------------------- §6 examples
def test_e1_ron_and_versus_settlement() -> None:
    state = start_arcade("1119m1119p1119s66z", "234m567m234p45s77p", draws="9p3s", base_points=10)
    act(state, "0:discard:9m", "1:discard:9p", "0:discard:3s", "1:hu")
    assert _fans(state) == {"门清": 1, "平和": 1, "断幺九": 1}
    assert state.result is not None
    assert state.result.points == 30 and state.result.deltas == (-30, 30)  # S4: P × base
    assert _arcade(state.result).stage_payout(1) == 600


def test_e7_tsumo_on_the_replacement_after_an_gang() -> None:
    state = start_arcade(
        "119m119p11s223344z", "234m67p345s55p999s", draws="9s", back="8p", wild="7z"
    )
    act(state, "0:discard:9p", "1:angang:9s", "1:zimo")
    assert _fans(state) == {"门清": 1, "门清自摸": 1, "杠上开花": 2}


def test_e8_flower_replacement_counts_as_a_kong() -> None:
    state = start_arcade(DEALER, "345m67m345p345s88p", draws="2z9m5z", back="8m", wild="7z")
    act(state, "0:discard:9p", "1:discard:2z")
    if state.phase is Phase.CLAIM:
        act(state, "0:pass")
    act(state, "0:discard:9m", "1:zimo")
    assert _fans(state) == {
        "门清": 1,
        "平和": 1,
        "断幺九": 1,
        "门清自摸": 1,
        "花牌": 1,
        "三色同顺": 2,
        "杠上开花": 2,
    }


def test_e27_robbing_an_added_kong() -> None:
    state = start_arcade("77s119m119p2233z44z", "678m345p234s56s77p", draws="7s9s7s")
    act(state, "0:discard:2z", "1:discard:7s", "0:peng", "0:discard:3z", "1:discard:9s")
    act(state, "0:jiagang:7s")
    assert state.phase is Phase.ROB and state.actor == 1
    act(state, "1:hu")
    assert state.result is not None and state.result.how is WinHow.ROBBING
    assert _fans(state) == {"门清": 1, "平和": 1, "断幺九": 1, "门清自摸": 1}
    assert state.result.deltas == (-4, 4)  # the robbed player pays


def test_e28_heavenly_win_with_three_flowers() -> None:
    state = start_arcade("123m456m789p11z555z", "119m119p19s22334z", back="1z2z2z", wild="9s")
    assert len(state.flowers[0]) == 3
    act(state, "0:zimo")
    assert state.result is not None and _arcade(state.result).yakuman == 1
    assert _fans(state) == {"天和": 1}


def test_e29_earthly_win_on_the_dealers_first_discard() -> None:
    state = start_arcade(DEALER, "234m456p678s5599s")
    act(state, "0:discard:9s", "1:hu")
    assert _fans(state) == {"地和": 1}


def test_t5_human_win_on_the_first_draw() -> None:
    state = start_arcade(DEALER, "234m78m345p456s11z", draws="9m", wild="7z")
    act(state, "0:discard:9p", "1:zimo")
    assert _fans(state) == {"人和": 1}


def test_e30_tianting_then_ron() -> None:
    state = start_arcade(DEALER, "12345m33456p789s", draws="6z6m", wild="7z")
    act(state, "0:discard:9p", "1:ting:6z")
    assert arcade_data(state).baoting_kind[1] == "tianting"
    act(state, "0:discard:6m")
    assert state.actor == 1 and [str(a) for a in state.legal_actions()] == ["1:hu", "1:pass"]
    act(state, "1:hu")
    assert _fans(state) == {"门清": 1, "天听": 2, "平和": 1}


def _run_out(state: State, *, declined: int) -> None:
    """Play on until the 海底 phase or the end: the dealer discards what it draws and passes,
    seat ``declined`` (in 报听) declines every win it is asked about."""
    while not state.is_terminal and state.phase is not ArcadePhase.HAIDI:
        legal = state.legal_actions()
        p = state.actor
        if state.phase in (Phase.CLAIM, Phase.ROB):
            act(state, f"{p}:pass")
        elif p == declined:
            act(state, next(str(a) for a in legal if a.kind is AK.DISCARD))
        else:
            drawn = state.observe(p).last_drawn
            act(state, f"{p}:discard:{drawn if drawn is not None else state.concealed(p)[-1]}")


def test_e26_baoting_then_haidi_draw_of_a_wild() -> None:
    state = start_arcade(
        "1359m1359p1379s77z", "234m456p789s13s66z", draws="3z2z", reserve="5s", wild="5s"
    )
    act(state, "0:discard:7z", "1:discard:3z", "0:discard:2z")
    act(state, "1:ting:" + str(state.observe(1).last_drawn))
    assert arcade_data(state).baoting_kind[1] == "menqing"
    _run_out(state, declined=1)
    assert state.phase is ArcadePhase.HAIDI and state.actor == 1
    assert [str(a) for a in state.legal_actions()] == ["1:zimo", "1:pass"]
    act(state, "1:zimo")
    assert _fans(state) == {"门清": 1, "门清报听": 1, "门清自摸": 1, "海底捞月": 1}


def test_haidi_misses_end_in_a_draw_and_the_stage_human_gets_five() -> None:
    for human, draws in ((None, 3), (1, 5), (0, 3)):
        state = start_arcade(
            "1359m1359p1379s77z",
            "234m456p789s13s66z",
            draws="3z2z",
            reserve="1m1m1p1p9s",
            wild="4z",
            haidi_draws_human=5,
            human_seat=human,
        )
        act(state, "0:discard:7z", "1:discard:3z", "0:discard:2z")
        act(state, "1:ting:" + str(state.observe(1).last_drawn))
        _run_out(state, declined=1)
        assert state.result is not None and state.result.kind is ResultKind.DRAW
        assert arcade_data(state).reserve - 72 == draws  # R2.19, R3.2, R3.8
        assert state.discards[1][-draws:] == [0, 0, 9, 9, 26][:draws]


def test_last_discard_may_only_be_won_on() -> None:
    state = start_arcade("1359m1359p1379s77z", "234m456p789s13s66z", wild="4z")
    while not state.is_terminal:
        p = state.actor
        if state.phase is Phase.CLAIM:
            if state.wall_count == 0:
                assert {a.kind for a in state.legal_actions()} <= {AK.HU, AK.PASS}  # R2.7
            act(state, f"{p}:pass")
        else:
            act(state, f"{p}:discard:{state.observe(p).last_drawn or state.concealed(p)[-1]}")
    assert state.result is not None


# ---------------------------------------------------------------------------- 报听
def test_baoting_freezes_the_hand_and_asks_about_wins() -> None:
    state = start_arcade(DEALER, "234m456p789s13s66z", draws="3z2s", wild="7z")
    act(state, "0:discard:9p", "1:discard:3z")
    if state.phase is Phase.CLAIM:
        act(state, "0:pass")
    act(state, "0:discard:2s")  # the dealer's draw, the 1-3s wait: a win is offered
    assert "1:hu" in {str(a) for a in state.legal_actions()}
    state2 = start_arcade(DEALER, "234m456p789s13s66z", draws="6z2s5m", wild="7z")
    act(state2, "0:discard:9p", "1:ting:6z")
    assert state2.ting[1]
    act(state2, "0:discard:2s", "1:pass")  # declining keeps 报听; the hand draws and discards
    assert state2.ting[1] and state2.actor == 0
    assert state2.discards[1][-1] == 4  # the drawn 5m went automatically (R2.13)


def test_baoting_is_allowed_on_an_empty_wall() -> None:
    state = start_arcade("234m456p789s13s66z9m", "1359m1359p1379s7z", wild="4z")
    while not (state.wall_count == 0 and state.phase is Phase.TURN):
        p = state.actor
        legal = state.legal_actions()
        if state.phase is Phase.CLAIM:
            act(state, f"{p}:pass")
        else:
            drawn = state.observe(p).last_drawn
            act(state, f"{p}:discard:{drawn if drawn is not None else '9m'}")
        assert legal and not state.is_terminal
    assert state.actor == 0  # the dealer drew the last tile and is still ready
    kinds = {a.kind for a in state.legal_actions()}
    assert AK.AN_GANG not in kinds  # no kong on an empty wall (R2.4)
    drawn = state.observe(0).last_drawn
    act(state, f"0:ting:{drawn}")  # R2.4 move 5, §7 item 15
    assert state.ting[0]


# ---------------------------------------------------------------------------- events
def test_opening_exchange_from_the_reserve_front() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p", reserve="5z3m6m", opening_exchange=True)
    assert state.phase is ArcadePhase.EXCHANGE and state.actor == 0
    act(state, "0:exchange:19m")
    # received the 5z (a flower, set aside, replaced from the reserve) then 3m and 6m
    assert state.flowers[0] == [31]
    assert state.hands[0][2] == 1 and state.hands[0][5] == 1 and state.hands[0][8] == 0
    assert state.phase is ArcadePhase.EXCHANGE and state.actor == 1
    act(state, "1:exchange")
    assert phase_of(state) is Phase.TURN and state.actor == 0
    assert arcade_data(state).reserve == 72 + 1  # the flower's reserve tile is used up
    _census_ok(state)


def test_pung_offer_swaps_three_tiles() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p", draws="6z", pung_offer_prob=1.0)
    act(state, "0:discard:9m")
    obs = state.observe(1)
    view, other = obs.view, state.observe(0).view
    assert isinstance(view, ArcadeView) and isinstance(other, ArcadeView)
    assert view.offer is not None and other.offer is None
    k = int(view.offer)
    before = Counter(state.wall[state.head :])
    act(state, "1:takepung:6z77p")
    assert state.hands[1][k] >= 3 and arcade_data(state).offer[1] == -1
    after = Counter(state.wall[state.head :])
    assert after + Counter({k: 3}) == before + Counter(int(t) for t in parse_tiles("6z77p"))
    _census_ok(state)


def test_pick_any_takes_the_named_kind() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p", wild="7z", pick_any_prob=1.0)
    act(state, "0:discard:9m")
    assert state.phase is ArcadePhase.PICK and state.actor == 1
    head = state.head
    act(state, "1:pick:7z")  # a wild, from the reserve
    assert state.head == head + 1 and state.hands[1][33] == 1
    _census_ok(state)


def test_stage_events_only_for_the_human() -> None:
    rules = find_family("arcade", {**stage_options(4, human_seat=1), "pick_any_prob": 1.0})
    for seed in range(20):
        state = State.new(rules, seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.phase in (ArcadePhase.PICK, ArcadePhase.EXCHANGE):
                assert state.actor == 1
            state.apply(rng.choice(state.legal_actions()))


def test_stage_options_by_stage() -> None:
    one, four = stage_options(1), stage_options(4)
    assert not one["opening_exchange"] and one["haidi_draws_human"] == 3
    assert four["bleed_yakuman_prob"] == 0.05 and four["pick_any_prob"] == 0.05
    find_family("arcade", **four)
    with pytest.raises(ValueError, match="human_seat"):
        find_family("arcade", bleed_normal_prob=0.2)


@pytest.mark.parametrize("yakuman", [False, True])
def test_big_bleed_deal_is_within_the_gap(yakuman: bool) -> None:
    key = "bleed_yakuman_prob" if yakuman else "bleed_normal_prob"
    gap = 2 if yakuman else 1
    rules = find_family("arcade", {"human_seat": 0, "opening_exchange": False, key: 1.0})
    names = set()
    for seed in range(60):
        state = State.new(rules, seed=seed, dealer=seed % 2)
        assert arcade_data(state).bleed, "every hand is rigged at probability 1"
        names.add(arcade_data(state).bleed)
        if state.flowers[0]:
            continue
        counts = list(state.hands[0])
        assert shanten(counts, shapes=ARCADE) <= gap
        mine, other = state.observe(0).view, state.observe(1).view
        assert isinstance(mine, ArcadeView) and isinstance(other, ArcadeView)
        assert mine.bleed == arcade_data(state).bleed and other.bleed == ""
        _census_ok(state)
    table = BLEED_YAKUMAN if yakuman else BLEED_NORMAL
    assert names <= {name for name, _ in table} and len(names) > 3


def test_bleed_templates_skip_w_and_f() -> None:
    rng = random.Random(1)
    found = bleed_target(rng, True, 33, 31)  # W = 7z: 红孔雀 is not feasible
    assert found is not None and 33 not in found[1] and 31 not in found[1]


# ---------------------------------------------------------------------------- timeouts, 托管
def test_timeouts_and_trustee() -> None:
    state = start_arcade(DEALER, "234m567m234p45s77p", draws="9p3s")
    act(state, "0:timeout")  # the dealer's first turn: the rightmost tile (R2.16)
    assert state.discards[0][-1] == 30
    act(state, "1:timeout")  # the drawn tile
    assert state.discards[1][-1] == 17
    assert state.trustee == [False, False]
    state.apply_system(Action.trustee(0, True))
    # 托管 discards the drawn 3s; the non-dealer's win prompt times out into the win
    assert state.phase is Phase.CLAIM and state.actor == 1
    act(state, "1:timeout")
    assert state.result is not None and state.result.winner == 1
