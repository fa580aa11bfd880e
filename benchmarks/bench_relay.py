"""What the relay costs a move: two ``erren serve --redis`` nodes on one PostgreSQL database,
tables made on node A and joined by invite from node B, so that at each table one player is
connected to the owner (local) and one plays through the relay (relayed).

Run ``python -m benchmarks.bench_relay --tables 20 --hands 2``.

Each player is a random bot (:class:`~erren.server.client.PlayerClient`) that waits ``--think``
seconds before a move; a move's latency is from sending ``act`` to the first message back on
that socket (the server's answer: the move's numbered events, stored first).  Reported: p50,
p90, p99 and max of the local and of the relayed players' moves, and the hands played.  Needs
PostgreSQL (``ERREN_TEST_PG``, default ``postgresql://postgres@127.0.0.1:5432/postgres``) and
Redis (``--redis``, default ``redis://127.0.0.1:6379/0``; a key prefix of its own, deleted
afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid
from pathlib import Path

from erren.bots import find_bot
from erren.server.client import PlayerClient, guest_token
from erren.testing.servers import Server, database, drop_prefix


def _quantiles(values: list[float]) -> str:
    if not values:
        return "no moves"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return (
        f"{len(ordered):5d} moves  p50 {at(0.5):6.1f} ms  p90 {at(0.9):6.1f} ms  "
        f"p99 {at(0.99):6.1f} ms  max {ordered[-1] * 1000:6.1f} ms"
    )


async def _table(a: str, b: str, hands: int, think: float, seed: int) -> tuple[list[float], ...]:
    local = PlayerClient(a, await guest_token(a))
    relayed = PlayerClient(b, await guest_token(b))
    try:
        made = await local.private_table("guobiao-2p")
        joined = await relayed.join_invite(made["invite"])
        assert joined["table"] == made["table"]

        def pause() -> float:
            return think

        await asyncio.gather(
            local.play(made["table"], find_bot("random", seed=seed), hands=hands, think=pause),
            relayed.play(
                made["table"], find_bot("random", seed=seed + 1), hands=hands, think=pause
            ),
        )
        return local.latencies, relayed.latencies
    finally:
        await local.close()
        await relayed.close()


async def _run(a: str, b: str, tables: int, hands: int, think: float) -> None:
    results = await asyncio.gather(*(_table(a, b, hands, think, 2 * i) for i in range(tables)))
    local = [x for r in results for x in r[0]]
    relayed = [x for r in results for x in r[1]]
    print(f"tables {tables}, hands {hands} each, think {think:g} s")
    print(f"local   (socket on the owner)  {_quantiles(local)}")
    print(f"relayed (socket on the other)  {_quantiles(relayed)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.2, help="seconds before each move")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    prefix = f"erren-bench:{uuid.uuid4().hex[:8]}:"
    with tempfile.TemporaryDirectory() as tmp, database("postgresql", Path(tmp)) as url:
        common = ("--redis", args.redis, "--redis-prefix", prefix)
        a, b = (
            Server(url, Path(tmp) / f"{node}.log", *common, "--node-id", node, time_scale=1)
            for node in ("bench-a", "bench-b")
        )
        try:
            a.start(timeout=60)
            b.start(timeout=60)
            asyncio.run(_run(a.url, b.url, args.tables, args.hands, args.think))
        finally:
            a.stop()
            b.stop()
            asyncio.run(drop_prefix(prefix, args.redis))


if __name__ == "__main__":
    main()
