"""The servers under ``bench_server``: a fresh database, ``erren serve`` processes (one, or a
cluster of nodes sharing PostgreSQL and Redis), their CPU, ``/health`` and the database's
committed transactions."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    import socket  # noqa: PLC0415

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def database(kind: str, tmp: Path) -> Iterator[str]:
    """``sqlite`` (a fresh file), ``postgresql`` (a fresh database on ``ERREN_TEST_PG``'s
    server, dropped afterwards) or a URL used as is."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'bench.sqlite3'}"
        return
    if kind != "postgresql":
        yield kind
        return
    from erren.testing.servers import drop_pg_database, new_pg_database  # noqa: PLC0415

    url = new_pg_database("erren_bench")
    try:
        yield url
    finally:
        drop_pg_database(url)


def pg_commits(url: str) -> int | None:
    """The database's committed transactions so far (``pg_stat_database.xact_commit``, every
    client's, flushed to the statistics about once a second); ``None`` for SQLite."""
    if not url.startswith("postgresql"):
        return None
    import psycopg  # noqa: PLC0415

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        row = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return None if row is None else int(row[0])


@contextlib.contextmanager
def redis_prefix(url: str | None) -> Iterator[str]:
    """A fresh key prefix for one cluster's Redis keys, deleted afterwards."""
    prefix = f"erren-bench-{uuid.uuid4().hex[:8]}:"
    try:
        yield prefix
    finally:
        if url is not None:
            import redis  # noqa: PLC0415

            client = redis.Redis.from_url(url)
            with contextlib.suppress(redis.RedisError):
                keys = list(client.scan_iter(prefix + "*", count=1000))
                for at in range(0, len(keys), 500):
                    client.delete(*keys[at : at + 500])
            client.close()


def health(url: str) -> dict[str, Any]:
    with contextlib.suppress(httpx.HTTPError, ValueError):
        return dict(httpx.get(url + "/health", timeout=10).json())
    return {}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


PROFILED = """
import collections, gc, signal, sys, time
from erren.cli.main import main
own, total, samples = collections.Counter(), collections.Counter(), [0]
pauses, began = collections.defaultdict(list), [0.0]
def collected(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    else:
        pauses[info["generation"]].append(time.perf_counter() - began[0])
gc.callbacks.append(collected)
def where(code):
    return f"{{code.co_filename}}:{{code.co_firstlineno}}({{code.co_name}})"
def sample(_signum, frame):
    samples[0] += 1
    if frame is None:
        return
    own[where(frame.f_code)] += 1
    seen = set()
    while frame is not None:
        key = where(frame.f_code)
        if key not in seen:
            seen.add(key)
            total[key] += 1
        frame = frame.f_back
def dump(*_):
    signal.setitimer(signal.ITIMER_PROF, 0)
    with open({out!r}, "w") as out:
        print(f"{{samples[0]}} samples of 1 ms CPU", file=out)
        for gen, times in sorted(pauses.items()):
            print(f"gc generation {{gen}}: {{len(times)}} pauses, max {{max(times) * 1000:.1f}} ms,"
                  f" total {{sum(times):.2f}} s", file=out)
        for title, counts in (("self", own), ("inclusive", total)):
            print(f"--- {{title}}", file=out)
            for key, n in counts.most_common(60):
                print(f"{{n / samples[0]:6.1%}}  {{key}}", file=out)
def reset(*_):
    own.clear(), total.clear(), pauses.clear()
    samples[0] = 0
signal.signal(signal.SIGUSR2, reset)
signal.signal(signal.SIGPROF, sample)
signal.signal(signal.SIGUSR1, dump)
signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)
sys.exit(main(sys.argv[1:]))
"""
"""The server under a sampling profiler (``--profile FILE``): every millisecond of CPU the
current Python stack is counted; the top functions (self and inclusive) are written to FILE on
SIGUSR1, at the end of the measured window."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """How the nodes of a cluster meet: the Redis URL and this run's key prefix."""

    redis: str
    prefix: str


@dataclass(frozen=True, slots=True)
class Node:
    """A running ``erren serve``."""

    proc: subprocess.Popen[bytes]
    url: str
    name: str
    cpu: int | None


def start_node(
    database_url: str,
    *,
    cpu: int | None,
    log: Path,
    profile: str | None,
    cluster: Cluster | None = None,
    name: str = "bench",
) -> Node:
    """Start ``erren serve`` pinned to ``cpu`` (``None``: any) and wait until it answers;
    with ``cluster``, as the cluster node ``name``."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable]
    cmd += ["-c", PROFILED.format(out=str(profile))] if profile else ["-m", "erren.cli.main"]
    cmd += ["serve", "--port", str(port), "--database", database_url, "--rate", "100"]
    cmd += ["--claim-pause", "0"]  # 鸣牌保护's pause is a rule's wait, not the server's latency
    cmd += ["--node-id", name]
    # thousands of guests and sockets from 127.0.0.1: no per-address bound
    cmd += ["--guest-limit", "0", "--sockets-per-address", "0"]
    cmd += ["--unauthenticated-per-address", "0"]
    if cluster is not None:
        cmd += ["--redis", cluster.redis, "--redis-prefix", cluster.prefix]

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=pin)  # noqa: PLW1509
    for _ in range(1200):
        if proc.poll() is not None:
            raise RuntimeError(f"the server died at startup:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                break
        time.sleep(0.1)
    return Node(proc=proc, url=url, name=name, cpu=cpu)


def stop_node(node: Node) -> None:
    node.proc.terminate()
    try:
        node.proc.wait(30)
    except subprocess.TimeoutExpired:
        node.proc.kill()
        node.proc.wait()
