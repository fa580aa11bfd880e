"""How far a defence could take xiamen's 大师 (issue #30 point 3, "the opponent's risk"):
大师 (A) that, where the discard it chose would let the opponent win 平和, throws instead
the first discard in the efficiency bot's order that he cannot win on — against today's 大师
(B), in duplicate play on xiamen.

Run ``python -m benchmarks.bench_xiamen_defence [--deals 4000] [--seed 778] [--workers 2]
[--rows oracle,fold,reader]``.  The rows:

* ``oracle``: told which discards the opponent wins on (the engine's own legal actions after
  the discard: hidden information no player has), A only switches to a discard that leaves
  its hand as close to ready — a ceiling for any reader of xiamen hands;
* ``fold``: the same oracle, allowed to break its hand for a safe tile;
* ``reader``: guobiao-2p's wait reader (:mod:`erren.bots.waitreader`, trained on guobiao
  hands: the two families play the same 16 kinds) as the risk instead, switching away from a
  discard it gives a chance ≥ ``READER_AT`` to one it gives less than that, as close to ready,
  unless the discard enters 游金-ready (a guess is not worth the ×4 + 50 of 游金).  It
  measures whether that reader carries over to xiamen.

Prints A − B points per hand with its 95 % interval, A's and B's deal-in rates, how often A
switched per hand and the time taken.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from erren.analysis.shapes import XIAMEN
from erren.analysis.waits import discard_table
from erren.bots.base import Bot
from erren.bots.common import by_tile
from erren.bots.waitreader.model import load_reader
from erren.engine import Action, ActionKind, Family, Observation, State, find_family
from erren.families.xiamen.bot.efficiency import gold_counts, physical_tile, you_ready_after
from erren.families.xiamen.game.view import XiamenView
from erren.sim.arena import ArenaResult, Deal, _book, _play, deals_of, make_bot
from erren.sim.oracle import deals_in

MASTER = "master"
ROWS = ("oracle", "fold", "reader")
READER_AT = 0.1
"""The reader row's chance from which a discard is avoided."""

Risky = Callable[[Observation, Action], bool]
"""Whether a discard is one to avoid."""


def deals_into(state: State) -> Risky:
    """The oracle: whether the opponent may win 平和 on this discard in ``state``."""
    return lambda _observation, action: deals_in(state, action)


def read_by_reader(observation: Observation, action: Action) -> bool:
    """The reader row: the guobiao reader gives the discard's kind ``READER_AT`` or more."""
    chances = load_reader().chances(observation, ting_auto_hu=False)
    return bool(chances[int(action.tile_kind())] >= READER_AT)


class Dodger(Bot):
    """``inner``'s play, but for a discard ``risky`` flags: the first discard in the efficiency
    bot's order that is not flagged (no further from ready unless ``fold``; none: unchanged)."""

    name = "dodger"

    def __init__(self, inner: Bot, risky: Risky, *, fold: bool, reader: bool) -> None:
        self.inner, self.risky, self.fold, self.reader = inner, risky, fold, reader
        self.switches = 0

    def bind(self, ruleset: Family) -> None:
        super().bind(ruleset)
        self.inner.bind(ruleset)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        chosen = self.inner.choose(observation, legal_actions)
        view = observation.view
        if chosen.kind is not ActionKind.DISCARD or not isinstance(view, XiamenView):
            return chosen
        if view.gold is None or view.you_level[observation.opponent] != 0:
            return chosen  # at a 游 level the opponent wins on no discard
        if not self.risky(observation, chosen):
            return chosen
        gold = int(view.gold)
        counts, golds, visible = gold_counts(observation, gold)
        rows = discard_table(counts, wilds=golds, shapes=XIAMEN, visible=visible)
        discards = by_tile(legal_actions, ActionKind.DISCARD)
        order: list[tuple[int, Action]] = []
        for row in rows:
            tile = gold if row.discard is None else physical_tile(row.discard, gold)
            if tile in discards:
                order.append((row.shanten, discards[tile]))
        mine = next((s for s, a in order if a == chosen), None)
        if mine is None or (
            self.reader and you_ready_after(counts, golds, gold, int(chosen.tile_kind()))
        ):
            return chosen  # the reader row never gives up 游金 (×4 + 50) for a guess
        for shanten, action in order:
            if action == chosen or (shanten > mine and not self.fold):
                continue
            if self.reader and int(action.tile_kind()) == gold:
                continue  # the reader row keeps its golds, as 大师 does
            if not self.risky(observation, action):
                self.switches += 1
                return action
        return chosen


def play(row: str, deals: Sequence[Deal]) -> tuple[ArenaResult, int]:
    """Both games of each deal, A (``row``) against ``master``, seats swapped; and A's
    switches."""
    rules = find_family("xiamen")
    result = ArenaResult(rules.name, (row, MASTER), 0, unit=rules.score_unit)
    switches = 0
    for deal in deals:
        points = []
        for seats in ((0, 1), (1, 0)):
            state = State.new(rules, seed=deal.seed, dealer=deal.dealer)
            risky = read_by_reader if row == "reader" else deals_into(state)
            a = Dodger(
                make_bot(MASTER, deal.bot_seed, rules),
                risky,
                fold=row == "fold",
                reader=row == "reader",
            )
            b = make_bot(MASTER, deal.bot_seed, rules)
            bots = [a, b] if seats == (0, 1) else [b, a]
            clocks = [result.sides[0 if bot is a else 1].times for bot in bots]
            _play(state, bots, clocks)
            points.append(_book(result, state, seats))
            switches += a.switches
        result.a_points.append((points[0], points[1]))
    return result, switches


def measure(row: str, *, deals: int, seed: int, workers: int) -> tuple[ArenaResult, int]:
    """:func:`play` over ``deals`` deals of ``seed``, split over ``workers`` processes."""
    plan = deals_of(seed, deals)
    size = max(1, -(-len(plan) // workers))
    parts = [plan[i : i + size] for i in range(0, len(plan), size)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        results = [f.result() for f in [pool.submit(play, row, part) for part in parts]]
    total, switches = results[0]
    for part, more in results[1:]:
        total.merge(part)
        switches += more
    return total, switches


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=778)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rows", default=",".join(ROWS), help="e.g. oracle,reader")
    args = parser.parse_args(argv)
    rows = args.rows.split(",")
    unknown = sorted(set(rows) - set(ROWS))
    if unknown:
        parser.error(f"unknown rows {unknown}: choose among {', '.join(ROWS)}")
    print(f"xiamen, A = 大师 dodging, B = master, {args.deals} deals × 2 games, seed {args.seed}")
    print("| A's risk | A − B points/hand | 95 % CI | deal-in A / B | switches/hand | seconds |")
    print("| --- | ---: | --- | --- | ---: | ---: |")
    for row in rows:
        start = time.perf_counter()
        r, switches = measure(row, deals=args.deals, seed=args.seed, workers=args.workers)
        per_hand = switches / max(1, r.sides[0].games)
        seconds = time.perf_counter() - start
        print(f"| {row} | {r.cells()} | {per_hand:.2f} | {seconds:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
