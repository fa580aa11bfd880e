"""Settlement (guobiao-2p §6): every example of §6.7, then the rules one by one."""

from __future__ import annotations

import dataclasses

import pytest

from erren.hand import Hand
from erren.scoring.guobiao import WinContext, score
from erren.scoring.guobiao.settlement import (
    ROOMS,
    BelowMinimumError,
    Outcome,
    Room,
    SettlementOptions,
    find_room,
    rooms_admitting,
    settle_draw,
    settle_escape,
    settle_score,
    settle_win,
)

GB_NORMAL = SettlementOptions(fan_table="gb", room=ROOMS["normal"])
P2_NOVICE = SettlementOptions(fan_table="2p", room=ROOMS["novice"])

# --------------------------------------------------------------------------------------------
# §6.7, line by line (fan totals from §5.3)


def test_gb_normal_room_w1_is_capped_at_13() -> None:
    # W1 scores 25 fan in gb → P = 13; the discarder pays 13 × 200 × 1 = 2,600 beans.
    s = settle_win(25, winner=1, self_drawn=False, options=GB_NORMAL)
    assert (s.outcome, s.receiver, s.payer) == (Outcome.WIN, 1, 0)
    assert (s.fan_total, s.points, s.capped) == (25, 13, True)
    assert (s.stake, s.multiplier, s.amount, s.transferred) == (200, 1, 2_600, 2_600)
    assert s.deltas == (-2_600, 2_600)
    assert "P = min(F + base 0, cap 13) = 13 points" in s.explain()
    assert "seat 0 pays 2,600 beans to seat 1" in s.explain()


def test_gb_normal_room_w14_is_not_a_legal_win() -> None:
    # W14 scores 7 fan in gb, below 起和 8: not a legal win, play continues.
    with pytest.raises(BelowMinimumError, match=r"7 fan .* minimum .* 8"):
        settle_win(7, winner=1, self_drawn=False, options=GB_NORMAL)
    # Self-drawn it is 8 and legal (§5.3 W14).
    assert settle_win(8, winner=1, self_drawn=True, options=GB_NORMAL).amount == 1_600


def test_2p_novice_room_w12_is_uncapped_and_limited_by_the_balance() -> None:
    # W12 (天胡, 50 fan) → the non-dealer owes 50 × 50 × 1 = 2,500 beans.
    owed = settle_win(50, winner=0, self_drawn=True, options=P2_NOVICE)
    assert (owed.points, owed.capped, owed.amount, owed.transferred) == (50, False, 2_500, 2_500)
    # With 1,800 beans he pays 1,800, is left with 0 and leaves the room before the next hand.
    s = settle_win(50, winner=0, self_drawn=True, options=P2_NOVICE, balances=(20_000, 1_800))
    assert (s.amount, s.transferred) == (2_500, 1_800)
    assert s.deltas == (1_800, -1_800)
    assert s.balances == (21_800, 0)
    assert s.must_leave == (1,)
    assert "holds 1,800: pays 1,800" in s.explain()


def test_2p_score_table_w6_is_plus_and_minus_56() -> None:
    s = settle_win(56, winner=1, self_drawn=False, options=SettlementOptions(fan_table="2p"))
    assert (s.room, s.stake, s.points, s.amount) == (None, 1, 56, 56)
    assert s.deltas == (-56, 56)
    assert s.unit == "points"


def test_escape_in_the_intermediate_room_costs_26000_beans() -> None:
    options = SettlementOptions(fan_table="gb", room=ROOMS["intermediate"])
    s = settle_escape(0, options=options)
    assert (s.outcome, s.payer, s.receiver) == (Outcome.ESCAPE, 0, 1)
    assert (s.points, s.amount, s.transferred) == (13, 26_000, 26_000)
    assert s.deltas == (-26_000, 26_000)


@pytest.mark.parametrize("room", [None, *ROOMS.values()])
def test_exhaustive_draw_moves_nothing_in_any_room(room: Room | None) -> None:
    options = SettlementOptions(fan_table="gb", room=room)
    s = settle_draw(options=options, balances=(300_000, 250_000))
    assert (s.outcome, s.amount, s.transferred, s.deltas) == (Outcome.DRAW, 0, 0, (0, 0))
    assert s.balances == (300_000, 250_000)
    assert (s.receiver, s.payer) == (None, None)


# --------------------------------------------------------------------------------------------
# §6.7 from the hands themselves, through the fan calculator


def test_examples_scored_by_the_calculator_settle_as_in_6_7() -> None:
    w1 = score(Hand.parse("123456789m5z [111z'] +5z"), WinContext(), table="gb")
    assert w1.total == 25
    assert settle_score(w1, winner=1, self_drawn=False, options=GB_NORMAL).transferred == 2_600

    w14 = score(Hand.parse("555m678m1z [1'23m] [2'34m] +1z"), WinContext(), table="gb")
    assert w14.total == 7
    with pytest.raises(BelowMinimumError):
        settle_score(w14, winner=1, self_drawn=False, options=GB_NORMAL)

    w12 = score(Hand.parse("123m456m789m111z22z"), WinContext(self_drawn=True), table="2p")
    assert w12.total == 50
    assert settle_score(w12, winner=0, self_drawn=True, options=P2_NOVICE).amount == 2_500

    w6 = score(Hand.parse("222233334444m5z +5z"), WinContext(), table="2p")
    assert w6.total == 56
    assert settle_score(w6, winner=1, self_drawn=False).deltas == (-56, 56)


