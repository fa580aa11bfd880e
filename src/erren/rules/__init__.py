"""The rules pages of the web client, per family and in both languages: prose for tiles, turn
flow and special actions (:mod:`.prose`), and the fan / pattern / 水 table read from the
scorer's own rows (:mod:`.rows`), each row with an example hand that really scores it
(:mod:`.examples`).  Each family writes its page (:class:`~erren.rules.page.FamilyRules`,
from :meth:`~erren.engine.family.Family.rules_page`); this module lays it out, naming no family.
:func:`rules_json` is what ``GET /rules/{family}`` answers; the guided first hand is
:mod:`erren.rules.tutorial`.

>>> page = rules_json("guobiao-2p")
>>> [(r["id"], r["name_zh"], r["value"]) for r in page["rows"] if r["id"] == "seven_pairs"]
[('seven_pairs', '七对', 24)]
"""

from __future__ import annotations

from functools import cache
from typing import Any

from erren.rules.examples import load
from erren.rules.page import FamilyRules, Label, Words, label
from erren.rules.rows import Book, RuleRow, book, books, page_of, table_rows
from erren.scoring.detail import ScoreUnit

__all__ = ["Book", "RuleRow", "book", "books", "context_labels", "rules_json", "table_rows"]

_SHARED = Words(
    flags={
        "self_drawn": ("自摸", "self-drawn"),
        "last_copy": ("和绝张", "last copy"),
        "last_tile": ("最后一张", "last tile of the wall"),
        "kong_replacement": ("杠上开花", "on a kong's replacement"),
        "robbing_kong": ("抢杠", "robbing a kong"),
        "dealer": ("庄家", "dealer"),
    },
    tiles={"seat_wind": ("门风", "seat wind"), "round_wind": ("圈风", "round wind")},
    counts={"flowers": ("花", "flowers")},
)
"""The words of the fields every family's score request has; a family adds its own
(:attr:`FamilyRules.words`)."""


def _value_label(words: Words, page: FamilyRules, key: str, value: Any) -> Label | None:
    """The label of a field with a value (a tile, a word, a count, tiles held)."""
    if key in words.tiles:
        zh, en = words.tiles[key]
        return label(zh, en, [str(value)])
    if key in words.words:
        (zh, en), named = words.words[key]
        word_zh, word_en = named.get(str(value), (str(value), str(value)))
        return label(f"{zh} {word_zh}", f"{en}: {word_en}")
    worded = page.value_label(key, value)
    if worded is not None:
        return worded
    if key in words.counts:
        zh, en = words.counts[key]
        if isinstance(value, str):  # flowers written as the tiles held
            return label(zh, en, [f"{d}{value[-1]}" for d in value[:-1]])
        return label(f"{zh} {value}", f"{en} {value}")
    return None


def _words(page: FamilyRules) -> Words:
    own = page.words
    return Words(
        flags={**_SHARED.flags, **own.flags},
        tiles={**_SHARED.tiles, **own.tiles},
        words={**_SHARED.words, **own.words},
        counts={**_SHARED.counts, **own.counts},
    )


def context_labels(family: str, context: dict[str, Any]) -> list[Label]:
    """The circumstances of an example hand as short labels in each language (``自摸``,
    ``金`` with the gold drawn as a tile), the fan table and default-valued fields left out;
    no label shows a value in notation or in the other language."""
    page = page_of(family)
    words = _words(page)
    out = []
    for key, value in context.items():
        if key == "table" or value in (False, None, "", 0):
            continue
        if key in words.flags:
            out.append(label(*words.flags[key]))
            continue
        shown = _value_label(words, page, key, value)
        if shown is not None:
            out.append(shown)
    return out


def _both(unit: ScoreUnit) -> dict[str, str]:
    return {"zh": unit.zh, "en": unit.en}


def _example_sum(which: Book, rows: list[list[Any]]) -> dict[str, Any]:
    """An example's rows as they add up: each row of the book's table by its name, its value
    per occurrence from the table (the corpus writes xiamen's 水 items as their subtotal),
    the sum, its unit and the capped figure (a limit hand's multiples count in 役满: arcade
    R4.13; a sum above the family's cap counts as the cap: arcade R5.7's 13 fan)."""
    table = {r.name_zh: r for r in table_rows(which)}
    terms = []
    limit = False
    for name, _value, count in rows:
        row = table[name]
        limit = limit or row.limit
        terms.append({"zh": row.name_zh, "en": row.name_en, "each": row.value, "count": count})
    page = page_of(which.family)
    total = sum(t["each"] * t["count"] for t in terms)
    unit = ScoreUnit.YAKUMAN if limit else page.unit
    capped = page.cap if page.cap is not None and not limit and total > page.cap else None
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


@cache
def _cached(family: str, table: str | None) -> dict[str, Any]:
    which = book(family, table)
    page = page_of(family)
    unit = _both(page.unit)
    return {
        "family": which.family,
        "table": which.table,
        "tables": list(page.tables),
        "unit": unit,
        "rows_title": {"zh": page.unit.table_title[0], "en": page.unit.table_title[1]},
        "sections": [
            {
                "id": s.id,
                "title": {"zh": s.title_zh, "en": s.title_en},
                "paras": [{"zh": p.zh, "en": p.en, "ref": p.ref} for p in s.paras],
            }
            for s in page.sections
        ],
        "rows": [_row_json(which, row) for row in table_rows(which)],
        "win_types": page.win_types(),
    }


def rules_json(family: str, table: str | None = None) -> dict[str, Any]:
    """The rules page of ``family`` (guobiao-2p: fan ``table`` ``2p`` or ``gb``), cached; a
    ValueError names an unknown family or table."""
    which = book(family, table)
    return _cached(which.family, which.table)
