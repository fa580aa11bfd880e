"""Hand analysis: erren against mahjong, PyMahjongGB and cmajiang on the same random hands.

Run ``python -m benchmarks.bench_analysis [--hands N] [--seed S] [--repeat R] [--slow-hands M]``.

For each wall (64 tiles: one suit + honors; 136 tiles) the same seeded hands
(:func:`erren.testing.hands.deal_batch`, ``mixed``: half uniform, half near-complete) are converted
once to every library's input format, then each operation is timed per hand:

=================  ==========================================================================
shanten regular    13 tiles, standard shape only: erren ``shanten(shapes={REGULAR})``;
                   mahjong ``calculate_shanten_for_regular_hand``; PyMahjongGB
                   ``RegularShanten`` (which also lists the useful tiles)
shanten riichi     13 tiles, regular + seven pairs + thirteen orphans: erren ``shapes=RIICHI``;
                   mahjong ``calculate_shanten``; PyMahjongGB min of its three functions;
                   cmajiang ``xiangting``
shanten gb         13 tiles, the five MCR shapes: erren ``shapes=GB``; PyMahjongGB min of five
win                14 tiles: erren ``is_complete(shapes=RIICHI)``; mahjong ``Agari.is_agari``;
                   cmajiang ``xiangting == -1``
waits              13 tiles: erren ``waits(shapes=RIICHI)``; mahjong ``is_agari`` on each of the 34
                   draws; PyMahjongGB union of useful tiles of the shapes at shanten 0; cmajiang
                   ``xiangting`` then ``tingpai`` when ready
discard table      14 tiles: erren ``discard_table``; mahjong naive (each distinct discard ×
                   34 draws × ``calculate_shanten``); PyMahjongGB each discard × its three
                   functions (their useful tiles replace the 34 draws); cmajiang each discard ×
                   (``dapai``, ``xiangting``, ``tingpai``)
=================  ==========================================================================

The libraries' naive discard tables are slow, so they are timed on the first ``--slow-hands``
hands only (µs/op stays comparable).  The lines under the table give the time to import erren's
analysis and make its first call (which maps the lookup tables from the file written at build
time, or builds them when the file is missing), the resident memory it added and the time the
uncapped tables (golds) take at their first use; then the slowest readings, hands with three or
four wilds (:mod:`erren.testing.wild_hands`), each read from scratch.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.harness import (
    Config,
    Loop,
    Row,
    format_table,
    maxrss_kib,
    run_main,
    suite,
    time_per_op,
)
from erren.testing.hands import WALL_NAMES, Hand, WallName, deal_batch, to_gb, to_majiang

LIBRARIES = ("mahjong", "pymahjonggb", "cmajiang")
TARGETS_US = {"shanten": 2.0, "win": 2.0, "waits": 5.0, "discard table": 50.0}
BUILD_TARGET_S = 2.0
"""Setting the tables at their first use (mapped, or built without the file) within two seconds."""
MANY_WILDS_TARGET_MS = 250.0
"""A hand with three or four wilds read from scratch within a quarter of a second."""


def _measure_kernel() -> str:
    """Import erren's analysis, make a first call (setting its tables), report time and memory."""
    already = "erren.analysis.shanten" in sys.modules
    rss_before = maxrss_kib()
    start = time.perf_counter_ns()
    from erren.analysis import shanten as shanten_module  # noqa: PLC0415 - timed on purpose
    from erren.analysis import waits as waits_module  # noqa: PLC0415, F401

    probe = [0] * 34
    probe[0], probe[1], probe[2], probe[3] = 4, 4, 4, 1
    shanten_module.shanten(probe)  # first call: the tables are mapped (or built) now
    elapsed_ms = (time.perf_counter_ns() - start) / 1e6
    rss_after = maxrss_kib()
    from erren.analysis import _kernel  # noqa: PLC0415

    seconds = _kernel.tables_seconds()
    how = "mapped from the file" if _kernel.tables_source() == "file" else "built in memory"
    own = ""
    if seconds is not None:
        own = (
            f"; kernel's own count: tables {_kernel.TABLE_BYTES / 2**20:.1f} MiB {how}"
            f" in {seconds * 1e3:.3g} ms (target ≤ {BUILD_TARGET_S * 1e3:.0f} ms)"
        )
    if already:
        return f"kernel: already imported in this process (import not measured){own}"
    return (
        f"kernel: import + first call {elapsed_ms:.0f} ms, "
        f"resident memory +{(rss_after - rss_before) / 1024:.1f} MiB "
        f"(maxrss {rss_before / 1024:.1f} → {rss_after / 1024:.1f} MiB){own}"
    )


def _loop(fn: Callable[[Any], object], inputs: Sequence[Any]) -> Loop:
    def run() -> None:
        for x in inputs:
            fn(x)

    return run


