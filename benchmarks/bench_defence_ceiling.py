"""How far the defence that pays could go (issue #30 point 2): 大师 with the defence
(``expert[pays=1;pays_ratio=1]``) told the opponent's **real** winning tiles, against today's
大师 as it was before the defence (``expert[pays=0]``: ``master`` until stop 44), in duplicate
play on guobiao-2p.

Run ``python -m benchmarks.bench_defence_ceiling [--deals 1000] [--seed 11] [--table 2p]
[--risk oracle|reader] [--workers 2]``.  Four rows: the defence after the opponent's 报听 only
(what it plays today) or also before it (``pays_before``: against a silent ready hand), each
allowed to fold (give up shanten) or not (``pays_fold=0``: only discards as close to ready).
With ``--risk oracle`` (the default) the defence's risk is 1 on the kinds the opponent's hand
wins on legally at that moment (``State.can_win``) and 0 elsewhere — hidden information no
player has, so each row is a ceiling for a reader of that kind of position; with ``--risk
reader`` it is the shipped wait reader's (``erren arena`` gives the same rows).  Prints A − B
points per hand with its 95 % interval, the deal-in rates and the time taken.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from erren.analysis.shapes import GUOBIAO_2P
from erren.analysis.waits import waits
from erren.bots.base import Bot
from erren.bots.expert import ExpertBot
from erren.engine import Observation, State, find_family
from erren.engine.result import WinHow
from erren.sim.arena import ArenaResult, Deal, _play_deals, deals_of
from erren.tiles import NUM_KINDS

MASTER = "expert[pays=0]"
_PAYS = "pays=1;pays_ratio=1"
VARIANTS = (
    ("after 报听, folding", f"expert[{_PAYS}]"),
    ("after 报听, as close to ready", f"expert[{_PAYS};pays_fold=0]"),
    ("also before 报听, folding", f"expert[{_PAYS};pays_before=1]"),
    ("also before 报听, as close to ready", f"expert[{_PAYS};pays_before=1;pays_fold=0]"),
)
"""Each row's label and the defending bot (A); B is :data:`MASTER`."""


class OracleRisk:
    """The opponent's real winning tiles in ``state``, the game being played (the engine plays
    it in place): 1 on each kind his concealed hand wins on legally now, 0 elsewhere (hidden
    information: a ceiling only)."""

    def __init__(self, state: State) -> None:
        self.state = state

    def chances(self, observation: Observation) -> Sequence[float]:
        state = self.state
        opp = observation.opponent
        held = state.meld_counts[opp] if state.melds[opp] else None
        out = [0.0] * NUM_KINDS
        for kind in waits(state.hands[opp], shapes=GUOBIAO_2P, held=held):
            if state.can_win(opp, kind, WinHow.DISCARD):
                out[kind] = 1.0
        return out


def _tell_the_truth(bots: Sequence[Bot], state: State) -> None:
    """Every bot playing the defence that pays reads the oracle of this game."""
    for bot in bots:
        if isinstance(bot, ExpertBot) and bot.knobs.pays:
            bot.risk = OracleRisk(state)


def play(variant: str, deals: Sequence[Deal], table: str, use_oracle: bool) -> ArenaResult:
    """Both games of each deal, ``variant`` (A) against :data:`MASTER` (B), seats swapped."""
    rules = find_family("guobiao-2p", fan_table=table)
    tune = _tell_the_truth if use_oracle else None
    result, _ = _play_deals(rules, (variant, MASTER), deals, False, tune=tune)
    return result


def measure(
    variant: str, *, deals: int, seed: int, table: str, use_oracle: bool, workers: int
) -> ArenaResult:
    """:func:`play` over ``deals`` deals of ``seed``, split over ``workers`` processes."""
    plan = deals_of(seed, deals)
    size = max(1, -(-len(plan) // workers))
    parts = [plan[i : i + size] for i in range(0, len(plan), size)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(play, variant, part, table, use_oracle) for part in parts]
        results = [f.result() for f in futures]
    total = results[0]
    for part in results[1:]:
        total.merge(part)
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--table", choices=("2p", "gb"), default="2p")
    parser.add_argument("--risk", choices=("oracle", "reader"), default="oracle")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rows", default="1,2,3,4", help="which rows, e.g. 3,4")
    args = parser.parse_args(argv)
    rows = [VARIANTS[int(k) - 1] for k in args.rows.split(",")]
    print(
        f"guobiao-2p `{args.table}`, A = the defence ({args.risk} risk), B = {MASTER}, "
        f"{args.deals} deals × 2 games, seed {args.seed}"
    )
    print("| defence | A − B points/hand | 95 % CI | deal-in A / B | seconds |")
    print("| --- | ---: | --- | --- | ---: |")
    for label, variant in rows:
        start = time.perf_counter()
        r = measure(
            variant,
            deals=args.deals,
            seed=args.seed,
            table=args.table,
            use_oracle=args.risk == "oracle",
            workers=args.workers,
        )
        print(f"| {label} | {r.cells()} | {time.perf_counter() - start:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
