"""Does heavy work starve play?  One ``erren serve`` and one player at a table against the
computer, measured while floods of the server's heavy work run beside it, one phase at a time.

Run ``python -m benchmarks.bench_starve [--rounds 4] [--seconds 10] [--logins 16] [--replays 3]``.

The server: ``erren serve`` on a fresh SQLite file in a temporary directory, real timers, the
production argon2id parameters (no ``--fast-passwords``: the hashing is the point),
``--bot-delay 0`` (the computer answers without its artificial thinking time, 1 s by default:
``TableConfig.bot_delay_s``), ``--claim-pause 0`` (no 鸣牌保护 pause before a draw) and
``--register-limit 0`` (the benchmark registers its accounts from one address).

The player: a registered account at a guobiao-2p table against the computer at ``--level``
(default ``master``, 大师: the ``expert`` bot with its whole budget, in the server's pool of
computer threads), playing hand after hand with the ``efficiency`` bot and answering at once.
Measured per phase:

* **computer**: seconds from sending our move (``act``) to the first ``events`` message holding
  the computer's next move of its own (a discard, 报听, chi, peng, kong, hu or zimo; not its
  draws or passes) — its claim decision, its draw and its discard decision on our discard.  A
  move the computer does not answer (we move again, the hand ends) is not counted; a move is
  counted in the phase it was sent in.
* **ping**: the round trip of ``{"type": "ping"}`` → ``pong`` on a second WebSocket of the same
  account (every 0.1 s), which joins no table: the server's event loop, not the table.
* **the flood's work**: logins and replays answered 200 per second of the phase, and the
  refusals: 429 (a throttle), 503 (``busy``: the pool's queue is full), other (any other status
  or a failed request).
* **stall**: the longest event-loop stall of the server (``/health``'s ``lag_ms``, read at the
  phase's start and end) and of this process (a 10 ms sleeper's lateness).

Phases, each ``--seconds`` long, ``--rounds`` times in this order (interleaved, so that a slow
spell of the machine falls on every kind alike; the player plays on through all of them):

* ``quiet``: nothing else.
* ``logins``: ``--logins`` clients, each with an account of its own (registered first), doing
  ``POST /auth/login`` with the right password in a loop.  A right password is never counted by
  the login throttles (10 wrong passwords per account, 30 per address a minute), but a login in
  flight is, so more than 30 clients at once from one address would meet 429.
* ``replays``: ``--replays`` clients doing ``POST /web/replay`` in a loop, each request a
  distinct valid record (simulated ``random`` vs ``random`` guobiao-2p hands, the longest of
  them, with a fresh ``game`` number so that the server's cache misses).  They meet the throttle
  of 30 new replays a minute per address (429).
* ``replays-xff``: the same with that throttle bypassed: each request says it comes from a new
  address (``X-Forwarded-For``, which the server believes from 127.0.0.1, its default trusted
  proxy).

A refused request (429, 503) is followed by ``--refused-pause`` s (0.1) before the client's next
one, so that a phase measures the work and not a storm of refusals.  When a phase ends no new
request is sent and the requests in flight are awaited (not counted: the next phase starts when
the flood's work is done).  Printed: one table, a row per kind of phase (its rounds merged) ×
figures: the computer's p50 over quiet's with a 95 % bootstrap interval, the lowest and highest
of each round's p50 over that round's quiet (for quiet, each round's over all rounds': the
machine's own noise, against which the others are read) and p99 over quiet's.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from erren.bots import Bot, find_bot
from erren.engine import find_family
from erren.server.client import ClientError, PlayerClient, table_passes
from erren.server.protocol import action_text, observation_from_json
from erren.sim import simulate
from erren.testing.servers import Server, database

FAMILY = "guobiao-2p"
PASSWORD = "starve-bench-password"
COMPUTER_MOVES = frozenset(
    {"discard", "ting", "chi", "peng", "minggang", "angang", "jiagang", "hu", "zimo"}
)
"""The computer's own moves (its draws and passes are not answers)."""
FATAL = frozenset({"not-seated", "auth", "logged-out", "too-many-connections"})
RECV_TIMEOUT = 60.0
PING_EVERY = 0.1
TICK = 0.01
RECORDS = 8
REGISTERING = 8
"""Registrations at once (the password pool queues 32 jobs at most)."""


