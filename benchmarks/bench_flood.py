"""A flood from one address against one node: what it got, ``/health`` and a player meanwhile.

``erren serve`` runs on a fresh SQLite file under ``prlimit --nofile=1024:1024`` (systemd's
default soft limit, which the server cannot raise), with the tests' timers (a hundredth of the
real ones).  Two phases:

* **quiet** — a registered player logs in from 127.0.0.1 and plays ``--hands`` hands against
  the computer; ``/health`` is asked every 0.1 s;
* **flood** — the same while 127.0.0.2 floods (:mod:`erren.testing.flood`): ``--sockets``
  WebSockets that never log in, ``--slow`` request heads that never end (each opened again as
  soon as it ends), ``--guests`` guest requests; with ``--sustain`` a refused socket or guest
  tries again after a second, for the whole phase.  The player starts once the server has
  refused some of the flood (or after 10 s).

Reported: what the flood's connections met (accepted, refused and the code, held until a
deadline, reset), ``/health``'s answers (how many failed; median, p99 and the longest time),
the player's action latency (from sending a move to the server's answer: p50, p99) in each
phase, and the most descriptors the server held.  ``--src DIR`` runs the server from another
checkout's ``src`` (the code before a change, for a comparison).

``python -m benchmarks.bench_flood [--hands 20] [--sockets 2000] [--slow 200] [--guests 100]
[--sustain] [--src DIR]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from erren.bots import find_bot
from erren.server.client import ClientError, PlayerClient
from erren.server.edge import raise_open_files
from erren.testing.flood import flooding, watch_health
from erren.testing.servers import Server, database

OPEN_FILES = 1024
"""The server's open-file limit, soft and hard."""
PASSWORD = "password-123"
HOLD_WAIT_S = 10.0
"""How long the flood phase waits for the server to refuse the flood's excess before the player
starts anyway (a server without bounds never refuses)."""


class Limited(Server):
    """``erren serve`` under ``prlimit``, guests throttled, pinned to ``cpu`` (``None``: any),
    and from ``src`` when given."""

    def __init__(self, database: str, log: Path, src: str | None, cpu: int | None) -> None:
        super().__init__(database, log, throttle_guests=True)
        self.src, self.cpu = src, cpu

    def command(self) -> list[str]:
        pin = [] if self.cpu is None else ["taskset", "-c", str(self.cpu)]
        return [*pin, "prlimit", f"--nofile={OPEN_FILES}:{OPEN_FILES}", *super().command()]

    def start(self, timeout: float = 30) -> None:
        if self.src is None:
            super().start(timeout)
            return
        before = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = self.src
        try:
            super().start(timeout)
        finally:
            if before is None:
                del os.environ["PYTHONPATH"]
            else:
                os.environ["PYTHONPATH"] = before


@dataclass
class Phase:
    """What one phase saw."""

    name: str
    health: list[tuple[float, int | None]] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    hands: int = 0
    problem: str = ""
    """Why the player stopped early (an error), or ``""``."""
    most_files: int = 0

    def lines(self) -> list[str]:
        times = sorted(t for t, status in self.health if status == 200)
        failed = sum(1 for _, status in self.health if status != 200)
        out = [
            f"{self.name}: /health asked {len(self.health)} times, {failed} failed; "
            + (
                f"answer median {_ms(statistics.median(times))}, p99 {_ms(_p99(times))}, "
                f"max {_ms(times[-1])}"
                if times
                else "never answered"
            )
        ]
        moves = sorted(self.moves)
        out.append(
            f"{self.name}: player {self.hands} hand(s), {len(moves)} moves; "
            + (
                f"action latency p50 {_ms(statistics.median(moves))}, p99 {_ms(_p99(moves))}"
                if moves
                else "no move answered"
            )
            + (f"; stopped: {self.problem}" if self.problem else "")
        )
        out.append(f"{self.name}: the server held at most {self.most_files} descriptors")
        return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _p99(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.99))]


async def _register(url: str) -> str:
    name = "b" + uuid.uuid4().hex[:12]
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        made = await http.post("/auth/register", json={"name": name, "password": PASSWORD})
        made.raise_for_status()
    return name


