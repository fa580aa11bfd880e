"""The environments' planes are byte for byte those of the pure-Python encoders: the state path
as it was before its shared cells moved to C (kept as ``erren.testing.rl_planes``) and the
observation path (:func:`~erren.rl.planes.encode_observation`), on thousands of seeded
positions of every family: both seats, other dealers, dealer streaks and round winds, 托管 on,
every hand's end."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from erren.engine import Action, State, find_family, observe
from erren.rl import BatchEnv
from erren.rl.actions import NUM_ACTIONS
from erren.rl.encoder import PLANES_SHAPE, LegalMoves, encode_into, encode_state, flat_cells
from erren.rl.planes import GAME_COLUMNS, PLANES, SEAT_COLUMNS, encode_observation
from erren.testing import rl_planes
from erren.tiles import Tile

from ._support import FAMILIES, FAMILY_IDS

HANDS = 40
"""Seeded hands per family (with options): about 1,500 positions, each seen by both seats."""
WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)


def _positions(rules: str, options: dict[str, Any]) -> Iterator[State]:
    """Every decision of ``HANDS`` random hands (seed ``s`` deals with dealer ``s % 2``, streak
    ``s % 5``, round wind ``s % 4``), each hand's end, and at every 7th decision a copy in which
    the seat to act has switched 托管 on (the engine's auto-play then moves on)."""
    ruleset = find_family(rules, options)
    for seed in range(HANDS):
        rng = random.Random(seed)
        state = State.new(
            ruleset, seed=seed, dealer=seed % 2, streak=seed % 5, round_wind=WINDS[seed % 4]
        )
        step = 0
        while not state.is_terminal:
            yield state
            if step % 7 == 3:
                trustee = state.clone()
                trustee.apply_system(Action.parse(f"{trustee.actor}:trustee:on"))
                yield trustee
            state.apply(rng.choice(state.legal_actions()))
            step += 1
        yield state


def _covered(rows: dict[int, set[int]], planes: np.ndarray[Any, np.dtype[np.float32]]) -> None:
    """Record the non-zero cells of ``planes`` by row."""
    for row, col in zip(*np.nonzero(planes), strict=True):
        rows.setdefault(int(row), set()).add(int(col))


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_planes_are_those_of_the_python_encoders(rules: str, options: dict[str, Any]) -> None:
    seen: dict[int, set[int]] = {}
    count = 0
    for state in _positions(rules, options):
        for seat in (0, 1):
            expected = rl_planes.encode_state(state, seat)
            planes = encode_state(state, seat)
            assert planes.dtype == np.float32
            assert planes.shape == PLANES_SHAPE
            assert planes.tobytes() == expected.tobytes(), (state.seed, len(state.history), seat)
            if count % 5 == 0:
                observed = encode_observation(observe(state, seat))
                assert planes.tobytes() == observed.tobytes()
            _covered(seen, planes)
            count += 1
    assert count > 2_000
    # The positions reach every shared plane and every shared seat and game column the
    # family can set (托管, 报听, a dealer streak, each seat as dealer and to act, ...).
    row = {name: i for i, (name, _) in enumerate(PLANES)}
    shared = [
        *(f"hand≥{n}" for n in range(1, 5)),
        "last_drawn",
        "pending",
        *(
            f"{who}.{plane}"
            for who in ("me", "opp")
            for plane in ("chow≥1", "pung", "kong", "last_discard")
        ),
        "me.concealed_kong",
        *(f"{who}.discards≥{n}" for who in ("me", "opp") for n in range(1, 4)),
        "round_wind",
    ]
    for name in shared:
        assert row[name] in seen, name
    assert len(seen[row["round_wind"]]) == len(WINDS)
    for who in ("me", "opp"):
        columns = {SEAT_COLUMNS[c] for c in seen[row[f"{who}.facts"]]}
        assert {
            "concealed tiles / 14",
            "托管 on",
            "is the dealer",
            "is to act",
            "discards / 40",
        } <= columns, who
    opp_facts = {SEAT_COLUMNS[c] for c in seen[row["opp.facts"]]}
    assert "face-down kongs whose kind is hidden / 4" in opp_facts  # his 暗杠, counted
    game = {GAME_COLUMNS[c] for c in seen[row["game"]]}
    assert {"wall tiles left / 144", "dealer streak / 8", "phase turn", "phase end"} <= game


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_planes_written_into_a_stack_are_those_of_the_python_encoder(
    rules: str, options: dict[str, Any]
) -> None:
    size = PLANES_SHAPE[0] * PLANES_SHAPE[1]
    stack = np.full((3, *PLANES_SHAPE), 7.0, dtype=np.float32)
    cells = flat_cells(stack)
    for i, state in enumerate(_positions(rules, options)):
        if i % 3:
            continue
        seat = i % 2
        encode_into(cells, size, state, seat)
        assert stack[1].tobytes() == rl_planes.encode_state(state, seat).tobytes()
    assert (stack[0] == 7.0).all()
    assert (stack[2] == 7.0).all()


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_the_batch_rows_are_those_of_the_python_encoder(
    rules: str, options: dict[str, Any]
) -> None:
    games = BatchEnv(8, rules, copy=False, **options)
    batch = games.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(300):
        for i, state in enumerate(games.states):
            expected = rl_planes.encode_state(state, int(batch.player[i]))
            assert batch.observation[i].tobytes() == expected.tobytes()
        keys = rng.random(batch.action_mask.shape) * batch.action_mask
        batch = games.step(keys.argmax(axis=1))


PLUGIN_CHECK = """
import random
from erren.engine import State, find_family, observe
from erren.rl.encoder import encode_state
from erren.rl.planes import PLANES, encode_observation
from erren.testing import rl_planes
row = [name for name, _ in PLANES].index("toy.called")
called = positions = 0
for rules in ("toy", "guobiao-2p", "xiamen", "arcade"):
    ruleset = find_family(rules)
    for seed in range(6):
        rng = random.Random(seed)
        state = State.new(ruleset, seed=seed)
        while True:
            for seat in (0, 1):
                planes = encode_state(state, seat)
                assert planes.tobytes() == rl_planes.encode_state(state, seat).tobytes()
                assert planes.tobytes() == encode_observation(observe(state, seat)).tobytes()
                called += int(planes[row].sum())
                positions += 1
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
print(positions > 500, called > 0)
"""


def test_a_family_added_later_has_its_planes_written_by_python() -> None:
    """With the toy loaded (``ERREN_FAMILIES``: a layout of version 2, in a process of its
    own), the planes of toy hands and of the built-in families are still those of the
    Python encoders, the toy's own plane included."""
    env = {**os.environ, "ERREN_FAMILIES": "erren.testing.toy.plugin"}
    done = subprocess.run(
        [sys.executable, "-c", PLUGIN_CHECK], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["True", "True"]


def test_the_encoder_refuses_a_buffer_without_room_for_the_planes() -> None:
    state = State.new(find_family("guobiao-2p"), seed=1)
    size = PLANES_SHAPE[0] * PLANES_SHAPE[1]
    stack = np.full((2, *PLANES_SHAPE), 7.0, dtype=np.float32)
    with pytest.raises(ValueError, match="no room"):
        encode_into(flat_cells(stack), size + 1, state, 0)
    with pytest.raises(ValueError, match="no room"):
        encode_into(flat_cells(stack[0, :3]), 0, state, 0)
    assert (stack == 7.0).all()
    marks = np.full(2 * NUM_ACTIONS, 5, dtype=np.int8)
    moves = LegalMoves(state.legal_actions())
    with pytest.raises(ValueError, match="no room"):
        moves.mark(marks.data.cast("B").cast("b"), NUM_ACTIONS + 1)
    assert (marks == 5).all()
