"""Timing, table printing and the suite registry shared by every benchmark.

A *suite* is a function ``(Config) -> str`` registered by name with :func:`suite`; each
``bench_*`` module registers one and runs it from its command line: ``bench_analysis`` registers
``analysis``, ``bench_scoring`` ``scoring``, ``bench_simulate`` ``simulate``; each builds
:class:`Row` values with :func:`time_per_op` on hands from :mod:`erren.testing.hands` (or played by
the simulator) and ends with ``main = run_main(name, …)``.

Timing rule, the same for every library: each library's input is prepared before the clock starts
(conversion is never timed), one call of the timed loop runs the operation once per hand, and the
result is the median over ``repeat`` runs of (elapsed ``perf_counter_ns``) / (number of hands).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

Loop = Callable[[], object]
"""A timed loop: runs the operation once per prepared input."""


@dataclass(frozen=True, slots=True)
class Config:
    hands: int = 2000
    seed: int = 0
    repeat: int = 5
    slow_hands: int = 0
    """Hands for the naive (slow) methods; 0 means ``max(5, hands // 20)``."""

    @property
    def slow(self) -> int:
        return self.slow_hands or max(5, self.hands // 20)


@dataclass(slots=True)
class Row:
    """One line of the table: an operation on one wall, erren and each library in µs/op."""

    op: str
    wall: str
    target_us: float | None
    erren_us: float | None
    libraries: dict[str, float | None] = field(default_factory=dict)
    hands: int = 0
    note: str = ""


def time_per_op(loop: Loop, n_ops: int, repeat: int) -> float:
    """Median µs per operation of ``loop`` (which performs ``n_ops`` operations)."""
    loop()  # warm-up: lazy tables, caches, branch predictors — same for everybody
    samples: list[float] = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(max(1, repeat)):
            start = time.perf_counter_ns()
            loop()
            samples.append((time.perf_counter_ns() - start) / n_ops / 1000.0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(samples)


def maxrss_kib() -> int:
    """Peak resident set size of this process in KiB (Linux reports ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _cell(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}" if value < 100 else f"{value:.0f}"


def format_table(rows: Sequence[Row], libraries: Sequence[str]) -> str:
    """Plain-text table: op, wall, hands, target, erren, then each library as ``µs (×ratio)``."""
    header = ["op", "wall", "hands", "target µs", "erren µs", "ok"]
    header += [f"{lib} µs (lib/erren)" for lib in libraries]
    lines: list[list[str]] = [header]
    for row in rows:
        ok = "—"
        if row.target_us is not None and row.erren_us is not None:
            ok = "yes" if row.erren_us <= row.target_us else "NO"
        cells = [
            row.op,
            row.wall,
            str(row.hands),
            "—" if row.target_us is None else f"≤ {row.target_us:g}",
            _cell(row.erren_us),
            ok,
        ]
        for lib in libraries:
            value = row.libraries.get(lib)
            if value is None:
                cells.append("—")
            elif row.erren_us:
                cells.append(f"{_cell(value)} (×{value / row.erren_us:.1f})")
            else:
                cells.append(_cell(value))
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for i, line in enumerate(lines):
        out.append("  ".join(cell.ljust(widths[j]) for j, cell in enumerate(line)).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    notes = [f"  {row.op} / {row.wall}: {row.note}" for row in rows if row.note]
    if notes:
        out.append("notes:")
        out.extend(notes)
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Suites

Suite = Callable[[Config], str]
"""A suite runs with a :class:`Config` and returns the text it prints (table and notes)."""

SUITES: dict[str, Suite] = {}


def suite(name: str) -> Callable[[Suite], Suite]:
    """Register a benchmark suite under ``name`` (decorator)."""

    def register(fn: Suite) -> Suite:
        SUITES[name] = fn
        return fn

    return register


def parser(description: str) -> argparse.ArgumentParser:
    """The common command line: ``--hands N --seed S --repeat R [--slow-hands M]``."""
    default = Config()
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--hands", type=int, default=default.hands, help="hands per wall (default %(default)s)"
    )
    p.add_argument(
        "--seed", type=int, default=default.seed, help="seed of the hands (default %(default)s)"
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=default.repeat,
        help="timed runs, the median is printed (default %(default)s)",
    )
    p.add_argument(
        "--slow-hands",
        type=int,
        default=0,
        help="hands for the naive discard tables of the libraries (default hands/20, at least 5)",
    )
    return p


def config_from(args: argparse.Namespace) -> Config:
    return Config(hands=args.hands, seed=args.seed, repeat=args.repeat, slow_hands=args.slow_hands)


def run_main(name: str, description: str) -> Callable[[Sequence[str] | None], int]:
    """A ``main(argv)`` that parses the common options, runs suite ``name`` and prints its text."""

    def main(argv: Sequence[str] | None = None) -> int:
        args = parser(description).parse_args(argv)
        print(SUITES[name](config_from(args)))
        return 0

    return main