def _erren_ops() -> dict[str, Callable[[Any], object]]:
    from erren.analysis.complete import is_complete  # noqa: PLC0415
    from erren.analysis.shanten import shanten  # noqa: PLC0415
    from erren.analysis.shapes import GB, RIICHI, Shape  # noqa: PLC0415
    from erren.analysis.waits import discard_table, waits  # noqa: PLC0415

    regular = frozenset({Shape.REGULAR})

    def op_shanten_regular(c: list[int]) -> object:
        return shanten(c, shapes=regular)

    def op_shanten_riichi(c: list[int]) -> object:
        return shanten(c, shapes=RIICHI)

    def op_shanten_gb(c: list[int]) -> object:
        return shanten(c, shapes=GB)

    def op_win(c: list[int]) -> object:
        return is_complete(c, shapes=RIICHI)

    def op_waits(c: list[int]) -> object:
        return waits(c, shapes=RIICHI)

    def op_discard(c: list[int]) -> object:
        return discard_table(c, shapes=RIICHI)

    return {
        "shanten regular": op_shanten_regular,
        "shanten riichi": op_shanten_riichi,
        "shanten gb": op_shanten_gb,
        "win": op_win,
        "waits": op_waits,
        "discard table": op_discard,
    }


def _mahjong_ops() -> dict[str, Callable[[Any], object]]:
    from mahjong.agari import Agari  # noqa: PLC0415
    from mahjong.shanten import Shanten  # noqa: PLC0415

    regular = Shanten.calculate_shanten_for_regular_hand
    full = Shanten.calculate_shanten
    is_agari = Agari.is_agari

    def op_waits(c: list[int]) -> object:
        out = []
        for k in range(34):
            if c[k] < 4:
                c[k] += 1
                if is_agari(c):
                    out.append(k)
                c[k] -= 1
        return out

    def op_discard(c: list[int]) -> object:
        table = []
        for d in range(34):
            if not c[d]:
                continue
            c[d] -= 1
            s = full(c)
            effective = []
            for k in range(34):
                if c[k] < 4:
                    c[k] += 1
                    if full(c) < s:
                        effective.append(k)
                    c[k] -= 1
            c[d] += 1
            table.append((d, s, effective))
        return table

    return {
        "shanten regular": regular,
        "shanten riichi": full,
        "win": is_agari,
        "waits": op_waits,
        "discard table": op_discard,
    }


def _gb_ops() -> dict[str, Callable[[Any], object]]:
    import MahjongGB  # noqa: PLC0415

    reg = MahjongGB.RegularShanten
    sp = MahjongGB.SevenPairsShanten
    to = MahjongGB.ThirteenOrphansShanten
    hk = MahjongGB.HonorsAndKnittedTilesShanten
    ks = MahjongGB.KnittedStraightShanten

    def op_riichi(h: tuple[str, ...]) -> object:
        return min(reg(h)[0], sp(h)[0], to(h)[0])

    def op_gb(h: tuple[str, ...]) -> object:
        return min(reg(h)[0], sp(h)[0], to(h)[0], hk(h)[0], ks(h)[0])

    def op_waits(h: tuple[str, ...]) -> object:
        out: set[str] = set()
        for fn in (reg, sp, to):
            s, useful = fn(h)
            if s == 0:
                out.update(useful)
        return out

    def op_discard(h14: tuple[str, ...]) -> object:
        table = []
        for i, tile in enumerate(h14):
            if i and h14[i - 1] == tile:
                continue
            h = h14[:i] + h14[i + 1 :]
            results = (reg(h), sp(h), to(h))
            s = min(r[0] for r in results)
            effective: set[str] = set()
            for r in results:
                if r[0] == s:
                    effective.update(r[1])
            table.append((tile, s, effective))
        return table

    return {
        "shanten regular": reg,
        "shanten riichi": op_riichi,
        "shanten gb": op_gb,
        "waits": op_waits,
        "discard table": op_discard,
    }


def _cmajiang_ops() -> dict[str, Callable[[Any], object]]:
    from cmajiang import _cmajiang as cm  # noqa: PLC0415

    xiangting = cm.xiangting
    tingpai = cm.tingpai

    def op_win(s: Any) -> object:
        return xiangting(s) == -1

    def op_waits(s: Any) -> object:
        return tingpai(s) if xiangting(s) == 0 else []

    def op_discard(s: Any) -> object:
        table = []
        for tile in s.get_dapai(False):
            after = s.clone().dapai(tile)
            table.append((tile, xiangting(after), tingpai(after)))
        return table

    return {
        "shanten riichi": xiangting,
        "win": op_win,
        "waits": op_waits,
        "discard table": op_discard,
    }


def _prepare(lib: str, hands: Sequence[Hand]) -> list[Any]:
    """Each library's own input, built before any clock starts."""
    if lib in ("erren", "mahjong"):
        return [list(h.concealed) for h in hands]
    if lib == "pymahjonggb":
        return [to_gb(h.concealed) for h in hands]
    from cmajiang import _cmajiang as cm  # noqa: PLC0415

    return [cm.Shoupai(to_majiang(h.concealed)) for h in hands]


