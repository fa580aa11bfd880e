"""The expert's arcade play (erren.families.arcade.bot.expert): legal, deterministic, from the
observation only, and valued by the table's real payment (arcade §4, R2.25)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from erren.bots.efficiency import EfficiencyBot
from erren.bots.expert import ExpertBot
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.phases import Phase
from erren.engine.resample import resample
from erren.families.arcade.bot.exchange import exchange_plan, loose_tiles
from erren.families.arcade.bot.expert import ArcadeKnobs, configure
from erren.families.arcade.bot.value import ArcadeValuer, ReadyHand
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.hand import Hand
from erren.tiles import Tile

from ._support import arcade_observation

AK = ActionKind
WILD = Tile(17)
"""9p, the wild kind of the hand-built observations (by default all three wild tiles lie in
the opponent's discards, so no wild can be drawn and only natural waits count)."""


def _tiles(text: str) -> tuple[Tile, ...]:
    return Hand.parse(text, check_size=False).concealed


def _observation(
    hand: str, *, seen: str = "", phase: str = "turn", wild: Tile = WILD, wilds_seen: int = 3
) -> Observation:
    """The dealer's first-turn observation with ``hand`` (no melds, no flowers), the wild kind
    ``wild`` with ``wilds_seen`` wild tiles and the tiles ``seen`` in the opponent's discards."""
    river = (wild,) * wilds_seen + (_tiles(seen) if seen else ())
    return arcade_observation(hand, river=river, phase=phase, wild=wild, flower=Tile(31))


def _counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for t in _tiles(text):
        c[t] += 1
    return tuple(c)


# ---------------------------------------------------------------- exact values


def test_ready_value_is_unseen_copies_times_the_mean_payment() -> None:
    """111z222z333z5567m waits on 5m and 8m: 55m + 567m or 55m + 678m, each 门清 1 + 三暗刻 2
    + 混一色 3 = 6 on a discard, + 门清自摸 1 = 7 self-drawn: mean 6.5.  Unseen: 5m 4 − 2 = 2,
    8m 4 − 1 (one in a river) = 3; no wild left.  Value 5 × 6.5 = 32.5."""
    valuer = ArcadeValuer(17)
    unseen = [4] * 34
    unseen[4] = 2  # 5m
    unseen[7] = 3  # 8m
    unseen[17] = 0  # no wild left
    value, outs = valuer.ready_value(ReadyHand(_counts("111z222z333z5567m"), 0, (), 0), unseen)
    assert (value, outs) == (5 * (0.5 * 6 + 0.5 * 7), 5)
    # 111z222z333z4z567m waits on 4z alone: 小四喜 (L4), a yakuman: 13 either way, 3 unseen
    unseen[30] = 3
    value, outs = valuer.ready_value(ReadyHand(_counts("111z222z333z4z567m"), 0, (), 0), unseen)
    assert (value, outs) == (3 * 13.0, 3)


def test_a_concealed_baoting_adds_one_fan_per_win() -> None:
    """门清报听 (N3) is 1 more fan on every win of 111z222z333z5567m: 7 and 8."""
    from erren.families.arcade.scoring import Baoting  # noqa: PLC0415

    valuer = ArcadeValuer(17)
    hand = ReadyHand(_counts("111z222z333z5567m"), 0, (), 0)
    assert valuer.pay(hand, 7, self_drawn=False, baoting=Baoting.MENQING) == 6 + 1
    assert valuer.pay(hand, 7, self_drawn=True, baoting=Baoting.MENQING) == 7 + 1
    assert valuer.pay(hand, 8, self_drawn=True) == 0  # 9m does not complete it


def test_expert_discards_for_the_bigger_payment_not_the_most_waits() -> None:
    """111z222z333z4z5567m (an 8m in the river, no wild left): throwing 4z leaves 5 winning
    tiles worth 6.5 on average (32.5, the test above); throwing 5m leaves a 4z single wait
    for 小四喜, 3 tiles × 13 = 39.  The efficiency bot throws 4z (more waits), the expert 5m,
    without 报听 (its default)."""
    obs = _observation("111z222z333z4z5567m", seen="8m")
    legal = [Action.make(AK.DISCARD, obs.player, t) for t in sorted(set(obs.hand))]
    legal += [Action.make(AK.TING, obs.player, t) for t in (Tile(30), Tile(4))]
    assert ExpertBot(seed=1).choose(obs, legal) == Action.make(AK.DISCARD, obs.player, Tile(4))
    assert EfficiencyBot(seed=1).choose(obs, legal).tile == Tile(30)


def test_declaring_when_concealed_values_the_waits_with_menqing_baoting() -> None:
    """With ``ting="concealed"`` the same hand declares 报听 with 5m: 门清报听 makes 4z's
    小四喜 no richer (13, a yakuman), 3 × 13 = 39, and 4z's waits 5 × (7 + 8) / 2 = 37.5."""
    obs = _observation("111z222z333z4z5567m", seen="8m")
    legal = [Action.make(AK.DISCARD, obs.player, t) for t in sorted(set(obs.hand))]
    legal += [Action.make(AK.TING, obs.player, t) for t in (Tile(30), Tile(4))]
    bot = ExpertBot(seed=1)
    configure(bot, ArcadeKnobs(ting="concealed"))
    assert bot.choose(obs, legal) == Action.make(AK.TING, obs.player, Tile(4))


def test_pick_any_weighs_the_payment_by_the_chance_a_copy_is_left() -> None:
    """Ready 111z222z333z4z567m, 2 wilds seen (1 unseen), 4z: 3 unseen.  Both pay 13
    self-drawn; the chance that every unseen copy sits in the opponent's 13 concealed tiles is
    13/U for the wild and 13·12·11/(U(U−1)(U−2)) for 4z, so 4z is named; the efficiency bot
    names the wild."""
    obs = _observation("111z222z333z4z567m", phase="pick", wilds_seen=2)
    legal = [Action.make(ArcadeVerb.PICK, obs.player, t) for t in (Tile(17), Tile(30), Tile(0))]
    legal.append(Action.make(AK.PASS, obs.player))
    assert ExpertBot(seed=1).choose(obs, legal) == Action.make(
        ArcadeVerb.PICK, obs.player, Tile(30)
    )
    assert EfficiencyBot(seed=1).choose(obs, legal).tile == Tile(17)


def test_pick_any_names_the_wild_when_it_is_as_likely_and_pays_as_much() -> None:
    """Ready 111z222z333z5567m, no wild seen (3 unseen), 8m: two in the river (2 unseen), 5m:
    2 unseen.  Every completion pays 7 self-drawn (the wild plays 5m or 8m); the wild is the
    likeliest to be left (3 copies), so it is named."""
    obs = _observation("111z222z333z5567m", phase="pick", seen="8m8m", wilds_seen=0)
    legal = [Action.make(ArcadeVerb.PICK, obs.player, t) for t in (Tile(4), Tile(7), Tile(17))]
    legal.append(Action.make(AK.PASS, obs.player))
    assert ExpertBot(seed=1).choose(obs, legal) == Action.make(
        ArcadeVerb.PICK, obs.player, Tile(17)
    )


def test_loose_tiles_are_singles_with_fewest_neighbours_honors_first() -> None:
    # 1m (neighbour 3m), 3m (1m), 9m (none), 5p (none), 7z (none); pairs are never loose
    c = list(_counts("13m9m5p77z7z"))
    c[33] = 1
    c[32] = 0
    assert loose_tiles(c) == [33, 8, 13, 0, 2]


def test_exchange_keeps_a_ready_hand() -> None:
    """A ready hand gives nothing: no swap can lower its shanten below 0 on average."""
    c = list(_counts("111z222z333z5567m"))
    unseen = [4 - x for x in c]
    assert exchange_plan(c, 0, unseen, 17, random.Random(1)) == []


# ---------------------------------------------------------------- over random play


UNHURRIED = 60_000.0
"""A budget no search reaches: choices cut short by the clock would depend on the machine."""


def _play(seed: int, budget_ms: float = UNHURRIED) -> tuple[list[Action], set[str]]:
    rules = find_family("arcade", pung_offer_prob=0.5, pick_any_prob=0.5)
    state = State.new(rules, seed=seed)
    bots = [ExpertBot(seed=seed, budget_ms=budget_ms) for _ in range(2)]
    for bot in bots:
        bot.bind(rules)
    actions: list[Action] = []
    phases: set[str] = set()
    while not state.is_terminal:
        seat = state.actor
        legal = state.legal_actions()
        obs = state.observe(seat)
        action = bots[seat].choose(obs, legal)
        assert action in legal, (obs.phase, action, legal)
        phases.add(obs.phase)
        if obs.phase is Phase.TURN and obs.view.offer is not None:
            phases.add("offer")
        actions.append(action)
        state.apply(action)
    return actions, phases


def test_always_legal_over_random_hands_with_every_event() -> None:
    seen: set[str] = set()
    for seed in range(12):
        _, phases = _play(seed)
        seen |= phases
    assert {"exchange", "pick", "offer", "turn", "claim"} <= seen


def test_haidi_draw_that_completes_the_hand_is_won() -> None:
    """In the post-draw 海底捞月 phase (R2.19) the only choice is to win or pass: it wins."""
    obs = _observation("111z222z333z5567m8m", phase="haidi")
    legal = [Action.make(AK.ZIMO, obs.player), Action.make(AK.PASS, obs.player)]
    assert ExpertBot(seed=1).choose(obs, legal) == legal[0]


def test_deterministic_for_a_seed() -> None:
    assert _play(3)[0] == _play(3)[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_decides_from_the_observation_only(seed: int) -> None:
    """Two full states drawn at random behind one observation get the same choice."""
    rules = find_family("arcade", pung_offer_prob=0.5, pick_any_prob=0.5)
    state = State.new(rules, seed=seed)
    bots = [ExpertBot(seed=seed, budget_ms=UNHURRIED) for _ in range(2)]
    rng = random.Random(seed)
    checked = 0
    while not state.is_terminal:
        seat = state.actor
        obs = state.observe(seat)
        legal = state.legal_actions()
        action = bots[seat].choose(obs, legal)
        if len(legal) > 1 and checked < 40:
            twin = resample(rules, obs, rng)
            twin_obs = twin.observe(seat)
            twin_bot = ExpertBot(seed=seed, budget_ms=UNHURRIED)
            assert twin_bot.choose(twin_obs, twin.legal_actions()) == action
            checked += 1
        state.apply(action)
    assert checked > 0


def test_a_concealed_hand_passes_a_chi_that_a_draw_would_match() -> None:
    """234m567m23p78s99s1z and the opponent's 1p: the chi makes it ready at once (throw 1z,
    wait 6s/9s), but an open hand loses 门清 1, 门清自摸 1 and 门清报听 1 on every win, while
    the same tile drawn gives the same waits concealed.  The expert passes; the efficiency bot
    chis (it lowers the shanten)."""
    obs = dataclasses.replace(
        _observation("234m567m23p78s99s1z", phase="claim"), pending=Tile(9), last_drawn=None
    )
    chi = Action.make(AK.CHI, obs.player, Tile(9))
    legal = [chi, Action.make(AK.PASS, obs.player)]
    assert EfficiencyBot(seed=1).choose(obs, legal) == chi
    assert ExpertBot(seed=1).choose(obs, legal) == legal[1]
