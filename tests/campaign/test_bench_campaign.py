"""The campaign benchmark runs end to end on a few hands (no timing is asserted).  It runs in its
own process, as its README command does (tests never import the benchmarks)."""

from __future__ import annotations

import re
from collections.abc import Callable

HANDS = 4


def test_each_stage_and_human_gets_a_row(run_benchmark: Callable[..., str]) -> None:
    printed = run_benchmark(
        "bench_campaign", "--hands", str(HANDS), "--seed", "3", "--humans", "normal", "master"
    )
    rows = [line for line in printed.splitlines() if re.match(r"\| (normal|master) \|", line)]
    assert [row.split("|")[1:4] for row in rows] == [
        [f" {human} ", f" {stage} ", f" {computer} "]
        for human in ("normal", "master")
        for stage, computer in ((1, "novice"), (2, "normal"), (3, "strong"), (4, "master"))
    ]
    for row in rows:
        cells = [cell.strip() for cell in row.split("|")[1:-1]]
        hands, wins, losses, draws = (int(cells[i]) for i in (3, 4, 5, 6))
        assert hands == HANDS and wins + losses + draws == HANDS
        assert cells[7] == f"**{100 * wins / HANDS:.1f} %**"
        # the bankroll's change per hand at ×1: each win pays ≥ 2 × 50 (1 fan), each computer
        # win takes the stake 100 (R3.4)
        net = float(cells[10].replace(",", "").replace("+", ""))
        assert net >= (100 * wins - 100 * losses) / HANDS
    assert "the human's win rate falls" in printed or "falls by less than 5 points" in printed


def test_the_same_seed_prints_the_same_figures(run_benchmark: Callable[..., str]) -> None:
    args = ("bench_campaign", "--hands", "2", "--seed", "5", "--humans", "normal")
    strip = re.compile(r"\| [\d,]+ s \|$", re.MULTILINE)  # the time column
    first, second = (strip.sub("", run_benchmark(*args)) for _ in range(2))
    assert first == second
