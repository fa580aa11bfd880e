"""Server load: N concurrent bot-vs-bot tables over real WebSockets against one server process.

Run ``python -m benchmarks.bench_server [--tables N] [--duration S] [--think S] [--database URL]``.

The server (``erren serve``, real timers) runs in its own process pinned to CPU 0 (``taskset``
when available); the players run in ``--workers`` other processes pinned to the other CPUs.
Each table is a private (score-only) guobiao-2p table joined by invite code; both seats are
``random`` bots that wait ``--think`` seconds (uniform between 0.5× and 1.5×) before each move,
the pace of people, and play hand after hand until ``--duration`` ends.

Reported: action-to-event latency (from sending ``act`` to the first message back on that
socket, which is the server's answer: the numbered events of the move, written to the database
first) p50/p90/p99/max over every move, moves/s, hands finished, and the tables sustained (tables
that kept playing until the end of the run and never saw an error or a closed socket).

Target (issue 7): ≥ 1,000 concurrent tables with p99 ≤ 50 ms on one core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def _more_files() -> None:
    """Each table holds four sockets on the client side and two on the server side."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 1 << 16)), hard))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _table(
    url: str, think: float, stop_at: float, seed: int, shared: httpx.AsyncClient
) -> dict[str, Any]:
    from erren.bots import find_bot  # noqa: PLC0415
    from erren.server.client import PlayerClient, guest_token  # noqa: PLC0415

    rng = random.Random(seed)
    out: dict[str, Any] = {"latencies": [], "hands": 0, "ok": False, "error": None}
    transport = httpx.AsyncHTTPTransport(retries=2)
    try:
        a = PlayerClient(url, await guest_token(url, shared), timeout=120, transport=transport)
        b = PlayerClient(url, await guest_token(url, shared), timeout=120, transport=transport)
    except Exception as err:
        out["error"] = f"{type(err).__name__}: {err}"
        return out
    try:
        made = await a.private_table("guobiao-2p")
        await b.join_invite(made["invite"])

        def pace() -> float:
            return think * rng.uniform(0.5, 1.5)

        async def seat(client: PlayerClient, bot_seed: int) -> None:
            bot = find_bot("random", seed=bot_seed)
            await client.play(made["table"], bot, hands=10**9, think=pace, timeout=120)

        remaining = stop_at - time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(seat(a, seed), seat(b, seed + 1)), timeout=max(remaining, 1)
            )
        out["ok"] = True
    except Exception as err:  # a table that failed is reported, not fatal
        out["error"] = f"{type(err).__name__}: {err}"
    finally:
        out["latencies"] = a.latencies + b.latencies
        out["hands"] = min(a.hands_done, b.hands_done)
        await a.close()
        await b.close()
    return out


def _worker(job: dict[str, Any], queue: Any) -> None:
    _more_files()
    url, tables, think = job["url"], job["tables"], job["think"]
    duration, ramp, seed = job["duration"], job["ramp"], job["seed"]

    async def main() -> list[dict[str, Any]]:
        stop_at = time.monotonic() + duration

        async with httpx.AsyncClient(timeout=120) as shared:

            async def later(i: int) -> dict[str, Any]:
                await asyncio.sleep(ramp * i / max(tables, 1))
                return await _table(url, think, stop_at, seed + 2 * i, shared)

            return await asyncio.gather(*(later(i) for i in range(tables)))

    queue.put(asyncio.run(main()))


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[bytes] | None, str]:
    """The server process pinned to CPU 0 (unless ``--server`` names a running one)."""
    if args.server is not None:
        return None, str(args.server)
    tmp = Path(tempfile.mkdtemp(prefix="erren-bench-"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    database = args.database or f"sqlite:///{tmp / 'bench.sqlite3'}"
    cmd = [sys.executable, "-m", "erren.cli.main", "serve", "--port", str(port)]
    cmd += ["--database", database, "--rate", "100"]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(300):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                break
        time.sleep(0.1)
    return proc, url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per move")
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds to open all tables")
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    parser.add_argument("--database", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--server", default=None, help="use a running server at this URL")
    args = parser.parse_args(argv)
    _more_files()  # the server process inherits it

    proc, url = _start_server(args)
    try:
        queue: Any = multiprocessing.get_context("spawn").Queue()
        share = [
            args.tables // args.workers + (i < args.tables % args.workers)
            for i in range(args.workers)
        ]
        procs = []
        for i, n in enumerate(share):
            p = multiprocessing.get_context("spawn").Process(
                target=_worker,
                args=(
                    {
                        "url": url,
                        "tables": n,
                        "think": args.think,
                        "duration": args.duration + args.ramp,
                        "ramp": args.ramp,
                        "seed": 1000 * i,
                    },
                    queue,
                ),
            )
            p.start()
            if shutil.which("taskset") and (os.cpu_count() or 1) > 1:
                cpu = 1 + i % ((os.cpu_count() or 2) - 1)
                subprocess.run(
                    ["taskset", "-a", "-p", "-c", str(cpu), str(p.pid)],
                    capture_output=True,
                    check=False,
                )
            procs.append(p)
        results: list[dict[str, Any]] = []
        for _ in procs:
            results.extend(queue.get())
        for p in procs:
            p.join()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    latencies = [x * 1000 for r in results for x in r["latencies"]]
    hands = sum(r["hands"] for r in results)
    sustained = sum(1 for r in results if r["ok"] and r["latencies"])
    errors = [r["error"] for r in results if r["error"]]
    seconds = args.duration + args.ramp
    print(f"tables: {args.tables} requested, {sustained} sustained (played to the end, no error)")
    print(f"moves: {len(latencies)} ({len(latencies) / seconds:.0f}/s), hands: {hands}")
    print(
        "action→event latency ms: "
        f"p50 {_pct(latencies, 50):.1f}  p90 {_pct(latencies, 90):.1f}  "
        f"p99 {_pct(latencies, 99):.1f}  max {max(latencies, default=float('nan')):.1f}  "
        f"mean {statistics.fmean(latencies) if latencies else float('nan'):.1f}"
    )
    if errors:
        print(f"errors: {len(errors)}, e.g. {errors[0]}")
    print("target: ≥ 1,000 tables with p99 ≤ 50 ms on one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
