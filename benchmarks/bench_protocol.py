"""The protocol's JSON of observations and events (the generic codec on the server's hot path).

Run ``python -m benchmarks.bench_protocol [--games N]``: random hands of the three families,
then µs per ``observation_json`` (every observation of every decision) and per ``event_json``
(every event as seat 0 sees it), best of three runs; then what the table adds to a player's own
state, ``observation_json(..., hints=True)`` and ``hints_json`` alone (the ready hints,
:mod:`erren.bots.hints`), over the same observations.  A hand's review (大师, rollouts) is
measured by :mod:`benchmarks.bench_review`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from erren.engine import Event, Observation, State, find_family
from erren.server.protocol import event_json, hints_json, observation_json


def _samples(games: int) -> tuple[list[Observation], list[Event]]:
    observations: list[Observation] = []
    events: list[Event] = []
    for family in ("guobiao-2p", "xiamen", "arcade"):
        for seed in range(games):
            rng = random.Random(seed)
            state = State.new(find_family(family), seed=seed)
            while not state.is_terminal:
                observations.append(state.observe(state.current_player()))
                state.apply(rng.choice(state.legal_actions()))
            events.extend(state.events_since(0))
    return observations, events


def _best_us(run: Callable[[], object], count: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / count * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=15, help="hands per family")
    args = parser.parse_args(argv)
    observations, events = _samples(args.games)
    obs_us = _best_us(lambda: [observation_json(o) for o in observations], len(observations))
    ev_us = _best_us(lambda: [event_json(e, e.seq + 1) for e in events], len(events))
    print(f"observation_json  {obs_us:8.1f} µs  ({len(observations)} observations)")
    print(f"event_json        {ev_us:8.2f} µs  ({len(events)} events)")
    with_us = _best_us(
        lambda: [observation_json(o, hints=True) for o in observations], len(observations)
    )
    hints_us = _best_us(lambda: [hints_json(o) for o in observations], len(observations))
    print(f"... with hints    {with_us:8.1f} µs  (the table's state for a player)")
    print(f"hints_json        {hints_us:8.1f} µs  (the ready hints alone)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
