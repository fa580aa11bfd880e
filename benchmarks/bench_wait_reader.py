"""The wait reader's calibration on held-out hands, against ``defence.danger`` and the
certainly-safe rule, and its inference time (issue 30, point 1).

Run ``python -m benchmarks.bench_wait_reader [--hands 3000] [--seed 2] [--danger 1000]``.
Held-out hands: the positions :func:`erren.bots.waitreader.dataset.positions` records from
``--seed`` (the shipped weights were trained on seed 1), the same bot mix (普通, a share
``--dama`` of it never declaring 报听, a share ``--strong`` of 高手 seats).  Each position
gives 16 (kind, label) pairs, the label being whether the kind is a legal winning tile of the
opponent now.  Three predictors:

* ``reader``: :func:`erren.bots.waitreader.load_reader` (``chances``);
* ``safe-rule``: knows only the certainly-safe kinds (those the reader's mask zeroes: thrown
  after a 报听, none left to reach him); every other kind gets one constant, the share of
  winning tiles among such kinds in the first ``--calibrate`` hands of the *training* seed
  (separately after 报听 and before);
* ``danger``: today's :func:`erren.bots.expert.defence.danger` (32 resampled hands each), on
  every ``k``-th position so that at most ``--danger`` positions of each kind (after/before
  报听) are asked; the three predictors are also scored on that same subset.

Log-loss clips chances to [1e-4, 1 − 1e-4] (``danger`` gives 0 to kinds it never sampled).
The reliability table bins the chances (bin edges :data:`EDGES`): positions, mean chance,
observed share.  Also: how often the shape waits differ from the legal wins (``gb``'s 8-fan
minimum), the zero rule's violations (must be 0), and µs per ``chances`` call (mean, p50,
p99; by the wall clock and by the process's CPU time, which a busy machine inflates less).
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from erren.bots.expert.defence import danger
from erren.bots.waitreader import load_reader
from erren.bots.waitreader.dataset import DAMA, Position, positions
from erren.bots.waitreader.features import encode
from erren.engine import find_family

EDGES = (0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
"""Reliability bins (upper edge inclusive for the last)."""
CLIP = 1e-4

F64 = npt.NDArray[np.float64]


@dataclass
class Scored:
    """Chances and labels of one predictor over (position, kind) pairs."""

    p: list[F64]
    y: list[npt.NDArray[np.bool_]]

    def arrays(self) -> tuple[F64, npt.NDArray[np.bool_]]:
        return np.concatenate(self.p), np.concatenate(self.y)


def log_loss(p: F64, y: npt.NDArray[np.bool_]) -> float:
    q = np.clip(p, CLIP, 1 - CLIP)
    return float(-np.mean(np.where(y, np.log(q), np.log(1 - q))))


def brier(p: F64, y: npt.NDArray[np.bool_]) -> float:
    return float(np.mean((p - y) ** 2))


def reliability(p: F64, y: npt.NDArray[np.bool_]) -> list[tuple[str, int, float, float]]:
    """``(bin, pairs, mean chance, observed share)`` per non-empty bin."""
    out = []
    for lo, hi in itertools.pairwise(EDGES):
        inside = (p >= lo) & ((p < hi) if hi < 1.0 else (p <= hi))
        if lo == 0.0:
            inside = (p >= 0.0) & (p < hi)
        n = int(inside.sum())
        if n:
            out.append((f"[{lo:g}, {hi:g})", n, float(p[inside].mean()), float(y[inside].mean())))
    return out


def _summary(name: str, p: F64, y: npt.NDArray[np.bool_]) -> str:
    win = p[y].mean() if y.any() else float("nan")
    other = p[~y].mean()
    return (
        f"| {name} | {len(y):,} | {log_loss(p, y):.4f} | {brier(p, y):.5f} | "
        f"{win:.3f} | {other:.4f} |"
    )


def _table(title: str, scored: dict[str, Scored]) -> None:
    print(f"\n### {title}\n")
    print("| predictor | pairs | log-loss | Brier | mean chance on winners | on others |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, s in scored.items():
        print(_summary(name, *s.arrays()))
    for name, s in scored.items():
        p, y = s.arrays()
        print(f"\nreliability, {name}:\n")
        print("| chance | pairs | mean chance | observed |")
        print("| --- | ---: | ---: | ---: |")
        for b, n, mp, obs in reliability(p, y):
            print(f"| {b} | {n:,} | {mp:.4f} | {obs:.4f} |")


def constants(hands: int, seed: int, strong: float, dama: float) -> tuple[float, float]:
    """The safe-rule's chance of a kind not proven safe: after 报听 and before."""
    hit = [0, 0]
    live = [0, 0]
    for pos in positions(hands, seed, strong=strong, dama=dama):
        kinds, _, never = encode(pos.observation, fan_table=pos.fan_table)
        ting = int(pos.observation.ting[pos.observation.opponent])
        y = np.isin(kinds, list(pos.wins))
        hit[ting] += int((y & ~never).sum())
        live[ting] += int((~never).sum())
    return hit[1] / max(live[1], 1), hit[0] / max(live[0], 1)


def _labels(pos: Position) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_], F64]:
    kinds, x, never = encode(pos.observation, fan_table=pos.fan_table)
    dead = (x[:, 15] > 0) & (x[:, 11] == 0)
    y = np.isin(kinds, list(pos.wins)) & ~dead
    return kinds, y, never.astype(np.float64)