# ------------------------------------------------------------------------------ the phases
@dataclass(frozen=True)
class Flood:
    """What runs beside the player in a phase."""

    logins: int = 0
    replays: int = 0
    forwarded: bool = False
    """Each replay from a new address (``X-Forwarded-For``): the throttle bypassed."""


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    flood: Flood
    answers: list[float] = field(default_factory=list)
    """Seconds from our move to the computer's next move."""
    pings: list[float] = field(default_factory=list)
    answered: Counter[str] = field(default_factory=Counter)
    """``login``, ``replay`` (200), ``429``, ``503``, ``other``."""
    seconds: float = 0.0
    server_stall_ms: float = 0.0
    client_stall_ms: float = 0.0


@dataclass
class Window:
    """The phase being measured now (``None`` between phases) and the player's tallies."""

    phase: Phase | None = None
    hands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    """The player's non-fatal socket errors, by code."""
    playing: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at the computer's first answer: the table plays."""


def plan(logins: int, replays: int, rounds: int = 1) -> list[Phase]:
    """The phases in the order they run: ``rounds`` times quiet, logins, replays, replays-xff
    (interleaved, so that a slow spell of the machine falls on every kind alike)."""
    return [
        phase
        for _ in range(rounds)
        for phase in (
            Phase("quiet", Flood()),
            Phase("logins", Flood(logins=logins)),
            Phase("replays", Flood(replays=replays)),
            Phase("replays-xff", Flood(replays=replays, forwarded=True)),
        )
    ]


def merge(phases: Sequence[Phase]) -> Phase:
    """The rounds of one kind of phase as one."""
    merged = Phase(phases[0].name, phases[0].flood)
    for phase in phases:
        merged.answers += phase.answers
        merged.pings += phase.pings
        merged.answered += phase.answered
        merged.seconds += phase.seconds
        merged.server_stall_ms = max(merged.server_stall_ms, phase.server_stall_ms)
        merged.client_stall_ms = max(merged.client_stall_ms, phase.client_stall_ms)
    return merged


# ------------------------------------------------------------------------------ the player
def computer_moved(message: dict[str, Any], computer: int) -> bool:
    """Whether an ``events`` message holds a move of the computer's own."""
    return any(
        e.get("player") == computer and e.get("kind") in COMPUTER_MOVES
        for e in message.get("events", ())
    )


def choose(bot: Bot, state: dict[str, Any]) -> str:
    obs = observation_from_json(state)
    return action_text(bot.choose(obs, obs.legal_actions))


async def play_table(client: PlayerClient, table: str, bot: Bot, window: Window) -> None:
    """Play at ``table`` hand after hand until it closes; each move the computer answers is
    timed into the phase it was sent in."""
    await client.join(table)
    sent: tuple[float, Phase | None] | None = None
    while True:
        message = await client.recv(RECV_TIMEOUT)
        kind = message.get("type")
        if kind == "closed":
            return
        if kind == "error":
            if message.get("code") in FATAL:
                raise ClientError(str(message.get("message")))
            window.errors[str(message.get("code"))] += 1
            continue
        if sent is not None and kind == "events" and computer_moved(message, 1 - client.seat):
            at, phase = sent
            sent = None
            if phase is not None and phase is window.phase:
                phase.answers.append(time.perf_counter() - at)
            window.playing.set()
        if client.hand_over(message):
            sent = None
            window.hands += 1
            await client.send({"type": "ready"})
        elif kind in ("events", "snapshot") and client.my_turn():
            assert client.state is not None
            if not table_passes(client.state):
                action = choose(bot, client.state)
                sent = (time.perf_counter(), window.phase)
                await client.act(action)


async def play_forever(url: str, token: str, level: str, window: Window) -> None:
    """One table against the computer after another (a table that closes is replaced)."""
    bot = find_bot("efficiency", seed=1)
    async with PlayerClient(url, token, timeout=RECV_TIMEOUT) as client:
        await client.connect()
        while True:
            made = await client.vs_computer(FAMILY, level=level)
            await play_table(client, str(made["table"]), bot, window)


async def ping_forever(url: str, token: str, window: Window) -> None:
    """Ping on a socket of its own, every :data:`PING_EVERY` s."""
    async with PlayerClient(url, token, timeout=RECV_TIMEOUT) as pinger:
        await pinger.connect()
        while True:
            phase = window.phase
            at = time.perf_counter()
            await pinger.send({"type": "ping"})
            while (await pinger.recv(RECV_TIMEOUT)).get("type") != "pong":
                pass
            if phase is not None and phase is window.phase:
                phase.pings.append(time.perf_counter() - at)
            await asyncio.sleep(PING_EVERY)


