"""Failover time of a cluster: two ``erren serve --redis`` nodes on one fresh PostgreSQL
database and the machine's Redis; two players play a hand on the first node, which is killed
(SIGKILL) mid-hand; measured from the kill to the moment the other node, having taken the
table over from the record, lets a player rejoin it (resuming by event number).

Run ``PYTHONPATH=tests:src python benchmarks/bench_failover.py [--runs 3] [--lease 5]``
(it uses the server tests' harness: PostgreSQL at 127.0.0.1:5432, Redis at 127.0.0.1:6379).
Expected: between one lease and one and a half leases after the owner's last renewal.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from server._support.harness import Server, database
from server._support.helpers import quick_pair
from server._support.redis_ns import (
    REDIS_URL,
    drop_prefix,
    new_prefix,
)
from server.cluster.test_failover import _rejoin, _some_moves


async def _once(owner: Server, heir: Server) -> float:
    a, b, table = await quick_pair(owner.url, "guobiao-2p/novice")
    for c in (a, b):
        await c.connect()
        await c.join(table)
    await _some_moves((a, b), 8)
    owner.kill()
    killed = time.monotonic()
    await _rejoin(a, heir, table)
    took = time.monotonic() - killed
    await a.close()
    await b.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lease", type=float, default=5.0, help="the nodes' --lease (s)")
    args = parser.parse_args()
    times: list[float] = []
    for _ in range(args.runs):
        tmp = Path(tempfile.mkdtemp())
        prefix = new_prefix()
        try:
            with database("postgresql", tmp) as url:
                common = ["--redis", REDIS_URL, "--redis-prefix", prefix]
                common += ["--lease", str(args.lease), "--grace", "100000"]
                owner = Server(url, tmp / "a.log", *common)
                heir = Server(url, tmp / "b.log", *common)
                owner.start()
                heir.start()
                try:
                    times.append(asyncio.run(_once(owner, heir)))
                finally:
                    owner.stop()
                    heir.stop()
        finally:
            asyncio.run(drop_prefix(prefix))
    shown = ", ".join(f"{t:.2f} s" for t in times)
    print(f"failover after kill -9 (lease {args.lease:g} s): {shown}")


if __name__ == "__main__":
    main()
