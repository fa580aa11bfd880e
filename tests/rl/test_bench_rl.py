"""The RL benchmark runs end to end on a few hands (no timing is asserted), in its own process
as ``make bench`` runs it (tests never import it)."""

from __future__ import annotations

from collections.abc import Callable


def test_benchmark_prints_a_row_per_family(run_benchmark: Callable[..., str]) -> None:
    out = run_benchmark(
        "bench_rl", "--hands", "2", "--repeat", "1", "--batch", "4", "--clock", "cpu"
    )
    lines = out.splitlines()
    assert lines[0].split() == [
        "family",
        "engine",
        "hands/s",
        "engine",
        "steps/s",
        "env",
        "hands/s",
        "env",
        "steps/s",
        "env/engine",
        "batch",
        "steps/s",
        "batch/engine",
        "gym",
        "steps/s",
    ]
    assert [line.split()[0] for line in lines[2:5]] == ["guobiao-2p", "xiamen", "arcade"]
    assert (
        lines[5]
        == "(2 random hands per family, seeds 0..1, median of 1 runs; steps are decisions; "
        "batch of 4 games; cpu clock)"
    )
