"""Failover time of a cluster: ``kill -9`` of a table's owner node mid-hand, until play goes on.

Each run: a fresh PostgreSQL database and Redis key prefix, two ``erren serve --redis`` nodes
(``owner`` and ``heir``, real time, the production lease of 5 s unless ``--lease``), two
registered players quick-matched on the owner who play random legal moves until each has seen
event ``--moves`` of the hand's game; then SIGKILL of the owner.  The players reconnect to the
heir at once and retry every ``--retry`` s (``join`` with their last event number: refused with
``no-table`` until the heir has taken the table over).  Measured from the kill:

* **rejoin** — the first ``events`` or ``snapshot`` message a player receives from the heir
  (the table is restored and he is back in it);
* **next event** — the first event of the game numbered above the last one seen before the
  kill (a move made on the heir reached a player).

The players then finish the hand on the heir; the run checks that the hand's record verifies
(:func:`erren.server.fairness.verify_record`), that its stored actions are exactly the
record's, and, when the nodes are stopped, the ledger audit of the database.

``python -m benchmarks.bench_failover [--runs 6] [--lease 5] [--moves 8] [--retry 0.1]
[--time-scale 1]`` (``--time-scale``: the nodes' timers, real time by default; the smoke test
speeds them up to finish the hands sooner — the lease is never scaled)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx

from erren.server.client import PlayerClient, table_passes
from erren.server.fairness import verify_record
from erren.server.store import Store
from erren.testing.servers import REDIS_URL, Server, database, drop_prefix, new_prefix

ROOM = "guobiao-2p/novice"


@dataclass(frozen=True)
class Run:
    """One failover: seconds from the kill to the rejoin and to the next event."""

    rejoin_s: float
    next_event_s: float
    retries: int
    """``join`` attempts refused before the heir had the table."""
    finished: bool
    """The hand finished on the heir with a verified record equal to the stored actions."""


async def _account(url: str) -> PlayerClient:
    name = "f" + uuid.uuid4().hex[:10]
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        reply = await http.post("/auth/register", json={"name": name, "password": "password-123"})
        reply.raise_for_status()
        return PlayerClient(url, reply.json()["token"])


async def _move(c: PlayerClient, rng: random.Random) -> None:
    """A random legal move if it is the player's turn (the table passes pass-only windows)."""
    state = c.state
    if c.my_turn() and state is not None and not table_passes(state):
        await c.act(rng.choice(state["legal"]))


async def _play_until(c: PlayerClient, rng: random.Random, until_n: int) -> None:
    """Play until the player has seen event ``until_n`` of a stored game."""
    while c.game is None or c.last_n < until_n:
        message = await c.recv(30)
        if c.hand_over(message):
            raise RuntimeError("the hand ended before the kill: raise --moves' headroom")
        if message.get("type") in ("events", "snapshot"):
            await _move(c, rng)


async def _rejoin(c: PlayerClient, heir: Server, table: str, retry: float) -> int:
    """Reconnect to the heir until it answers ``joined``; the refused attempts."""
    if c.ws is not None:
        await c.ws.close()
        c.ws = None
    await c.http.aclose()
    c.server = heir.url
    c.http = httpx.AsyncClient(
        base_url=heir.url, headers={"Authorization": f"Bearer {c.token}"}, timeout=30
    )
    refused = 0
    while True:
        await c.connect()
        await c.join(table, resume=True)
        while True:
            message = await c.recv(30)
            if message.get("type") in ("joined", "error"):
                break
        if message["type"] == "joined":
            return refused
        refused += 1
        assert c.ws is not None
        await c.ws.close()
        c.ws = None
        await asyncio.sleep(retry)


async def _after_kill(
    c: PlayerClient,
    heir: Server,
    table: str,
    *,
    killed_at: float,
    seen: int,
    rng: random.Random,
    retry: float,
    marks: dict[str, float],
) -> tuple[int, dict[str, Any] | None]:
    """Rejoin on the heir, note the times, play the hand to its end: (refused joins, the
    settlement event or ``None``)."""
    refused = await _rejoin(c, heir, table, retry)
    while True:
        message = await c.recv(60)
        kind = message.get("type")
        if kind in ("events", "snapshot"):
            now = time.perf_counter() - killed_at
            marks.setdefault("rejoin", now)
            numbers = [e["n"] for e in message.get("events", [])]
            if kind == "snapshot" and message.get("game") is not None:
                numbers.append(int(message["last_n"]))
            if any(n > seen for n in numbers):
                marks.setdefault("next", now)
        if kind == "closed":
            return refused, None
        if kind == "events":
            for event in message["events"]:
                if event["kind"] == "settlement":
                    await c.send({"type": "leave"})
                    return refused, event
        if kind in ("events", "snapshot"):
            await _move(c, rng)


