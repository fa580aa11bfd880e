"""The corpus format: one JSON object a line, ``kind`` ``win``, ``shape`` or ``sequence``.

Every row has ``id`` (unique in its file), ``kind``, ``family`` (one with corpus files:
:func:`~erren.conformance.adapter.corpus_families`), ``source`` (a spec example id, the
generator's seed, or the oracle that agreed) and
``expected``; ``differs`` (optional) names the spec clause where a reference library answers
otherwise by definition.  The fields of each kind are in :data:`REQUIRED` and described in
``conformance/README.md``.  Tiles are written twice: in the shared notation (NOTATION.md) and
as mjai names (:mod:`erren.mjai.tiles`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from erren.conformance.adapter import corpus_families
from erren.errors import ErrenError
from erren.hand import Hand
from erren.melds import MeldKind
from erren.mjai.tiles import mjai_tile, mjai_tiles

__all__ = [
    "KINDS",
    "OPTIONAL",
    "REQUIRED",
    "CorpusError",
    "Row",
    "dump_row",
    "mjai_hand",
    "read_rows",
]

KINDS = ("win", "shape", "sequence")

_COMMON: dict[str, type | tuple[type, ...]] = {
    "id": str,
    "kind": str,
    "family": str,
    "source": str,
    "expected": (dict, list),
}
REQUIRED: dict[str, dict[str, type | tuple[type, ...]]] = {
    "win": {"hand": str, "hand_mjai": dict, "context": dict},
    "shape": {"tiles": str, "tiles_mjai": list, "shapes": str},
    "sequence": {
        "ruleset": str,
        "options": dict,
        "dealer": int,
        "round_wind": str,
        "setup": list,
        "steps": list,
    },
}
"""The fields each kind of row must have besides ``id kind family source expected``."""
OPTIONAL: dict[str, type] = {
    "differs": str,
    "gold": str,
    "wild": str,
    "melds_mjai": list,
    "wall_mjai": list,
    "streak": int,
}
"""Fields a row may have, and their type."""

Row = dict[str, Any]

_MJAI_MELD = {
    MeldKind.CHI: "chi",
    MeldKind.PENG: "pon",
    MeldKind.MING_GANG: "daiminkan",
    MeldKind.JIA_GANG: "kakan",
    MeldKind.AN_GANG: "ankan",
}


class CorpusError(ErrenError, ValueError):
    """A corpus file that cannot be read: not JSON, a missing or mistyped field, a duplicate
    id.  ``line`` is the 1-based line number (0: the file itself)."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Numbered:
    """A row and its line number in the file."""

    line: int
    row: Row


def _type_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {dict: "an object", list: "a list", str: "a string", int: "a whole number"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _check(path: str, line: int, row: object, seen: set[str], families: tuple[str, ...]) -> Row:
    if not isinstance(row, dict):
        raise CorpusError(path, line, "a row is a JSON object")
    kind = row.get("kind")
    if kind not in KINDS:
        raise CorpusError(path, line, f'"kind" must be one of {", ".join(KINDS)}, not {kind!r}')
    for name, want in {**_COMMON, **REQUIRED[kind]}.items():
        if name not in row:
            raise CorpusError(path, line, f'a {kind} row needs "{name}"')
        value = row[name]
        if not isinstance(value, want) or isinstance(value, bool):
            raise CorpusError(path, line, f'"{name}" must be {_type_name(want)}, not {value!r}')
    for name, want_type in OPTIONAL.items():
        value = row.get(name)
        if value is not None and (not isinstance(value, want_type) or isinstance(value, bool)):
            raise CorpusError(
                path, line, f'"{name}" must be {_type_name(want_type)}, not {value!r}'
            )
    if row["family"] not in families:
        raise CorpusError(
            path, line, f'"family" must be one of {", ".join(families)}, not {row["family"]!r}'
        )
    if row["id"] in seen:
        raise CorpusError(path, line, f"duplicate id {row['id']!r}")
    seen.add(row["id"])
    return row


def read_rows(path: str | Path) -> Iterator[Numbered]:
    """The rows of a corpus file, each checked for its fields; a malformed line raises
    :class:`CorpusError` naming the line.  Blank lines are skipped."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CorpusError(name, 0, f"cannot read the file: {error}") from None
    seen: set[str] = set()
    families = corpus_families()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise CorpusError(name, number, f"not JSON: {error.msg}") from None
        yield Numbered(number, _check(name, number, data, seen, families))


def dump_row(row: Row) -> str:
    """One line of a corpus file: compact, keys in the order given, non-ASCII kept."""
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def mjai_hand(hand: Hand) -> dict[str, Any]:
    """The hand in mjai tile names: concealed tiles, melds (mjai's ``chi pon daiminkan kakan
    ankan`` with the claimed tile), the winning tile and the flowers."""
    out: dict[str, Any] = {"concealed": mjai_tiles(hand.concealed)}
    if hand.melds:
        out["melds"] = [
            {
                "type": _MJAI_MELD[meld.kind],
                "tiles": mjai_tiles(meld.tiles),
                **({"claimed": mjai_tile(meld.claimed)} if meld.claimed is not None else {}),
            }
            for meld in hand.melds
        ]
    if hand.winning is not None:
        out["winning"] = mjai_tile(hand.winning)
    if hand.flowers:
        out["flowers"] = mjai_tiles(hand.flowers)
    return out
