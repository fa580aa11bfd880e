"""The server's CPU per move, in one process, without sockets: what the table actors cost.

Run ``python -m benchmarks.bench_table_cpu [--tables 200] [--moves 20000] [--profile FILE]``.

``--tables`` real :class:`~erren.server.table.Table` actors (private guobiao-2p tables, two
guests each, the lobby's group-commit :class:`~erren.server.journal.Journal` on a fresh SQLite
file) are played by in-process players: each seat's player reads its connection's outbox (the
JSON text a WebSocket would carry), and when ``state.legal`` is not empty sends one legal action
at random at once (no think time, so the loop is never idle); after a hand it sends ``ready``.
The first window starts after ``--warmup`` moves; each of the ``--windows`` lasts ``--moves``
moves; the median of the windows is printed last.

Printed: the process CPU (``time.process_time``: every thread, so aiosqlite's writer too) per
move in µs; the players' own share (their ``orjson.loads`` and choice, timed around each
synchronous step) and the rest, the server's CPU per move; moves/s; the bytes sent per move;
the garbage collector's collections and its longest pause.  The machine may be shared: CPU
time, not wall time, is the figure to compare, and the server's figure is the one the
optimisations of the table's hot path move.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import random
import signal
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from erren.server.app import tune_gc
from erren.server.clock import Clock
from erren.server.journal import Journal
from erren.server.store import Passwords, Store
from erren.server.table import Act, Conn, Join, Ready, Seat, Table, TableConfig, TableSpec

try:
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None  # type: ignore[assignment, unused-ignore]


def loads(text: str) -> Any:
    """A message as the player reads it (orjson when installed, as the server writes)."""
    return json.loads(text) if orjson is None else orjson.loads(text)


CONFIG = TableConfig(
    grace_s=600.0,
    ready_timeout_s=600.0,
    bot_delay_s=0.001,
    turn_timeout_s=600.0,
    claim_timeout_s=600.0,
    claim_min_pause_s=0.0,
    idle_timeout_s=600.0,
)


@dataclass
class Tally:
    """What the players saw and spent, shared by all of them."""

    moves: int = 0
    bytes: int = 0
    client_s: float = 0.0
    target: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Sampler:
    """A sampling profiler: every millisecond of process CPU, the running Python stack is
    counted (its own function, and each function on it once); far less skewed than cProfile
    for code that is mostly small calls and coroutines."""

    def __init__(self) -> None:
        self.own: collections.Counter[str] = collections.Counter()
        self.total: collections.Counter[str] = collections.Counter()
        self.samples = 0

    @staticmethod
    def _where(frame: FrameType) -> str:
        code = frame.f_code
        return f"{code.co_filename.rsplit('/src/', 1)[-1]}:{code.co_firstlineno}({code.co_name})"

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        self.samples += 1
        if frame is None:
            return
        self.own[self._where(frame)] += 1
        seen = set()
        walk: FrameType | None = frame
        while walk is not None:
            key = self._where(walk)
            if key not in seen:
                seen.add(key)
                self.total[key] += 1
            walk = walk.f_back

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def report(self) -> str:
        lines = [f"{self.samples} samples of 1 ms CPU"]
        for title, counts in (("self", self.own), ("inclusive", self.total)):
            lines.append(f"--- {title}")
            lines += [f"{n / self.samples:6.1%}  {key}" for key, n in counts.most_common(70)]
        return "\n".join(lines) + "\n"


@dataclass
class GcWatch:
    """The garbage collector's collections and pauses (``gc.callbacks``)."""

    started: float = 0.0
    collections: list[int] = field(default_factory=lambda: [0, 0, 0])
    longest: float = 0.0
    total: float = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        pause = time.perf_counter() - self.started
        self.collections[info["generation"]] += 1
        self.longest = max(self.longest, pause)
        self.total += pause


async def _player(table: Table, conn: Conn, rng: random.Random, tally: Tally) -> None:
    """One seat: answer every message that offers a decision with a random legal action."""
    while True:
        text = await conn.queue.get()
        if text is None:
            return
        start = time.perf_counter()
        tally.bytes += len(text)
        message: dict[str, Any] = loads(text)
        kind = message.get("type")
        command: Act | Ready | None = None
        if kind in ("events", "snapshot"):
            state = message.get("state")
            events = message.get("events") or []
            if any(e["kind"] == "settlement" for e in events):
                command = Ready(conn)
            elif state is not None and state["legal"] and state.get("result") is None:
                command = Act(conn, rng.choice(state["legal"]), state["last_n"])
                tally.moves += 1
        tally.client_s += time.perf_counter() - start
        if command is not None:
            table.submit(command)
        if tally.target and tally.moves >= tally.target:
            tally.done.set()


