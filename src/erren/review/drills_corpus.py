"""Write the drills corpus shipped with the package (``erren/review/drills.json``): per family,
puzzles from seeded simulated hands (:func:`erren.review.drills.corpus_sources`) whose foil
loses more than ``--material`` × the family's bad-move threshold against 大师's answer, and
where no discard is estimated better than 大师's by more than that
(:func:`erren.review.drills.material`).

    python -m erren.review.drills_corpus [--per-family 100] [--seed 1] [--max-hands 1500]
        [--rules guobiao-2p xiamen arcade] [--rollouts 24] [--material 0.5] [--out FILE]
        [--jobs 1]

The same arguments write the same file on every machine (the bots, the worlds and 大师's
clock are seeded or ticked, never timed).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Sequence
from pathlib import Path

from erren.engine import find_family
from erren.review.drills import (
    CORPUS_FILE,
    DRILL_ROLLOUTS,
    Puzzle,
    corpus_json,
    corpus_sources,
    foil_loss,
    make_puzzle,
    material,
)

FAMILIES = ("guobiao-2p", "xiamen", "arcade")


def family_puzzles(rules: str, args: argparse.Namespace) -> list[Puzzle]:
    """Up to ``--per-family`` material puzzles of ``rules``, in the order found."""
    ruleset = find_family(rules)
    threshold = args.material * ruleset.review_bad_loss
    out: list[Puzzle] = []
    for source in corpus_sources(ruleset, seed=args.seed, hands=args.max_hands):
        if foil_loss(source, rollouts=args.rollouts) <= threshold:
            continue  # the same worlds as the puzzle's: it would not be material
        puzzle = make_puzzle(source, None, ident=f"{rules}.{len(out) + 1}", rollouts=args.rollouts)
        if material(puzzle, threshold):
            out.append(puzzle)
            print(f"{rules}: {len(out)}", file=sys.stderr, flush=True)
            if len(out) >= args.per_family:
                break
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--per-family", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-hands", type=int, default=1500)
    parser.add_argument("--rules", nargs="+", default=list(FAMILIES))
    parser.add_argument("--rollouts", type=int, default=DRILL_ROLLOUTS)
    parser.add_argument("--material", type=float, default=0.5)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(CORPUS_FILE))
    parser.add_argument("--jobs", type=int, default=1, help="families made at once (processes)")
    args = parser.parse_args(argv)
    if args.jobs > 1:
        with multiprocessing.Pool(min(args.jobs, len(args.rules))) as pool:
            found = pool.starmap(family_puzzles, [(rules, args) for rules in args.rules])
    else:
        found = [family_puzzles(rules, args) for rules in args.rules]
    puzzles = [p for family in found for p in family]
    made_by = {
        "script": "python -m erren.review.drills_corpus",
        "args": {
            "per_family": args.per_family,
            "seed": args.seed,
            "max_hands": args.max_hands,
            "rules": list(args.rules),
            "rollouts": args.rollouts,
            "material": args.material,
        },
    }
    args.out.write_text(corpus_json(puzzles, made_by), encoding="utf-8")
    print(f"{len(puzzles)} puzzles → {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
