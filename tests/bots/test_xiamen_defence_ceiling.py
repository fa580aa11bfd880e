"""The xiamen defence ceiling (``benchmarks.bench_xiamen_defence``): its oracle
(:func:`erren.sim.oracle.deals_in`) flags exactly the discards R-2.6 lets the opponent win 平和
on, and the benchmark prints its rows."""

from __future__ import annotations

import random
from collections.abc import Callable

from erren.analysis.golds import complete
from erren.engine import ActionKind, State, find_family
from erren.engine.phases import Phase
from erren.families.xiamen.game.view import XiamenView
from erren.sim.oracle import deals_in
from erren.tiles import Tile

WHITE = int(Tile.WHITE)


def _wins_on(state: State, opp: int, kind: int) -> bool:
    """R-2.6's 平和, worked out here: the opponent at 游 level 0 holds no gold, the discard is
    not a gold, and his concealed tiles plus it (a White standing for the gold kind, R-1.8)
    are sets and a pair."""
    view = state.observe(opp).view
    assert isinstance(view, XiamenView) and view.gold is not None
    gold = int(view.gold)
    counts = list(state.hands[opp])
    if view.you_level[opp] != 0 or counts[gold] > 0 or kind == gold:
        return False
    counts[kind] += 1
    if gold != WHITE:
        counts[gold], counts[WHITE] = counts[WHITE], 0
    return complete(counts, 0)


def test_the_oracle_flags_exactly_the_discards_the_opponent_wins_on() -> None:
    """Along hands of random play, at every turn each legal discard is flagged when, and only
    when, R-2.6 lets the opponent win on it; some of them are."""
    rules = find_family("xiamen")
    flagged = checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = State.new(rules, seed=seed, dealer=seed % 2)
        while not state.is_terminal:
            legal = state.legal_actions()
            if state.phase is Phase.TURN:
                seat = state.actor
                for action in legal:
                    if action.kind is not ActionKind.DISCARD:
                        continue
                    said = deals_in(state, action)
                    assert said == _wins_on(state, 1 - seat, int(action.tile_kind())), (
                        seed,
                        action,
                    )
                    flagged += said
                    checked += 1
            state.apply(rng.choice(legal))
    assert flagged > 0 and checked > flagged


def test_the_benchmark_prints_a_row_per_risk(run_benchmark: Callable[..., str]) -> None:
    """``python -m benchmarks.bench_xiamen_defence`` as the README runs it, on three deals: a
    row per asked risk, each A − B inside its own interval."""
    printed = run_benchmark(
        "bench_xiamen_defence", "--deals", "3", "--seed", "5", "--rows", "oracle,reader"
    )
    rows = [line for line in printed.splitlines() if line.startswith(("| oracle", "| reader"))]
    assert [r.split("|")[1].strip() for r in rows] == ["oracle", "reader"]
    for row in rows:
        cells = [c.strip() for c in row.split("|")]
        mean = float(cells[2])
        low, high = (float(x) for x in cells[3].strip("[]").split(","))
        assert low <= mean <= high
