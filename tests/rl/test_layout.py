"""Layout version 1 is frozen: the shipped learned weights read it.  The planes, their columns,
the action table and the encodings of seeded hands of the built-in families are those recorded
in ``data/layout_v1.json`` (made before the families' ``rl`` parts existed), and a family added
later (the toy, ``version=2``) only appends to them."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from erren.engine import State, find_family, observe
from erren.rl.actions import ACTIONS, action_index, action_mask
from erren.rl.planes import GAME_COLUMNS, LAYOUT_VERSION, PLANES, SEAT_COLUMNS, encode_observation

from ._support import FAMILIES

FROZEN = Path(__file__).with_name("data") / "layout_v1.json"


def snapshot() -> dict[str, Any]:
    """The layout and the digests of the planes and legal indices of 12 seeded random hands of
    each family of :data:`FAMILIES`, both seats, every decision (the planes and the mask cut to
    version 1's size: a family added later appends to them)."""
    out: dict[str, Any] = {
        "planes": [list(p) for p in PLANES],
        "seat_columns": list(SEAT_COLUMNS),
        "game_columns": list(GAME_COLUMNS),
        "actions": [[k.value, None if t is None else int(t)] for k, t in ACTIONS],
        "encodings": {},
    }
    for rules, options in FAMILIES:
        ruleset = find_family(rules, options)
        planes, moves = hashlib.sha256(), hashlib.sha256()
        count = 0
        for seed in range(12):
            rng = random.Random(seed)
            state = State.new(ruleset, seed=seed)
            while not state.is_terminal:
                for seat in (0, 1):
                    rows = encode_observation(observe(state, seat))[: len(FROZEN_LAYOUT["planes"])]
                    planes.update(rows.tobytes())
                legal = state.legal_actions()
                moves.update(json.dumps([action_index(a) for a in legal]).encode())
                moves.update(action_mask(legal)[: len(FROZEN_ACTIONS)].tobytes())
                count += 1
                state.apply(rng.choice(legal))
        digest = {"states": count, "planes": planes.hexdigest(), "moves": moves.hexdigest()}
        out["encodings"][rules + json.dumps(options, sort_keys=True)] = digest
    return out


FROZEN_LAYOUT: dict[str, Any] = json.loads(FROZEN.read_text(encoding="utf-8"))
FROZEN_ACTIONS: list[list[Any]] = FROZEN_LAYOUT["actions"]


def test_the_built_in_families_have_the_frozen_layout_and_encodings() -> None:
    assert LAYOUT_VERSION == 1
    assert snapshot() == FROZEN_LAYOUT


CHECK = """
import json, sys
sys.path.insert(0, {tests!r})
from rl.test_layout import FROZEN_LAYOUT, snapshot
from erren.rl.planes import LAYOUT_VERSION
now = snapshot()
frozen = FROZEN_LAYOUT
for key in ("planes", "seat_columns", "game_columns", "actions"):
    assert now[key][: len(frozen[key])] == frozen[key], key
print(json.dumps({{
    "version": LAYOUT_VERSION,
    "added": {{k: now[k][len(frozen[k]):] for k in ("planes", "seat_columns", "game_columns")}},
    "moves": len(now["actions"]) - len(frozen["actions"]),
    "same_encodings": now["encodings"] == frozen["encodings"],
}}))
"""


def test_a_family_added_later_appends_to_the_frozen_layout() -> None:
    """With the toy loaded (``ERREN_FAMILIES``), the built-in families' rows, columns, indices
    and encodings stay those of version 1; the toy's come after them."""
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "ERREN_FAMILIES": "erren.testing.toy.plugin"}
    done = subprocess.run(
        [sys.executable, "-c", CHECK.format(tests=tests)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert json.loads(done.stdout) == {
        "version": 2,
        "added": {
            "planes": [["toy.called", "toy: the kind the dealer called"]],
            "seat_columns": [],
            "game_columns": ["phase call", "family toy"],
        },
        "moves": 34,
        "same_encodings": True,
    }


def test_a_toy_hand_encodes_with_its_appended_rows() -> None:
    """Every legal move of a toy hand has an index past the built-in ones, and the called kind
    shows on the toy's plane."""
    script = """
import random
from erren.engine import State, find_family, observe
from erren.rl.actions import action_index, action_mask
from erren.rl.planes import PLANES, encode_observation
row = [name for name, _ in PLANES].index("toy.called")
state = State.new(find_family("toy"), seed=3)
rng = random.Random(3)
called = False
while not state.is_terminal:
    legal = state.legal_actions()
    assert action_mask(legal).sum() == len(legal)
    move = rng.choice(legal)
    if move.kind.value == "call":
        assert action_index(move) >= 269
        called = True
    state.apply(move)
    planes = encode_observation(observe(state, 0))
    if called:
        assert planes[row].sum() == 1.0
print("ok")
"""
    env = {**os.environ, "ERREN_FAMILIES": "erren.testing.toy.plugin"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.strip() == "ok"
