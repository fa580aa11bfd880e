"""The toy fourth family (:mod:`erren.testing.toy`), a package of its own that nothing else
names, plays through ``erren play`` and ``erren arena`` when ``ERREN_FAMILIES`` loads it: its
own verb is in the menu by its words, a whole hand settles by the toy's rule (a win on the
called kind pays 2, any other 1), and the arena plays its deals."""

from __future__ import annotations

import os
import re
import subprocess
import sys

PLUGIN = {"ERREN_FAMILIES": "erren.testing.toy.plugin"}


def _erren(*args: str, answers: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-m", "erren.cli.main", *args],
        input=answers,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **PLUGIN, "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_hand_of_the_toy_family_in_the_terminal() -> None:
    # the dealer calls 5m (the toy's own verb, listed as m5 by its words), then: win when
    # offered (h), else discard the first tile (1), pass a claim (x)
    answers = "m5\n" + "h\n1\nx\n" * 200
    out = _erren("play", "--rules", "toy", "--seed", "1", "--ascii", answers=answers)
    assert "  m5   call 5m" in out
    settlement = out[out.index("Hand 1 — settlement") :]
    winning = re.search(r"Winning hand .* \+ (\d[mpsz])", settlement)
    assert winning is not None
    points = 2 if winning.group(1) == "5m" else 1  # the toy's rule, from the called kind
    assert f"Points: {points}" in settlement
    shown = re.search(r"Match score\s+You ([+-]\d+)\s+Computer \(Normal\) ([+-]\d+)", settlement)
    assert shown is not None
    assert sorted(int(v) for v in shown.groups()) == [-points, points]


def test_the_arena_plays_the_toy_family() -> None:
    out = _erren("arena", "--rules", "toy", "--bots", "efficiency,random", "--deals", "10")
    assert out.startswith("toy · 10 deals × 2 games, seats swapped · seed 0")
    per_hand = re.search(r"points/hand\s+([+-][\d.]+)\s+([+-][\d.]+)", out)
    assert per_hand is not None
    a, b = (float(v) for v in per_hand.groups())
    assert a == -b  # every hand pays 1 or 2 from one seat to the other
