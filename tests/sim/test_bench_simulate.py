"""The simulator benchmark runs end to end on a few hands (no timing is asserted)."""

from __future__ import annotations

import pytest

from benchmarks import bench_simulate


def test_benchmark_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_simulate.main(["--hands", "5", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for label in ("random vs random", "efficiency vs random", "hands per second:"):
        assert label in out
