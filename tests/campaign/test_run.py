"""The stage-mode run (arcade §3) against the worked examples of §6.3 and the rules R3.3–R3.6."""

from __future__ import annotations

import pytest

from erren.bots import Level
from erren.families.arcade.campaign import (
    COMPUTER,
    HUMAN,
    STAGE_LEVELS,
    CampaignError,
    CampaignParams,
    Outcome,
    Run,
    StakeError,
    Status,
    stage_base,
    stage_level,
)
from erren.families.arcade.scoring import score_arcade
from erren.hand import Hand

E1 = "234m567m234p45s77p +3s"  # 3 fan, stage 600
E13 = "1113334466z [222z'] +4z"  # 大四喜 ×2 + 字一色 ×1 = 3倍役满, stage 30000


def _run(*, bankroll: int = 1000, dealer: int = HUMAN, seed: int = 1) -> Run:
    run = Run.new(seed=seed)
    run.bankroll = bankroll
    run.dealer = dealer
    return run


def _hand(run: Run, m: int, outcome: Outcome) -> int:
    run.start_hand(m)
    run.settle(outcome)
    return run.bankroll


# ---------------------------------------------------------------------------- §6.3 S1
def test_s1_stake_computer_win_draw_and_a_player_win() -> None:
    run = _run()
    start = run.start_hand(1)
    assert (start.bankroll_before, start.stake, run.bankroll) == (1000, 100, 900)
    run.settle(Outcome.computer_win())
    assert run.bankroll == 900

    run.start_hand(1)
    assert run.bankroll == 800
    draw = run.settle(Outcome.draw())
    assert run.bankroll == 900 and draw.stake_returned == 100 and draw.payout == 0

    run.start_hand(1)
    assert run.bankroll == 800
    e1 = run.settle(Outcome.from_result(score_arcade(Hand.parse(E1))))
    assert e1.base == 600 and e1.payout == 600
    assert run.bankroll == 800 + 100 + 600 == 1500
    assert "Bankroll 800 + stake 100 returned + payout 600 = 1,500." in e1.lines()


def test_s1_game_over_below_one_unit() -> None:
    run = _run(bankroll=180)
    run.start_hand(1)
    settlement = run.settle(Outcome.computer_win())
    assert run.bankroll == 80
    assert settlement.game_over and run.status is Status.GAME_OVER and run.over
    assert any("游戏失败" in line and "80" in line for line in settlement.lines())
    with pytest.raises(CampaignError):
        run.start_hand(1)


def test_exactly_one_unit_still_plays() -> None:
    run = _run(bankroll=200)
    run.start_hand(1)
    run.settle(Outcome.computer_win())
    assert run.bankroll == 100 and run.status is Status.READY
    assert run.affordable() == 1
    run.start_hand(1)
    assert run.bankroll == 0


# ---------------------------------------------------------------------------- §6.3 S2
def test_s2_three_streak_bonus() -> None:
    run = _run()
    credited = []
    for fan in (2, 4, 5):
        run.start_hand(1)
        s = run.settle(Outcome.player_win(fan))
        credited.append((s.base, s.streak, s.bonus, s.payout))
    assert credited == [(300, 1, False, 300), (1000, 2, False, 1000), (1500, 0, True, 3000)]
    run.start_hand(1)
    assert run.settle(Outcome.player_win(1)).streak == 1


def test_s2_a_computer_win_between_resets_the_streak() -> None:
    run = _run()
    for fan in (2, 4):
        _hand(run, 1, Outcome.player_win(fan))
    assert run.streak == 2
    _hand(run, 1, Outcome.computer_win())
    assert run.streak == 0 and run.dealer == COMPUTER
    run.start_hand(1)
    s = run.settle(Outcome.player_win(5))  # as non-dealer: becomes dealer, streak 0
    assert (s.streak, s.bonus, s.payout, run.dealer) == (0, False, 1500, HUMAN)


def test_bonus_on_every_third_dealer_win_and_draws_keep_the_streak() -> None:
    run = _run(bankroll=5000)
    bonuses = []
    for i in range(9):
        if i == 5:
            _hand(run, 1, Outcome.draw())
            assert run.streak == 2 and run.dealer == HUMAN  # unchanged, the dealer stays
        run.start_hand(1)
        bonuses.append(run.settle(Outcome.player_win(1)).bonus)
    assert bonuses == [False, False, True] * 3


