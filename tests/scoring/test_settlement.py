"""Settlement in points (guobiao-2p §6): every example of §6.7, then the rules one by one.

The bean side of §6.7 (the stake, the balance limit, the rooms) is the server's:
tests/server/test_settlement.py."""

from __future__ import annotations

import dataclasses

import pytest

from erren.families.guobiao.scoring import WinContext, score
from erren.families.guobiao.scoring.settlement import (
    BelowMinimumError,
    Outcome,
    SettlementOptions,
    settle_draw,
    settle_escape,
    settle_score,
    settle_win,
)
from erren.hand import Hand

GB = SettlementOptions(fan_table="gb")
P2 = SettlementOptions(fan_table="2p")

# --------------------------------------------------------------------------------------------
# §6.7, line by line (fan totals from §5.3)


def test_gb_w1_is_capped_at_13() -> None:
    # W1 scores 25 fan in gb → P = 13; the discarder pays 13 × 1 = 13 points (§6.7: × 200 beans
    # in 普通场 = 2,600, which the server applies).
    s = settle_win(25, winner=1, self_drawn=False, options=GB)
    assert (s.outcome, s.receiver, s.payer) == (Outcome.WIN, 1, 0)
    assert (s.fan_total, s.points, s.capped) == (25, 13, True)
    assert (s.multiplier, s.amount) == (1, 13)
    assert s.deltas == (-13, 13)
    assert "P = min(F + base 0, cap 13) = 13 points" in s.explain()
    assert "seat 0 pays 13 points to seat 1" in s.explain()


def test_gb_w14_is_not_a_legal_win() -> None:
    # W14 scores 7 fan in gb, below 起和 8: not a legal win, play continues.
    with pytest.raises(BelowMinimumError, match=r"7 fan .* minimum .* 8"):
        settle_win(7, winner=1, self_drawn=False, options=GB)
    # Self-drawn it is 8 and legal (§5.3 W14).
    assert settle_win(8, winner=1, self_drawn=True, options=GB).amount == 8


def test_2p_w12_is_uncapped() -> None:
    # W12 (天胡, 50 fan) → the non-dealer owes 50 points (× 50 beans in 新手场 = 2,500).
    s = settle_win(50, winner=0, self_drawn=True, options=P2)
    assert (s.points, s.capped, s.amount, s.deltas) == (50, False, 50, (50, -50))


def test_2p_score_table_w6_is_plus_and_minus_56() -> None:
    s = settle_win(56, winner=1, self_drawn=False, options=P2)
    assert (s.points, s.amount) == (56, 56)
    assert s.deltas == (-56, 56)


def test_escape_costs_13_points() -> None:
    s = settle_escape(0, options=GB)
    assert (s.outcome, s.payer, s.receiver) == (Outcome.ESCAPE, 0, 1)
    assert (s.points, s.amount) == (13, 13)
    assert s.deltas == (-13, 13)


def test_exhaustive_draw_moves_nothing() -> None:
    s = settle_draw()
    assert (s.outcome, s.amount, s.deltas) == (Outcome.DRAW, 0, (0, 0))
    assert (s.receiver, s.payer) == (None, None)


# --------------------------------------------------------------------------------------------
# §6.7 from the hands themselves, through the fan calculator


def test_examples_scored_by_the_calculator_settle_as_in_6_7() -> None:
    w1 = score(Hand.parse("123456789m5z [111z'] +5z"), WinContext(), table="gb")
    assert w1.total == 25
    assert settle_score(w1, winner=1, self_drawn=False, options=GB).deltas == (-13, 13)

    w14 = score(Hand.parse("555m678m1z [1'23m] [2'34m] +1z"), WinContext(), table="gb")
    assert w14.total == 7
    with pytest.raises(BelowMinimumError):
        settle_score(w14, winner=1, self_drawn=False, options=GB)

    w12 = score(Hand.parse("123m456m789m111z22z"), WinContext(self_drawn=True), table="2p")
    assert w12.total == 50
    assert settle_score(w12, winner=0, self_drawn=True, options=P2).amount == 50

    w6 = score(Hand.parse("222233334444m5z +5z"), WinContext(), table="2p")
    assert w6.total == 56
    assert settle_score(w6, winner=1, self_drawn=False).deltas == (-56, 56)


