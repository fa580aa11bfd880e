"""The server's CPU per action, in one process, without sockets: what the table actors cost.

Run ``python -m benchmarks.bench_table_cpu [--tables 200] [--moves 20000] [--windows 3]
[--replay 60] [--table-passes] [--profile FILE]``.

First, deterministic (``--replay`` hands, 0: skip): seeded random guobiao-2p hands replayed
through one table with no event loop, database or other task, and the process CPU of what the
table sends after each action, both seats' ``events`` message (their events, their state with
the ready hints, the JSON text), best of five runs.  It moves only when the hot path does, so
it is the figure to compare on a busy machine.

Then the whole: ``--tables`` real :class:`~erren.server.table.Table` actors (private
guobiao-2p tables, two guests each, the lobby's group-commit
:class:`~erren.server.journal.Journal` on a fresh SQLite file in ``--dir``, the collector tuned
as ``erren serve`` tunes it) are played by in-process players: each seat's player reads its
connection's outbox (the JSON text a WebSocket would carry), and when ``state.legal`` is not
empty sends one legal action at random at once (no think time, so the loop is never idle; with
``--table-passes`` not in a claim window whose only move is pass: the table passes it);
after a hand it sends ``ready``.  The first window starts after ``--warmup`` moves; each of the
``--windows`` lasts ``--moves`` moves.  Per window: the process CPU (``time.process_time``:
every thread, so aiosqlite's writer too) per action applied (the players' and the claim
windows' passes), the players' own share (their ``orjson.loads`` and choice, timed around each
synchronous step) and the rest, the server's; actions/s; the bytes sent per action; the
collector's collections and longest pause.  Last, the median and the least of the windows (on
a shared machine the least is the steadier: other work only adds to it).  ``--profile FILE``
samples the first window's CPU every millisecond and writes the top functions.
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
from types import FrameType, SimpleNamespace
from typing import Any

from erren.engine import State
from erren.server.app import tune_gc
from erren.server.client import table_passes
from erren.server.clock import Clock
from erren.server.journal import Journal
from erren.server.store import Passwords, Store
from erren.server.table import Act, Conn, Join, Ready, Seat, Table, TableKind, TableSpec
from erren.testing.tables import SLOW_CLOCK

try:
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None  # type: ignore[assignment, unused-ignore]


def loads(text: str) -> Any:
    """A message as the player reads it (orjson when installed, as the server writes)."""
    return json.loads(text) if orjson is None else orjson.loads(text)


CONFIG = SLOW_CLOCK


@dataclass
class Tally:
    """What the players saw and spent, shared by all of them."""

    moves: int = 0
    bytes: int = 0
    client_s: float = 0.0
    target: int = 0
    table_passes: bool = False
    """Leave a pass-only window to the table, as real clients do (``--table-passes``)."""
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
            elif (
                state is not None
                and state["legal"]
                and state.get("result") is None
                and not (tally.table_passes and table_passes(state))
            ):
                command = Act(conn, rng.choice(state["legal"]), state["last_n"])
                tally.moves += 1
        tally.client_s += time.perf_counter() - start
        if command is not None:
            table.submit(command)
        if tally.target and tally.moves >= tally.target:
            tally.done.set()


_NO_STORE = SimpleNamespace(social=SimpleNamespace(blocks_among=None))
"""The store of a replayed table: nothing is written, and chat (never sent here) reads no
blocks."""


def _replayed_messages(hands: int, repeat: int) -> tuple[float, int]:
    """µs of process CPU per action of what a table sends after each move (both seats'
    ``events`` message: their events, ``observation_json(..., hints=True)`` and the JSON
    text; :meth:`~erren.server.table.reporter.Reporter.send_events`), over seeded random guobiao-2p
    hands replayed with no event loop, database or other task: the best of ``repeat`` runs.
    Deterministic, so it shows a change of the hot path on a busy machine; returns the figure
    and the actions replayed."""
    rng = random.Random(7)
    table = Table(
        TableSpec("replay", TableKind.PRIVATE, "guobiao-2p", {}, invite="r"),
        [Seat(1, "a"), Seat(2, "b")],
        _NO_STORE,  # type: ignore[arg-type]  # nothing is written
        clock=Clock(1.0),
        config=CONFIG,
        rng=random.Random(7),
    )
    conns = [Conn(1, "a"), Conn(2, "b")]
    for seat, conn in zip(table.seats, conns, strict=True):
        seat.conns.add(conn)
    games = []
    for seed in range(hands):
        state = State.new(table.ruleset, seed=seed)
        moves = []
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            moves.append(action)
            state.apply(action)
        games.append((seed, moves))
    best, count = float("inf"), 0
    for _ in range(repeat):
        count = 0
        cpu = 0.0
        for seed, moves in games:
            state = State.new(table.ruleset, seed=seed)
            series = table.series
            series.state, series.game_id, series.start_event = state, seed + 1, {"n": 0}
            for action in moves:
                before = state.event_count
                state.apply(action)
                start = time.process_time()
                table.reporter.send_events(0, before)
                table.reporter.send_events(1, before)
                cpu += time.process_time() - start
                count += 1
                for conn in conns:
                    while not conn.queue.empty():
                        conn.queue.get_nowait()
        best = min(best, cpu)
    return best / count * 1e6, count


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
        tally = Tally(table_passes=args.table_passes)
        tables: list[Table] = []
        players: list[asyncio.Task[None]] = []
        try:
            for i in range(args.tables):
                guests = [(await store.accounts.guest()).user for _ in range(2)]
                spec = TableSpec(f"t{i}", TableKind.PRIVATE, "guobiao-2p", {}, invite=f"i{i}")
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
    parser.add_argument(
        "--replay",
        type=int,
        default=60,
        help="hands replayed for the deterministic figure of the messages alone (0: none)",
    )
    parser.add_argument("--windows", type=int, default=3, help="windows measured in a row")
    parser.add_argument(
        "--table-passes",
        action="store_true",
        help="the players leave a claim window whose only move is pass to the table (it "
        "passes at the 鸣牌保护 pause, here 0), as load_players and the web client do; "
        "default: they send the pass",
    )
    parser.add_argument(
        "--profile",
        help="sample the CPU and write the top functions (self, inclusive) to this file",
    )
    args = parser.parse_args(argv)
    if args.replay:
        us, count = _replayed_messages(args.replay, 5)
        print(f"replayed: the messages after a move, {us:.1f} µs per action ({count} actions)")
    if not args.windows:
        return 0
    windows = asyncio.run(_run(args))
    for r in windows:
        print(
            f"tables {args.tables}  actions {r['moves']:.0f} (players sent {r['sent']:.0f})  "
            f"{r['moves_s']:.0f} actions/s (wall)  CPU per action {r['cpu_us']:6.1f} µs:  "
            f"players {r['client_us']:5.1f}  server {r['server_us']:6.1f}  "
            f"bytes sent {r['bytes']:.0f}  gc gen0/1/2 {r['gc0']:.0f}/{r['gc1']:.0f}/"
            f"{r['gc2']:.0f} longest {r['gc_max_ms']:.1f} ms"
        )
    server = [r["server_us"] for r in windows]
    total = [r["cpu_us"] for r in windows]
    print(
        f"{len(windows)} windows: process CPU per action median {statistics.median(total):.1f} "
        f"min {min(total):.1f} µs; server median {statistics.median(server):.1f} "
        f"min {min(server):.1f} µs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
