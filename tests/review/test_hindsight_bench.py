"""``benchmarks/bench_hindsight.py`` runs, in its own process, on one hand per family at a small
budget; it prints one row per family (the figures themselves are the benchmark's, never
asserted here)."""

from __future__ import annotations

from collections.abc import Callable


def test_the_hindsight_benchmark_prints_a_row_per_family(
    run_benchmark: Callable[..., str],
) -> None:
    out = run_benchmark("bench_hindsight", "--hands", "1", "--budget", "200")
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| family",
        "| guobiao-2p",
        "| xiamen",
        "| arcade",
    ]
    assert all(row.split(" | ")[1] == "2" for row in rows[1:])  # both seats of the one hand
