"""Random games through the public API, checking the engine's invariants (issue 3, item 5).

Every registered ruleset, several option sets, thousands of hands: tile conservation after every
action, no hidden information in any observation, legal actions until the end, exact replays.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from erren.engine import (
    Action,
    ActionKind,
    Phase,
    Record,
    ResultKind,
    State,
    family_names,
    find_family,
    replay,
)
from erren.engine.observation import observe
from erren.families.arcade.game.options import ArcadePhase
from erren.families.xiamen.game.data import XiamenPhase, XiamenWinHow
from erren.testing.toy.game import ToyPhase

from ._support import resample_hidden, tile_census

VARIANTS = [
    {},
    {"flowers": True},
    {"suit": "p", "fan_table": "gb"},
    {"suit": "s", "flowers": True, "ting_auto_hu": False},
    {"ting_enabled": False},
    {"claim_privacy": True, "flowers": True, "ting_auto_hu": False},
]


def _check_observation(state: State, rng: random.Random) -> None:
    for viewer in (0, 1):
        seen = observe(state, viewer)
        assert seen.hand == state.concealed(viewer)
        twin = resample_hidden(state, viewer, rng)
        twin_seen = observe(twin, viewer)
        if state.phase is not Phase.END:
            assert seen == twin_seen, "an observation depends on hidden tiles"
        text = repr(seen)
        assert "wall" not in text.replace("wall_count", "")
        for event in state.events_since(viewer):
            if event.private and event.player != viewer:
                assert event.tile is None and not event.tiles


def _play_checked(rules_name: str, options: dict[str, object], seed: int, *, deep: bool) -> None:
    ruleset = find_family(rules_name, options)
    rng = random.Random(seed)
    state = State.new(ruleset, seed=seed)
    expected = Counter(ruleset.tiles)
    steps = 0
    while not state.is_terminal:
        player = state.current_player()
        legal = state.legal_actions()
        assert legal, f"no legal action for seat {player} in {state!r}"
        assert state.legal_actions(1 - player) == []
        assert all(a.player == player for a in legal)
        assert len(set(legal)) == len(legal)
        if deep and steps % 3 == 0:
            _check_observation(state, rng)
        roll = rng.random()
        if roll < 0.03:
            state.apply_system(Action.make(ActionKind.TIMEOUT, player))
        elif roll < 0.05:
            seat = rng.randrange(2)
            state.apply_system(Action.trustee(seat, not state.trustee[seat]))
        else:
            state.apply(rng.choice(legal))
        steps += 1
        assert tile_census(state) == expected
        for p in (0, 1):
            size = sum(state.hands[p]) + 3 * len(state.melds[p])
            assert size in _expected_sizes(state, p), (p, size, state)
    assert state.result is not None
    assert state.legal_actions() == [] and state.legal_actions(0) == []
    if deep:
        _check_observation(state, rng)
    record = state.record()
    again = replay(Record.from_json(record.to_json()))
    assert again.fingerprint() == state.fingerprint()
    result = state.result
    if result.kind is ResultKind.WIN:
        assert result.winner is not None
        if ruleset.name == "guobiao-2p":  # a xiamen win may have 水 0 (chows, no gold)
            assert result.fans, "a finished win carries its fan list"
        assert result.deltas[result.winner] == result.points > 0
        assert sum(result.deltas) == 0


_HOLDS_14 = frozenset(
    {Phase.TURN, XiamenPhase.YOU_CHOICE, XiamenPhase.LAST_DRAW, ArcadePhase.HAIDI}
)


def _expected_sizes(state: State, p: int) -> tuple[int, ...]:
    """13, or 14 for the player deciding with a drawn tile, the dealer before his first discard
    and a winner whose hand has a winning tile (三游 and a non-dealer's 三金倒 have none)."""
    phase = state.phase
    if phase in {XiamenPhase.OPENING, ArcadePhase.EXCHANGE, ToyPhase.CALL}:
        return (14,) if p == state.dealer else (13,)
    result = state.result
    if result is None:
        return (14,) if state.actor == p and phase in _HOLDS_14 else (13,)
    how = result.how
    if result.winner == p:
        if how is XiamenWinHow.SANYOU:
            return (13,)
        if how is XiamenWinHow.SANJINDAO:
            return (14,) if p == state.dealer else (13,)
        return (14,)
    if how in (XiamenWinHow.QIANGJIN, XiamenWinHow.SANJINDAO) and p == state.dealer:
        return (14,)  # the hand ended in the opening window
    if how is XiamenWinHow.SANYOU:
        return (13, 14)  # the single draw was made, or the wall was empty
    return (13,)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_random_games_keep_the_invariants(options: dict[str, object]) -> None:
    """Slow (about 2–3 s for each option set): 400 random games, every step checked."""
    for seed in range(400):
        _play_checked("guobiao-2p", options, seed, deep=seed % 20 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", family_names())
def test_every_registered_ruleset_plays_random_games(name: str) -> None:
    """Slow (about 5–12 s for each family): a thousand random games, every step checked for
    tile conservation and hand sizes, every record replayed."""
    for seed in range(1000):
        _play_checked(name, {}, 10_000 + seed, deep=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [{}, {"cap": 0, "base": 4}, {"claim_privacy": True}],
    ids=["default", "no-cap", "claim-privacy"],
)
def test_xiamen_random_games_hide_information_and_replay(options: dict[str, object]) -> None:
    """xiamen: 72 tiles conserved (the indicator included), observations independent of the
    hidden tiles, exact replays; timeouts and 托管 switches mixed in."""
    for seed in range(300):
        _play_checked("xiamen", options, 20_000 + seed, deep=seed % 3 == 0)


def test_a_plugged_in_family_plays_random_games(toy_family: str) -> None:
    """The toy family of ``conftest.py`` (one suit, no chows, the dealer's call), written only
    against the public plug-in contract, through the same checks."""
    for seed in range(300):
        _play_checked(toy_family, {}, 40_000 + seed, deep=seed % 3 == 0)
    for seed in range(100):
        _play_checked(toy_family, {"claim_privacy": True}, 41_000 + seed, deep=seed % 3 == 0)


ARCADE_VARIANTS = [
    {},
    {"pung_offer_prob": 0.3, "pick_any_prob": 0.3, "haidi_draws": 5},
    {
        "human_seat": 1,
        "opening_exchange": True,
        "pick_any_prob": 0.2,
        "haidi_draws_human": 5,
        "bleed_normal_prob": 0.4,
        "bleed_yakuman_prob": 0.4,
    },
    {"opening_exchange": False, "flower_replacement_is_kong": False, "base_points": 10},
    {"claim_privacy": True, "pung_offer_prob": 0.3, "pick_any_prob": 0.3, "haidi_draws": 5},
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    ARCADE_VARIANTS,
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default",
)
def test_arcade_random_games_hide_information_and_replay(options: dict[str, object]) -> None:
    """arcade: 136 tiles conserved (live wall, indicator, reserve), observations independent
    of the hidden tiles (the reserve included), exact replays with every event; timeouts and
    托管 switches mixed in."""
    for seed in range(150):
        _play_checked("arcade", options, 30_000 + seed, deep=seed % 3 == 0)


def test_records_are_compact_and_round_trip() -> None:
    state = State.new(find_family("guobiao-2p"), seed=5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    text = record.to_json()
    assert Record.from_json(text) == record
    assert all(str(Action.parse(a)) == a for a in record.actions)
    assert len(text) < 4000
