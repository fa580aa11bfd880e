"""Bots in arcade hands: legal moves only, wilds kept, 报听, the events answered."""

from __future__ import annotations

from erren.bots import find_bot
from erren.engine import Action, ActionKind, State, find_family
from erren.engine.actions import AnyActionKind
from erren.families.arcade.game import stage_options
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.sim import simulate
from erren.sim.simulator import play_hand

AK = ActionKind


def test_efficiency_beats_random_at_arcade() -> None:
    stats = simulate(find_family("arcade"), ("efficiency", "random"), hands=200, seed=1)
    assert stats.wins[0] > 5 * stats.wins[1]
    assert stats.points[0] > 0


def test_efficiency_answers_every_event_and_declares_ready() -> None:
    rules = find_family("arcade", pung_offer_prob=0.5, pick_any_prob=0.5)
    bots = [find_bot("efficiency", seed=1), find_bot("efficiency", seed=2)]
    kinds: set[AnyActionKind] = set()
    wild_discards = 0
    for seed in range(150):
        state = State.new(rules, seed=seed, dealer=seed % 2)
        while not state.is_terminal:
            seat = state.actor
            obs = state.observe(seat)
            action = bots[seat].choose(obs, obs.legal_actions)
            kinds.add(action.kind)
            view = obs.view
            assert isinstance(view, ArcadeView)
            if action.kind is AK.DISCARD and view.wild is not None and action.tile == view.wild:
                wild_discards += 1
            state.apply(action)
        assert state.result is not None
    assert {ArcadeVerb.EXCHANGE, ArcadeVerb.PICK, AK.TING} <= kinds
    assert wild_discards < 10  # a wild is thrown only when nothing else does as well


def test_efficiency_accepts_a_useful_pung_offer() -> None:
    rules = find_family("arcade", pung_offer_prob=1.0, pick_any_prob=0.0)
    taken = 0
    for seed in range(40):
        state = State.new(rules, seed=seed)
        bots = [find_bot("efficiency"), find_bot("efficiency")]
        while not state.is_terminal:
            obs = state.observe(state.actor)
            action = bots[state.actor].choose(obs, obs.legal_actions)
            state.apply(action)
        taken += sum(e.kind == "takepung" for e in state.events)
    assert taken > 0


def test_random_bot_plays_stage_hands() -> None:
    rules = find_family("arcade", stage_options(4))
    for seed in range(30):
        state = State.new(rules, seed=seed)
        play_hand(state, [find_bot("random", seed=seed), find_bot("efficiency")])
        assert state.result is not None
    assert Action.parse("0:takepung:19m5z").data == (0, 8, 31)


def test_efficiency_finishes_a_give_begun_by_another_player() -> None:
    """Turns alternate between the random bot and the efficiency bot, so efficiency often
    takes over an exchange or a pung answer half made by another hand (a Monte-Carlo rollout,
    托管): it goes on with legal gives in canonical order (R2.21, R2.22), never raising."""
    rules = find_family("arcade", pung_offer_prob=0.5)
    takeovers = 0
    for seed in range(120):
        state = State.new(rules, seed=seed, dealer=seed % 2)
        players = (find_bot("random", seed=seed), find_bot("efficiency"))
        n = 0
        while not state.is_terminal:
            bot = players[n % 2]
            n += 1
            obs = state.observe(state.actor)
            view = obs.view
            if bot is players[1] and isinstance(view, ArcadeView) and view.giving:
                takeovers += 1
            state.apply(bot.choose(obs, state.legal_actions()))
    assert takeovers > 0
