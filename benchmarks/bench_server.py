"""Server load: N concurrent bot-vs-bot tables over real WebSockets against one server process,
or against a cluster of K nodes.

Run ``python -m benchmarks.bench_server --tables 1000 --seconds 60 --database sqlite``, or
``--nodes 2 --redis redis://127.0.0.1:6379/0 --database postgresql`` for a cluster.

The server (``erren serve``: uvicorn, real timers) runs in its own process pinned to one CPU
(``--server-cpu``, default 0); the players run in ``--workers`` client processes pinned to the
other CPUs.  With ``--nodes K`` there are K ``erren serve --redis`` nodes on one fresh
PostgreSQL database and a fresh Redis key prefix, node ``i`` pinned to the ``i``-th CPU from
``--server-cpu`` on (the clients get the CPUs no node has, or every CPU when the nodes took
them all), and table ``i`` is made and played on node ``i mod K`` (an invite is known to the
node that made it).

Each table is a private (score-only) guobiao-2p table joined by invite code; both seats are
lean random players (they read ``state.legal`` from the server's message and send one at
random, no bot observation is rebuilt) that wait ``--think`` seconds (uniform between 0.5× and
1.5×) before each move, the pace of people, and play hand after hand.  The tables open over
``--ramp`` seconds; after ``--warmup`` seconds more (the ramp's 4,000 HTTP requests leave a
backlog) ``--seconds`` of steady play are measured.

Reported for the measured window: action-to-event latency (from sending ``act`` to the first
message back on that socket, which is the server's answer: the numbered events of the move,
written to the database first) p50/p90/p99/max, moves/s, hands finished, the tables sustained
(every table open at the end of the run that never saw an error or a closed socket), errors,
the CPU used by each server node and by the clients (a saturated client core inflates the
latencies), each node's p99, and on PostgreSQL the database's transactions per second
(``pg_stat_database.xact_commit``).  Over the whole run (ramp, warm-up and window) the p99 of
every 5 s is reported, and the warm-up: the time from the first table's opening until the p99
stays settled: every later 5 s has a p99 at most 1.5× the p99 of the window's second half (or
the 50 ms target if that is higher) and at least 90% of its moves per second.

Target (issue 7): ≥ 1,000 concurrent tables with p99 ≤ 50 ms on one core.

``--json`` prints the report as one JSON object (its fields, ``p99_ms`` and the table's text)
for a program to read, as ``tests/server/test_benchmark_smoke.py`` does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.load_nodes import (
    Cluster,
    Node,
    cpu_seconds,
    database,
    health,
    pg_commits,
    redis_prefix,
    start_node,
    stop_node,
)
from benchmarks.load_players import more_files, start_clients

TARGET_MS = 50.0
TARGET = "target: ≥ 1,000 tables with p99 ≤ 50 ms, server on one core"
BUCKET_S = 5.0
"""The p99 over the run is reported per this many seconds."""
SETTLED = 1.5
"""The p99 has settled when every later bucket is at most this × the steady p99."""


# ---------------------------------------------------------------------------- the figures
def _pct(ordered: list[float], p: float) -> float:
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _between(rows: list[dict[str, Any]], start: float, stop: float) -> list[float]:
    """The latencies (ms, sorted) of the moves sent in ``[start, stop)`` s after the ramp began."""
    return sorted(
        latency * 1000
        for row in rows
        for when, latency in zip(row["times"], row["latencies"], strict=True)
        if start <= when < stop
    )


def _slices(rows: list[dict[str, Any]], start: float, seconds: float) -> tuple[float, ...]:
    parts: list[list[float]] = [[] for _ in range(10)]
    for row in rows:
        for when, latency in zip(row["times"], row["latencies"], strict=True):
            if start <= when < start + seconds:
                parts[min(9, int((when - start) / seconds * 10))].append(latency * 1000)
    return tuple(_pct(sorted(part), 99) for part in parts)


def _buckets(rows: list[dict[str, Any]], until: float) -> tuple[tuple[float, int], ...]:
    """(p99 ms, moves) of every ``BUCKET_S`` seconds from the ramp's start to ``until``."""
    count = math.ceil(until / BUCKET_S)
    parts: list[list[float]] = [[] for _ in range(count)]
    for row in rows:
        for when, latency in zip(row["times"], row["latencies"], strict=True):
            if 0 <= when < until:
                parts[min(count - 1, int(when / BUCKET_S))].append(latency * 1000)
    return tuple((_pct(sorted(part), 99), len(part)) for part in parts)


