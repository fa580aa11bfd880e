"""The expert bot: its contract (the observation alone, always legal, deterministic, the time
budget) and its value choices (fan values from the spec's `2p` table, guobiao-2p §4.2.2)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator

import pytest

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import improving
from erren.bots import EfficiencyBot, find_bot
from erren.bots.expert import ExpertBot
from erren.bots.expert.defence import danger, safer_discard
from erren.bots.expert.opponent import public_key, readiness_test, shanten_weights
from erren.bots.expert.train_opponent import MAX_DISCARDS, MAX_SHANTEN, collect
from erren.bots.random_bot import RandomBot
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.phases import Phase
from erren.engine.resample import resample
from erren.families.guobiao.bot.expert import Knobs, Seen, discard_values, ready_discards
from erren.families.guobiao.bot.values import Valuer
from erren.melds import Meld, MeldKind
from erren.notation import parse_tiles
from erren.testing.deals import start
from erren.tiles import Tile

AK = ActionKind
RULES = find_family("guobiao-2p")
SEARCHING = Knobs(search_claims=True, search_turns=True)

# The `2p` table (guobiao-2p §4.2.2): the fans the value tests meet.
QIDUI, QINGYISE, ZIMO, YIBANGAO, YAOJIUKE = 24, 10, 4, 2, 2


class FakeClock:
    """A clock that moves ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        value = self.now
        self.now += self.step
        self.readings += 1
        return value


def expert(*, seed: int = 3, budget_ms: float = 150.0, knobs: Knobs = SEARCHING) -> ExpertBot:
    bot = ExpertBot(seed=seed, budget_ms=budget_ms, knobs=knobs)
    bot.bind(RULES)
    bot.clock = FakeClock(0.0)  # never out of time: the sample count decides
    bot.samples = 2
    bot.searcher(_any_observation()).min_samples = 1
    return bot


def _any_observation() -> Observation:
    state = State.new(RULES, seed=1)
    return state.observe(state.actor)


def decisions(family: str, seed: int) -> Iterator[tuple[State, Observation]]:
    """The decisions with a choice of one efficiency-vs-efficiency hand."""
    rules = find_family(family)
    state = State.new(rules, seed=seed)
    bots = [find_bot("efficiency", ruleset=rules), find_bot("efficiency", ruleset=rules)]
    while not state.is_terminal:
        seat = state.actor
        obs = state.observe(seat)
        legal = state.legal_actions()
        if len(legal) > 1:
            yield state, obs
        state.apply(bots[seat].choose(obs, legal))


# ---------------------------------------------------------------------- contract
def test_two_states_with_the_same_observation_get_the_same_choice() -> None:
    bot = expert()
    checked = 0
    for state, obs in itertools.islice(decisions("guobiao-2p", 11), 12):
        twin = resample(RULES, obs, random.Random(checked))
        assert twin.hands[obs.opponent] != state.hands[obs.opponent] or twin.wall != state.wall
        seen = twin.observe(obs.player)
        assert dataclasses.replace(seen, event_seq=obs.event_seq) == obs
        assert bot.choose(obs, state.legal_actions()) == bot.choose(seen, twin.legal_actions())
        checked += 1
    assert checked == 12


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen", "arcade"])
def test_every_choice_is_legal(family: str) -> None:
    rules = find_family(family)
    for seed in range(4):
        bot = ExpertBot(seed=seed, budget_ms=150.0, knobs=SEARCHING)
        bot.bind(rules)
        bot.samples = 1
        other = RandomBot(seed=seed) if seed % 2 else EfficiencyBot()
        bots = [bot, other] if seed < 2 else [other, bot]
        state = State.new(rules, seed=seed)
        while not state.is_terminal:
            seat = state.actor
            legal = state.legal_actions()
            choice = (
                bots[seat].pick(legal)
                if bots[seat].blind
                else bots[seat].choose(state.observe(seat), legal)
            )
            assert choice in legal
            state.apply(choice)


def test_the_same_seed_plays_the_same_hand() -> None:
    histories = []
    for _ in range(2):
        bots = [expert(seed=9), expert(seed=9)]
        state = State.new(RULES, seed=21)
        while not state.is_terminal:
            seat = state.actor
            state.apply(bots[seat].choose(state.observe(seat), state.legal_actions()))
        histories.append(list(state.history))
    assert histories[0] == histories[1]