async def _play(url: str, name: str, hands: int, phase: Phase) -> None:
    """Log ``name`` in and play ``hands`` hands against the computer (a fixed number: a
    ``wait_for`` around the play could swallow its cancellation on Python 3.11)."""
    try:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            login = await http.post("/auth/login", json={"name": name, "password": PASSWORD})
            login.raise_for_status()
        async with PlayerClient(url, login.json()["token"]) as me:
            table = (await me.vs_computer("guobiao-2p", turn_timeout_s=1000))["table"]
            try:
                await me.play(table, find_bot("random", seed=26), hands=hands, timeout=60)
            finally:
                phase.moves, phase.hands = me.latencies, me.hands_done
    except (httpx.HTTPError, OSError, RuntimeError, ClientError, TimeoutError) as err:
        phase.problem = f"{type(err).__name__}: {err}"[:200]


async def _files(pid: int, stop: asyncio.Event, phase: Phase) -> None:
    while not stop.is_set():
        with contextlib.suppress(OSError):
            phase.most_files = max(phase.most_files, len(os.listdir(f"/proc/{pid}/fd")))
        await asyncio.sleep(0.05)


async def _phase(server: Server, pid: int, name: str, hands: int, holding: Any | None) -> Phase:
    """Play ``hands`` hands with ``/health`` asked meanwhile (once the flood holds what it
    can, when ``holding``, the flood process's event, is given)."""
    phase = Phase(name)
    player = await _register(server.url)
    stop = asyncio.Event()
    health = asyncio.create_task(watch_health(server.url, stop, every=0.1))
    files = asyncio.create_task(_files(pid, stop, phase))
    if holding is not None:
        await asyncio.to_thread(holding.wait, HOLD_WAIT_S)
    await _play(server.url, player, hands, phase)
    stop.set()
    phase.health = await health
    await files
    return phase


def _flood(port: int, options: dict[str, Any], cpu: int | None, events: tuple[Any, Any]) -> None:
    """The flood process: flood until ``stop`` is set, then print the tally (``holding`` is
    set once the server refuses the flood's excess)."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    holding, stop = events

    async def main() -> None:
        async with flooding("127.0.0.1", port, **options) as flood:
            began = time.monotonic()
            while not stop.is_set():  # a server without bounds never refuses: no holding
                if flood.holding.is_set():
                    holding.set()
                await asyncio.sleep(0.05)
            seconds = time.monotonic() - began
        print(f"flood: {seconds:.1f} s, {flood.tally.opened} connections accepted")
        print(*flood.tally.lines(), sep="\n", flush=True)

    asyncio.run(main())


def _cpus(server_cpu: int) -> tuple[int | None, int | None]:
    """The server's CPU and the clients' (``None``: any), as ``bench_server`` pins them."""
    cpus = sorted(os.sched_getaffinity(0))
    if server_cpu < 0 or server_cpu not in cpus or len(cpus) < 2:
        return None, None
    return server_cpu, next(c for c in cpus if c != server_cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="the player's hands per phase")
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--guests", type=int, default=100)
    parser.add_argument("--sustain", action="store_true", help="refused ones try again")
    parser.add_argument("--src", default=None, help="run the server from this src folder")
    parser.add_argument("--server-cpu", type=int, default=0, help="the server's CPU (-1: any)")
    args = parser.parse_args(argv)
    raise_open_files(args.sockets + args.slow + 1024)
    server_cpu, client_cpu = _cpus(args.server_cpu)
    if client_cpu is not None:
        os.sched_setaffinity(0, {client_cpu})
    options = {k: getattr(args, k) for k in ("sockets", "slow", "guests", "sustain")}
    with tempfile.TemporaryDirectory() as tmp, database("sqlite", Path(tmp)) as url:
        server = Limited(url, Path(tmp) / "server.log", args.src, server_cpu)
        server.start()
        try:
            assert server.proc is not None
            quiet = asyncio.run(_phase(server, server.proc.pid, "quiet", args.hands, None))
            holding, stop = multiprocessing.Event(), multiprocessing.Event()
            flood = multiprocessing.Process(
                target=_flood,
                args=(server.port, options, client_cpu, (holding, stop)),
                daemon=True,
            )
            flood.start()
            try:
                flooded = asyncio.run(_phase(server, server.proc.pid, "flood", args.hands, holding))
            finally:
                stop.set()
                flood.join(120)
                if flood.is_alive():
                    flood.terminate()
        finally:
            alive = server.running
            server.stop()
        where = args.src or "this checkout"
        print(f"server from {where}, open files {OPEN_FILES}, CPU {server_cpu}")
        print(*quiet.lines(), *flooded.lines(), sep="\n")
        print(f"server alive at the end: {alive}")
        if "Traceback" in (Path(tmp) / "server.log").read_text(errors="replace"):
            print("the server logged a traceback", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