def _warmup(
    buckets: tuple[tuple[float, int], ...], until: float, settled_ms: float, rate: float
) -> float:
    """Seconds from the ramp's start until every later bucket is settled: its p99 ≤
    ``settled_ms`` and its moves at least 90% of the steady ``rate`` (moves/s; every table
    open and playing).  ``nan``: the last bucket is not settled, the run never was."""

    def settled(at: int) -> bool:
        p99, moves = buckets[at]
        length = min(BUCKET_S, until - at * BUCKET_S)
        return moves >= 0.9 * rate * length and p99 <= settled_ms

    at = len(buckets)
    while at > 0 and settled(at - 1):
        at -= 1
    if at == len(buckets):
        return math.nan
    return at * BUCKET_S


def _settling(
    rows: list[dict[str, Any]], start: float, stop: float
) -> tuple[tuple[tuple[float, int], ...], float, float]:
    """The run's 5 s buckets, the settled p99 (ms) and the warm-up (s) it took to get there."""
    half = (stop - start) / 2
    second_half = _between(rows, stop - half, stop)
    steady = _pct(second_half, 99)
    settled_ms = max(TARGET_MS, SETTLED * steady) if not math.isnan(steady) else TARGET_MS
    buckets = _buckets(rows, stop)
    return buckets, settled_ms, _warmup(buckets, stop, settled_ms, len(second_half) / half)


@dataclass(frozen=True, slots=True)
class NodeReport:
    """One server node's share of the window."""

    name: str
    cpu: float
    """Its CPU use (fraction of one core) over the window."""
    pinned: int | None
    tables: int
    sustained: int
    moves: int
    p99_ms: float


@dataclass(frozen=True, slots=True)
class Report:
    tables: int
    sustained: int
    moves: int
    seconds: float
    hands: int
    latencies_ms: list[float]
    errors: list[str]
    server_cpu: float
    """Every node's CPU over the window, added up (fraction of one core)."""
    client_cpu: float
    slices: tuple[float, ...] = ()
    """p99 latency (ms) of each tenth of the window: a tail bunched in one slice is a stall."""
    server_lag: float = math.nan
    """The server loops' longest stall in the window (seconds)."""
    client_lag: float = math.nan
    commits: int = 0
    """Transactions that wrote actions in the window (group commit; 0 if not reported)."""
    actions: int = 0
    nodes: tuple[NodeReport, ...] = ()
    db_tps: float = math.nan
    """The database's committed transactions per second in the window (PostgreSQL)."""
    ramp: float = 0.0
    warmup: float = 0.0
    """The ``--warmup`` asked for: the window begins ``ramp + warmup`` s after the ramp."""
    buckets: tuple[tuple[float, int], ...] = ()
    """(p99 ms, moves) of every 5 s from the ramp's start to the window's end."""
    settled_ms: float = math.nan
    warmup_s: float = math.nan
    """Measured: seconds from the ramp's start until the p99 stayed ≤ ``settled_ms`` and the
    moves per second near the window's."""

    def percentile(self, p: float) -> float:
        return _pct(self.latencies_ms, p)

    def table(self, database: str) -> str:
        lat = self.latencies_ms
        start = self.ramp + self.warmup
        settled = (
            f"{self.warmup_s:.0f} s after the first table opened"
            if not math.isnan(self.warmup_s)
            else "never"
        )
        rows = [
            ("database", database),
            ("tables", f"{self.tables} requested, {self.sustained} sustained"),
            ("moves", f"{self.moves} ({self.moves / self.seconds:.0f}/s), hands {self.hands}"),
            ("latency p50", f"{self.percentile(50):.1f} ms"),
            ("latency p90", f"{self.percentile(90):.1f} ms"),
            ("latency p99", f"{self.percentile(99):.1f} ms"),
            ("latency max", f"{max(lat, default=math.nan):.1f} ms"),
            ("p99 by tenth", " ".join(f"{x:.0f}" for x in self.slices) + " ms"),
            (
                "warm-up",
                f"{settled} (p99 ≤ {self.settled_ms:.0f} ms from then on; ramp {self.ramp:.0f} s,"
                f" window from {start:.0f} s)",
            ),
            ("p99 by 5 s", " ".join(f"{p:.0f}" for p, _ in self.buckets) + " ms"),
            (
                "errors",
                str(len(self.errors)) + (f" (e.g. {self.errors[0]})" if self.errors else ""),
            ),
            ("server CPU", f"{self.server_cpu:.0%} of one core"),
            *(
                (
                    f"node {n.name}",
                    f"CPU {n.cpu:.0%} (pinned to {'any' if n.pinned is None else n.pinned}), "
                    f"{n.sustained}/{n.tables} tables, {n.moves / self.seconds:.0f} moves/s, "
                    f"p99 {n.p99_ms:.1f} ms",
                )
                for n in (self.nodes if len(self.nodes) > 1 else ())
            ),
            (
                "group commit",
                f"{self.commits / self.seconds:.0f} commits/s, "
                f"{self.actions / max(self.commits, 1):.1f} actions per commit",
            ),
            (
                "database TPS",
                "n/a (SQLite)" if math.isnan(self.db_tps) else f"{self.db_tps:.0f} commits/s",
            ),
            ("client CPU", f"{self.client_cpu:.0%} of one core"),
            (
                "longest stall",
                f"server loop {self.server_lag * 1000:.0f} ms, "
                f"client loops {self.client_lag * 1000:.0f} ms",
            ),
        ]
        width = max(len(k) for k, _ in rows)
        lines = [f"{k:<{width}}  {v}" for k, v in rows]
        return "\n".join([*lines, TARGET])


