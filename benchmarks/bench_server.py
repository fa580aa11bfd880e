"""Server load: N concurrent bot-vs-bot tables over real WebSockets against one server process.

Run ``python -m benchmarks.bench_server --tables 1000 --seconds 60 --database sqlite``.

The server (``erren serve``: uvicorn, real timers) runs in its own process pinned to one CPU
(``--server-cpu``, default 0); the players run in ``--workers`` client processes pinned to the
other CPUs.  Each table is a private (score-only) guobiao-2p table joined by invite code; both
seats are lean random players (they read ``state.legal`` from the server's message and send one
at random, no bot observation is rebuilt) that wait ``--think`` seconds (uniform between 0.5×
and 1.5×) before each move, the pace of people, and play hand after hand.  The tables open over
``--ramp`` seconds; after ``--warmup`` seconds more (the ramp's 4,000 HTTP requests leave a
backlog) ``--seconds`` of steady play are measured.

Reported for the measured window: action-to-event latency (from sending ``act`` to the first
message back on that socket, which is the server's answer: the numbered events of the move,
written to the database first) p50/p90/p99/max, moves/s, hands finished, the tables sustained
(every table open at the end of the run that never saw an error or a closed socket), errors, and
the CPU used by the server and by the clients (a saturated client core inflates the latencies).

Target (issue 7): ≥ 1,000 concurrent tables with p99 ≤ 50 ms on one core.

``--json`` prints the report as one JSON object (its fields, ``p99_ms`` and the table's text)
for a program to read, as ``tests/server/test_benchmark_smoke.py`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from erren.server.client import table_passes

PG_ADMIN = os.environ.get("ERREN_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
TARGET = "target: ≥ 1,000 tables with p99 ≤ 50 ms, server on one core"


def _more_files() -> None:
    """Each table holds two sockets on each side."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 1 << 16)), hard))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------------------- the players
@dataclass
class Seat:
    """What one player measured."""

    latencies: list[float] = field(default_factory=list)
    """(seconds) from each ``act`` to the next message, moves sent inside the window only."""
    times: list[float] = field(default_factory=list)
    """When each of those moves was sent (seconds into the window)."""
    moves: int = 0
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    alive: bool = True


async def _play_seat(
    url: str,
    token: str,
    table: str,
    *,
    think: float,
    rng: random.Random,
    window: tuple[float, float],
    out: Seat,
) -> None:
    """Join ``table`` and play random legal moves until the window closes."""
    from websockets.asyncio.client import connect  # noqa: PLC0415

    start, stop = window
    loop = asyncio.get_running_loop()
    ws_url = "ws" + url.removeprefix("http") + "/ws"
    async with connect(ws_url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))  # the token never in a URL
        await ws.send(json.dumps({"type": "join", "table": table}))
        sent_at = stamp = 0.0
        while True:
            left = stop - loop.time()
            if left <= 0:
                return
            try:
                text = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                return
            if sent_at:
                if start <= sent_at:
                    out.latencies.append(time.perf_counter() - stamp)
                    out.times.append(sent_at - start)
                sent_at = 0.0
            message = json.loads(text)
            kind = message["type"]
            if kind == "closed":
                out.alive = False
                out.errors.append(f"closed: {message.get('reason')}")
                return
            if kind == "error":
                out.errors.append(f"{message.get('code')}: {message.get('message')}")
                continue
            if kind == "events":
                if any(e["kind"] == "settlement" for e in message["events"]):
                    out.hands += 1
                    await ws.send('{"type":"ready"}')
                    continue
            elif kind != "snapshot":
                continue
            state = message.get("state")
            if (
                state is None
                or state["result"] is not None
                or state["to_act"] != state["player"]
                or not state["legal"]
                or table_passes(state)  # the table passes a pass-only window itself
            ):
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            action = rng.choice(state["legal"])
            sent_at = loop.time()
            if sent_at >= stop:
                return
            out.moves += sent_at >= start
            stamp = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action}))


async def _table(
    url: str,
    http: httpx.AsyncClient,
    *,
    think: float,
    seed: int,
    window: tuple[float, float],
) -> list[Seat]:
    seats = [Seat(), Seat()]
    try:
        tokens = []
        for _ in range(2):
            reply = await http.post(url + "/auth/guest")
            reply.raise_for_status()
            tokens.append(reply.json()["token"])
        heads = [{"Authorization": f"Bearer {t}"} for t in tokens]
        made = await http.post(
            url + "/tables/private", json={"family": "guobiao-2p"}, headers=heads[0]
        )
        made.raise_for_status()
        table = made.json()["table"]
        joined = await http.post(
            url + "/tables/join", json={"invite": made.json()["invite"]}, headers=heads[1]
        )
        joined.raise_for_status()
        await asyncio.gather(
            *(
                _play_seat(
                    url,
                    tokens[i],
                    table,
                    think=think,
                    rng=random.Random(seed + i),
                    window=window,
                    out=seats[i],
                )
                for i in range(2)
            )
        )
    except Exception as err:  # a table that failed is reported, not fatal
        seats[0].alive = False
        seats[0].errors.append(f"{type(err).__name__}: {err}")
    return seats


