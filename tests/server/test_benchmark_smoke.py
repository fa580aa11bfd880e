"""The server benchmark runs end to end with a few tables (no timing is asserted)."""

from __future__ import annotations

import math

import pytest

from benchmarks.bench_server import run


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_few_tables_play_and_are_reported(database: str) -> None:
    report = run(tables=4, seconds=3, database=database, workers=2, think=0.1, ramp=1, warmup=1)
    assert report.tables == 4
    assert report.errors == []
    assert report.sustained == 4
    assert report.moves > 0 and len(report.latencies_ms) > 0
    assert not math.isnan(report.percentile(99))
    assert report.actions >= report.moves  # every move went through the group commit
    text = report.table(database)
    for label in ("latency p50", "latency p99", "moves", "sustained", "errors", "group commit"):
        assert label in text
