"""CPU per group commit: :meth:`~erren.server.store.games.Games.append_actions` of a batch of rows.

Run ``python -m benchmarks.bench_journal [--rows 1 10 50] [--commits 1000] [--windows 3]
[--databases sqlite postgresql]``.

Each database is fresh (SQLite: a file in a temporary folder; PostgreSQL: a scratch database on
``ERREN_TEST_PG``, default ``postgresql://postgres@127.0.0.1:5432/postgres``, dropped
afterwards) and holds ``max(rows)`` running games.  A batch of ``N`` rows is one new action of
each of ``N`` games (what the journal hands the store when ``N`` tables moved in one window).
Per database and ``N``: ``--windows`` windows of ``--commits`` commits, one after the other;
printed is the least over the windows of the process CPU (``time.process_time``: every thread,
so aiosqlite's writer too) per commit in µs, and the wall time per commit.  The database
server's own CPU (PostgreSQL) is not counted: this is what the ``erren serve`` process pays.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.load_nodes import database
from erren.server.store import Passwords, Store

OPTIONS = {"fan_table": "2p", "suit": "m", "flowers": False, "cap_points": None}


async def _measure(url: str, sizes: Sequence[int], commits: int, windows: int) -> list[str]:
    store = await Store.open(url, passwords=Passwords.fast())
    try:
        user = (await store.accounts.guest()).user.id
        games = [
            await store.games.create("guobiao-2p", OPTIONS, (user, None), seed, "salt")
            for seed in range(max(sizes))
        ]
        seq = 0
        for _ in range(50):  # warm-up: connections made, statements compiled and cached
            assert await store.games.append_actions([(games[0], seq, "0:discard:1m")]) == [None]
            seq += 1
        lines = []
        for size in sizes:
            cpu: list[float] = []
            wall: list[float] = []
            for _ in range(windows):
                batches = []
                for _ in range(commits):
                    batches.append([(g, seq, "0:discard:1m") for g in games[:size]])
                    seq += 1
                start_cpu, start_wall = time.process_time(), time.perf_counter()
                for batch in batches:
                    await store.games.append_actions(batch)
                cpu.append((time.process_time() - start_cpu) / commits)
                wall.append((time.perf_counter() - start_wall) / commits)
            lines.append(
                f"| {store.database.dialect} | {size} | {min(cpu) * 1e6:,.0f} | "
                f"{min(cpu) * 1e6 / size:,.0f} | {min(wall) * 1e3:.2f} |"
            )
        return lines
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument(
        "--databases", nargs="+", default=["sqlite", "postgresql"],
        choices=["sqlite", "postgresql"],
    )  # fmt: skip
    args = parser.parse_args(argv)
    print("| database | rows per commit | CPU µs per commit | CPU µs per row | wall ms / commit |")
    print("| --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.databases:
            with database(kind, Path(tmp)) as url:
                for line in asyncio.run(_measure(url, args.rows, args.commits, args.windows)):
                    print(line, flush=True)


if __name__ == "__main__":
    main()
