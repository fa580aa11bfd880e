"""The coach rating's calibration (issue 31, point 3): per family and reference player (入门,
普通, 高手, 大师, and the learned policy where it plays its own network), ``--hands`` seeded hands
of the player in seat 0 against 普通, each reviewed by 大师 with ``--rollouts`` worlds
(:func:`erren.review.coach.calibrate`); prints the match rate, bad-move rate and expected loss
per hand with their 95 % bootstrap intervals as a Markdown table, each reference's own coach
rating, and with ``--write`` saves the calibration (with the seed and this command) to
``src/erren/review/coach_calibration.json``.

    nice -n 10 python -m benchmarks.bench_coach [--hands 300] [--seed 1] [--rollouts 16]
        [--rules guobiao-2p xiamen arcade] [--write] [--from-file]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from erren.bots.levels import parse_level
from erren.review import DEFAULT_ROLLOUTS
from erren.review.coach import (
    FAMILIES,
    LEARNED,
    Calibration,
    Reference,
    calibrate,
    coach_rating,
    load_calibration,
)

OUT = Path(__file__).resolve().parent.parent / "src" / "erren" / "review" / "coach_calibration.json"


def _name(player: str) -> str:
    if player == LEARNED:
        return "learned policy"
    level = parse_level(player)
    return f"{level.chinese} {level.english}"


def _cell(ref: Reference, metric: str, digits: int, scale: float = 1.0) -> str:
    iv = ref.intervals[metric]
    return (
        f"{iv.mean * scale:.{digits}f} ({iv.low * scale:.{digits}f}–{iv.high * scale:.{digits}f})"
    )


def table(calibration: Calibration) -> str:
    """The calibration as a Markdown table, each reference rated against it."""
    lines = [
        "| family | player | hands | match % | bad-move % | loss/hand | rated |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for family, refs in calibration.families.items():
        for ref in refs:
            rated = coach_rating(family, ref.rows, calibration=calibration)
            lines.append(
                f"| {family} | {_name(ref.player)} | {ref.hands} | "
                f"{_cell(ref, 'match_rate', 1, 100)} | {_cell(ref, 'bad_rate', 1, 100)} | "
                f"{_cell(ref, 'loss_per_hand', 2)} | {rated.text('en')} "
                f"({rated.position:.2f}) |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--rules", nargs="+", default=list(FAMILIES))
    parser.add_argument("--write", action="store_true", help=f"save the calibration to {OUT}")
    parser.add_argument("--from-file", action="store_true", help="print the shipped calibration")
    args = parser.parse_args(argv)
    if args.from_file:
        cal = load_calibration()
        print(f"seed {cal.seed}, {cal.rollouts} rollouts: {cal.command}")
        print(table(cal))
        return 0
    command = "python -m benchmarks.bench_coach " + " ".join(sys.argv[1:] if argv is None else argv)
    start = time.process_time()

    def progress(family: str, player: str, ref: Reference) -> None:
        mean = ref.figures
        print(
            f"{family} {player}: {ref.hands} hands, match {mean.match_rate:.3f}, "
            f"bad {mean.bad_rate:.3f}, loss {mean.loss_per_hand:.2f} "
            f"({time.process_time() - start:.0f} s CPU)",
            file=sys.stderr,
            flush=True,
        )

    cal = calibrate(
        args.rules,
        hands=args.hands,
        seed=args.seed,
        rollouts=args.rollouts,
        command=command.strip(),
        progress=progress,
    )
    print(f"coach calibration: {args.hands} hands a cell, 大师 reviewing, {args.rollouts} rollouts")
    print(table(cal))
    if args.write:
        OUT.write_text(cal.to_json(), encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
