"""The rules pages of the web client, per family and in both languages: prose for tiles, turn
flow and special actions (:mod:`.prose`), and the fan / pattern / 水 table read from the
scorer's own rows (:mod:`.rows`), each row with an example hand that really scores it
(:mod:`.examples`).  :func:`rules_json` is what ``GET /rules/{family}`` answers; the guided
first hand is :mod:`erren.rules.tutorial`.

>>> page = rules_json("guobiao-2p")
>>> [(r["id"], r["name_zh"], r["value"]) for r in page["rows"] if r["id"] == "seven_pairs"]
[('seven_pairs', '七对', 24)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from erren.rules.examples import load
from erren.rules.prose import PROSE
from erren.rules.rows import BOOKS, Book, RuleRow, book, table_rows
from erren.scoring.detail import ScoreUnit

__all__ = ["BOOKS", "Book", "RuleRow", "book", "context_labels", "rules_json", "table_rows"]

_FLAGS: dict[str, tuple[str, str]] = {
    "self_drawn": ("自摸", "self-drawn"),
    "last_copy": ("和绝张", "last copy"),
    "last_tile": ("最后一张", "last tile of the wall"),
    "kong_replacement": ("杠上开花", "on a kong's replacement"),
    "robbing_kong": ("抢杠", "robbing a kong"),
    "ting": ("报听", "declared ready"),
    "tianting": ("天听", "heavenly ready"),
    "dihu": ("地和", "earthly win"),
    "haidi": ("海底", "post-draw sea-bottom"),
    "dealer": ("庄家", "dealer"),
}
_TILES: dict[str, tuple[str, str]] = {
    "seat_wind": ("门风", "seat wind"),
    "round_wind": ("圈风", "round wind"),
    "gold": ("金", "gold"),
    "wild": ("财神", "wild"),
}
"""Fields whose value is a tile: the label names it and the tile is drawn."""
_WORDS: dict[str, tuple[tuple[str, str], dict[str, tuple[str, str]]]] = {
    "baoting": (
        ("报听", "declared ready"),
        {
            "open": ("副露", "with an open hand"),
            "menqing": ("门清", "concealed"),
            "tianting": ("天听", "on the first discard"),
        },
    ),
    "first_turn": (
        ("首巡", "first turn"),
        {
            "tianhu": ("天和", "heavenly hand"),
            "dihu": ("地和", "earthly hand"),
            "renhu": ("人和", "human hand"),
        },
    ),
}
"""Fields whose value is a word of the scorer (arcade's ``baoting``, ``first_turn``)."""
_COUNTS: dict[str, tuple[str, str]] = {
    "flowers": ("花", "flowers"),
    "streak": ("连庄", "dealer streak"),
}


def _label(zh: str, en: str, tiles: list[str] | None = None) -> dict[str, Any]:
    return {"zh": zh, "en": en, "tiles": tiles or []}


def _value_label(key: str, value: Any) -> dict[str, Any] | None:
    """The label of a field with a value (a tile, a word, a count, tiles held)."""
    if key in _TILES:
        zh, en = _TILES[key]
        return _label(zh, en, [str(value)])
    if key in _WORDS:
        (zh, en), words = _WORDS[key]
        word_zh, word_en = words.get(str(value), (str(value), str(value)))
        return _label(f"{zh} {word_zh}", f"{en}: {word_en}")
    if key == "win_type":
        return _win_type(str(value))
    if key in _COUNTS:
        zh, en = _COUNTS[key]
        if isinstance(value, str):  # xiamen's flowers are the tiles held
            return _label(zh, en, [f"{d}{value[-1]}" for d in value[:-1]])
        return _label(f"{zh} {value}", f"{en} {value}")
    return None


def context_labels(family: str, context: dict[str, Any]) -> list[dict[str, Any]]:
    """The circumstances of an example hand as short labels in each language (``自摸``,
    ``金`` with the gold drawn as a tile), the fan table and default-valued fields left out;
    no label shows a value in notation or in the other language."""
    del family  # every family's fields are worded alike
    out = []
    for key, value in context.items():
        if key == "table" or value in (False, None, "", 0):
            continue
        if key in _FLAGS:
            out.append(_label(*_FLAGS[key]))
            continue
        label = _value_label(key, value)
        if label is not None:
            out.append(label)
    return out


def _win_type(value: str) -> dict[str, Any]:
    from erren.families.xiamen.scoring.context import WinType  # noqa: PLC0415

    try:
        kind = WinType(value)
    except ValueError:
        return _label(f"和法 {value}", f"win type: {value}")
    return _label(f"和法 {kind.chinese}", f"win type: {kind.english}")


@dataclass(frozen=True, slots=True)
class _Tally:
    """How a family's example rows add up: each row's value per occurrence times its count,
    counted in ``unit`` (a limit hand's multiples in 役满: arcade R4.13), a sum above ``cap``
    counting as ``cap`` (arcade R5.7's 13 fan)."""

    unit: ScoreUnit
    cap: int | None = None


def _tally(family: str) -> _Tally:
    if family == "xiamen":
        return _Tally(ScoreUnit.WATER)  # 水 items, each counted per occurrence
    if family == "arcade":
        from erren.families.arcade.scoring.calculator import FAN_CAP  # noqa: PLC0415

        return _Tally(ScoreUnit.FAN, FAN_CAP)
    return _Tally(ScoreUnit.FAN)


def _both(unit: ScoreUnit) -> dict[str, str]:
    return {"zh": unit.zh, "en": unit.en}


def _example_sum(which: Book, rows: list[list[Any]]) -> dict[str, Any]:
    """An example's rows as they add up: each row of the book's table by its name, its value
    per occurrence from the table (the corpus writes xiamen's 水 items as their subtotal),
    the sum, its unit and the capped figure."""
    table = {r.name_zh: r for r in table_rows(which)}
    terms = []
    limit = False
    for name, _value, count in rows:
        row = table[name]
        limit = limit or row.limit
        terms.append({"zh": row.name_zh, "en": row.name_en, "each": row.value, "count": count})
    tally = _tally(which.family)
    total = sum(t["each"] * t["count"] for t in terms)
    unit = ScoreUnit.YAKUMAN if limit else tally.unit
    capped = tally.cap if tally.cap is not None and not limit and total > tally.cap else None
    return {"terms": terms, "sum": total, "unit": _both(unit), "capped": capped}


def _row_json(which: Book, row: RuleRow) -> dict[str, Any]:
    example = load().get(which.key, {}).get(row.id)
    shown = None
    if example is not None:
        shown = {
            "hand": example["hand"],
            "context": example["context"],
            "labels": context_labels(which.family, example["context"]),
            "rows": example["rows"],
            "total": example["total"],
            **_example_sum(which, example["rows"]),
        }
    return {
        "id": row.id,
        "name_zh": row.name_zh,
        "name_en": row.name_en,
        "value": row.value,
        "limit": row.limit,
        "note": {"zh": row.note_zh, "en": row.note_en},
        "example": shown,
    }


def _extras(which: Book) -> list[dict[str, Any]]:
    """xiamen's win types with their multiplier and bonus (R-4.6), from the scorer's enum."""
    if which.family != "xiamen":
        return []
    from erren.families.xiamen.scoring.context import WinType  # noqa: PLC0415

    return [
        {"id": t.value, "zh": t.chinese, "en": t.english, "m": t.multiplier, "bonus": t.bonus}
        for t in WinType
    ]


@cache
def _cached(family: str, table: str | None) -> dict[str, Any]:
    which = book(family, table)
    unit = _both(_tally(family).unit)
    return {
        "family": which.family,
        "table": which.table,
        "tables": ["2p", "gb"] if family == "guobiao-2p" else [],
        "unit": unit,
        "sections": [
            {
                "id": s.id,
                "title": {"zh": s.title_zh, "en": s.title_en},
                "paras": [{"zh": p.zh, "en": p.en, "ref": p.ref} for p in s.paras],
            }
            for s in PROSE[which.family]
        ],
        "rows": [_row_json(which, row) for row in table_rows(which)],
        "win_types": _extras(which),
    }


def rules_json(family: str, table: str | None = None) -> dict[str, Any]:
    """The rules page of ``family`` (guobiao-2p: fan ``table`` ``2p`` or ``gb``), cached; a
    ValueError names an unknown family or table."""
    which = book(family, table)
    return _cached(which.family, which.table)
