"""The coach rating (issue 31, point 3): each figure scaled by its spread over the family's
four levels, the player's point projected on the chain 入门-普通-高手-大师 (the nearest clamped
projection), within a quarter of a level of one rated that level, else "between"; fewer than
20 hands "not enough hands".  Expectations are worked out here from those rules; the shipped
calibration's own hands rate their level."""

from __future__ import annotations

import json
import math

import pytest

from erren.bots.levels import Level
from erren.review.coach import (
    MIN_HANDS,
    Calibration,
    Figures,
    Interval,
    Reference,
    Row,
    Verdict,
    coach_rating,
    intervals,
    load_calibration,
)
from erren.review.model import Summary

FAMILY = "guobiao-2p"
# (match rate, bad-move rate, loss per hand) of each level in the synthetic calibration.
POINTS = {
    Level.NOVICE: (0.4, 0.3, 30.0),
    Level.NORMAL: (0.8, 0.1, 6.0),
    Level.STRONG: (0.9, 0.06, 2.0),
    Level.MASTER: (1.0, 0.0, 0.0),
}
# Spreads over the levels: 1.0 - 0.4, 0.3 - 0.0, 30 - 0.
SCALES = (0.6, 0.3, 30.0)


def _reference(player: str, point: tuple[float, float, float]) -> Reference:
    figures = Figures(*point)
    ivs = {
        name: Interval(value, value, value)
        for name, value in zip(("match_rate", "bad_rate", "loss_per_hand"), point, strict=True)
    }
    return Reference(player, figures, ivs, 100)


CALIBRATION = Calibration({FAMILY: tuple(_reference(lv.value, p) for lv, p in POINTS.items())})


def _hands(n: int, decisions: int, matches: int, bad: int, loss: float) -> list[Summary]:
    return [Summary(decisions, matches, bad, loss, ()) for _ in range(n)]


def test_a_point_halfway_between_normal_and_strong_is_between() -> None:
    # 0.85 = (0.8 + 0.9) / 2, 0.08 = (0.1 + 0.06) / 2, 4 = (6 + 2) / 2: t = 1/2 on 普通-高手.
    rating = coach_rating(FAMILY, _hands(25, 100, 85, 8, 4.0), calibration=CALIBRATION)
    assert rating.verdict is Verdict.BETWEEN
    assert (rating.level, rating.upper) == (Level.NORMAL, Level.STRONG)
    assert rating.position == pytest.approx(1.5)
    assert rating.distance == pytest.approx(0.0, abs=1e-12)
    assert rating.hands == 25
    assert rating.text("en") == "between Normal and Strong"
    assert rating.text("zh") == "介于普通和高手之间"


def test_within_a_quarter_of_a_level_is_that_level() -> None:
    # t = 0.2 of the way from 普通 to 高手: 0.82, 0.092, 5.2.
    rating = coach_rating(FAMILY, _hands(20, 500, 410, 46, 5.2), calibration=CALIBRATION)
    assert rating.verdict is Verdict.LEVEL
    assert rating.level is Level.NORMAL
    assert rating.upper is None
    assert rating.position == pytest.approx(1.2)
    assert rating.text("zh") == "普通"
    # t = 0.8 from 高手 to 大师: 0.98, 0.012, 0.4.
    rating = coach_rating(FAMILY, _hands(20, 500, 490, 6, 0.4), calibration=CALIBRATION)
    assert (rating.verdict, rating.level) == (Verdict.LEVEL, Level.MASTER)
    assert rating.position == pytest.approx(2.8)
    assert rating.text("en") == "Master"


def test_a_point_off_the_chain_takes_its_nearest_projection() -> None:
    # match 0.7, bad 0.1, loss 6: scaled (7/6, 1/3, 1/5); 普通 scaled (4/3, 1/3, 1/5).
    # On 入门-普通 (scaled (2/3, 1, 1) -> (4/3, 1/3, 1/5)): v = (2/3, -2/3, -4/5),
    # w = p - 入门 = (1/2, -2/3, -4/5); t = (1/3 + 4/9 + 16/25) / (4/9 + 4/9 + 16/25).
    t = (1 / 3 + 4 / 9 + 16 / 25) / (4 / 9 + 4 / 9 + 16 / 25)
    off = [0.5 - t * 2 / 3, -2 / 3 + t * 2 / 3, -4 / 5 + t * 4 / 5]
    gap_first = math.sqrt(sum(x * x for x in off))
    # On 普通-高手 the projection is clamped at 普通 (t < 0): the gap is |p - 普通| = 1/6,
    # larger than gap_first, so the first segment wins.
    assert gap_first < 1 / 6
    rating = coach_rating(FAMILY, _hands(20, 10, 7, 1, 6.0), calibration=CALIBRATION)
    assert rating.position == pytest.approx(t)
    assert rating.distance == pytest.approx(gap_first)
    assert rating.verdict is Verdict.LEVEL
    assert rating.level is Level.NORMAL  # t ≈ 0.94 >= 3/4
    assert rating.figures == Figures(0.7, 0.1, 6.0)


