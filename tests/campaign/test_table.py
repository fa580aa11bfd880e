"""The bridge from a run to the ``arcade`` engine: options per stage, outcomes, saved hands."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import pytest

from erren.engine.result import ResultKind, WinHow
from erren.engine.state import HandResult
from erren.families.arcade.campaign import CampaignParams, Outcome, OutcomeKind, Run, table
from erren.families.arcade.game import stage_options
from erren.families.arcade.scoring import score_arcade
from erren.hand import Hand

if TYPE_CHECKING:
    from erren.engine import State


def _finished(result: HandResult) -> State:
    return cast("State", SimpleNamespace(result=result))


def test_outcome_of_a_finished_hand() -> None:
    assert table.outcome_of(_finished(HandResult(ResultKind.DRAW))) == Outcome.draw()
    computer = HandResult(ResultKind.WIN, winner=1, loser=0, how=WinHow.ZIMO, fan_total=9)
    assert table.outcome_of(_finished(computer)) == Outcome.computer_win()
    score = score_arcade(Hand.parse("1113334466z [222z'] +4z"))
    mine = table.outcome_of(
        _finished(HandResult(ResultKind.WIN, winner=0, how=WinHow.DISCARD, detail=score))
    )
    assert mine.kind is OutcomeKind.PLAYER_WIN and mine.yakuman == 3 and mine.base == 30000
    with pytest.raises(ValueError, match="not finished"):
        table.outcome_of(_finished(cast(Any, None)))


def test_options_follow_the_stage() -> None:
    params = CampaignParams()
    first, last = (table.ruleset_options(params.features(s)) for s in (1, 4))
    assert first["human_seat"] == last["human_seat"] == 0
    assert not first["opening_exchange"] and last["opening_exchange"]
    assert (first["haidi_draws_human"], last["haidi_draws_human"]) == (3, 5)
    assert (first["pick_any_prob"], last["pick_any_prob"]) == (0.0, 0.05)
    assert last["bleed_yakuman_prob"] == 0.05 and first["bleed_normal_prob"] == 0.0
    assert Run.new(seed=1).features.stage == 1


# arcade §8 (stage_* rows) and R3.1: each stage keeps the features of the stages before it.
_SPEC_STAGE_OPTIONS = {
    1: {
        "opening_exchange": False,  # R3.7 from stage 2
        "pung_offer_prob": 0.0,  # R3.2: no stage has the pung offer
        "pick_any_prob": 0.0,  # R3.9: 0.05 from stage 3
        "haidi_draws": 3,  # the computer's post-draw draws
        "haidi_draws_human": 3,  # R3.8: 5 from stage 2
        "bleed_normal_prob": 0.0,  # R3.10: 0.20 from stage 3
        "bleed_yakuman_prob": 0.0,  # R3.10: 0.05 in stage 4
    },
    2: {
        "opening_exchange": True,
        "pung_offer_prob": 0.0,
        "pick_any_prob": 0.0,
        "haidi_draws": 3,
        "haidi_draws_human": 5,
        "bleed_normal_prob": 0.0,
        "bleed_yakuman_prob": 0.0,
    },
    3: {
        "opening_exchange": True,
        "pung_offer_prob": 0.0,
        "pick_any_prob": 0.05,
        "haidi_draws": 3,
        "haidi_draws_human": 5,
        "bleed_normal_prob": 0.20,
        "bleed_yakuman_prob": 0.0,
    },
    4: {
        "opening_exchange": True,
        "pung_offer_prob": 0.0,
        "pick_any_prob": 0.05,
        "haidi_draws": 3,
        "haidi_draws_human": 5,
        "bleed_normal_prob": 0.20,
        "bleed_yakuman_prob": 0.05,
    },
}


@pytest.mark.parametrize("stage", [1, 2, 3, 4])
def test_stage_options_are_the_spec_defaults(stage: int) -> None:
    """The engine's stage options and a default run's hand options, both against §8."""
    spec = _SPEC_STAGE_OPTIONS[stage]
    assert stage_options(stage) == {"human_seat": 0, **spec}
    assert stage_options(stage, human_seat=1)["human_seat"] == 1
    gaps = {"bleed_normal_gap": 1, "bleed_yakuman_gap": 2}  # stage_bleed_*_gap (R3.10)
    mine = table.ruleset_options(CampaignParams().features(stage))
    assert mine == {"human_seat": 0, **spec, **gaps}
    assert table.ruleset(CampaignParams().features(stage)).name == "arcade"


def test_default_params_are_the_spec_defaults() -> None:
    """§8's stage_* parameters (R3.3, R3.5, R3.6, R3.8–R3.10), per stage where they vary."""
    assert CampaignParams().to_dict() == {
        "initial_bankroll": 1000,
        "stake_unit": 100,
        "max_multiplier": 10,
        "purses": [10000, 20000, 40000, 80000],
        "streak_length": 3,
        "streak_multiplier": 2,
        "haidi_draws": 3,
        "haidi_draws_human": [3, 5, 5, 5],
        "pick_any_prob": [0.0, 0.0, 0.05, 0.05],
        "pung_offer_prob": 0.0,
        "bleed_normal_prob": [0.0, 0.0, 0.20, 0.20],
        "bleed_yakuman_prob": [0.0, 0.0, 0.0, 0.05],
        "bleed_normal_gap": 1,
        "bleed_yakuman_gap": 2,
        "opening_exchange_from": 2,
    }


def test_a_hand_of_the_run_deals_and_replays() -> None:
    run = Run.new(seed=3)
    start = run.start_hand(1)
    state = table.new_hand(start)
    assert state.seed == start.seed and state.dealer == start.dealer
    again = table.new_hand(start)
    assert again.observe(0).hand == state.observe(0).hand  # the seed fixes the deal
    record = state.record().to_dict()
    assert table.resume_hand(record, start).observe(0) == state.observe(0)
    with pytest.raises(ValueError, match="not the hand in play"):
        table.resume_hand({**record, "seed": 1}, start)