async def watch_loop(window: Window) -> None:
    """This process's event-loop stalls: how late a :data:`TICK` s sleep wakes."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(TICK)
        late_ms = (loop.time() - before - TICK) * 1000
        phase = window.phase
        if phase is not None:
            phase.client_stall_ms = max(phase.client_stall_ms, late_ms)


# ------------------------------------------------------------------------------ the floods
def tally(phase: Phase, ok: str, status: int) -> bool:
    """Count one answer; whether it was a refusal (429, 503)."""
    if status == 200:
        phase.answered[ok] += 1
    elif status in (429, 503):
        phase.answered[str(status)] += 1
        return True
    else:
        phase.answered["other"] += 1
    return False


async def flood_loop(
    request: Callable[[], Awaitable[int]], ok: str, window: Window, phase: Phase, pause: float
) -> None:
    """``request()`` (its status, 0 when it failed) again and again while ``phase`` lasts;
    an answer that comes after the phase is not counted."""
    while window.phase is phase:
        try:
            status = await request()
        except httpx.HTTPError:
            status = 0
        if window.phase is not phase:
            return
        if tally(phase, ok, status):
            await asyncio.sleep(pause)


def login(http: httpx.AsyncClient, name: str) -> Callable[[], Awaitable[int]]:
    async def one() -> int:
        reply = await http.post("/auth/login", json={"name": name, "password": PASSWORD})
        return reply.status_code

    return one


def address(n: int) -> str:
    """A made-up client address of the 10.0.0.0/8 network for request ``n``."""
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def replay(
    http: httpx.AsyncClient,
    records: Sequence[dict[str, Any]],
    numbers: Iterator[int],
    forwarded: bool,
) -> Callable[[], Awaitable[int]]:
    async def one() -> int:
        n = next(numbers)
        body = dict(records[n % len(records)], game=n)  # a new record for the cache
        headers = {"Accept-Encoding": "gzip"}
        if forwarded:
            headers["X-Forwarded-For"] = address(n)
        async with http.stream("POST", "/web/replay", json=body, headers=headers) as reply:
            async for _ in reply.aiter_raw():  # read, not decompressed
                pass
            return reply.status_code

    return one


@dataclass(frozen=True)
class Flooders:
    """What the floods need: an HTTP client, the login accounts, the records to post."""

    http: httpx.AsyncClient
    names: list[str]
    records: list[dict[str, Any]]
    numbers: Iterator[int]
    pause: float


def start_flood(flooders: Flooders, window: Window, phase: Phase) -> list[asyncio.Task[None]]:
    flood, http = phase.flood, flooders.http
    requests = [(login(http, name), "login") for name in flooders.names[: flood.logins]]
    requests += [
        (replay(http, flooders.records, flooders.numbers, flood.forwarded), "replay")
    ] * flood.replays
    return [
        asyncio.create_task(flood_loop(request, ok, window, phase, flooders.pause))
        for request, ok in requests
    ]


# ------------------------------------------------------------------------------ a run
async def server_stall_ms(http: httpx.AsyncClient) -> float:
    """The server's longest event-loop stall since the last ``/health``."""
    reply = await http.get("/health")
    reply.raise_for_status()
    return float(reply.json()["lag_ms"])


