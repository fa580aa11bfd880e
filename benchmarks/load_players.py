"""The players of ``bench_server``: client processes, each holding its share of the tables,
two WebSockets per table, lean random players at the pace of people."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from erren.server.client import table_passes


def more_files() -> None:
    """Each table holds two sockets on each side."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 1 << 16)), hard))


@dataclass
class Seat:
    """What one player measured."""

    latencies: list[float] = field(default_factory=list)
    """(seconds) from each ``act`` to the next message, every move of the run."""
    times: list[float] = field(default_factory=list)
    """When each of those moves was sent (seconds after the ramp began)."""
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
    origin: float,
    stop: float,
    out: Seat,
) -> None:
    """Join ``table`` and play random legal moves until ``stop`` (loop time)."""
    from websockets.asyncio.client import connect  # noqa: PLC0415

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
                out.latencies.append(time.perf_counter() - stamp)
                out.times.append(sent_at - origin)
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
            stamp = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action}))


async def _table(
    url: str, http: httpx.AsyncClient, *, think: float, seed: int, origin: float, stop: float
) -> list[Seat]:
    """Two guests of the node at ``url``: one makes a private table, the other joins it by
    its invite (an invite is known to the node that made it), and both play there."""
    seats = [Seat(), Seat()]
    try:
        async with asyncio.timeout_at(stop + 5):  # a table not open by the end never will be
            await _open_and_play(
                url, http, think=think, seed=seed, origin=origin, stop=stop, seats=seats
            )
    except TimeoutError:
        seats[0].alive = False
        seats[0].errors.append("not open before the window closed")
    except Exception as err:  # a table that failed is reported, not fatal
        seats[0].alive = False
        seats[0].errors.append(f"{type(err).__name__}: {err}")
    return seats


async def _open_and_play(
    url: str,
    http: httpx.AsyncClient,
    *,
    think: float,
    seed: int,
    origin: float,
    stop: float,
    seats: list[Seat],
) -> None:
    """Two guests, the table, the invite, and both seats' play."""
    tokens = []
    for _ in range(2):
        reply = await http.post(url + "/auth/guest")
        reply.raise_for_status()
        tokens.append(reply.json()["token"])
    heads = [{"Authorization": f"Bearer {t}"} for t in tokens]
    made = await http.post(url + "/tables/private", json={"family": "guobiao-2p"}, headers=heads[0])
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
                origin=origin,
                stop=stop,
                out=seats[i],
            )
            for i in range(2)
        )
    )


async def _watch_lag(window: tuple[float, float], lags: list[float]) -> None:
    """The client loop's stalls in the window (a stalled client inflates the latencies)."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + 0.05
        await asyncio.sleep(0.05)
        if window[0] <= due <= window[1]:
            lags.append(loop.time() - due)


def worker(job: dict[str, Any], queue: Any, go: Any) -> None:
    """One client process: ``job["tables"]`` tables opened evenly over the ramp, table ``i``
    on node ``(job["first"] + i) % len(job["urls"])``.

    It says it is ready (``None`` on ``queue``), then waits for the start time ``t0`` on ``go``:
    the ramp starts when every client has started up, however long that took on this machine.
    """
    if job["cpus"]:
        os.sched_setaffinity(0, job["cpus"])
    more_files()
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
        origin = begin - (time.time() - t0)  # the ramp's start on this loop's clock
        start = origin + job["ramp"] + job["warmup"]
        window = (start, start + job["seconds"])
        n, urls = job["tables"], job["urls"]
        limits = httpx.Limits(max_connections=20 * len(urls), max_keepalive_connections=20)
        async with httpx.AsyncClient(timeout=120, limits=limits) as http:

            async def later(i: int) -> list[Seat]:
                await asyncio.sleep(max(0.0, origin + job["ramp"] * i / max(n, 1) - begin))
                url = urls[(job["first"] + i) % len(urls)]
                return await _table(
                    url,
                    http,
                    think=job["think"],
                    seed=job["seed"] + 2 * i,
                    origin=origin,
                    stop=window[1],
                )

            cpu0 = os.times()
            watch = asyncio.create_task(_watch_lag(window, lags))
            tables = await asyncio.gather(*(later(i) for i in range(n)))
            watch.cancel()
            cpu1 = os.times()
        return {
            "tables": [
                {
                    "node": (job["first"] + i) % len(urls),
                    "latencies": [x for s in t for x in s.latencies],
                    "times": [x for s in t for x in s.times],
                    "hands": min(s.hands for s in t),
                    "errors": [e for s in t for e in s.errors],
                    "alive": all(s.alive for s in t),
                }
                for i, t in enumerate(tables)
            ],
            "cpu": (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system),
            "lag": max(lags, default=0.0),
        }

    queue.put(asyncio.run(main()))


def start_clients(jobs: list[dict[str, Any]]) -> tuple[list[Any], Any, float]:
    """One client process per job; once every one has started up (a spawned process imports
    erren, which takes seconds on a busy machine), they all get the same start time ``t0``.
    Returns (the processes, the queue of their results, ``t0``)."""
    ctx = multiprocessing.get_context("spawn")
    queue: Any = ctx.Queue()
    go: Any = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(job, queue, go)) for job in jobs]
    for proc in procs:
        proc.start()
    for _ in procs:
        queue.get()  # that client is ready
    t0 = time.time()
    for _ in procs:
        go.put(t0)
    return procs, queue, t0
