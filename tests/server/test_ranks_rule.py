"""The ladder's rule (:mod:`erren.server.ranks`): every expected figure is computed here from
the documented table (thresholds, starts, gains per tier, loss percentages), never read from the
rule's own helpers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from erren.server import ranks
from erren.server.ranks import LADDER, Outcome, Seasons, Standing, apply, carry, step_name
from erren.server.rooms import TIERS

# The documented table, written out again.
THRESHOLDS = [20, 40, 60, 80, 100, 120, 160, 200, 240, 300, 360, 420, 500, 600, 700, None]
LOSS_PERCENT = [50] * 3 + [100] * 3 + [120] * 3 + [140] * 3 + [160] * 3 + [180]
GAINS = {  # tier: (win, draw, loss, escape)
    "novice": (10, 2, 10, 30),
    "normal": (20, 4, 20, 60),
    "junior": (30, 6, 30, 90),
    "intermediate": (40, 8, 40, 120),
    "senior": (50, 10, 50, 150),
}
NAMES = ["新人", "雀士", "雀杰", "雀豪", "雀圣"]
PROTECTED = {0, 3, 6, 9, 12}


def start(step: int) -> int:
    threshold = THRESHOLDS[step]
    return 0 if threshold is None else threshold // 2


def test_the_ladder_is_the_documented_table() -> None:
    assert [s.threshold for s in LADDER] == THRESHOLDS
    assert [s.start for s in LADDER] == [start(i) for i in range(16)]
    assert [s.rank.loss_percent for s in LADDER] == LOSS_PERCENT
    assert {i for i, s in enumerate(LADDER) if s.protected} == PROTECTED
    names = [n + lv for n in NAMES for lv in ("一级", "二级", "三级")] + ["雀神"]
    assert [step_name(i) for i in range(16)] == names
    assert set(ranks.GAINS) == set(TIERS)  # every room tier has its gains


@pytest.mark.parametrize("tier", list(GAINS))
def test_gains_per_tier_and_result(tier: str) -> None:
    win, draw, loss, escape = GAINS[tier]
    for step, points in ((7, 100), (13, 300)):  # 雀杰二级, 雀圣二级: far from both ends
        here = Standing(step, points)
        pct = LOSS_PERCENT[step]
        assert apply(here, tier, Outcome.WIN) == Standing(step, points + win)
        assert apply(here, tier, Outcome.DRAW) == Standing(step, points + draw)
        for outcome, lost in ((Outcome.LOSS, loss), (Outcome.ESCAPE, escape)):
            left = points - lost * pct // 100
            expected = Standing(step, left) if left >= 0 else Standing(step - 1, start(step - 1))
            assert apply(here, tier, outcome) == expected
    order = list(GAINS)  # higher tiers swing more
    if order.index(tier) > 0:
        below = GAINS[order[order.index(tier) - 1]]
        assert all(b < g for b, g in zip(below, GAINS[tier], strict=True))


def test_exact_moves_in_the_senior_room() -> None:
    # 雀杰二级 (step 7, threshold 200, loss 120 %) with 100 PT
    s = Standing(7, 100)
    assert apply(s, "senior", Outcome.WIN) == Standing(7, 150)
    assert apply(s, "senior", Outcome.DRAW) == Standing(7, 110)
    assert apply(s, "senior", Outcome.LOSS) == Standing(7, 100 - 50 * 120 // 100)  # 40
    assert apply(s, "senior", Outcome.ESCAPE) == Standing(6, 160 // 2)  # 100 − 180 < 0
    assert ranks.change(7, "senior", Outcome.ESCAPE) == -(150 * 120 // 100)


def test_promotion_at_the_threshold_exactly() -> None:
    # 新人三级 (step 2, threshold 60): 50 + 10 = 60 promotes to 雀士一级 at 40
    assert apply(Standing(2, 50), "novice", Outcome.WIN) == Standing(3, 80 // 2)
    assert apply(Standing(2, 49), "novice", Outcome.WIN) == Standing(2, 59)
    # one step at most, surplus dropped
    assert apply(Standing(0, 19), "senior", Outcome.WIN) == Standing(1, 20)
    # 雀圣三级 → 雀神 at 0; 雀神 has no ceiling
    assert apply(Standing(14, 690), "novice", Outcome.WIN) == Standing(15, 0)
    assert apply(Standing(15, 10_000), "senior", Outcome.WIN) == Standing(15, 10_050)


def test_demotion_and_protection() -> None:
    # 雀豪二级 (10) at 10 PT loses 40 × 140 % = 56 → 雀豪一级 at 150
    assert apply(Standing(10, 10), "intermediate", Outcome.LOSS) == Standing(9, 300 // 2)
    # 雀豪一级 is protected: stays at 0
    assert apply(Standing(9, 10), "intermediate", Outcome.LOSS) == Standing(9, 0)
    for step in PROTECTED:
        assert apply(Standing(step, 0), "senior", Outcome.ESCAPE) == Standing(step, 0)
    # 新人二级 is not protected: → 新人一级 at 10
    assert apply(Standing(1, 2), "novice", Outcome.LOSS) == Standing(0, 20 // 2)
    # 雀神 is not protected: → 雀圣三级 at 350
    assert apply(Standing(15, 100), "senior", Outcome.ESCAPE) == Standing(14, 700 // 2)
    # 新人 pays half: 11 − 10 × 50 % = 6
    assert apply(Standing(1, 11), "novice", Outcome.LOSS) == Standing(1, 6)


def test_points_are_never_negative() -> None:
    for step in range(16):
        for tier in GAINS:
            for outcome in Outcome:
                for points in (0, 1, 5):
                    assert apply(Standing(step, points), tier, outcome).points >= 0


def test_season_soft_reset() -> None:
    assert carry(Standing(15, 900)) == Standing(12, 500 // 2)  # 雀神 → 雀圣一级 at 250
    assert carry(Standing(5, 100)) == Standing(2, 60 // 2)
    assert carry(Standing(2, 59)) == Standing(0, 10)
    assert carry(Standing(0, 0)) == Standing(0, 10)


def test_seasons_on_an_injected_clock() -> None:
    epoch = datetime(2026, 3, 2, tzinfo=UTC)
    seasons = Seasons(epoch=epoch, weeks=2)
    assert seasons.number(epoch - timedelta(days=30)) == 1
    assert seasons.number(epoch) == 1
    assert seasons.number(epoch + timedelta(days=13, hours=23)) == 1
    assert seasons.number(epoch + timedelta(days=14)) == 2
    s3 = seasons.season(3)
    assert (s3.start, s3.end) == (epoch + timedelta(days=28), epoch + timedelta(days=42))
    assert seasons.of(epoch + timedelta(days=30)) == s3
    assert Seasons().weeks == 8
    with pytest.raises(ValueError, match="at least one week"):
        Seasons(weeks=0)
    with pytest.raises(ValueError, match="numbered from 1"):
        seasons.season(0)


def test_the_calendar_from_the_environment() -> None:
    assert Seasons.from_env({}) == Seasons()
    custom = Seasons.from_env({"ERREN_SEASON_WEEKS": "4", "ERREN_SEASON_EPOCH": "2027-02-01"})
    assert custom == Seasons(epoch=datetime(2027, 2, 1, tzinfo=UTC), weeks=4)
    assert custom.number(datetime(2027, 3, 1, tzinfo=UTC)) == 2
