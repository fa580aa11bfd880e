"""Fair matchmaking, measured: how long players wait and how close their opponents are.

Run ``python -m benchmarks.bench_matchmaking [--players 10000] [--rates 0.1 0.5 2 10] [--spread 3]
[--noise 0] [--seed 1]``.  For each arrival rate, ``--players`` players of known strength (a
skill drawn from a normal law around 25 with standard deviation ``--spread``, on the rating's
``mu`` scale) arrive one by one into one room at random (a Poisson process of ``rate`` players
per second), and each waits until he is paired.  The pairing is the server's own code
(:class:`erren.server.pairing.Queues` with its rule, :mod:`erren.server.matchrule`) on a
simulated clock: no wall-clock time passes; a waiting player's alarm (the next moment a window
widens, :meth:`Queues.widens`, or a repeat hold ends) is an event of the simulation, as it is a
timer on the server.  The matchmaker sees each player's rating: his strength plus a normal
error of standard deviation ``--noise`` (0: the strength itself).

Both rules run on the same arrivals: ``closest`` (the rule now: the closest rating within a
window that widens with the wait) and ``oldest`` (the rule before, :data:`OLDEST_FIRST`:
anyone, the oldest first).  Printed per rate and rule: the pairs made, each player's wait
(p50, p95, max, in seconds; a player paired on arrival waited 0) and the gap of strength
between the two players of a pair (mean and p95).  Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from erren.server.clock import Clock
from erren.server.matchrule import OLDEST_FIRST, Rule
from erren.server.pairing import Queues, RecentPairs, Waiter

ROOM = "guobiao-2p/novice"
MEAN_SKILL = 25.0


class SimClock(Clock):
    """The simulation's clock: it shows the time of the event being handled."""

    def __init__(self) -> None:
        super().__init__()
        self.t = 0.0

    def now(self) -> float:
        return self.t


@dataclass
class Tally:
    """What one run measured."""

    waits: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _arrivals(players: int, rate: float, spread: float, noise: float, seed: int) -> list[Player]:
    rng = random.Random(seed)
    t = 0.0
    out = []
    for user_id in range(1, players + 1):
        t += rng.expovariate(rate)
        strength = rng.gauss(MEAN_SKILL, spread)
        out.append(Player(user_id, t, strength, strength + rng.gauss(0.0, noise)))
    return out


@dataclass(frozen=True)
class Player:
    """One arrival: when, his true strength, and the rating the matchmaker sees."""

    user_id: int
    at: float
    strength: float
    rating: float


async def simulate(arrivals: Sequence[Player], rule: Rule) -> Tally:
    """Play the arrivals through the server's queues under ``rule``."""
    clock = SimClock()
    queues = Queues(RecentPairs(clock), wall=clock, rule=rule)
    by_id = {p.user_id: p for p in arrivals}
    waiting: dict[int, Waiter] = {}
    tally = Tally()
    events: list[tuple[float, int, int]] = [(p.at, 0, p.user_id) for p in arrivals]
    heapq.heapify(events)  # (time, 0 arrival / 1 alarm, player)

    def paired(a: int, b: int) -> None:
        queues.recent.paired(a, b)
        for user_id in (a, b):
            waiter = waiting.pop(user_id, None)
            tally.waits.append(0.0 if waiter is None else clock.t - waiter.since)
            if waiter is not None:
                queues.drop(ROOM, waiter)
                waiter.future.cancel()
        tally.gaps.append(abs(by_id[a].strength - by_id[b].strength))

    def alarm(waiter: Waiter) -> None:
        chances = [queues.widens(ROOM, waiter), queues.hold(ROOM, waiter.user_id)]
        soonest = min((c for c in chances if c is not None), default=None)
        if soonest is not None:
            heapq.heappush(events, (clock.t + soonest, 1, waiter.user_id))

    while events:
        clock.t, kind, user_id = heapq.heappop(events)
        player = by_id[user_id]
        if kind == 1 and user_id not in waiting:
            continue  # paired meanwhile: his alarm is cancelled
        since = None if kind == 0 else waiting[user_id].since
        other = queues.partner(ROOM, user_id, player.rating, since)
        if other is not None:
            paired(other.user_id, user_id)
        elif kind == 0:
            waiting[user_id] = queues.add(ROOM, user_id, str(user_id), skill=player.rating)
            alarm(waiting[user_id])
        else:
            alarm(waiting[user_id])
    for waiter in waiting.values():
        waiter.future.cancel()
    return tally


def _row(rate: float, name: str, tally: Tally, players: int) -> str:
    waits, gaps = tally.waits, tally.gaps
    mean_gap = sum(gaps) / len(gaps) if gaps else 0.0
    return (
        f"| {rate:g} | {name} | {len(gaps):,} | {players - len(waits):,} "
        f"| {_quantile(waits, 0.5):.1f} | {_quantile(waits, 0.95):.1f} | {max(waits):.1f} "
        f"| {mean_gap:.2f} | {_quantile(gaps, 0.95):.2f} |"
    )


async def run(args: argparse.Namespace) -> list[str]:
    lines = [
        f"{args.players:,} players per rate, strength N(25, {args.spread:g}²), rating error "
        f"{args.noise:g}, seed {args.seed}",
        "",
        "| arrivals /s | rule | pairs | unpaired | wait p50 (s) | wait p95 (s) | wait max (s) "
        "| mean gap | p95 gap |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for rate in args.rates:
        arrivals = _arrivals(args.players, rate, args.spread, args.noise, args.seed)
        for name, rule in (("closest", Rule()), ("oldest", OLDEST_FIRST)):
            lines.append(_row(rate, name, await simulate(arrivals, rule), args.players))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10_000, help="arrivals per rate")
    parser.add_argument("--rates", type=float, nargs="+", default=[0.1, 0.5, 2.0, 10.0])
    parser.add_argument("--spread", type=float, default=3.0, help="strength's std deviation")
    parser.add_argument("--noise", type=float, default=0.0, help="rating error's std deviation")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for line in asyncio.run(run(args)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