OPS: tuple[tuple[str, int, str], ...] = (
    # (operation, hand size, target key)
    ("shanten regular", 13, "shanten"),
    ("shanten riichi", 13, "shanten"),
    ("shanten gb", 13, "shanten"),
    ("win", 14, "win"),
    ("waits", 13, "waits"),
    ("discard table", 14, "discard table"),
)


@suite("analysis")
def run_analysis(config: Config) -> str:
    kernel_line = _measure_kernel()
    ops = {
        "erren": _erren_ops(),
        "mahjong": _mahjong_ops(),
        "pymahjonggb": _gb_ops(),
        "cmajiang": _cmajiang_ops(),
    }
    rows: list[Row] = []
    for wall in WALL_NAMES:
        batches = {
            size: deal_batch(wall, size, config.hands, seed=config.seed) for size in (13, 14)
        }
        inputs = {
            (lib, size): _prepare(lib, batch)
            for lib in ("erren", *LIBRARIES)
            for size, batch in batches.items()
        }
        for op, size, target in OPS:
            rows.append(
                _time_row(op, wall, size=size, target=target, ops=ops, inputs=inputs, config=config)
            )
    table = format_table(rows, LIBRARIES)
    header = (
        f"erren hand analysis vs reference libraries — {config.hands} hands per wall, "
        f"seed {config.seed}, median of {config.repeat} runs, µs per hand"
    )
    return f"{header}\n\n{table}\n\n{kernel_line}\n{_uncapped_line()}\n\n{_many_wilds(config)}"


def _uncapped_line() -> str:
    """The uncapped tables (golds standing for a fifth copy): mapped, or built at first use."""
    from erren.analysis import _kernel  # noqa: PLC0415
    from erren.analysis.shanten import is_complete  # noqa: PLC0415
    from erren.analysis.shapes import XIAMEN  # noqa: PLC0415

    probe = [0] * 34
    probe[0] = 4
    is_complete(probe, wilds=1, shapes=XIAMEN, max_copies=None)  # sets them if not yet set
    seconds = _kernel.uncapped_tables_seconds()
    how = "mapped with the others" if _kernel.tables_source() == "file" else "built"
    done = "not set" if seconds is None else f"{how} in {seconds * 1e3:.3g} ms"
    return f"kernel: uncapped tables {done} at first use (target ≤ {BUILD_TARGET_S * 1e3:.0f} ms)"


def _many_wilds(config: Config) -> str:
    """The slowest readings: hands with three or four wilds, every cache cleared before each."""
    from erren.analysis.readings import readings  # noqa: PLC0415
    from erren.hand import Hand  # noqa: PLC0415
    from erren.testing.wild_hands import MANY_WILDS, clear_reading_caches  # noqa: PLC0415

    lines = [f"readings with many wilds, uncached, median of {config.repeat} runs:"]
    for text, wilds, shapes in MANY_WILDS:
        hand = Hand.parse(text, check_size=False)
        samples: list[float] = []
        found = 0
        for _ in range(max(1, config.repeat)):
            clear_reading_caches()
            start = time.perf_counter_ns()
            found = len(readings(hand, shapes=shapes, wilds=wilds))
            samples.append((time.perf_counter_ns() - start) / 1e6)
        ms = statistics.median(samples)
        ok = "yes" if ms <= MANY_WILDS_TARGET_MS else "NO"
        lines.append(
            f"  {text:<26} {found:>4} readings  {ms:8.2f} ms"
            f"  (target ≤ {MANY_WILDS_TARGET_MS:g} ms: {ok})"
        )
    return "\n".join(lines)


def _time_row(
    op: str,
    wall: WallName,
    *,
    size: int,
    target: str,
    ops: dict[str, dict[str, Callable[[Any], object]]],
    inputs: dict[tuple[str, int], list[Any]],
    config: Config,
) -> Row:
    slow = op == "discard table"
    row = Row(op=op, wall=wall, target_us=TARGETS_US[target], erren_us=None, hands=config.hands)
    for lib in ("erren", *LIBRARIES):
        fn = ops[lib].get(op)
        if fn is None:
            if lib != "erren":
                row.libraries[lib] = None
            continue
        data = inputs[(lib, size)]
        if slow and lib != "erren":
            data = data[: config.slow]
        us = time_per_op(_loop(fn, data), len(data), config.repeat)
        if lib == "erren":
            row.erren_us = us
        else:
            row.libraries[lib] = us
    if slow:
        row.note = f"libraries timed on the first {min(config.slow, config.hands)} hands"
    return row


main = run_main("analysis", __doc__.splitlines()[0] if __doc__ else "")

if __name__ == "__main__":
    raise SystemExit(main(None))
