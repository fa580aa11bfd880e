"""The simulator benchmark runs end to end on a few hands (no timing is asserted).  It runs in its
own process, as ``make bench`` runs it (tests never import it)."""

from __future__ import annotations

from collections.abc import Callable


def test_benchmark_prints_a_table(run_benchmark: Callable[..., str]) -> None:
    out = run_benchmark("bench_simulate", "--hands", "5", "--repeat", "1")
    for label in ("random vs random", "efficiency vs random", "hands per second:"):
        assert label in out
