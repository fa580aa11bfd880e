"""The review over simulated games of every family and an mjai log: it runs, its JSON
round-trips, its summaries are what the decisions say, and 大师 reviewed against its own play
agrees everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erren.bots.base import play_hand
from erren.bots.efficiency import EfficiencyBot
from erren.cli.main import main
from erren.engine import Action, Record, State, find_family
from erren.review import Category, GameReview, review_game, reviewer
from erren.review.walk import decision_points
from erren.sim import simulate

FAMILIES = ["guobiao-2p", "xiamen", "arcade"]


def _game(tmp_path: Path, rules: str, hands: int = 3) -> Path:
    path = tmp_path / f"{rules}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        simulate(find_family(rules), ["novice", "efficiency"], hands=hands, seed=11, jsonl=out)
    return path


def _records(path: Path) -> list[Record]:
    return [Record.from_json(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _check_summary(review: GameReview) -> None:
    decisions = review.decisions
    matches = sum(1 for d in decisions if d.player.text == d.bot.text)
    assert decisions
    assert review.summary.match_rate == matches / len(decisions)
    bad = [d for d in decisions if d.bad]
    assert review.summary.bad_rate == len(bad) / len(decisions)
    for d in decisions:
        if d.player.text == d.bot.text:
            assert d.loss == 0 and d.ev_player is None
        else:
            assert d.ev_player is not None and d.ev_bot is not None
            assert d.loss == max(0.0, d.ev_bot - d.ev_player)
            threshold = find_family(review.hands[d.hand].ruleset).review_bad_loss
            assert d.bad == (d.loss > threshold)
    losses = sorted((d.loss for d in decisions if d.loss > 0), reverse=True)[:3]
    assert [d.loss for d in review.costliest()] == losses


@pytest.mark.parametrize("rules", FAMILIES)
def test_a_simulated_game_of_every_family_is_reviewed(tmp_path: Path, rules: str) -> None:
    review = review_game(_records(_game(tmp_path, rules)), 0, rollouts=4, seed=1)
    assert len(review.hands) == 3
    _check_summary(review)
    for d in review.decisions:  # arcade's own verbs are the family's category
        if d.player.text.split(":")[0] in ("give", "exchange", "pick", "takepung"):
            assert d.category is Category.FAMILY
    if rules == "arcade":  # every arcade hand opens with the exchange
        assert sum(d.category is Category.FAMILY for d in review.decisions) >= 3
    again = GameReview.from_json(review.to_json())
    assert again == review
    assert json.loads(again.to_json()) == json.loads(review.to_json())
    assert review_game(_records(_game(tmp_path, rules)), 0, rollouts=4, seed=1) == review


def test_an_mjai_log_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _game(tmp_path, "guobiao-2p")
    log = tmp_path / "game.mjai"
    assert main(["export", str(source), "--format", "mjai", "-o", str(log)]) == 0
    capsys.readouterr()
    assert main(["review", str(log), "--json", "--rollouts", "4", "--seat", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    review = GameReview.from_dict(data)
    assert len(review.hands) == 3 and all(h.seat == 1 for h in review.hands)
    _check_summary(review)
    direct = review_game(_records(source), 1, rollouts=4)
    assert review == direct


@pytest.mark.parametrize("rules", FAMILIES)
def test_the_master_reviewed_against_its_own_play_agrees_everywhere(rules: str) -> None:
    ruleset = find_family(rules)
    records = []
    for seed in range(2):
        player = reviewer(seed=7)
        player.bind(ruleset)
        other = EfficiencyBot()
        other.bind(ruleset)
        state = State.new(ruleset, seed=seed)
        play_hand(state, [player, other])
        records.append(Record.of(state))
    review = review_game(records, 0, rollouts=4, seed=7)
    assert review.decisions
    assert review.summary.match_rate == 1.0
    assert review.summary.loss == 0.0


def test_moves_made_under_trustee_are_not_the_player_s() -> None:
    """托管 plays for the seat from the moment it is switched on (the engine makes his moves):
    none of them is reviewed as his; switched off again, his own moves are, each at its own
    step of the record."""
    ruleset = find_family("guobiao-2p")
    bots = [EfficiencyBot(), EfficiencyBot()]
    for bot in bots:
        bot.bind(ruleset)
    for seed in range(40):  # a hand long enough to switch it off again
        state = State.new(ruleset, seed=seed)
        chosen: list[str] = []  # seat 0's own moves among two or more
        moves = 0
        while not state.is_terminal:
            if moves in (6, 16):  # 托管 on after six moves of the hand, off after sixteen
                state.apply_system(Action.trustee(0, moves == 6))
                moves += 1
                continue
            seat = state.actor
            legal = state.legal_actions()
            move = bots[seat].choose(state.observe(seat), legal)
            if seat == 0 and len(legal) > 1:
                chosen.append(str(move))
            state.apply(move)
            moves += 1
        if moves > 24:
            break
    else:
        raise AssertionError("no hand lasted 24 moves")
    record = Record.of(state)
    assert any(a.endswith("trustee:on") for a in record.actions)
    found = list(decision_points(record, 0))
    assert [str(point.move) for point in found] == chosen
    assert [record.actions[point.step] for point in found] == chosen