# ---------------------------------------------------------------------------- the run
def _cpus(server_cpu: int | None, nodes: int) -> tuple[list[int | None], list[int]]:
    """Each node's CPU and the clients' CPUs."""
    all_cpus = sorted(os.sched_getaffinity(0))
    if server_cpu is None or server_cpu not in all_cpus:
        return [None] * nodes, all_cpus
    first = all_cpus.index(server_cpu)
    pinned: list[int | None] = [all_cpus[(first + i) % len(all_cpus)] for i in range(nodes)]
    return pinned, [c for c in all_cpus if c not in pinned] or all_cpus


def _start_nodes(
    url_db: str,
    cpus: list[int | None],
    tmp: Path,
    profile: str | None,
    cluster: Cluster | None,
) -> Iterator[Node]:
    """Start one node per CPU of ``cpus`` (one after the other: each migrates the database
    or finds it migrated)."""
    for i, cpu in enumerate(cpus):
        name = f"bench-{i}" if len(cpus) > 1 else "bench"
        own = None if profile is None else profile if len(cpus) == 1 else f"{profile}.{name}"
        yield start_node(
            url_db, cpu=cpu, log=tmp / f"{name}.log", profile=own, cluster=cluster, name=name
        )


def _node_reports(
    nodes: list[Node], rows: list[dict[str, Any]], cpu: list[float], start: float, seconds: float
) -> tuple[NodeReport, ...]:
    out = []
    for i, node in enumerate(nodes):
        mine = [t for t in rows if t["node"] == i]
        latencies = _between(mine, start, start + seconds)
        out.append(
            NodeReport(
                name=node.name,
                cpu=cpu[i],
                pinned=node.cpu,
                tables=len(mine),
                sustained=sum(1 for t in mine if t["alive"] and not t["errors"] and t["times"]),
                moves=len(latencies),
                p99_ms=_pct(latencies, 99),
            )
        )
    return tuple(out)