async def _stored_actions(url: str, game: int) -> tuple[str, ...]:
    store = await Store.open(url)
    try:
        stored = await store.games.get(game)
        return () if stored is None else tuple(stored.actions)
    finally:
        await store.close()


async def _one(owner: Server, heir: Server, moves: int, retry: float, seed: int) -> Run:
    a, b = await _account(owner.url), await _account(owner.url)
    rng = random.Random(seed)
    try:
        first, second = await asyncio.gather(a.quick_match(ROOM, 30), b.quick_match(ROOM, 30))
        table = str(first["table"])
        assert second["table"] == table
        for c in (a, b):
            await c.connect()
            await c.join(table)
        await asyncio.gather(_play_until(a, rng, moves), _play_until(b, rng, moves))
        seen = max(a.last_n, b.last_n)
        game = a.game
        killed_at = time.perf_counter()
        owner.kill()
        marks: dict[str, float] = {}
        results = await asyncio.gather(
            *(
                _after_kill(
                    c,
                    heir,
                    table,
                    killed_at=killed_at,
                    seen=seen,
                    rng=rng,
                    retry=retry,
                    marks=marks,
                )
                for c in (a, b)
            )
        )
        end = results[0][1]
        finished = False
        if end is not None and game is not None:
            verify_record(end["record"])
            stored = await _stored_actions(owner.database, game)
            finished = stored == tuple(end["record"]["actions"])
        return Run(
            rejoin_s=marks.get("rejoin", float("nan")),
            next_event_s=marks.get("next", float("nan")),
            retries=sum(r for r, _ in results),
            finished=finished,
        )
    finally:
        await a.close()
        await b.close()


def run_once(
    tmp: Path, *, lease: float, moves: int, retry: float, seed: int, time_scale: float = 1.0
) -> Run:
    """One failover on a fresh database and key prefix; the ledger audit when it is done."""
    prefix = new_prefix()
    with database("postgresql", tmp) as url:
        common = ("--redis", REDIS_URL, "--redis-prefix", prefix, "--lease", f"{lease:g}")
        owner, heir = (
            Server(
                url,
                tmp / f"{node}.log",
                *common,
                *("--node-id", node),
                time_scale=time_scale,
                bot_delay=1.0,
                ready_timeout=60.0,
            )
            for node in ("owner", "heir")
        )
        try:
            owner.start()
            heir.start()
            return asyncio.run(_one(owner, heir, moves, retry, seed))
        finally:
            owner.kill()
            heir.stop()
            asyncio.run(drop_prefix(prefix))


def _stats(values: list[float]) -> tuple[float, float, float]:
    return min(values), statistics.median(values), max(values)


def table(runs: list[Run], lease: float) -> str:
    """Per run, then min / median / max."""
    lines = [
        f"failover after kill -9 of the owner (2 nodes, PostgreSQL, lease {lease:g} s)",
        f"{'run':<8}{'rejoin s':>10}{'next event s':>14}{'refused joins':>15}  finished",
        "-" * 58,
    ]
    for i, r in enumerate(runs, 1):
        ok = "yes" if r.finished else "NO"
        lines.append(f"{i:<8}{r.rejoin_s:>10.2f}{r.next_event_s:>14.2f}{r.retries:>15}  {ok}")
    lines.append("-" * 58)
    rejoin, nxt = _stats([r.rejoin_s for r in runs]), _stats([r.next_event_s for r in runs])
    for label, i in (("min", 0), ("median", 1), ("max", 2)):
        lines.append(f"{label:<8}{rejoin[i]:>10.2f}{nxt[i]:>14.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=6, help="failovers (default %(default)s)")
    parser.add_argument(
        "--lease", type=float, default=5.0, help="the nodes' --lease in s (default %(default)s)"
    )
    parser.add_argument(
        "--moves", type=int, default=8, help="events of the hand before the kill (default 8)"
    )
    parser.add_argument(
        "--retry", type=float, default=0.1, help="s between a player's joins (default 0.1)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the players' random moves")
    parser.add_argument(
        "--time-scale", type=float, default=1.0, help="the nodes' timers (default real time)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    runs: list[Run] = []
    for i in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="erren-failover-") as tmp:
            runs.append(
                run_once(
                    Path(tmp),
                    lease=args.lease,
                    moves=args.moves,
                    retry=args.retry,
                    seed=args.seed + i,
                    time_scale=args.time_scale,
                )
            )
    text = table(runs, args.lease)
    if args.json:
        print(json.dumps({"lease": args.lease, "runs": [asdict(r) for r in runs], "table": text}))
    else:
        print(text)
    return 0 if all(r.finished for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
