"""Fan calculation: erren's ``gb`` table against PyMahjongGB on the same winning hands.

Run ``python -m benchmarks.bench_scoring [--hands N] [--seed S] [--repeat R]``.

The hands are :func:`erren.testing.hands.deal_batch` ``near`` deals (a complete hand with 0–3 tiles
swapped) of every meld count, kept when both calculators accept them as wins: the 64-tile wall
(one suit + honors, the two-player game) and the 136-tile wall (three suits).  Each melded set
becomes a chi or a peng, one concealed tile is drawn out as the winning tile and half the wins
are self-drawn.  Every input is converted before the clock starts; a timed run scores each hand
once, and the figure is the median µs per hand over ``--repeat`` runs.

=================  ==========================================================================
score_fast gb      erren ``score_fast(hand, ctx, table="gb")``: the C fast path (``_fastfan.c``),
                   total and fans with counts, no explanation; it has no cache, so every call
                   is the full calculation (readings, fans, best reading) from the Hand;
                   PyMahjongGB ``MahjongFanCalculator`` (positional arguments, no verbose)
score gb           erren ``score(hand, ctx, table="gb")``, the explained Python calculator
                   (fans with their groups, the reading), every erren cache emptied before
                   each timed run
score gb, cached   erren ``score`` on hands it has already scored (its memo on the hand key);
                   PyMahjongGB has no cache, so its column repeats the full calculation
score_fast 2p      erren only (PyMahjongGB has no ``2p`` table)
score 2p           erren only, caches emptied as for gb
=================  ==========================================================================

The target (issue 4) is half PyMahjongGB's throughput, i.e. twice its µs per hand, for the full
calculation without a whole-hand cache: ``score_fast gb``.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import MahjongGB

from benchmarks.harness import Config, Loop, Row, format_table, run_main, suite, time_per_op
from erren.families.guobiao.scoring import NotAWinError, WinContext, score, score_fast
from erren.hand import Hand
from erren.melds import Meld, MeldKind
from erren.testing.hands import GB_NAMES, WALL_NAMES, WallName, deal_batch
from erren.tiles import Tile

LIBRARIES = ("pymahjonggb",)
SIZES = ((14, 40), (11, 25), (8, 20), (5, 10), (2, 5))
"""Concealed sizes (0–4 melds) and their weights in the mix."""

GbArgs = tuple[Any, ...]
Case = tuple[Hand, WinContext, GbArgs]


def _meld(kinds: Sequence[int], rng: random.Random) -> Meld:
    tiles = tuple(Tile(k) for k in kinds)
    if kinds[0] == kinds[1]:
        return Meld(MeldKind.PENG, tiles, tiles[0])
    return Meld(MeldKind.CHI, tiles, rng.choice(tiles))


def _gb_pack(meld: Meld) -> tuple[str, str, int]:
    if meld.kind is MeldKind.CHI:
        claimed = 1 if meld.claimed is None else meld.tiles.index(meld.claimed) + 1
        return ("CHI", GB_NAMES[meld.tiles[1]], claimed)
    return ("PENG", GB_NAMES[meld.tiles[0]], 1)


def _gb_wins(args: GbArgs) -> bool:
    try:
        MahjongGB.MahjongFanCalculator(*args)
    except TypeError:
        return False
    return True


def winning_cases(wall: WallName, count: int, seed: int) -> list[Case]:
    """``count`` winning hands from ``wall``, reproducible from ``seed`` (see the module doc)."""
    rng = random.Random(f"erren-bench-scoring:{seed}:{wall}")
    cases: list[Case] = []
    for size, weight in SIZES:
        wanted = max(1, count * weight // 100)
        batch_seed = f"{seed}:scoring"
        found = 0
        offered = 0
        while found < wanted:
            batch = deal_batch(
                wall, size, 4 * wanted, seed=f"{batch_seed}:{offered}", method="near"
            )
            offered += 1
            for dealt in batch:
                if found >= wanted:
                    break
                concealed = [k for k in range(34) for _ in range(dealt.concealed[k])]
                winning = concealed.pop(rng.randrange(len(concealed)))
                melds = tuple(_meld(m, rng) for m in dealt.melds)
                hand = Hand(tuple(Tile(k) for k in concealed), melds, Tile(winning))
                self_drawn = rng.random() < 0.5
                ctx = WinContext(self_drawn=self_drawn, seat_wind=Tile.SOUTH)
                args: GbArgs = (
                    tuple(_gb_pack(m) for m in melds),
                    tuple(GB_NAMES[k] for k in concealed),
                    GB_NAMES[winning],
                    0,
                    self_drawn,
                    False,
                    False,
                    False,
                    1,
                    0,
                )
                try:
                    score(hand, ctx, table="gb")
                except NotAWinError:
                    continue
                if _gb_wins(args):
                    cases.append((hand, ctx, args))
                    found += 1
    rng.shuffle(cases)
    return cases[:count]


def clear_erren_caches() -> None:
    """Empty every ``functools`` cache in erren's modules (readings, waits, scores, …)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("erren.") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def time_cold(loop: Loop, n_ops: int, repeat: int) -> float:
    """Like :func:`benchmarks.harness.time_per_op`, with erren's caches emptied (untimed)
    before the warm-up and before every timed run."""
    clear_erren_caches()
    loop()
    samples: list[float] = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(max(1, repeat)):
            clear_erren_caches()
            start = time.perf_counter_ns()
            loop()
            samples.append((time.perf_counter_ns() - start) / n_ops / 1000.0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(samples)


def _erren_loop(cases: Sequence[Case], table: str) -> Loop:
    inputs = [(hand, ctx) for hand, ctx, _ in cases]

    def run() -> None:
        for hand, ctx in inputs:
            score(hand, ctx, table=table)

    return run


def _fast_loop(cases: Sequence[Case], table: str) -> Loop:
    inputs = [(hand, ctx) for hand, ctx, _ in cases]
    fast = score_fast

    def run() -> None:
        for hand, ctx in inputs:
            fast(hand, ctx, table=table)

    return run


def _gb_loop(cases: Sequence[Case]) -> Loop:
    inputs = [args for _, _, args in cases]
    calculate: Callable[..., object] = MahjongGB.MahjongFanCalculator

    def run() -> None:
        for args in inputs:
            calculate(*args)

    return run


@suite("scoring")
def run_scoring(config: Config) -> str:
    rows: list[Row] = []
    for wall in WALL_NAMES:
        cases = winning_cases(wall, config.hands, config.seed)
        n = len(cases)
        gb_us = time_per_op(_gb_loop(cases), n, config.repeat)
        target = round(2 * gb_us, 2)
        fast = time_cold(_fast_loop(cases, "gb"), n, config.repeat)
        ratio = f"erren takes {fast / gb_us:.2f}× PyMahjongGB's time per hand"
        rows.append(
            Row("score_fast gb", wall, target, fast, {"pymahjonggb": gb_us}, hands=n, note=ratio)
        )
        cold = time_cold(_erren_loop(cases, "gb"), n, config.repeat)
        rows.append(Row("score gb", wall, None, cold, {"pymahjonggb": gb_us}, hands=n))
        cached = time_per_op(_erren_loop(cases, "gb"), n, config.repeat)
        rows.append(Row("score gb, cached", wall, None, cached, {"pymahjonggb": gb_us}, hands=n))
        if wall == "64":
            fast_2p = time_cold(_fast_loop(cases, "2p"), n, config.repeat)
            rows.append(Row("score_fast 2p", wall, None, fast_2p, {"pymahjonggb": None}, hands=n))
            cold_2p = time_cold(_erren_loop(cases, "2p"), n, config.repeat)
            rows.append(Row("score 2p", wall, None, cold_2p, {"pymahjonggb": None}, hands=n))
    header = (
        f"erren fan calculation vs PyMahjongGB — {config.hands} winning hands per wall "
        f"(64 = one suit + honors, 136 = three suits), seed {config.seed}, "
        f"median of {config.repeat} runs, µs per hand"
    )
    legend = (
        "target: at least half PyMahjongGB's throughput (≤ 2 × its µs/hand); the last column "
        "is PyMahjongGB's µs and (×) PyMahjongGB µs / erren µs, so ×0.5 or more meets the target"
    )
    return f"{header}\n\n{format_table(rows, LIBRARIES)}\n\n{legend}"


main = run_main("scoring", __doc__.splitlines()[0] if __doc__ else "")

if __name__ == "__main__":
    raise SystemExit(main(None))