def test_flowers_count_in_the_payment_but_not_toward_the_minimum() -> None:
    # 7 fan + 2 flowers = 9 fan: still below 起和 8 without the flowers (§3.5) …
    with pytest.raises(BelowMinimumError):
        settle_win(9, flower_points=2, winner=0, self_drawn=False, options=GB)
    # … while a legal 8-fan hand with 2 flowers is paid for 10 (§6.1: F includes flowers).
    s = settle_win(10, flower_points=2, winner=0, self_drawn=False, options=GB)
    assert s.points == 10
    assert "(2 from flowers)" in s.explain()


# --------------------------------------------------------------------------------------------
# Options


def test_defaults_follow_appendix_a() -> None:
    p2 = SettlementOptions()
    assert p2.fan_table == "2p"
    assert (p2.cap_points, p2.min_fan, p2.base_points) == (None, 0, 0)
    assert (p2.self_drawn_multiplier, p2.discard_multiplier, p2.escape_penalty_points) == (1, 1, 13)
    gb = SettlementOptions(fan_table="gb")
    assert (gb.cap_points, gb.cap, gb.min_fan, gb.minimum) == (13, 13, 8, 8)


def test_options_are_frozen_and_explicit_values_override_the_table_default() -> None:
    options = SettlementOptions(fan_table="gb", cap_points=None, min_fan=0)
    assert (options.cap, options.minimum) == (None, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.base_points = 8  # type: ignore[misc]
    capped_2p = SettlementOptions(fan_table="2p", cap_points=40)
    assert settle_win(72, winner=0, self_drawn=False, options=capped_2p).points == 40


@pytest.mark.parametrize(
    "changes",
    [
        {"fan_table": "riichi"},
        {"base_points": -1},
        {"cap_points": -5},
        {"min_fan": -1},
        {"self_drawn_multiplier": 0},
        {"discard_multiplier": 0},
        {"escape_penalty_points": -13},
        {"base_points": True},
    ],
)
def test_bad_options_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="must be"):
        SettlementOptions(**changes)  # type: ignore[arg-type]


def test_base_points_are_added_before_the_cap() -> None:
    options = SettlementOptions(fan_table="gb", base_points=8)
    assert settle_win(8, winner=0, self_drawn=False, options=options).points == 13
    uncapped = SettlementOptions(fan_table="gb", base_points=8, cap_points=None)
    s = settle_win(8, winner=0, self_drawn=False, options=uncapped)
    assert s.points == 16
    assert "P = F + base 8 = 16 points (no cap)" in s.explain()


def test_multipliers_pick_self_drawn_or_discard() -> None:
    options = SettlementOptions(fan_table="gb", self_drawn_multiplier=3, discard_multiplier=2)
    drawn = settle_win(10, winner=1, self_drawn=True, options=options)
    discard = settle_win(10, winner=1, self_drawn=False, options=options)
    assert (drawn.multiplier, drawn.amount, drawn.deltas) == (3, 30, (-30, 30))
    assert (discard.multiplier, discard.amount) == (2, 20)
    assert "3 (自摸 multiplier)" in drawn.explain()


def test_the_cap_clips_the_payment_between_8_and_13_in_gb() -> None:
    for fans in range(8, 100):
        assert (
            8
            <= settle_win(
                fans, winner=0, self_drawn=False, options=SettlementOptions(fan_table="gb")
            ).points
            <= 13
        )


def test_seats_and_totals_are_checked() -> None:
    with pytest.raises(ValueError, match="seat 0 or 1"):
        settle_win(10, winner=2, self_drawn=False)
    with pytest.raises(ValueError, match="seat 0 or 1"):
        settle_escape(-1)
    with pytest.raises(ValueError, match="bad fan total"):
        settle_win(3, flower_points=4, winner=0, self_drawn=False)


# --------------------------------------------------------------------------------------------
# Escapes and the explanation


def test_a_score_table_escape_with_a_higher_penalty() -> None:
    score_table = settle_escape(1, options=SettlementOptions(escape_penalty_points=20))
    assert score_table.deltas == (20, -20)


def test_settlement_explains_itself() -> None:
    s = settle_win(25, winner=1, self_drawn=False, options=GB)
    assert (
        str(s)
        == s.explain()
        == "\n".join(
            [
                "win by seat 1 on a discard: F = 25 fan",
                "P = min(F + base 0, cap 13) = 13 points",
                "A = P × 1 (点和 multiplier) = 13 points",
                "seat 0 pays 13 points to seat 1",
            ]
        )
    )