# ---------------------------------------------------------------------------- §6.3 S3
def test_s3_multiplier_and_yakuman() -> None:
    result = score_arcade(Hand.parse(E13))
    run = _run()
    run.start_hand(3)
    s = run.settle(Outcome.from_result(result))
    assert s.payout == 3 * 30000 == 90000
    assert s.cleared and s.purse == 10000 - 90000
    assert run.stage == 2 and run.purse == 20000 and run.streak == 0
    assert run.bankroll == 700 + 300 + 90000  # the excess is kept


def test_s3_third_dealer_win_doubles_a_yakuman() -> None:
    run = _run(bankroll=1000)
    run.params = CampaignParams(purses=(10**6, 20000, 40000, 80000))
    run.purse = 10**6
    for _ in range(2):
        _hand(run, 1, Outcome.player_win(1))
    run.start_hand(3)
    s = run.settle(Outcome.from_result(score_arcade(Hand.parse(E13))))
    assert s.bonus and s.payout == 180000


# ---------------------------------------------------------------------------- R3.3–R3.6
def test_payout_table_and_cap() -> None:
    table = [100, 300, 600, 1000, 1500, 2100, 2800, 3600, 4500, 5500, 6600, 7800, 9100]
    assert [stage_base(f) for f in range(1, 14)] == table
    assert stage_base(15) == 9100 < stage_base(yakuman=1) == 10000
    assert stage_base(yakuman=4) == 40000
    assert str(Outcome.player_win(15)) == "you win: 15 fan → 封顶 13"


@pytest.mark.parametrize("hand", [E1, E13, "12345678p22z [666z'] +9p", "1112345678999p +5p"])
def test_base_agrees_with_the_scorer(hand: str) -> None:
    result = score_arcade(Hand.parse(hand))
    assert Outcome.from_result(result).base == result.stage_payout(1)
    assert 7 * Outcome.from_result(result).base == result.stage_payout(7)


def test_computer_win_costs_only_the_stake_and_leaves_the_purse() -> None:
    run = _run()
    run.start_hand(10)
    s = run.settle(Outcome.computer_win())
    assert run.bankroll == 0 and run.purse == 10000 and s.payout == 0
    assert s.game_over and s.gain == -1000


def test_stake_rules() -> None:
    run = _run(bankroll=350)
    for bad in (0, 11, -1):
        with pytest.raises(StakeError, match=r"1\.\.10"):
            run.start_hand(bad)
    with pytest.raises(StakeError, match="choose 3 or less"):
        run.start_hand(4)
    assert run.bankroll == 350 and run.status is Status.READY  # refused: nothing changed
    run.multiplier = 7
    assert run.affordable() == 3 and run.default_multiplier() == 3
    run.start_hand(3)
    assert run.multiplier == 3 and run.bankroll == 50
    with pytest.raises(CampaignError):
        run.start_hand(1)  # a hand is in play


def test_settle_needs_a_hand() -> None:
    with pytest.raises(CampaignError):
        _run().settle(Outcome.draw())


def test_outcomes_validate() -> None:
    with pytest.raises(ValueError, match="at least 1 fan"):
        Outcome.player_win(0)
    assert str(Outcome.player_win(15)) == "you win: 15 fan → 封顶 13"
    assert str(Outcome.player_win(yakuman=2)) == "you win: 2倍役满"


def test_stage_clear_carries_the_bankroll_and_the_last_stage_completes_the_run() -> None:
    run = _run()
    stages = []
    while not run.over:
        run.dealer = COMPUTER  # wins as non-dealer: never a bonus
        run.start_hand(1)
        s = run.settle(Outcome.player_win(yakuman=4))
        stages.append((s.start.stage, s.cleared, s.next_stage, s.next_purse))
    assert stages == [
        (1, True, 2, 20000),
        (2, True, 3, 40000),
        (3, True, 4, 80000),
        (4, False, 4, 40000),
        (4, True, None, None),
    ]
    assert run.stage == 4 and run.status is Status.COMPLETE
    assert run.bankroll == 1000 + 5 * 40000
    with pytest.raises(CampaignError):
        run.start_hand(1)


