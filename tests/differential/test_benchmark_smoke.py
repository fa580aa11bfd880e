"""The analysis benchmark runs end to end on a few hands and prints its table (no timing is
asserted).  It runs in its own process, as ``make bench`` runs it (tests never import it)."""

from __future__ import annotations

from collections.abc import Callable


def test_benchmark_prints_a_table(run_benchmark: Callable[..., str]) -> None:
    out = run_benchmark("bench_analysis", "--hands", "6", "--repeat", "1", "--slow-hands", "2")
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("op "))
    for column in ("wall", "erren µs", "mahjong", "pymahjonggb", "cmajiang"):
        assert column in header
    for op in ("shanten regular", "shanten riichi", "shanten gb", "win", "waits", "discard table"):
        assert sum(line.startswith(op) for line in lines) == 2, op  # one row per wall
    assert any(line.startswith("kernel:") for line in lines)
    # an installed erren maps the tables its build wrote (tests/analysis/test_kernel_tables.py)
    assert any(
        line.startswith("kernel: uncapped tables mapped with the others in") for line in lines
    )
    assert sum(" readings " in line for line in lines) == 5  # the hands with many wilds