async def _watch_lag(window: tuple[float, float], lags: list[float]) -> None:
    """The client loop's stalls in the window (a stalled client inflates the latencies)."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + 0.05
        await asyncio.sleep(0.05)
        if window[0] <= due <= window[1]:
            lags.append(loop.time() - due)


def _worker(job: dict[str, Any], queue: Any, go: Any) -> None:
    """One client process: ``job["tables"]`` tables opened evenly over the ramp.

    It says it is ready (``None`` on ``queue``), then waits for the start time ``t0`` on ``go``:
    the ramp starts when every client has started up, however long that took on this machine.
    """
    if job["cpus"]:
        os.sched_setaffinity(0, job["cpus"])
    _more_files()
    with contextlib.suppress(ImportError):
        import uvloop  # noqa: PLC0415

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    queue.put(None)
    t0: float = go.get()

    lags: list[float] = []

    async def main() -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        begin = loop.time()
        # every worker measures the same window, whatever its own start-up time
        opened = begin + job["ramp"] - (time.time() - t0)
        start = opened + job["warmup"]
        window = (start, start + job["seconds"])
        n = job["tables"]
        limits = httpx.Limits(max_connections=20, max_keepalive_connections=20)
        async with httpx.AsyncClient(timeout=120, limits=limits) as http:

            async def later(i: int) -> list[Seat]:
                await asyncio.sleep(max(0.0, opened - begin) * i / max(n, 1))
                return await _table(
                    job["url"], http, think=job["think"], seed=job["seed"] + 2 * i, window=window
                )

            cpu0 = os.times()
            watch = asyncio.create_task(_watch_lag(window, lags))
            tables = await asyncio.gather(*(later(i) for i in range(n)))
            watch.cancel()
            cpu1 = os.times()
        return {
            "tables": [
                {
                    "latencies": [x for s in t for x in s.latencies],
                    "times": [x for s in t for x in s.times],
                    "moves": sum(s.moves for s in t),
                    "hands": min(s.hands for s in t),
                    "errors": [e for s in t for e in s.errors],
                    "alive": all(s.alive for s in t),
                }
                for t in tables
            ],
            "cpu": (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system),
            "lag": max(lags, default=0.0),
        }

    queue.put(asyncio.run(main()))


# ---------------------------------------------------------------------------- the server
@contextlib.contextmanager
def _database(kind: str, tmp: Path) -> Iterator[str]:
    """``sqlite`` (a fresh file), ``postgresql`` (a fresh database on ``ERREN_TEST_PG``'s
    server, dropped afterwards) or a URL used as is."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'bench.sqlite3'}"
        return
    if kind != "postgresql":
        yield kind
        return
    import psycopg  # noqa: PLC0415

    name = f"erren_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn,
        ):
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _health(url: str) -> dict[str, Any]:
    with contextlib.suppress(httpx.HTTPError, ValueError):
        return dict(httpx.get(url + "/health", timeout=10).json())
    return {}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_PROFILED = """
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


def _start_server(
    database: str, cpu: int | None, log: Path, profile: str | None
) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable]
    cmd += ["-c", _PROFILED.format(out=str(profile))] if profile else ["-m", "erren.cli.main"]
    cmd += ["serve", "--port", str(port), "--database", database, "--rate", "100"]
    cmd += ["--claim-pause", "0"]  # 鸣牌保护's pause is a rule's wait, not the server's latency

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=pin)  # noqa: PLW1509
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError(f"the server died at startup:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                break
        time.sleep(0.1)
    return proc, url


# ---------------------------------------------------------------------------- the run
def _pct(ordered: list[float], p: float) -> float:
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _slices(rows: list[dict[str, Any]], seconds: float) -> tuple[float, ...]:
    parts: list[list[float]] = [[] for _ in range(10)]
    for row in rows:
        for when, latency in zip(row["times"], row["latencies"], strict=True):
            parts[min(9, max(0, int(when / seconds * 10)))].append(latency * 1000)
    return tuple(_pct(sorted(part), 99) for part in parts)


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
    client_cpu: float
    slices: tuple[float, ...] = ()
    """p99 latency (ms) of each tenth of the window: a tail bunched in one slice is a stall."""
    server_lag: float = math.nan
    """The server loop's longest stall in the window (seconds)."""
    client_lag: float = math.nan
    commits: int = 0
    """Transactions that wrote actions in the window (group commit; 0 if not reported)."""
    actions: int = 0

    def percentile(self, p: float) -> float:
        return _pct(self.latencies_ms, p)

    def table(self, database: str) -> str:
        lat = self.latencies_ms
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
                "errors",
                str(len(self.errors)) + (f" (e.g. {self.errors[0]})" if self.errors else ""),
            ),
            ("server CPU", f"{self.server_cpu:.0%} of its core"),
            (
                "group commit",
                f"{self.commits / self.seconds:.0f} commits/s, "
                f"{self.actions / max(self.commits, 1):.1f} actions per commit",
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


def _start_clients(jobs: list[dict[str, Any]]) -> tuple[list[Any], Any, float]:
    """One client process per job; once every one has started up (a spawned process imports
    erren, which takes seconds on a busy machine), they all get the same start time ``t0``.
    Returns (the processes, the queue of their results, ``t0``)."""
    ctx = multiprocessing.get_context("spawn")
    queue: Any = ctx.Queue()
    go: Any = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(job, queue, go)) for job in jobs]
    for proc in procs:
        proc.start()
    for _ in procs:
        queue.get()  # that client is ready
    t0 = time.time()
    for _ in procs:
        go.put(t0)
    return procs, queue, t0


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
) -> Report:
    """Run the benchmark and return its report (``server``: a running server's URL)."""
    _more_files()
    all_cpus = sorted(os.sched_getaffinity(0))
    client_cpus = [c for c in all_cpus if c != server_cpu] or all_cpus
    if server_cpu is not None and server_cpu not in all_cpus:
        server_cpu = None
    workers = workers or max(1, min(8, math.ceil(tables / 250)))
    ramp = max(1.0, tables / 50) if ramp is None else ramp
    tmp = Path(tempfile.mkdtemp(prefix="erren-bench-"))
    proc = None
    with _database(database, tmp) as url_db:
        try:
            if server is None:
                proc, url = _start_server(url_db, server_cpu, tmp / "server.log", profile)
            else:
                url = server.rstrip("/")
            jobs = [
                {
                    "url": url,
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
            procs, queue, t0 = _start_clients(jobs)
            server_cpu0 = server_cpu1 = 0.0
            health0: dict[str, Any] = {}
            health1: dict[str, Any] = {}
            if proc is not None:
                time.sleep(max(0.0, ramp + warmup - (time.time() - t0)))
                server_cpu0 = _cpu_seconds(proc.pid)
                health0 = _health(url)
                if profile:
                    proc.send_signal(signal.SIGUSR2)
                time.sleep(max(0.0, ramp + warmup + seconds - (time.time() - t0)))
                server_cpu1 = _cpu_seconds(proc.pid)
                health1 = _health(url)
                if profile:
                    proc.send_signal(signal.SIGUSR1)
            results = [queue.get() for _ in procs]
            for p in procs:
                p.join()
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    rows = [t for r in results for t in r["tables"]]
    return Report(
        tables=tables,
        sustained=sum(1 for t in rows if t["alive"] and not t["errors"] and t["moves"]),
        moves=sum(t["moves"] for t in rows),
        seconds=seconds,
        hands=sum(t["hands"] for t in rows),
        latencies_ms=sorted(x * 1000 for t in rows for x in t["latencies"]),
        slices=_slices(rows, seconds),
        errors=[e for t in rows for e in t["errors"]],
        server_cpu=(server_cpu1 - server_cpu0) / seconds if proc is not None else math.nan,
        server_lag=health1.get("lag_ms", math.nan) / 1000,
        client_lag=max(r["lag"] for r in results),
        commits=health1.get("commits", 0) - health0.get("commits", 0),
        actions=health1.get("actions", 0) - health0.get("actions", 0),
        client_cpu=sum(r["cpu"] for r in results) / (ramp + warmup + seconds),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds of play")
    parser.add_argument("--database", default="sqlite", help="sqlite, postgresql or a URL")
    parser.add_argument("--server-cpu", type=int, default=0, help="the server's CPU (-1: any)")
    parser.add_argument("--workers", type=int, default=None, help="client processes")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per move")
    parser.add_argument("--ramp", type=float, default=None, help="seconds to open all tables")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of play before the window opens"
    )
    parser.add_argument("--server", default=None, help="use a running server at this URL")
    parser.add_argument("--profile", default=None, help="sample the server's stacks → FILE")
    parser.add_argument(
        "--json", action="store_true", help="print the report as one JSON object, not a table"
    )
    args = parser.parse_args(argv)
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
    )
    label = args.database if args.server is None else args.server
    if args.json:
        fields = asdict(report)
        print(json.dumps({**fields, "p99_ms": report.percentile(99), "table": report.table(label)}))
    else:
        print(report.table(label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
