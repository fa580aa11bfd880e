"""The benchmark runs end to end on a few hands and prints its table (no timing is asserted)."""

from __future__ import annotations

import pytest

from benchmarks import bench_analysis


def test_benchmark_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_analysis.main(["--hands", "6", "--repeat", "1", "--slow-hands", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("op "))
    for column in ("wall", "erren µs", "mahjong", "pymahjonggb", "cmajiang"):
        assert column in header
    for op in ("shanten regular", "shanten riichi", "shanten gb", "win", "waits", "discard table"):
        assert sum(line.startswith(op) for line in lines) == 2, op  # one row per wall
    assert any(line.startswith("kernel:") for line in lines)