def run(
    *,
    tables: int,
    seconds: float,
    database: str = "sqlite",
    server_cpu: int | None = 0,
    workers: int | None = None,
    think: float = 1.0,
    ramp: float | None = None,
    warmup: float = 10.0,
    server: str | None = None,
    profile: str | None = None,
    nodes: int = 1,
    redis: str | None = None,
) -> Report:
    """Run the benchmark and return its report (``server``: a running server's URL)."""
    more_files()
    if nodes > 1 and redis is None:
        raise ValueError("--nodes > 1 runs a cluster: give --redis redis://HOST:PORT/DB")
    if redis is not None and database == "sqlite":
        raise ValueError("a cluster's nodes share one PostgreSQL database: --database postgresql")
    node_cpus, client_cpus = _cpus(server_cpu, nodes)
    workers = workers or max(1, min(8, math.ceil(tables / 250)))
    ramp = max(1.0, tables / 50) if ramp is None else ramp
    tmp = Path(tempfile.mkdtemp(prefix="erren-bench-"))
    running: list[Node] = []
    start, stop = ramp + warmup, ramp + warmup + seconds
    with database_and_prefix(database, tmp, redis) as (url_db, cluster):
        try:
            if server is None:
                running.extend(_start_nodes(url_db, node_cpus, tmp, profile, cluster))
                urls = [n.url for n in running]
            else:
                urls = [server.rstrip("/")]
            jobs = [
                {
                    "urls": urls,
                    "first": sum(tables // workers + (j < tables % workers) for j in range(i)),
                    "tables": tables // workers + (i < tables % workers),
                    "think": think,
                    "ramp": ramp,
                    "warmup": warmup,
                    "seconds": seconds,
                    "seed": 1_000_000 * i,
                    "cpus": client_cpus,
                }
                for i in range(workers)
            ]
            procs, queue, t0 = start_clients(jobs)
            cpu0 = cpu1 = [0.0] * len(running)
            health0: list[dict[str, Any]] = [{} for _ in running]
            health1: list[dict[str, Any]] = [{} for _ in running]
            commits0 = commits1 = None
            if running:
                time.sleep(max(0.0, start - (time.time() - t0)))
                cpu0 = [cpu_seconds(n.proc.pid) for n in running]
                commits0 = pg_commits(url_db)
                health0 = [health(n.url) for n in running]
                if profile:
                    for n in running:
                        n.proc.send_signal(signal.SIGUSR2)
                time.sleep(max(0.0, stop - (time.time() - t0)))
                cpu1 = [cpu_seconds(n.proc.pid) for n in running]
                commits1 = pg_commits(url_db)
                health1 = [health(n.url) for n in running]
                if profile:
                    for n in running:
                        n.proc.send_signal(signal.SIGUSR1)
            results = [queue.get() for _ in procs]
            for p in procs:
                p.join()
        finally:
            for n in running:
                stop_node(n)
            shutil.rmtree(tmp, ignore_errors=True)
    rows = [t for r in results for t in r["tables"]]
    window = _between(rows, start, stop)
    buckets, settled_ms, warmup_s = _settling(rows, start, stop)
    node_cpu = [(b - a) / seconds for a, b in zip(cpu0, cpu1, strict=True)]
    return Report(
        tables=tables,
        sustained=sum(1 for t in rows if t["alive"] and not t["errors"] and t["times"]),
        moves=len(window),
        seconds=seconds,
        hands=sum(t["hands"] for t in rows),
        latencies_ms=window,
        slices=_slices(rows, start, seconds),
        errors=[e for t in rows for e in t["errors"]],
        server_cpu=sum(node_cpu) if running else math.nan,
        server_lag=max((h.get("lag_ms", math.nan) for h in health1), default=math.nan) / 1000,
        client_lag=max(r["lag"] for r in results),
        commits=_delta("commits", health0, health1),
        actions=_delta("actions", health0, health1),
        client_cpu=sum(r["cpu"] for r in results) / stop,
        nodes=_node_reports(running, rows, node_cpu, start, seconds),
        db_tps=(commits1 - commits0) / seconds
        if commits0 is not None and commits1 is not None
        else math.nan,
        ramp=ramp,
        warmup=warmup,
        buckets=buckets,
        settled_ms=settled_ms,
        warmup_s=warmup_s,
    )


def _delta(key: str, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> int:
    """How much ``key`` of the nodes' ``/health`` grew over the window, every node's added."""
    return sum(b.get(key, 0) - a.get(key, 0) for a, b in zip(before, after, strict=True))


@contextlib.contextmanager
def database_and_prefix(
    kind: str, tmp: Path, redis: str | None
) -> Iterator[tuple[str, Cluster | None]]:
    """A fresh database and, for a cluster, a fresh Redis key prefix."""
    with database(kind, tmp) as url_db, redis_prefix(redis) as prefix:
        yield url_db, (None if redis is None else Cluster(redis=redis, prefix=prefix))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds of play")
    parser.add_argument("--database", default="sqlite", help="sqlite, postgresql or a URL")
    parser.add_argument(
        "--server-cpu", type=int, default=0, help="the (first) server's CPU (-1: any)"
    )
    parser.add_argument("--workers", type=int, default=None, help="client processes")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per move")
    parser.add_argument("--ramp", type=float, default=None, help="seconds to open all tables")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of play before the window opens"
    )
    parser.add_argument("--server", default=None, help="use a running server at this URL")
    parser.add_argument("--nodes", type=int, default=1, help="cluster nodes (needs --redis)")
    parser.add_argument(
        "--redis", default=None, help="redis://HOST:PORT/DB: run the nodes as a cluster"
    )
    parser.add_argument("--profile", default=None, help="sample the server's stacks → FILE")
    parser.add_argument(
        "--json", action="store_true", help="print the report as one JSON object, not a table"
    )
    args = parser.parse_args(argv)
    if args.nodes < 1 or (args.nodes > 1 and args.server is not None):
        parser.error("--nodes is 1 or more, and starts its own nodes (no --server)")
    try:
        report = run(
            tables=args.tables,
            seconds=args.seconds,
            database=args.database,
            server_cpu=None if args.server_cpu < 0 else args.server_cpu,
            workers=args.workers,
            think=args.think,
            ramp=args.ramp,
            warmup=args.warmup,
            server=args.server,
            profile=args.profile,
            nodes=args.nodes,
            redis=args.redis,
        )
    except ValueError as err:
        parser.error(str(err))
    label = args.database if args.server is None else args.server
    if args.nodes > 1:
        label += f", {args.nodes} nodes"
    if args.json:
        fields = asdict(report)
        print(json.dumps({**fields, "p99_ms": report.percentile(99), "table": report.table(label)}))
    else:
        print(report.table(label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