def check(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Raise the error of a background task that ended (they run until cancelled)."""
    for task in tasks:
        if task.done():
            error = task.exception()
            raise RuntimeError(f"{task.get_name()} ended: {error!r}") from error


async def run_phase(
    flooders: Flooders,
    window: Window,
    phase: Phase,
    seconds: float,
    background: Sequence[asyncio.Task[None]],
) -> None:
    loop = asyncio.get_running_loop()
    await server_stall_ms(flooders.http)  # from now on
    start = loop.time()
    window.phase = phase
    workers = start_flood(flooders, window, phase)
    try:
        await asyncio.sleep(seconds)
        phase.server_stall_ms = await server_stall_ms(flooders.http)
    finally:
        window.phase = None
        phase.seconds = loop.time() - start
        await asyncio.gather(*workers)  # the requests in flight (the next phase starts after)
    check(background)


async def register(http: httpx.AsyncClient, name: str) -> str:
    reply = await http.post("/auth/register", json={"name": name, "password": PASSWORD})
    if reply.status_code != 201:
        raise RuntimeError(f"register {name}: {reply.status_code} {reply.text}")
    return str(reply.json()["token"])


async def register_all(http: httpx.AsyncClient, names: Sequence[str]) -> list[str]:
    gate = asyncio.Semaphore(REGISTERING)

    async def one(name: str) -> str:
        async with gate:
            return await register(http, name)

    return list(await asyncio.gather(*(one(name) for name in names)))


def sample_records(count: int) -> list[dict[str, Any]]:
    """``count`` distinct guobiao-2p records, the longest of ``2 × count`` random hands."""
    sink = io.StringIO()
    simulate(find_family(FAMILY), ["random", "random"], hands=2 * count, seed=7, jsonl=sink)
    records = [json.loads(line) for line in sink.getvalue().splitlines()]
    records.sort(key=lambda r: -len(r["actions"]))
    return records[:count]


async def cancel(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until they have ended.  A task still running a second later is
    cancelled again: on Python 3.11 ``asyncio.wait_for`` (inside ``PlayerClient.recv``) can
    swallow a cancellation that arrives as its message does, and the loop would go on."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=1.0)
    for task in tasks:  # retrieve what they ended with, so nothing is logged as unretrieved
        if not task.cancelled():
            task.exception()


@dataclass(frozen=True)
class Options:
    seconds: float
    rounds: int
    logins: int
    replays: int
    level: str
    pause: float


async def first_answer(window: Window, background: Sequence[asyncio.Task[None]]) -> None:
    """Wait until the table plays (the computer has answered once)."""
    waiting: asyncio.Task[Any] = asyncio.create_task(window.playing.wait())
    done, _ = await asyncio.wait(
        [waiting, *background], timeout=RECV_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
    )
    await cancel([waiting])
    check(background)
    if waiting not in done:
        raise RuntimeError(f"the computer did not answer within {RECV_TIMEOUT:g} s")


WARM_UP_TRIES = 3
"""Attempts of the warm-up's request when its connection fails (the floods count such a failure
and go on; one dropped connection before the phases should not end the run)."""


async def warm_up(flooders: Flooders) -> None:
    """Start the replay process (its first job spawns it) before the phases, from an address
    of its own (not counted by the throttle of 127.0.0.1)."""
    for attempt in range(1, WARM_UP_TRIES + 1):
        try:
            status = await replay(flooders.http, flooders.records, flooders.numbers, True)()
            break
        except httpx.TransportError as error:  # a dropped connection: httpx opens a new one
            if attempt == WARM_UP_TRIES:
                raise RuntimeError(f"POST /web/replay failed {attempt} times: {error!r}") from error
    if status != 200:
        raise RuntimeError(f"POST /web/replay answered {status}")


async def bench(
    url: str, options: Options, phases: Sequence[Phase], records: list[dict[str, Any]]
) -> Window:
    """Register the accounts, start the player, run the phases one after the other."""
    limits = httpx.Limits(max_connections=options.logins + options.replays + 8)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        names = [f"flood{i}" for i in range(options.logins)]
        token, *_ = await register_all(http, ["starver", *names])
        window = Window()
        background = [
            asyncio.create_task(play_forever(url, token, options.level, window), name="player"),
            asyncio.create_task(ping_forever(url, token, window), name="pinger"),
            asyncio.create_task(watch_loop(window), name="watcher"),
        ]
        try:
            flooders = Flooders(http, names, records, itertools.count(), options.pause)
            await warm_up(flooders)
            await first_answer(window, background)
            for phase in phases:
                await run_phase(flooders, window, phase, options.seconds, background)
        finally:
            await cancel(background)
    return window


# ------------------------------------------------------------------------------ the table
def quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: Sequence[float], qs: Sequence[float]) -> str:
    """The quantiles ``qs`` (1: the max) of ``values`` in ms, ``a / b / c``; – without any."""
    if not values:
        return " / ".join("–" for _ in qs)
    ordered = sorted(values)
    return " / ".join(f"{quantile(ordered, q) * 1000:.1f}" for q in qs)


def ratio(values: Sequence[float], quiet: Sequence[float], q: float) -> float:
    return quantile(sorted(values), q) / quantile(sorted(quiet), q)


def ratio_ci(values: Sequence[float], quiet: Sequence[float], resamples: int = 1000) -> str:
    """The p50 of ``values`` over quiet's with a 95 % bootstrap interval (seeded)."""
    if not values or not quiet:
        return "–"
    rng = random.Random(0)
    draws = sorted(
        ratio(rng.choices(values, k=len(values)), rng.choices(quiet, k=len(quiet)), 0.5)
        for _ in range(resamples)
    )
    low, high = quantile(draws, 0.025), quantile(draws, 0.975)
    return f"{ratio(values, quiet, 0.5):.2f}× [{low:.2f}, {high:.2f}]"


