"""Saved playthroughs: every player's observation at every step, diffed against the saved text.

Each game below is played again from its seed and rendered by :func:`erren.sim.transcript`;
the text must equal ``transcripts/<name>.txt``.  After an intended change of the rules, the
observations or the events, regenerate the files and review the diff::

    ERREN_UPDATE_TRANSCRIPTS=1 .venv/bin/python -m pytest tests/engine/test_transcripts.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

import pytest

from erren.bots import find_bot
from erren.engine import find_family
from erren.families.arcade.game import stage_options
from erren.sim import transcript

HERE = Path(__file__).parent / "transcripts"
UPDATE = os.environ.get("ERREN_UPDATE_TRANSCRIPTS") == "1"

GAMES: list[tuple[str, str, dict[str, Any], tuple[str, str], int, int]] = [
    # name, ruleset, ruleset options, bots (seat 0, seat 1), seed, dealer
    ("random-seed1", "guobiao-2p", {}, ("random", "random"), 1, 0),
    ("xiamen-efficiency-seed10", "xiamen", {}, ("efficiency", "efficiency"), 10, 0),
    ("xiamen-random-seed7", "xiamen", {}, ("efficiency", "random"), 7, 1),
    ("efficiency-vs-random-seed2", "guobiao-2p", {}, ("efficiency", "random"), 2, 1),
    (
        "efficiency-flowers-seed3",
        "guobiao-2p",
        {"flowers": True},
        ("efficiency", "efficiency"),
        3,
        0,
    ),
    (
        "gb-table-suit-p-seed4",
        "guobiao-2p",
        {"fan_table": "gb", "suit": "p"},
        ("random", "efficiency"),
        4,
        0,
    ),
    ("ting-asks-seed5", "guobiao-2p", {"ting_auto_hu": False}, ("efficiency", "efficiency"), 5, 1),
    # arcade versus mode with the events made frequent: exchange, pick-any, the pung offer,
    # flowers, 报听 and a 杠上开花 self-draw
    (
        "arcade-versus-events-seed3",
        "arcade",
        {"pung_offer_prob": 0.3, "pick_any_prob": 0.3},
        ("efficiency", "efficiency"),
        3,
        1,
    ),
    # arcade stage 4 (human_seat 0): a big-bleed 清一色 deal, the human's exchange and pick-any
    ("arcade-stage4-bleed-seed25", "arcade", stage_options(4), ("efficiency", "efficiency"), 25, 1),
]


def _render(
    rules: str, options: dict[str, Any], bots: tuple[str, str], seed: int, dealer: int
) -> str:
    players = [find_bot(bots[0], seed=seed), find_bot(bots[1], seed=seed + 1)]
    return transcript(
        find_family(rules, **options),
        players,
        seed=seed,
        dealer=dealer,
        title="playthrough",
    )


@pytest.mark.parametrize("game", GAMES, ids=[g[0] for g in GAMES])
def test_transcript(game: tuple[str, str, dict[str, Any], tuple[str, str], int, int]) -> None:
    name, rules, options, bots, seed, dealer = game
    text = _render(rules, options, bots, seed, dealer)
    path = HERE / f"{name}.txt"
    if UPDATE:
        HERE.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run with ERREN_UPDATE_TRANSCRIPTS=1"
    saved = path.read_text(encoding="utf-8")
    if text != saved:
        diff = difflib.unified_diff(
            saved.splitlines(), text.splitlines(), "saved", "now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:80])
        pytest.fail(
            f"{name}: the playthrough changed (ERREN_UPDATE_TRANSCRIPTS=1 to accept)\n{shown}"
        )


def test_transcripts_hide_the_opponents_tiles() -> None:
    text = _render("guobiao-2p", {}, ("random", "random"), 1, 0)
    for block in text.split("-- seat ")[1:]:
        viewer = int(block[0])
        for line in block.splitlines():
            if "event #" in line and " deal " in line:
                # a deal event shows tiles only to the receiver
                owner = int(line.split("seat ")[1][0])
                assert (owner == viewer) == line.rstrip().endswith(("m", "z", "p", "s", "f"))


def test_every_game_reaches_an_end() -> None:
    for _name, rules, options, bots, seed, dealer in GAMES:
        assert "result=" in _render(rules, options, bots, seed, dealer)
