"""The server benchmark runs end to end with a few tables (no timing is asserted).  It runs in its
own process, as its README command does (tests never import the benchmarks), and prints its report
as JSON.  The cluster run uses its own Redis key prefix, deleted by the benchmark afterwards."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import pytest

from erren.testing.servers import CLUSTER_LEASE_S

from ._support.redis_ns import REDIS_URL as REDIS


@pytest.mark.services
def test_a_few_tables_play_and_are_reported(run_benchmark: Callable[..., str]) -> None:
    """On SQLite (the cluster run below is the benchmark on PostgreSQL).

    Slow (about 8 s): the benchmark runs in its own process with its own server, for its fixed 5
    s of ramp, warm-up and window."""
    printed = run_benchmark(
        "bench_server",
        *("--tables", "4", "--seconds", "3", "--database", "sqlite", "--workers", "2"),
        *("--think", "0.1", "--ramp", "1", "--warmup", "1", "--json"),
    )
    report: dict[str, Any] = json.loads(printed)
    assert report["tables"] == 4
    assert report["errors"] == []
    assert report["sustained"] == 4
    assert report["moves"] > 0 and len(report["latencies_ms"]) > 0
    assert not math.isnan(report["p99_ms"])
    # every move went through the group commit; the window's edges are read from /health by
    # another process than the players', so a seat's move at either edge may be committed just
    # outside the counted window (a disconnection no longer adds a 托管 action to make up for it)
    assert report["actions"] >= report["moves"] - 2 * report["tables"]
    text = report["table"]
    for label in ("latency p50", "latency p99", "moves", "sustained", "errors", "group commit"):
        assert label in text


@pytest.mark.services
def test_one_failover_is_measured_and_the_hand_finishes(
    run_benchmark: Callable[..., str],
) -> None:
    """``bench_failover`` on one run with a short lease and fast timers: both times are
    measured, the hand finishes on the heir with a verified record equal to the stored actions
    (the benchmark exits 1 otherwise) and the ledger audit passes.

    Slow (about 15 s): the benchmark starts two cluster nodes, kills the owner and waits for the
    heir to take the table over once the 3 s lease lapses."""
    printed = run_benchmark(
        "bench_failover",
        *("--runs", "1", "--lease", f"{CLUSTER_LEASE_S:g}", "--time-scale", "0.1", "--json"),
    )
    report: dict[str, Any] = json.loads(printed)
    (only,) = report["runs"]
    assert only["finished"] is True
    assert 0 < only["rejoin_s"] <= only["next_event_s"]
    for label in ("rejoin s", "next event s", "median"):
        assert label in report["table"]


@pytest.mark.services
def test_a_cluster_of_two_nodes_shares_the_tables(run_benchmark: Callable[..., str]) -> None:
    """Slow (about 10 s): two cluster nodes for the benchmark's fixed 5 s."""
    printed = run_benchmark(
        "bench_server",
        *("--tables", "4", "--seconds", "3", "--database", "postgresql", "--workers", "1"),
        *("--nodes", "2", "--redis", REDIS),
        *("--think", "0.1", "--ramp", "1", "--warmup", "1", "--json"),
    )
    report: dict[str, Any] = json.loads(printed)
    assert report["errors"] == []
    assert report["sustained"] == 4
    assert [(n["name"], n["tables"]) for n in report["nodes"]] == [("bench-0", 2), ("bench-1", 2)]
    assert all(n["moves"] > 0 for n in report["nodes"])
    assert report["db_tps"] > 0
    assert len(report["buckets"]) == 1  # 5 s of ramp, warm-up and window: one 5 s bucket
    for label in ("node bench-0", "node bench-1", "database TPS", "warm-up", "p99 by 5 s"):
        assert label in report["table"]


def test_the_table_cpu_benchmark_measures_actions(run_benchmark: Callable[..., str]) -> None:
    """``bench_table_cpu`` replays a few hands and plays a few tables in one process: each part
    is reported with the actions it measured."""
    printed = run_benchmark(
        "bench_table_cpu",
        *("--tables", "4", "--moves", "150", "--warmup", "30", "--windows", "2", "--replay", "2"),
    )
    assert "replayed: the messages after a move" in printed
    assert printed.count("actions/s (wall)") == 2  # one line per window
    assert "2 windows: process CPU per action median" in printed


def test_the_table_cpu_benchmark_lets_the_table_pass_pass_only_windows(
    run_benchmark: Callable[..., str],
) -> None:
    """With ``--table-passes`` the players leave pass-only claim windows to the table: the
    table's passes are actions the players did not send."""
    printed = run_benchmark(
        "bench_table_cpu",
        *("--tables", "4", "--moves", "150", "--warmup", "30", "--windows", "1", "--replay", "0"),
        "--table-passes",
    )
    found = re.search(r"actions (\d+) \(players sent (\d+)\)", printed)
    assert found is not None
    assert int(found[1]) > int(found[2])


@pytest.mark.services
def test_the_group_commit_benchmark_prints_a_row_per_database_and_batch(
    run_benchmark: Callable[..., str],
) -> None:
    printed = run_benchmark("bench_journal", "--rows", "1", "3", "--commits", "5", "--windows", "1")
    rows = [line.split("|")[1:3] for line in printed.splitlines()[2:]]
    assert [(db.strip(), n.strip()) for db, n in rows] == [
        ("sqlite", "1"), ("sqlite", "3"), ("postgresql", "1"), ("postgresql", "3")
    ]  # fmt: skip


@pytest.mark.services
def test_the_starvation_benchmark_prints_a_row_per_phase(
    run_benchmark: Callable[..., str],
) -> None:
    """``bench_starve`` with two rounds of 1 s phases: its server (real argon2id) starts, the
    player plays against the computer through every phase and the table has a row for each
    kind, its rounds merged, with quiet's own spread between rounds.

    Slow (about 15 s): the server, the accounts, eight phases of 1 s and their drains."""
    printed = run_benchmark(
        "bench_starve", *("--seconds", "1", "--rounds", "2", "--logins", "2", "--replays", "1")
    )
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in printed.splitlines()
        if line.startswith("|")
    ]
    header, rule, *phases = rows
    for label in ("phase", "computer p50 / p90 / p99 / max (ms)", "ping p50 / p99 (ms)"):
        assert label in header
    assert set("".join(rule)) == {"-"}
    assert [row[0] for row in phases] == ["quiet", "logins", "replays", "replays-xff"]
    assert all(len(row) == len(header) for row in phases)
    assert int(phases[0][header.index("answers")]) > 0  # the computer answered in quiet
    assert phases[0][header.index("p50 vs quiet [95 % CI]")].startswith("1.00× [")
