"""An example hand for every row of every rules book, chosen from the conformance corpus
(``conformance/*-wins.jsonl``) and written to ``examples.json`` beside this module.

``python -m erren.rules.examples [--corpus DIR]`` regenerates the file.  For each row the
choice is deterministic: among the corpus wins where the row scores, re-scored with the book's
table (guobiao-2p: a ``gb`` hand may illustrate a ``2p`` fan and the reverse), the hand with the
fewest rows, then the first in the file.  A row the corpus never scores has no example
(``None``) unless the family's page gives one (:attr:`~erren.rules.page.FamilyRules.constructed`,
still scored here).  A test re-scores
every stored example and checks its row is in the result.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from erren.rules.rows import Book, books, page_of, table_rows

__all__ = ["EXAMPLES", "choose", "constructed", "load", "main", "score_example"]

EXAMPLES = Path(__file__).with_name("examples.json")
"""Where the chosen examples are stored (package data)."""


def score_example(family: str, hand: str, context: dict[str, Any]) -> dict[str, Any]:
    """The scorer's answer for a hand (the corpus' ``expected``: ``rows`` ``[name, value,
    count]``, ``total``...)."""
    from erren.conformance.expect import win_expected  # noqa: PLC0415

    return win_expected(family, hand, context)


def _context(which: Book, context: dict[str, Any]) -> dict[str, Any]:
    if which.table is None:
        return dict(context)
    return {**context, "table": which.table}


def constructed() -> dict[str, dict[str, tuple[str, dict[str, Any]]]]:
    """Book key → row id → the hand and context written for a row the corpus never scores
    (each family's page; guobiao-2p ``gb``'s 无番和 has none: with one suit every hand has
    混一色, 清一色 or 字一色, §3.5)."""
    out: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}
    for which in books():
        made = page_of(which.family).constructed.get(which.table)
        if made:
            out[which.key] = dict(made)
    return out


def choose(which: Book, wins: list[dict[str, Any]]) -> dict[str, dict[str, Any] | None]:
    """Row id → the chosen example of ``which`` from the corpus rows ``wins`` (one family's)."""
    out: dict[str, dict[str, Any] | None] = {}
    order = sorted(range(len(wins)), key=lambda i: (len(wins[i]["expected"]["rows"]), i))
    for row in table_rows(which):
        out[row.id] = None
        for i in order:
            win = wins[i]
            if not any(r[0] == row.name_zh for r in win["expected"]["rows"]):
                continue
            context = _context(which, win["context"])
            scored = score_example(which.family, win["hand"], context)
            if "error" in scored or not any(r[0] == row.name_zh for r in scored["rows"]):
                continue
            out[row.id] = {"hand": win["hand"], "context": context, "source": win["id"], **scored}
            break
        made = page_of(which.family).constructed.get(which.table, {}).get(row.id)
        if out[row.id] is None and made is not None:
            hand, context = made
            scored = score_example(which.family, hand, context)
            if "error" not in scored and any(r[0] == row.name_zh for r in scored["rows"]):
                out[row.id] = {"hand": hand, "context": context, "source": "constructed", **scored}
    return out


def generate(corpus: Path) -> dict[str, dict[str, dict[str, Any] | None]]:
    """Every book's examples from the corpus directory ``corpus``."""
    out: dict[str, dict[str, dict[str, Any] | None]] = {}
    for which in books():
        path = corpus / f"{which.family}-wins.jsonl"
        wins = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        out[which.key] = choose(which, wins)
    return out


@cache
def load() -> dict[str, dict[str, dict[str, Any] | None]]:
    """The stored examples, by book key then row id."""
    data: dict[str, dict[str, dict[str, Any] | None]] = json.loads(
        EXAMPLES.read_text(encoding="utf-8")
    )
    return data


def main(argv: list[str] | None = None) -> int:
    """Write ``examples.json`` from ``--corpus DIR`` (default ``conformance``)."""
    args = sys.argv[1:] if argv is None else argv
    corpus = Path("conformance")
    if args[:1] == ["--corpus"] and len(args) == 2:
        corpus = Path(args[1])
    elif args:
        print("usage: python -m erren.rules.examples [--corpus DIR]", file=sys.stderr)
        return 2
    if not corpus.is_dir():
        print(f"no corpus directory {corpus}", file=sys.stderr)
        return 2
    data = generate(corpus)
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    EXAMPLES.write_text(text, encoding="utf-8")
    for key, rows in data.items():
        missing = [i for i, e in rows.items() if e is None]
        print(
            f"{key}: {len(rows) - len(missing)} of {len(rows)} rows with an example;"
            f" none: {missing}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
