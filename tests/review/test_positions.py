"""The review on hand-built positions whose answer the test computes: a tile the 报听 opponent
wins on thrown at the last discard (its exact cost), and a 七对 one from ready broken by a chi."""

from __future__ import annotations

from erren.bots.base import play_hand
from erren.bots.efficiency import EfficiencyBot
from erren.engine import Action, ActionKind, Record, find_family
from erren.notation import parse_tiles
from erren.review import Category, review_game, reviewer
from erren.review.walk import review_decision
from erren.testing.deals import start

from ._support import last_discard_against_ting

RULES = "guobiao-2p"


def test_a_tile_the_ting_opponent_wins_on_costs_his_whole_win() -> None:
    state = last_discard_against_ting()
    rules = state.ruleset
    six = Action.make(ActionKind.DISCARD, 0, int(parse_tiles("6m")[0]))
    # The payment, counted from the spec (table `2p`, §4.2.2): the opponent wins on 6m with
    # 123m 456m 678m 99m + 555z, concealed, on the discard made with the live wall empty:
    # 海底捞月 10 (#29) + 连六 8 (#34: 123m and 456m) + 门前清 4 (#42) + 箭刻 4 (#41: 白)
    # + 报听 2 (#51); no 和绝张 (his own hand holds another 6m, §2.11 last_copy).  1 番 = 1 分
    # (§6.1), paid by the discarder.
    payment = 10 + 8 + 4 + 4 + 2
    dealt_in = state.clone()
    dealt_in.apply(six)
    result = dealt_in.result
    assert result is not None and result.winner == 1 and result.loser == 0
    assert result.deltas == (-payment, payment)
    safe = set()
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        if after.result is not None and after.result.winner is None:
            safe.add(str(action))
    bot = reviewer(seed=3)
    bot.bind(rules)
    decision = review_decision(rules, state.observe(0), six, bot, rollouts=8, seed=1)
    assert decision.category is Category.DEFENCE
    assert decision.ev_player == -payment
    assert decision.ev_bot == 0.0  # a safe last discard: 荒庄, nobody pays
    assert decision.loss == payment
    assert decision.bad is True and payment > rules.review_bad_loss
    assert f"0:{decision.bot.text}" in safe and decision.bot.text != "discard:6m"


def _seven_pairs_chi_record() -> Record:
    """Seat 0 holds 11m 22z 33z 66z 77z (five pairs) and 3m 5m 9m: one from a 七对 ready; the
    dealer throws 4m first and seat 0 chis 345m (leaving a hand two from ready); the rest of
    the hand is played out by two efficiency bots."""
    rules = find_family(RULES)
    state = start(rules, "246789m11144455z", "11359m22336677z", seat=1)
    state.apply(Action.make(ActionKind.DISCARD, 1, int(parse_tiles("4m")[0])))
    chi = Action.make(ActionKind.CHI, 0, int(parse_tiles("3m")[0]))
    assert chi in state.legal_actions() and Action.make(ActionKind.PASS, 0) in state.legal_actions()
    state.apply(chi)
    bots = [EfficiencyBot(), EfficiencyBot()]
    for b in bots:
        b.bind(rules)
    play_hand(state, bots)
    return Record.of(state)


def test_a_chi_that_breaks_a_seven_pairs_hand_is_a_claim_the_master_passes() -> None:
    record = _seven_pairs_chi_record()
    review = review_game([record], 0, rollouts=4, seed=2)
    chi_step = next(i for i, a in enumerate(record.actions) if a.startswith("0:chi"))
    decision = next(d for d in review.decisions if d.step == chi_step)
    assert decision.category is Category.CLAIM
    assert decision.player.text == "chi:345m" and decision.player.tiles == ("3m", "4m", "5m")
    assert decision.bot.text == "pass"
    assert decision.ev_player is not None and decision.ev_bot is not None
    assert decision.loss == max(0.0, decision.ev_bot - decision.ev_player)