def by_round(rounds: Sequence[Phase], quiets: Sequence[Phase]) -> str:
    """The lowest and highest p50 of a round of this kind over its own round's quiet; for
    quiet itself, each round's over all rounds' (the machine's own noise)."""
    if rounds[0].flood == Flood():
        pooled = [answer for quiet in quiets for answer in quiet.answers]
        pairs = [(phase.answers, pooled) for phase in rounds]
    else:
        pairs = [
            (phase.answers, quiet.answers) for phase, quiet in zip(rounds, quiets, strict=True)
        ]
    ratios = [ratio(values, quiet, 0.5) for values, quiet in pairs if values and quiet]
    return f"{min(ratios):.2f}–{max(ratios):.2f}×" if ratios else "–"


def per_second(phase: Phase, key: str) -> str:
    if phase.seconds <= 0:
        return "–"
    return f"{phase.answered[key] / phase.seconds:.1f}"


HEADER = (
    "phase",
    "answers",
    "computer p50 / p90 / p99 / max (ms)",
    "p50 vs quiet [95 % CI]",
    "p50 vs quiet by round",
    "p99 vs quiet",
    "ping p50 / p99 (ms)",
    "logins/s",
    "replays/s",
    "429",
    "503",
    "other",
    "stall server / client (ms)",
)


def row(rounds: Sequence[Phase], quiets: Sequence[Phase]) -> list[str]:
    phase, quiet = merge(rounds), merge(quiets)
    p99 = "–"
    if phase.answers and quiet.answers:
        p99 = f"{ratio(phase.answers, quiet.answers, 0.99):.2f}×"
    return [
        phase.name,
        str(len(phase.answers)),
        ms(phase.answers, (0.5, 0.9, 0.99, 1.0)),
        ratio_ci(phase.answers, quiet.answers),
        by_round(rounds, quiets),
        p99,
        ms(phase.pings, (0.5, 0.99)),
        per_second(phase, "login"),
        per_second(phase, "replay"),
        str(phase.answered["429"]),
        str(phase.answered["503"]),
        str(phase.answered["other"]),
        f"{phase.server_stall_ms:.0f} / {phase.client_stall_ms:.0f}",
    ]


def table(phases: Sequence[Phase]) -> str:
    """One row per kind of phase, its rounds merged."""
    kinds = dict.fromkeys(phase.name for phase in phases)
    rounds = {kind: [phase for phase in phases if phase.name == kind] for kind in kinds}
    quiets = rounds[phases[0].name]
    rows = [list(HEADER), *(row(rounds[kind], quiets) for kind in kinds)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "| " + " | ".join("-" * w for w in widths) + " |"
    return "\n".join([line(rows[0]), rule, *(line(r) for r in rows[1:])])


def report(options: Options, phases: Sequence[Phase], window: Window, records: int) -> str:
    errors = ", ".join(f"{code} {n}" for code, n in sorted(window.errors.items())) or "none"
    return "\n".join(
        [
            f"erren serve on SQLite, production argon2id, --bot-delay 0 --claim-pause 0; "
            f"the computer at {options.level}, {FAMILY}",
            f"{options.rounds} rounds of four phases of {options.seconds:g} s; "
            f"{options.logins} login clients, {options.replays} "
            f"replay clients ({records} records); a refused client waits {options.pause:g} s",
            f"hands played {window.hands}; the player's socket errors: {errors}",
            "",
            table(phases),
        ]
    )


# ------------------------------------------------------------------------------ main
def parse(argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds a phase (10)")
    parser.add_argument(
        "--rounds", type=int, default=4, help="rounds of the four phases, interleaved (4)"
    )
    parser.add_argument("--logins", type=int, default=16, help="login clients (16)")
    parser.add_argument("--replays", type=int, default=3, help="replay clients (3)")
    parser.add_argument("--level", default="master", help="the computer's level (master)")
    parser.add_argument(
        "--refused-pause",
        type=float,
        default=0.1,
        help="seconds a client waits after a 429 or 503 (0.1)",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    return Options(
        args.seconds, args.rounds, args.logins, args.replays, args.level, args.refused_pause
    )


def main(argv: Sequence[str] | None = None) -> None:
    options = parse(argv)
    records = sample_records(RECORDS)
    phases = plan(options.logins, options.replays, options.rounds)
    with tempfile.TemporaryDirectory() as tmp, database("sqlite", Path(tmp)) as url:
        server = Server(
            url,
            Path(tmp) / "server.log",
            *("--claim-pause", "0", "--register-limit", "0"),
            time_scale=1,
            bot_delay=0,
            fast_passwords=False,
        )
        try:
            server.start(timeout=60)
            window = asyncio.run(bench(server.url, options, phases, records))
        finally:
            server.stop()
    print(report(options, phases, window, len(records)))


if __name__ == "__main__":
    main()
