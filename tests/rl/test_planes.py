"""The observation planes: built from the player's observation alone (the opponent's concealed
tiles and the wall never show), their values as docs/rl.md describes them."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erren.engine import Action, Observation, State, find_family, observe
from erren.engine.resample import resample
from erren.melds import MeldKind
from erren.rl.planes import GAME_COLUMNS, NUM_PLANES, PLANES, SEAT_COLUMNS, encode_observation

from ._support import FAMILIES, FAMILY_IDS, random_hands

ROW = {name: i for i, (name, _) in enumerate(PLANES)}
PUBLIC = [
    *(f"chow≥{n}" for n in range(1, 5)),
    "pung",
    "kong",
    *(f"discards≥{n}" for n in range(1, 5)),
    "last_discard",
    "flowers",
]
"""The per-seat planes every player sees alike."""


def test_the_layout_has_44_planes_of_34_columns() -> None:
    # hand 4 + drawn + pending, 14 per seat, round wind, game, gold, wild, flower kind, offer,
    # giving 4.
    assert NUM_PLANES == 6 + 2 * 14 + 1 + 1 + 4 + 4 == 44
    assert len(ROW) == NUM_PLANES
    assert len(SEAT_COLUMNS) <= 34
    assert len(GAME_COLUMNS) <= 34


def _thermometer(tiles: list[int]) -> np.ndarray[Any, np.dtype[np.float32]]:
    counts = Counter(tiles)
    return np.array(
        [[1.0 if counts[k] >= n else 0.0 for k in range(34)] for n in range(1, 5)],
        dtype=np.float32,
    )


def _check_values(obs: Observation) -> None:
    planes = encode_observation(obs)
    assert planes.shape == (44, 34)
    assert planes.dtype == np.float32
    assert planes.min() >= 0.0
    assert planes.max() <= 1.0
    row = ROW["hand≥1"]
    np.testing.assert_array_equal(planes[row : row + 4], _thermometer([int(t) for t in obs.hand]))
    assert planes[ROW["pending"]].sum() == (obs.pending is not None)
    if obs.pending is not None:
        assert planes[ROW["pending"], obs.pending] == 1.0
    for who, seat in (("me", obs.player), ("opp", obs.opponent)):
        row = ROW[f"{who}.discards≥1"]
        discards = [int(t) for t in obs.discards[seat]]
        np.testing.assert_array_equal(planes[row : row + 4], _thermometer(discards))
        chows = [int(t) for m in obs.melds[seat] if m.kind is MeldKind.CHI for t in m.tiles]
        row = ROW[f"{who}.chow≥1"]
        np.testing.assert_array_equal(planes[row : row + 4], _thermometer(chows))
        pungs = {int(m.first) for m in obs.melds[seat] if m.kind is MeldKind.PENG}
        assert set(np.flatnonzero(planes[ROW[f"{who}.pung"]])) == pungs
        facts = planes[ROW[f"{who}.facts"]]
        assert facts[SEAT_COLUMNS.index("报听 declared")] == obs.ting[seat]
        assert facts[SEAT_COLUMNS.index("is to act")] == (obs.to_act == seat)
        assert facts[SEAT_COLUMNS.index("concealed tiles / 14")] == pytest.approx(
            min(obs.concealed_count[seat] / 14, 1.0)
        )
    # The opponent's face-down kongs never show their kind.
    assert planes[ROW["opp.concealed_kong"]].sum() == 0.0
    game = planes[ROW["game"]]
    assert game[GAME_COLUMNS.index(f"phase {obs.phase}")] == 1.0
    assert game[GAME_COLUMNS.index(f"family {obs.view.family}")] == 1.0
    assert planes[ROW["round_wind"], obs.round_wind] == 1.0


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_planes_hold_what_the_observation_says(rules: str, options: dict[str, Any]) -> None:
    for state in random_hands(rules, options, 8):
        for seat in (0, 1):
            _check_values(observe(state, seat))


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_both_players_see_the_same_public_planes(rules: str, options: dict[str, Any]) -> None:
    for state in random_hands(rules, options, 8):
        zero = encode_observation(observe(state, 0))
        one = encode_observation(observe(state, 1))
        for name in PUBLIC:
            np.testing.assert_array_equal(zero[ROW[f"me.{name}"]], one[ROW[f"opp.{name}"]])
            np.testing.assert_array_equal(zero[ROW[f"opp.{name}"]], one[ROW[f"me.{name}"]])
        for name in ("pending", "round_wind", "xiamen.gold", "arcade.wild", "arcade.flower_kind"):
            np.testing.assert_array_equal(zero[ROW[name]], one[ROW[name]])


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_hidden_tiles_never_change_a_players_planes(rules: str, options: dict[str, Any]) -> None:
    """Redraw what a player cannot see (the opponent's concealed tiles, his face-down kongs, the
    wall: ``erren.engine.resample``) and his planes stay the same."""
    ruleset = find_family(rules, options)
    rng = random.Random(7)
    differs = 0
    for step, state in enumerate(random_hands(rules, options, 20)):
        if step % 2:
            continue
        for seat in (0, 1):
            obs = observe(state, seat)
            twin = resample(ruleset, obs, rng)
            np.testing.assert_array_equal(
                encode_observation(observe(twin, seat)), encode_observation(obs)
            )
            differs += twin.concealed(1 - seat) != state.concealed(1 - seat)
    # The redraws did change the opponent's hand (the check has teeth).
    assert differs > 10


def _position(rules: str, options: dict[str, Any], seed: int, steps: int) -> State:
    """The hand of ``seed`` after ``steps`` random moves, or before the move that ends it."""
    ruleset = find_family(rules, options)
    rng = random.Random(seed)
    moves: list[Action] = []
    state = State.new(ruleset, seed=seed)
    while len(moves) < steps:
        move = rng.choice(state.legal_actions())
        state.apply(move)
        if state.is_terminal:
            state = State.new(ruleset, seed=seed)
            for earlier in moves:
                state.apply(earlier)
            break
        moves.append(move)
    return state


@settings(max_examples=150, deadline=None)
@given(
    family=st.integers(0, len(FAMILIES) - 1),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    actor_sees=st.booleans(),
)
def test_any_position_encodes_the_same_with_other_hidden_tiles(
    family: int, seed: int, steps: int, actor_sees: bool
) -> None:
    rules, options = FAMILIES[family]
    state = _position(rules, options, seed, steps)
    seat = state.actor if actor_sees else 1 - state.actor
    obs = observe(state, seat)
    twin = resample(state.ruleset, obs, random.Random(seed + 1))
    np.testing.assert_array_equal(encode_observation(observe(twin, seat)), encode_observation(obs))