def test_without_a_seed_the_bot_is_still_deterministic() -> None:
    obs = _claim_window().observe(1)
    first = ExpertBot(knobs=SEARCHING)
    second = ExpertBot(knobs=SEARCHING)
    for bot in (first, second):
        bot.clock = FakeClock(0.0)
        bot.samples = 3
    assert first.choose(obs, obs.legal_actions) == second.choose(obs, obs.legal_actions)


def test_a_zero_budget_plays_the_fast_policy_without_searching() -> None:
    bot = expert(budget_ms=0)
    bot._search = None
    for state, obs in itertools.islice(decisions("guobiao-2p", 5), 30):
        legal = state.legal_actions()
        assert bot.choose(obs, legal) == bot.fast_choice(obs, legal)
    assert bot._search is None


def test_the_search_stops_when_the_budget_is_spent() -> None:
    obs = _claim_window().observe(1)
    bot = expert(budget_ms=35)
    bot.samples = 100
    bot.clock = FakeClock(0.010)  # 10 ms per reading: start 0, then 10, 20, 30, 40 ms
    choice = bot.choose(obs, obs.legal_actions)
    report = bot.searcher(obs).last
    assert report.stopped_by_clock
    assert report.samples == 3
    assert bot.clock.readings == 5
    assert choice in obs.legal_actions


def test_a_long_enough_budget_runs_every_sample() -> None:
    obs = _claim_window().observe(1)
    bot = expert()
    bot.samples = 4
    bot.choose(obs, obs.legal_actions)
    report = bot.searcher(obs).last
    assert (report.samples, report.stopped_by_clock) == (4, False)
    assert set(report.means) == {a for a in obs.legal_actions if a.kind in (AK.PASS, AK.PENG)}


# ---------------------------------------------------------------------- value
def _ready_turn() -> State:
    # The dealer holds 11 22 33 55 77 99m 4m E: throwing E waits on 4m for 七对 + 清一色,
    # throwing 4m waits on E for 七对 alone; three unseen copies either way.
    return start(RULES, "1122335577994m1z", "123456m1234567z")


def test_among_ready_discards_the_bigger_hand_is_chosen() -> None:
    state = _ready_turn()
    obs = state.observe(0)
    big = 3 * (0.5 * (QIDUI + QINGYISE + ZIMO) + 0.5 * (QIDUI + QINGYISE))
    small = 3 * (0.5 * (QIDUI + ZIMO) + 0.5 * QIDUI)
    rows = ready_discards(Seen.of(obs), Valuer(RULES), range(34))
    assert [(r.tile, r.waits, r.value) for r in rows] == [
        (Tile.EAST, (3,), big),
        (3, (Tile.EAST,), small),
    ]
    choice = ExpertBot(budget_ms=0).choose(obs, state.legal_actions())
    assert choice.tile == Tile.EAST
    assert EfficiencyBot().choose(obs, state.legal_actions()).tile == 3  # it throws the 4m


def _claim_window() -> State:
    # Seat 1 is ready for 七对 on E (11 22 33 55 77 99m E); the dealer throws a 9m.  Pung 9m
    # and throw E waits on 5m/7m (four unseen copies against three) but for much less.
    state = start(RULES, "9m1234567z123456z", "112233557799m1z")
    state.apply(Action.parse("0:discard:9m"))
    return state


def test_a_claim_that_throws_away_seven_pairs_is_declined() -> None:
    state = _claim_window()
    obs = state.observe(1)
    legal = state.legal_actions()
    assert any(a.kind is AK.PENG for a in legal)
    assert EfficiencyBot().choose(obs, legal).kind is AK.PENG
    keep = 3 * (0.5 * (QIDUI + ZIMO) + 0.5 * QIDUI)
    pung = 4 * (
        0.5 * (YIBANGAO + QINGYISE + YAOJIUKE + ZIMO) + 0.5 * (YIBANGAO + QINGYISE + YAOJIUKE)
    )
    assert pung < keep
    assert ExpertBot(budget_ms=0).choose(obs, legal).kind is AK.PASS