def test_purse_sequence_in_full() -> None:
    run = _run()
    run.dealer = COMPUTER
    purses = []
    for _ in range(8):
        run.dealer = COMPUTER
        run.start_hand(1)
        s = run.settle(Outcome.player_win(yakuman=1))
        purses.append((s.start.stage, s.purse, s.cleared))
        if run.over:
            break
    assert purses == [
        (1, 0, True),
        (2, 10000, False),
        (2, 0, True),
        (3, 30000, False),
        (3, 20000, False),
        (3, 10000, False),
        (3, 0, True),
        (4, 70000, False),
    ]


def test_new_stage_resets_streak_and_draws_a_random_dealer() -> None:
    dealers = set()
    for seed in range(20):
        run = Run.new(seed=seed)
        dealers.add(run.dealer)
        run.dealer = HUMAN
        _hand(run, 1, Outcome.player_win(1))
        assert run.streak == 1
        run.start_hand(1)
        s = run.settle(Outcome.player_win(yakuman=1))
        assert s.cleared and run.stage == 2 and run.streak == 0 and s.streak == 0
        assert run.stage_hands == 0 and run.dealer == Run.new(seed=seed)._stage_dealer(2)
        dealers.add(run.dealer + 2)
    assert dealers == {0, 1, 2, 3}  # both seats occur as first dealer, in stage 1 and 2


def test_runs_are_reproducible_from_their_seed() -> None:
    a, b = Run.new(seed=42), Run.new(seed=42)
    assert a.dealer == b.dealer
    seeds = [a.start_hand(1).seed]
    assert b.start_hand(1).seed == seeds[0]
    a.settle(Outcome.draw())
    assert a.start_hand(1).seed != seeds[0]
    assert Run.new(seed=43).start_hand(1).seed != seeds[0]


def test_stage_features() -> None:
    params = CampaignParams()
    rows = [
        (
            f.stage,
            f.streak_bonus,
            f.opening_exchange,
            f.haidi_draws_human,
            f.haidi_draws,
            f.pick_any_prob,
            f.pung_offer_prob,
            f.bleed_normal_prob,
            f.bleed_yakuman_prob,
        )
        for f in (params.features(s) for s in (1, 2, 3, 4))
    ]
    assert rows == [
        (1, True, False, 3, 3, 0.0, 0.0, 0.0, 0.0),
        (2, True, True, 5, 3, 0.0, 0.0, 0.0, 0.0),
        (3, True, True, 5, 3, 0.05, 0.0, 0.20, 0.0),
        (4, True, True, 5, 3, 0.05, 0.0, 0.20, 0.05),
    ]
    assert params.features(1).names() == ("三连庄拍分 three-streak bonus",)
    assert len(params.features(4).names()) == 6
    with pytest.raises(ValueError, match="stage must be"):
        params.features(5)


def test_params_validate_and_round_trip() -> None:
    params = CampaignParams(stake_unit=50, purses=(1, 2, 3, 4))
    assert CampaignParams.from_dict(params.to_dict()) == params
    with pytest.raises(ValueError, match="one value per stage"):
        CampaignParams(purses=(1, 2))
    with pytest.raises(ValueError, match="probability"):
        CampaignParams(pick_any_prob=(0, 0, 2, 0))
    with pytest.raises(ValueError, match="unknown campaign parameter"):
        CampaignParams.from_dict({"bankroll": 5})


def test_void_hand_returns_the_stake() -> None:
    run = _run()
    run.start_hand(2)
    lines = run.void_hand("test")
    assert run.bankroll == 1000 and run.hands == 0 and run.status is Status.READY
    assert "stake 200 returned" in lines[0]


@pytest.mark.parametrize("in_hand", [False, True])
def test_dict_round_trip(in_hand: bool) -> None:
    run = _run(seed=9)
    _hand(run, 2, Outcome.player_win(3))
    if in_hand:
        run.start_hand(4)
    again = Run.from_dict(run.to_dict())
    assert again == run
    assert again.to_dict() == run.to_dict()


def test_the_computer_grows_stronger_from_stage_to_stage() -> None:
    assert [stage_level(s) for s in (1, 2, 3, 4)] == [
        Level.NOVICE,
        Level.NORMAL,
        Level.STRONG,
        Level.MASTER,
    ]
    assert STAGE_LEVELS == (Level.NOVICE, Level.NORMAL, Level.STRONG, Level.MASTER)
    assert stage_level(5) is Level.MASTER
    with pytest.raises(ValueError, match="stages count from 1, not 0"):
        stage_level(0)
