"""Where a run meets the tiles: each hand of a run is an ``arcade`` engine hand.

:func:`ruleset_options` turns a stage's
:class:`~erren.families.arcade.campaign.params.StageFeatures` into the
``arcade`` ruleset's options (the human's seat and the features that apply to him only, R3.2);
:func:`new_hand` deals the hand a :class:`~erren.families.arcade.campaign.hand.HandStart`
describes; :func:`outcome_of` reads a finished hand as an
:class:`~erren.families.arcade.campaign.hand.Outcome`;
:func:`resume_hand` replays a saved hand record up to where it stopped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from erren.engine.result import ResultKind
from erren.families.arcade.campaign.hand import HUMAN, HandStart, Outcome
from erren.families.arcade.campaign.params import StageFeatures
from erren.scoring.detail import ScoreUnit

if TYPE_CHECKING:
    from erren.engine import Family, State

__all__ = ["RULESET", "new_hand", "outcome_of", "resume_hand", "ruleset", "ruleset_options"]

RULESET = "arcade"


def ruleset_options(features: StageFeatures, *, human: int = HUMAN) -> dict[str, Any]:
    """The ``arcade`` engine options of stage mode at ``features``' stage."""
    return {
        "human_seat": human,
        "opening_exchange": features.opening_exchange,
        "pung_offer_prob": features.pung_offer_prob,
        "pick_any_prob": features.pick_any_prob,
        "haidi_draws": features.haidi_draws,
        "haidi_draws_human": features.haidi_draws_human,
        "bleed_normal_prob": features.bleed_normal_prob,
        "bleed_yakuman_prob": features.bleed_yakuman_prob,
        "bleed_normal_gap": features.bleed_normal_gap,
        "bleed_yakuman_gap": features.bleed_yakuman_gap,
    }


def ruleset(features: StageFeatures, *, human: int = HUMAN) -> Family:
    from erren.engine import find_family  # noqa: PLC0415 - the engine loads on first use

    return find_family(RULESET, ruleset_options(features, human=human))


def new_hand(start: HandStart, *, human: int = HUMAN) -> State:
    """The hand ``start`` describes, dealt from its seed with its dealer."""
    from erren.engine import State  # noqa: PLC0415

    return State.new(ruleset(start.features, human=human), seed=start.seed, dealer=start.dealer)


def resume_hand(record: dict[str, Any], start: HandStart) -> State:
    """Replay a saved hand record; :class:`ValueError` if it is not ``start``'s hand or no
    longer replays (e.g. saved by another version of the engine)."""
    from erren.engine import Record, replay  # noqa: PLC0415
    from erren.errors import ErrenError  # noqa: PLC0415

    try:
        rec = Record.from_dict(record)
        if rec.ruleset != RULESET or rec.seed != start.seed or rec.dealer != start.dealer:
            raise ValueError("the saved hand is not the hand in play")
        return replay(rec)
    except (ErrenError, KeyError, TypeError) as err:
        raise ValueError(f"the saved hand does not replay ({err})") from None


def outcome_of(state: State, *, human: int = HUMAN) -> Outcome:
    """The finished hand as stage mode sees it (R3.4): the player's win with its score, the
    computer's win (no fan), or a draw."""
    result = state.result
    if result is None:
        raise ValueError("the hand is not finished")
    if result.kind is not ResultKind.WIN or result.winner is None:
        return Outcome.draw()
    if result.winner != human:
        return Outcome.computer_win()
    detail = result.detail
    if detail is None:
        return Outcome.player_win(result.fan_total, description=str(result))
    if detail.unit is ScoreUnit.YAKUMAN:
        return Outcome.player_win(0, yakuman=detail.total, description=str(detail))
    return Outcome.player_win(detail.total, description=str(detail))