@dataclass
class Run:
    """What one run measured."""

    full: dict[bool, dict[str, Scored]]
    sub: dict[bool, dict[str, Scored]]
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """Seconds per ``chances`` call: wall clock and the process's CPU time."""
    differ: dict[str, list[int]] = field(default_factory=lambda: {"2p": [0, 0], "gb": [0, 0]})
    violations: int = 0
    danger_time: float = 0.0
    positions: list[int] = field(default_factory=lambda: [0, 0])
    """Positions before and after 报听."""
    mass: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    """Before 报听, by his shanten (2: two or more): (Σ chances, number of winning kinds)."""


def run(args: argparse.Namespace) -> Run:
    reader = load_reader()
    after_c, before_c = constants(args.calibrate, 1, args.strong, args.dama)
    print(f"safe-rule constants: after 报听 {after_c:.4f}, before {before_c:.4f}")
    rules = {t: find_family("guobiao-2p", fan_table=t) for t in ("2p", "gb")}
    held = list(positions(args.hands, args.seed, strong=args.strong, dama=args.dama))
    n_after = sum(p.observation.ting[p.observation.opponent] for p in held)
    step = (max(1, (len(held) - n_after) // args.danger), max(1, n_after // args.danger))
    out = Run(
        {t: {k: Scored([], []) for k in ("reader", "safe-rule")} for t in (True, False)},
        {t: {k: Scored([], []) for k in ("reader", "safe-rule", "danger")} for t in (True, False)},
    )
    rng = random.Random(args.seed)
    for pos in held:
        obs = pos.observation
        ting = bool(obs.ting[obs.opponent])
        kinds, y, never = _labels(pos)
        cpu = time.process_time_ns()
        start = time.perf_counter()
        chances = reader.chances(obs, fan_table=pos.fan_table)
        out.times.append(time.perf_counter() - start)
        out.cpu.append((time.process_time_ns() - cpu) / 1e9)
        p_reader = chances[kinds]
        p_rule = np.where(never > 0, 0.0, after_c if ting else before_c)
        out.violations += int((y & (never > 0)).sum())
        shape = np.isin(kinds, list(pos.shape)) & (never == 0)
        out.differ[pos.fan_table][0] += int((shape != y).any())
        out.differ[pos.fan_table][1] += 1
        for name, p in (("reader", p_reader), ("safe-rule", p_rule)):
            out.full[ting][name].p.append(p)
            out.full[ting][name].y.append(y)
        out.positions[ting] += 1
        if not ting:
            out.mass.setdefault(min(pos.shanten, 2), []).append(
                (float(p_reader.sum()), int(y.sum()))
            )
        asked = out.sub[ting]["danger"].y
        if out.positions[ting] % step[ting] == 0 and len(asked) < args.danger:
            start = time.perf_counter()
            d = np.asarray(danger(rules[pos.fan_table], obs, rng, samples=args.samples))
            out.danger_time += time.perf_counter() - start
            for name, p in (("reader", p_reader), ("safe-rule", p_rule), ("danger", d[kinds])):
                out.sub[ting][name].p.append(p)
                out.sub[ting][name].y.append(y)
    return out


def report(args: argparse.Namespace, out: Run) -> None:
    before, after = out.positions
    print(
        f"\nheld-out: {args.hands} hands of seed {args.seed} (never-报听 share {args.dama}, "
        f"高手 share {args.strong}), "
        f"{after:,} positions after the opponent's 报听, {before:,} before"
    )
    for table, (d, n) in out.differ.items():
        print(f"table {table}: shape waits differ from legal wins in {d} of {n} positions")
    print(f"zero-rule violations (a winning tile given 0): {out.violations}")
    for clock, seconds in (("wall", out.times), ("CPU", out.cpu)):
        us = np.asarray(seconds) * 1e6
        print(
            f"chances() {clock} time: mean {us.mean():.0f} µs, p50 {np.percentile(us, 50):.0f}"
            f" µs, p99 {np.percentile(us, 99):.0f} µs"
        )
    n_danger = sum(len(out.sub[t]["danger"].y) for t in (True, False))
    print(
        f"danger: {n_danger} positions × {args.samples} samples, "
        f"{out.danger_time / max(n_danger, 1) * 1e3:.1f} ms per position"
    )
    print("\nbefore 报听, by his real shanten: the reader's Σ chances and the real count\n")
    print("| shanten | positions | mean Σ chances | mean winning kinds |")
    print("| --- | ---: | ---: | ---: |")
    for k in sorted(out.mass):
        m = np.asarray(out.mass[k])
        name = f"{k}+" if k == 2 else str(k)
        print(f"| {name} | {len(m):,} | {m[:, 0].mean():.3f} | {m[:, 1].mean():.3f} |")
    for ting, label in ((True, "after 报听"), (False, "before 报听")):
        _table(f"{label}: all held-out positions", out.full[ting])
        _table(f"{label}: the subset danger was asked", out.sub[ting])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--strong", type=float, default=0.0)
    parser.add_argument("--dama", type=float, default=DAMA)
    parser.add_argument("--danger", type=int, default=1000, help="positions per kind")
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--calibrate", type=int, default=2000)
    args = parser.parse_args(argv)
    report(args, run(args))


if __name__ == "__main__":
    main()