async def _window(
    args: argparse.Namespace, tally: Tally, journal: Journal, index: int
) -> dict[str, float]:
    """Measure one window of ``args.moves`` moves (profiled: the first only)."""
    tally.done.clear()
    watch = GcWatch()
    gc.callbacks.append(watch)
    moves0, bytes0, client0 = tally.moves, tally.bytes, tally.client_s
    rows0 = journal.rows
    tally.target = moves0 + args.moves
    profile = Sampler() if args.profile and index == 0 else None
    cpu0, wall0 = time.process_time(), time.perf_counter()
    if profile is not None:
        profile.start()
    await tally.done.wait()
    if profile is not None:
        profile.stop()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    gc.callbacks.remove(watch)
    moves = journal.rows - rows0  # the actions applied (the players' and timers')
    if profile is not None:
        Path(args.profile).write_text(profile.report())
    client = tally.client_s - client0
    return {
        "moves": moves,
        "sent": tally.moves - moves0,
        "cpu_us": cpu / moves * 1e6,
        "client_us": client / moves * 1e6,
        "server_us": (cpu - client) / moves * 1e6,
        "moves_s": moves / wall,
        "bytes": (tally.bytes - bytes0) / moves,
        "gc0": watch.collections[0],
        "gc1": watch.collections[1],
        "gc2": watch.collections[2],
        "gc_ms": watch.total * 1e3,
        "gc_max_ms": watch.longest * 1e3,
    }


async def _run(args: argparse.Namespace) -> list[dict[str, float]]:
    with tempfile.TemporaryDirectory(dir=args.dir, ignore_cleanup_errors=True) as tmp:
        store = await Store.open(
            f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", passwords=Passwords.fast()
        )
        journal = Journal(store, window=CONFIG.commit_window_s)
        tune_gc()  # as ``erren serve`` does at start-up, before its tables
        tally = Tally()
        tables: list[Table] = []
        players: list[asyncio.Task[None]] = []
        try:
            for i in range(args.tables):
                guests = [(await store.guest()).user for _ in range(2)]
                spec = TableSpec(f"t{i}", "private", "guobiao-2p", {}, invite=f"i{i}")
                seats = [Seat(g.id, g.name) for g in guests]
                table = Table(
                    spec,
                    seats,
                    store,
                    clock=Clock(1.0),
                    config=CONFIG,
                    rng=random.Random(i),
                    journal=journal,
                )
                table.start()
                tables.append(table)
                for seat_no, guest in enumerate(guests):
                    conn = Conn(guest.id, guest.name)
                    rng = random.Random(i * 2 + seat_no)
                    players.append(asyncio.create_task(_player(table, conn, rng, tally)))
                    table.submit(Join(conn, seat_no, None, None))
            tally.target = args.warmup
            await tally.done.wait()
            return [await _window(args, tally, journal, i) for i in range(args.windows)]
        finally:
            for task in players:
                task.cancel()
            for table in tables:
                await table.stop()
            await journal.close()
            await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20000, help="moves measured")
    parser.add_argument("--warmup", type=int, default=2000, help="moves before the window")
    parser.add_argument(
        "--dir",
        default="/dev/shm" if Path("/dev/shm").is_dir() else None,
        help="where the SQLite file goes (default /dev/shm: memory, so the disk's flushes "
        "do not blur the CPU figure)",
    )
    parser.add_argument("--windows", type=int, default=3, help="windows measured in a row")
    parser.add_argument(
        "--profile",
        help="sample the CPU and write the top functions (self, inclusive) to this file",
    )
    args = parser.parse_args(argv)
    windows = asyncio.run(_run(args))
    for r in windows:
        print(
            f"tables {args.tables}  actions {r['moves']:.0f} (players sent {r['sent']:.0f})  "
            f"{r['moves_s']:.0f} actions/s (wall)  CPU per action {r['cpu_us']:6.1f} µs:  "
            f"players {r['client_us']:5.1f}  server {r['server_us']:6.1f}  "
            f"bytes sent {r['bytes']:.0f}  gc gen0/1/2 {r['gc0']:.0f}/{r['gc1']:.0f}/"
            f"{r['gc2']:.0f} longest {r['gc_max_ms']:.1f} ms"
        )
    server = statistics.median(r["server_us"] for r in windows)
    total = statistics.median(r["cpu_us"] for r in windows)
    print(
        f"median of {len(windows)} windows: process CPU per action {total:.1f} µs, "
        f"server {server:.1f} µs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