def test_a_claim_that_is_worth_less_than_the_draws_is_declined() -> None:
    # Seat 1 holds 11m 567m 77m EEE WW 白白: one from ready, concealed, and any of its eight
    # unseen pair tiles (1m 7m W 白, two each) makes a concealed ready hand.  Pung the thrown
    # 1m and it is ready at once, but open: 门前清 and 不求人 gone, worth less than three
    # quarters of what a draw leads to.
    state = start(RULES, "1234m2224446677z", "115677m1113355z")
    state.apply(Action.parse("0:discard:1m"))
    obs = state.observe(1)
    legal = state.legal_actions()
    assert EfficiencyBot().choose(obs, legal).kind is AK.PENG
    shanten_rule = Knobs(claim_value_factor=-1.0)
    assert ExpertBot(budget_ms=0, knobs=shanten_rule).choose(obs, legal).kind is AK.PENG
    assert ExpertBot(budget_ms=0).choose(obs, legal).kind is AK.PASS


def _shape_worth(seen: Seen, valuer: Valuer, discard: int) -> float:
    """The draws value of ``discard`` (one from ready) plus, over the draws ``t`` that leave the
    hand one from ready, unseen(t)/pool × what the best discard after ``t`` adds to it."""
    base = discard_values(seen, valuer, range(34))[discard]
    hand, visible = seen.hand, seen.visible
    hand[discard] -= 1
    _, to_ready = improving(hand, shapes=GUOBIAO_2P)
    pool = sum(max(0, 4 - v) for v in visible)
    gain = 0.0
    for t in range(len(hand)):
        left = max(0, 4 - visible[t])
        if not left or t in to_ready or hand[t] == 4:
            continue
        hand[t] += 1
        visible[t] += 1
        gain += left * max(0.0, max(discard_values(seen, valuer, range(34)).values()) - base)
        hand[t] -= 1
        visible[t] -= 1
    hand[discard] += 1
    return base + gain / pool


def test_one_from_ready_the_discard_that_keeps_shape_draws_wins() -> None:
    # The dealer's 111 22 55 8 99m S WW 白 is one from ready.  Throwing a 1m leads to more
    # ready value at once (Σ unseen × best ready value: 702 against 558), but throwing the S
    # keeps the tiles that many draws turn into a better one-from-ready hand, and that look
    # decides (Knobs.one_away_flex).
    state = start(RULES, "1112255899m2335z", "334466778m1467z")
    obs = state.observe(0)
    legal = state.legal_actions()
    seen, valuer = Seen.of(obs), Valuer(RULES)
    one, south = 0, int(Tile.SOUTH)
    now = discard_values(seen, valuer, range(34))
    assert now[one] > now[south]
    assert _shape_worth(seen, valuer, south) > _shape_worth(seen, valuer, one)
    flat = Knobs(one_away_flex=0.0)
    assert ExpertBot(budget_ms=0, knobs=flat).choose(obs, legal).tile == one
    assert ExpertBot(budget_ms=0).choose(obs, legal).tile == south
    # Within 大师's 150 ms of work the look decides; with 1 ms (15 ready-hand evaluations) it
    # is dropped for the plain values, whatever the clock says.
    assert ExpertBot(budget_ms=150.0).choose(obs, legal).tile == south
    short = ExpertBot(budget_ms=1.0)
    short.clock = FakeClock(0.0)
    assert short.choose(obs, legal).tile == one


def test_two_from_ready_a_claim_worth_less_than_half_the_draws_is_declined() -> None:
    # Seat 1 holds 34m 77 88m EE SS W 白 发: two from ready, concealed, four pairs on the way to
    # 七对.  Chi 2m-3m-4m makes it one from ready, but open (七对, 门前清, 不求人 gone): the
    # hand after the chi is worth less than half of what a draw now leads to on average
    # (Knobs.claim_two_away_factor), so the chi is passed.
    state = start(RULES, "1122569m1234567z", "347788m1122356z")
    state.apply(Action.parse("0:discard:2m"))
    obs = state.observe(1)
    legal = state.legal_actions()
    chi = Action.parse("1:chi:234m")
    assert chi in legal
    assert EfficiencyBot().choose(obs, legal) == chi
    assert ExpertBot(budget_ms=0, knobs=Knobs(claim_two_away_factor=-1.0)).choose(obs, legal) == chi
    assert ExpertBot(budget_ms=0).choose(obs, legal).kind is AK.PASS
    # The same comparison from the public pieces: the best draws value after the chi against
    # half the mean, over the draws now, of the best draws value they lead to.
    seen, valuer = Seen.of(obs), Valuer(RULES)
    hand, visible = seen.hand, seen.visible
    shanten, kinds = improving(hand, shapes=GUOBIAO_2P)
    assert shanten == 2
    total, copies = 0.0, 0
    for t in kinds:
        left = max(0, 4 - visible[t])
        hand[t] += 1
        visible[t] += 1
        total += left * max(discard_values(seen, valuer, range(34)).values(), default=0.0)
        copies += left
        hand[t] -= 1
        visible[t] -= 1
    hand[2] -= 1
    hand[3] -= 1
    seen.melds = (Meld(MeldKind.CHI, (Tile(1), Tile(2), Tile(3)), Tile(1)),)
    after = max(discard_values(seen, valuer, range(34)).values())
    assert after < 0.5 * total / copies


