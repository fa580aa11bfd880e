"""Rebuild the conformance corpus: ``python -m erren.conformance.generate [--seed S] [--out DIR]``.

Writes ``DIR/<family>-<kind>s.jsonl`` for every family with corpus files and the three kinds
(wins, shapes, sequences), a pure function of the seed and the sizes: the same seed gives
byte-identical files.  Every row's ``expected`` is erren's answer
(:mod:`erren.conformance.expect`); where a reference library applies, the generator
cross-checks it (the family's check, :mod:`erren.conformance.crosscheck`) and names the library
in ``source``, or the spec clause in ``differs`` where the two differ by definition.  An
unexplained disagreement stops the run (exit 1) with the rows listed.  The spec's worked
examples (the family's :attr:`~erren.conformance.adapter.ConformanceAdapter.examples`) come
first in each family's win file, labelled with their example id.  What is generated for each
family is its :class:`~erren.conformance.adapter.ConformanceAdapter`'s.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from erren.conformance.adapter import ConformanceAdapter, WinSource, adapter_of, corpus_families
from erren.conformance.crosscheck import Tally, Verdict
from erren.conformance.expect import (
    parse_shape_hand,
    sequence_expected,
    shape_expected,
    win_expected,
)
from erren.conformance.inputs import ShapeInput, WinInput, sequences
from erren.conformance.rows import Row, dump_row, mjai_hand
from erren.mjai.tiles import mjai_tiles
from erren.notation import parse_tiles

__all__ = ["DEFAULT_SEED", "Sizes", "generate", "main"]

DEFAULT_SEED = 2026


@dataclass(frozen=True, slots=True)
class Sizes:
    """Rows generated per family (the spec's worked examples come on top of the wins): each
    win stream's by its name (:attr:`WinSource.size`, its default when absent), the shapes
    and the sequences."""

    wins: Mapping[str, int] = field(default_factory=dict)
    shapes: int = 1200
    sequences: int = 30

    def of(self, source: WinSource) -> int:
        """The rows of a win stream."""
        return self.wins.get(source.size, source.default)

    def scaled(self, factor: float) -> Sizes:
        """Every count (the win streams' defaults included) times ``factor``, at least 1."""
        wins = {
            s.size: max(1, round(self.of(s) * factor))
            for family in corpus_families()
            for s in _adapter(family).wins
        }
        return Sizes(
            wins,
            max(1, round(self.shapes * factor)),
            max(1, round(self.sequences * factor)),
        )


def _adapter(family: str) -> ConformanceAdapter:
    adapter = adapter_of(family)
    if adapter is None:
        raise ValueError(f"{family} has no corpus files")
    return adapter


def _win_row(row_id: str, family: str, item: WinInput, source: str) -> Row | None:
    expected = win_expected(family, item.hand, item.context)
    if "error" in expected:
        return None
    hand = parse_shape_hand(item.hand, family, item.context)
    return {
        "id": row_id,
        "kind": "win",
        "family": family,
        "source": source,
        "hand": item.hand,
        "hand_mjai": mjai_hand(hand),
        "context": item.context,
        "expected": expected,
    }


def _mark(row: Row, verdict: Verdict | None, tally: Tally, name: str) -> None:
    if verdict is None:
        return
    tally.add(name, verdict, row["id"])
    if verdict.oracle and not verdict.unexplained:
        row["source"] += f"; oracle-checked: {verdict.oracle}"
        if verdict.differs:
            expected = row.pop("expected")  # keep ``expected`` last, after ``differs``
            row["differs"] = verdict.differs
            row["expected"] = expected


def _example_rows(family: str) -> Iterator[Row]:
    for number, (label, hand, context) in enumerate(_adapter(family).examples, start=1):
        row = _win_row(f"{family}/win/spec/{number:03d}", family, WinInput(hand, context), label)
        if row is None:
            raise AssertionError(f"erren refuses the worked example {label}: {hand}")
        yield row


def _take(
    family: str, tag: str, items: Iterable[WinInput], n: int, seed: int
) -> Iterator[tuple[Row, WinInput]]:
    """The first ``n`` candidates erren scores, as rows."""
    made = 0
    for item in items:
        if made == n:
            return
        row = _win_row(
            f"{family}/win/{tag}/{made + 1:05d}", family, item, f"generated: seed {seed}"
        )
        if row is not None:
            made += 1
            yield row, item


def win_rows(family: str, sizes: Sizes, seed: int, tally: Tally) -> list[Row]:
    rows = list(_example_rows(family))
    for source in _adapter(family).wins:
        n = sizes.of(source)
        for row, item in _take(family, source.tag, source.items(n, seed), n, seed):
            if source.crosscheck is not None:
                name, verdict = source.crosscheck(item, row["expected"])
                _mark(row, verdict, tally, name)
            rows.append(row)
    return rows


def _shape_row(row_id: str, family: str, item: ShapeInput, seed: int) -> Row:
    hand = parse_shape_hand(item.tiles, family, {"gold": item.gold})
    mjai = mjai_hand(hand)
    row: Row = {
        "id": row_id,
        "kind": "shape",
        "family": family,
        "source": f"generated: seed {seed}",
        "shapes": item.shapes,
        "tiles": item.tiles,
        "tiles_mjai": mjai["concealed"],
    }
    if "melds" in mjai:
        row["melds_mjai"] = mjai["melds"]
    if item.gold is not None:
        row["gold"] = item.gold
    if item.wild is not None:
        row["wild"] = item.wild
    row["expected"] = shape_expected(
        family, item.tiles, item.shapes, gold=item.gold, wild=item.wild
    )
    return row


def shape_rows(family: str, sizes: Sizes, seed: int, tally: Tally) -> list[Row]:
    rows = []
    adapter = _adapter(family)
    for number, item in enumerate(adapter.shape_inputs(sizes.shapes, seed), start=1):
        row = _shape_row(f"{family}/shape/{number:05d}", family, item, seed)
        if "error" in row["expected"]:
            raise AssertionError(f"{row['id']}: {row['expected']['error']}")
        name, verdict = adapter.shape_check(item, row["expected"])
        _mark(row, verdict, tally, name)
        rows.append(row)
    return rows


def sequence_rows(family: str, sizes: Sizes, seed: int) -> list[Row]:
    rows = []
    variants = _adapter(family).sequence_options
    per = [sizes.sequences // len(variants)] * len(variants)
    per[0] += sizes.sequences - sum(per)
    number = 0
    for options, n in zip(variants, per, strict=True):
        for item in sequences(family, options, n, seed):
            number += 1
            shuffle = next(a for a in item.setup if a.startswith("c:shuffle:"))
            row: Row = {
                "id": f"{family}/sequence/{number:04d}",
                "kind": "sequence",
                "family": family,
                "source": f"generated: seed {seed}, game {item.game}",
                "ruleset": item.ruleset,
                "options": item.options,
                "dealer": item.dealer,
                "round_wind": item.round_wind,
                "setup": list(item.setup),
                "wall_mjai": mjai_tiles(parse_tiles(shuffle.split(":", 2)[2])),
                "steps": list(item.steps),
            }
            row["expected"] = sequence_expected(
                ruleset=item.ruleset,
                options=item.options,
                dealer=item.dealer,
                round_wind=item.round_wind,
                streak=0,
                setup=item.setup,
                steps=item.steps,
            )
            if "error" in row["expected"]:
                raise AssertionError(f"{row['id']}: {row['expected']['error']}")
            rows.append(row)
    return rows


def _write(path: Path, rows: Sequence[Row]) -> int:
    text = "".join(dump_row(row) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def generate(
    out: Path, *, seed: int = DEFAULT_SEED, sizes: Sizes | None = None, quiet: bool = False
) -> Tally:
    """Write the corpus files (three a family) into ``out``; the cross-check figures are
    returned."""
    sizes = sizes or Sizes()
    out.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    for family in corpus_families():
        for kind, rows in (
            ("wins", win_rows(family, sizes, seed, tally)),
            ("shapes", shape_rows(family, sizes, seed, tally)),
            ("sequences", sequence_rows(family, sizes, seed)),
        ):
            path = out / f"{family}-{kind}.jsonl"
            size = _write(path, rows)
            if not quiet:
                print(f"{path}: {len(rows)} rows, {size:,} bytes")
    if not quiet:
        print("\n".join(tally.lines()))
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m erren.conformance.generate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    parser.add_argument(
        "--out", type=Path, default=Path("conformance"), help="default conformance/"
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply every generated count (e.g. 0.01 for a quick look; default 1)",
    )
    args = parser.parse_args(argv)
    sizes = Sizes().scaled(args.scale)
    tally = generate(args.out, seed=args.seed, sizes=sizes)
    if tally.unexplained:
        print(f"{len(tally.unexplained)} unexplained disagreement(s):", file=sys.stderr)
        for line in tally.unexplained[:20]:
            print(f"  {line}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
