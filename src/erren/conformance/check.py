"""Check erren against corpus files: recompute every row's ``expected`` and compare.

:func:`check_file` reads the whole file first (a malformed line raises
:class:`~erren.conformance.rows.CorpusError` before anything is checked), then checks each row,
or every ``every``-th row for a quick deterministic sample.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erren.conformance.expect import (
    parse_shape_hand,
    sequence_expected,
    shape_expected,
    win_expected,
)
from erren.conformance.rows import CorpusError, Numbered, Row, mjai_hand, read_rows
from erren.errors import ErrenError
from erren.mjai.tiles import mjai_tiles
from erren.notation import parse_tiles

__all__ = ["FileReport", "Mismatch", "check_file", "check_row"]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A row where erren answers otherwise than the corpus: its id, line and the differences."""

    id: str
    line: int
    differences: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.id} (line {self.line}): " + "; ".join(self.differences)


@dataclass(slots=True)
class FileReport:
    """What checking one file found."""

    path: str
    checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return self.checked - len(self.mismatches)


def _short(value: object, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _compare(want: dict[str, Any], got: dict[str, Any], what: str = "") -> list[str]:
    out = []
    for key in [*want, *(k for k in got if k not in want)]:
        if want.get(key) != got.get(key):
            out.append(f"{what}{key}: corpus {_short(want.get(key))}, erren {_short(got.get(key))}")
    return out


def _check_win(row: Row) -> list[str]:
    context = row["context"]
    expected = win_expected(row["family"], row["hand"], context)
    problems = _compare(row["expected"], expected)
    try:
        hand = parse_shape_hand(row["hand"], row["family"], context)
    except ErrenError as error:
        return [*problems, f"hand: {error}"]
    mjai = mjai_hand(hand)
    if row["hand_mjai"] != mjai:
        problems.append(f"hand_mjai: corpus {_short(row['hand_mjai'])}, erren {_short(mjai)}")
    return problems


def _check_shape(row: Row) -> list[str]:
    expected = shape_expected(
        row["family"], row["tiles"], row["shapes"], gold=row.get("gold"), wild=row.get("wild")
    )
    problems = _compare(row["expected"], expected)
    try:
        hand = parse_shape_hand(row["tiles"], row["family"], row)
    except ErrenError as error:
        return [*problems, f"tiles: {error}"]
    mjai = mjai_hand(hand)
    if row["tiles_mjai"] != mjai["concealed"] or row.get("melds_mjai") != mjai.get("melds"):
        problems.append(f"tiles_mjai: corpus {_short(row['tiles_mjai'])}, erren {_short(mjai)}")
    return problems


def _check_sequence(row: Row) -> list[str]:
    got = sequence_expected(
        ruleset=row["ruleset"],
        options=row["options"],
        dealer=row["dealer"],
        round_wind=row["round_wind"],
        streak=row.get("streak", 0),
        setup=row["setup"],
        steps=row["steps"],
    )
    want = row["expected"]
    problems: list[str] = []
    wanted_legal = want.get("legal", [])
    got_legal = got.get("legal", [])
    for number, (a, b) in enumerate(zip(wanted_legal, got_legal, strict=False), start=1):
        if a != b:
            missing = sorted(set(a) - set(b))
            extra = sorted(set(b) - set(a))
            play = row["steps"][number - 1]
            problems.append(
                f"step {number} (before {play}): legal actions differ: "
                f"erren lacks {missing}, erren adds {extra}"
            )
            break
    if not problems and len(wanted_legal) != len(got_legal):
        problems.append(f"steps: corpus {len(wanted_legal)}, erren {len(got_legal)}")
    problems += _compare(
        {k: v for k, v in want.items() if k != "legal"},
        {k: v for k, v in got.items() if k != "legal"},
    )
    shuffle = next((a for a in row["setup"] if a.startswith("c:shuffle:")), None)
    if shuffle is not None and "wall_mjai" in row:
        try:
            wall = mjai_tiles(parse_tiles(shuffle.split(":", 2)[2]))
        except ErrenError as error:
            return [*problems, f"setup: {error}"]
        if row["wall_mjai"] != wall:
            problems.append("wall_mjai: differs from the shuffle in setup")
    return problems


_CHECKS: dict[str, Callable[[Row], list[str]]] = {
    "win": _check_win,
    "shape": _check_shape,
    "sequence": _check_sequence,
}


def check_row(row: Row) -> list[str]:
    """The differences between a row's ``expected`` and erren's answer (empty: it passes)."""
    return _CHECKS[row["kind"]](row)


def check_file(path: str | Path, *, every: int = 1) -> FileReport:
    """Check the rows of ``path`` (every ``every``-th one, the first included)."""
    if every < 1:
        raise CorpusError(str(path), 0, f"every must be at least 1, not {every}")
    rows: list[Numbered] = list(read_rows(path))
    report = FileReport(str(path))
    for numbered in rows[::every]:
        report.checked += 1
        differences = check_row(numbered.row)
        if differences:
            report.mismatches.append(
                Mismatch(numbered.row["id"], numbered.line, tuple(differences))
            )
    return report