def test_each_synthetic_level_rates_itself() -> None:
    for index, (level, (match, bad, loss)) in enumerate(POINTS.items()):
        rows = _hands(MIN_HANDS, 50, round(50 * match), round(50 * bad), loss)
        rating = coach_rating(FAMILY, rows, calibration=CALIBRATION)
        assert (rating.verdict, rating.level) == (Verdict.LEVEL, level)
        assert rating.position == pytest.approx(index)


def test_fewer_than_the_minimum_hands_is_not_enough() -> None:
    assert MIN_HANDS == 20
    rating = coach_rating(FAMILY, _hands(19, 100, 85, 8, 4.0), calibration=CALIBRATION)
    assert rating.verdict is Verdict.TOO_FEW
    assert (rating.level, rating.position, rating.hands) == (None, None, 19)
    assert rating.figures == Figures(0.85, 0.08, 4.0)
    assert rating.text("en") == "not enough hands (19 of 20)"
    assert rating.text("zh") == "手数不足（19/20）"
    assert coach_rating(FAMILY, [], calibration=CALIBRATION).figures == Figures(1.0, 0.0, 0.0)
    enough = coach_rating(FAMILY, _hands(20, 100, 85, 8, 4.0), calibration=CALIBRATION)
    assert enough.verdict is Verdict.BETWEEN


def test_an_uncalibrated_family_is_refused() -> None:
    with pytest.raises(ValueError, match="xiamen"):
        coach_rating("xiamen", _hands(20, 10, 9, 0, 0.0), calibration=CALIBRATION)


def test_pooled_figures_weigh_hands_by_their_decisions() -> None:
    # 20 hands of 10 decisions (9 matched, 1 bad, loss 1) and 20 of 2 (0 matched, 2 bad,
    # loss 5): match 180/240, bad (20 + 40)/240, loss (20 + 100)/40.
    rows = _hands(20, 10, 9, 1, 1.0) + _hands(20, 2, 0, 2, 5.0)
    rating = coach_rating(FAMILY, rows, calibration=CALIBRATION)
    assert rating.figures.match_rate == pytest.approx(180 / 240)
    assert rating.figures.bad_rate == pytest.approx(60 / 240)
    assert rating.figures.loss_per_hand == pytest.approx(3.0)


def test_intervals_of_identical_hands_are_a_point() -> None:
    rows = [Row(8, 6, 1, 2.5)] * 30
    ivs = intervals(rows, seed=3)
    assert ivs["match_rate"] == Interval(0.75, 0.75, 0.75)
    assert ivs["bad_rate"] == Interval(0.125, 0.125, 0.125)
    assert ivs["loss_per_hand"] == Interval(2.5, 2.5, 2.5)


def test_the_json_form_round_trips() -> None:
    ref = Reference.of("normal", [Row(8, 6, 1, 2.5), Row(4, 4, 0, 0.0)], seed=1)
    cal = Calibration({FAMILY: (ref,)}, seed=7, command="x")
    back = Calibration.from_dict(json.loads(cal.to_json()))
    assert back == cal


def test_the_shipped_calibration_says_how_it_was_made() -> None:
    shipped = load_calibration()
    assert shipped.command.startswith("python -m benchmarks.bench_coach")
    assert shipped.reviewer == "master"
    assert set(shipped.families) == {"guobiao-2p", "xiamen", "arcade"}
    players = [r.player for r in shipped.families["guobiao-2p"]]
    assert players == ["novice", "normal", "strong", "master", "learned"]


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen", "arcade"])
def test_each_shipped_level_rates_its_own_hands_as_itself(family: str) -> None:
    shipped = load_calibration()
    for index, level in enumerate((Level.NOVICE, Level.NORMAL, Level.STRONG, Level.MASTER)):
        ref = shipped.level(family, level)
        rows = ref.rows
        assert len(rows) == ref.hands >= MIN_HANDS
        decisions = sum(r.decisions for r in rows)
        # The stored means are the pooled figures of the stored hands.
        assert ref.figures.match_rate == pytest.approx(sum(r.matches for r in rows) / decisions)
        assert ref.figures.bad_rate == pytest.approx(sum(r.bad for r in rows) / decisions)
        assert ref.figures.loss_per_hand == pytest.approx(sum(r.loss for r in rows) / len(rows))
        iv = ref.intervals["match_rate"]
        assert iv.low <= iv.mean <= iv.high
        rating = coach_rating(family, rows, calibration=shipped)
        assert (rating.verdict, rating.level) == (Verdict.LEVEL, level)
        assert rating.position == pytest.approx(index, abs=1e-9)
        assert rating.distance == pytest.approx(0.0, abs=1e-9)