def test_flowers_count_in_the_payment_but_not_toward_the_minimum() -> None:
    # 7 fan + 2 flowers = 9 fan: still below 起和 8 without the flowers (§3.5) …
    with pytest.raises(BelowMinimumError):
        settle_win(9, flower_points=2, winner=0, self_drawn=False, options=GB_NORMAL)
    # … while a legal 8-fan hand with 2 flowers is paid for 10 (§6.1: F includes flowers).
    s = settle_win(10, flower_points=2, winner=0, self_drawn=False, options=GB_NORMAL)
    assert s.points == 10
    assert "(2 from flowers)" in s.explain()


# --------------------------------------------------------------------------------------------
# Options


def test_defaults_follow_appendix_a() -> None:
    p2 = SettlementOptions()
    assert p2.fan_table == "2p"
    assert (p2.cap_points, p2.min_fan, p2.base_points) == (None, 0, 0)
    assert (p2.self_drawn_multiplier, p2.discard_multiplier, p2.escape_penalty_points) == (1, 1, 13)
    assert p2.room is None
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
    options = SettlementOptions(
        fan_table="gb", self_drawn_multiplier=3, discard_multiplier=2, room=ROOMS["junior"]
    )
    drawn = settle_win(10, winner=1, self_drawn=True, options=options)
    discard = settle_win(10, winner=1, self_drawn=False, options=options)
    assert (drawn.multiplier, drawn.amount) == (3, 10 * 500 * 3)
    assert (discard.multiplier, discard.amount) == (2, 10 * 500 * 2)
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
    with pytest.raises(ValueError, match="balances"):
        settle_win(10, winner=0, self_drawn=False, options=P2_NOVICE, balances=(5_000, -1))


# --------------------------------------------------------------------------------------------
# Rooms, score tables, entry limits, escapes


def test_the_five_rooms_of_seed_002() -> None:
    table = [(r.name, r.stake, r.entry_min, r.entry_max) for r in ROOMS.values()]
    assert table == [
        ("新手场", 50, 1_000, 60_000),
        ("普通场", 200, 5_000, 80_000),
        ("初级场", 500, 10_000, 100_000),
        ("中级场", 2_000, 50_000, 1_000_000),
        ("高级场", 6_000, 200_000, 2_000_000_000),
    ]
    # Each entry minimum covers one full capped loss (§6.1).
    for room in ROOMS.values():
        assert room.entry_min >= 13 * room.stake


def test_rooms_are_found_by_id_chinese_or_english_name() -> None:
    assert find_room("novice") is find_room("新手场") is find_room("Novice") is ROOMS["novice"]
    assert repr(ROOMS["senior"]) == "ROOMS['senior']"
    with pytest.raises(ValueError, match="no room"):
        find_room("vip")


def test_entry_limits() -> None:
    normal = ROOMS["normal"]
    assert not normal.admits(4_999)
    assert normal.admits(5_000)
    assert normal.admits(80_000)
    assert not normal.admits(80_001)
    assert [r.id for r in rooms_admitting(55_000)] == ["novice", "normal", "junior", "intermediate"]
    assert rooms_admitting(500) == ()


def test_a_winner_above_the_entry_maximum_leaves_too() -> None:
    s = settle_win(13, winner=0, self_drawn=False, options=GB_NORMAL, balances=(79_000, 20_000))
    assert s.balances == (81_600, 17_400)
    assert s.must_leave == (0,)


def test_score_tables_have_no_balance_limit_and_may_go_negative() -> None:
    s = settle_win(30, winner=0, self_drawn=False, balances=(0, 10))
    assert s.transferred == 30
    assert s.balances == (30, -20)
    assert s.must_leave == ()


def test_escape_is_limited_by_the_balance_and_is_zero_sum_in_a_score_table() -> None:
    options = SettlementOptions(fan_table="gb", room=ROOMS["intermediate"])
    s = settle_escape(1, options=options, balances=(60_000, 20_000))
    assert (s.amount, s.transferred, s.balances) == (26_000, 20_000, (80_000, 0))
    assert s.must_leave == (1,)
    score_table = settle_escape(1, options=SettlementOptions(escape_penalty_points=20))
    assert score_table.deltas == (20, -20)


def test_settlement_explains_itself() -> None:
    s = settle_win(25, winner=1, self_drawn=False, options=GB_NORMAL)
    assert (
        str(s)
        == s.explain()
        == "\n".join(
            [
                "win by seat 1 on a discard: F = 25 fan",
                "P = min(F + base 0, cap 13) = 13 points",
                "A = P × stake 200 (普通场 Normal) × 1 (点和 multiplier) = 2,600 beans",
                "seat 0 pays 2,600 beans to seat 1",
            ]
        )
    )