def test_knobs_are_read_from_text_with_clear_errors() -> None:
    assert Knobs.parse("") == Knobs()
    assert Knobs.parse(" one_away_flex = 0 ; defence=yes;ting_min_waits=4 ;") == Knobs(
        one_away_flex=0.0, defence=True, ting_min_waits=4
    )
    assert Knobs.parse("claim_mode=never").claim_mode == "never"
    bad = {
        "speed=3": "unknown expert knob 'speed'",
        "defence": "'defence' is not NAME=VALUE",
        "defence=": "'defence=' is not NAME=VALUE",
        "defence=maybe": "defence takes true or false, not 'maybe'",
        "ting_min_waits=4.5": "ting_min_waits takes int, not '4.5'",
        "claim_mode=greedy": "claim_mode takes keep_value, efficiency, never, not 'greedy'",
    }
    for text, message in bad.items():
        with pytest.raises(ValueError, match=message):
            Knobs.parse(text)


# ---------------------------------------------------------------------- opponent model, defence
def _facing_a_ready_opponent() -> Observation:
    for seed in range(50):
        for _state, obs in decisions("guobiao-2p", seed):
            if obs.ting[obs.opponent] and obs.phase is Phase.TURN:
                return obs
    raise AssertionError("no 报听 in 50 hands")


def test_the_readiness_model_makes_a_declared_opponent_ready() -> None:
    obs = _facing_a_ready_opponent()
    d = len(obs.discards[obs.opponent])
    m = len(obs.melds[obs.opponent]) + obs.hidden_kongs[obs.opponent]
    key = public_key(obs)
    assert key == f"{min(d, MAX_DISCARDS)}/{min(m, 4)}/1"
    assert shanten_weights(key)[1:] == (0,) * MAX_SHANTEN
    test = readiness_test(obs, random.Random(0))
    ready = [int(t) for t in parse_tiles("1112345678999m")]
    counts = [ready.count(k) for k in range(34)]
    assert test(counts)
    counts[0] -= 1
    counts[27] += 1  # 112345678999m E: not ready
    assert not test(counts)


def test_self_play_statistics_see_every_declared_hand_ready() -> None:
    table = collect(hands=6, seed=2)
    assert table
    for key, counts in table.items():
        assert len(counts) == MAX_SHANTEN + 1
        if key.endswith("/1"):
            assert counts[1:] == [0] * MAX_SHANTEN


def test_danger_counts_the_waits_of_ready_opponent_hands() -> None:
    obs = _facing_a_ready_opponent()
    risk = danger(RULES, obs, random.Random(4), samples=8)
    assert all(0.0 <= r <= 1.0 for r in risk)
    assert sum(risk) >= 1.0  # every sampled hand waits on at least one kind
    visible = Seen.of(obs).visible
    for kind in range(34):
        if visible[kind] == 4:
            assert risk[kind] == 0.0


def test_a_risky_discard_gives_way_to_a_safe_one_of_the_same_worth() -> None:
    risk = [0.0] * 34
    risk[1], risk[2], risk[3] = 0.5, 0.1, 0.3
    options = {1: 10.0, 2: 6.0, 3: 9.0, 4: 4.0}
    # 2 keeps ≥ half of 10 and has less than half the risk; 3 is too risky, 4 worth too little
    assert safer_discard(1, options, risk, threshold=0.2, keep=0.5) == 2
    assert safer_discard(3, options, risk, threshold=0.2, keep=0.5) == 2
    assert safer_discard(2, options, risk, threshold=0.2, keep=0.5) == 2
    assert safer_discard(1, {1: 10.0, 4: 4.0}, risk, threshold=0.2, keep=0.5) == 1
