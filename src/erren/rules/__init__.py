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

from functools import cache
from typing import Any

from erren.rules.examples import load
from erren.rules.prose import PROSE
from erren.rules.rows import BOOKS, Book, RuleRow, book, table_rows

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
_VALUES: dict[str, tuple[str, str]] = {
    "seat_wind": ("门风", "seat wind"),
    "round_wind": ("圈风", "round wind"),
    "flowers": ("花", "flowers"),
    "gold": ("金", "gold"),
    "wild": ("财神", "wild"),
    "win_type": ("和法", "win type"),
    "baoting": ("报听", "declared"),
    "first_turn": ("首巡", "first turn"),
    "streak": ("连庄", "dealer streak"),
}


def context_labels(family: str, context: dict[str, Any]) -> list[dict[str, str]]:
    """The circumstances of an example hand as short labels (``自摸``, ``金 4m``), the fan
    table and default-valued fields left out."""
    out = []
    for key, value in context.items():
        if key == "table" or value in (False, None, "", 0):
            continue
        if key in _FLAGS:
            zh, en = _FLAGS[key]
            out.append({"zh": zh, "en": en})
        elif key in _VALUES:
            zh, en = _VALUES[key]
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            if family == "xiamen" and key == "win_type":
                shown = _win_type(shown)
            out.append({"zh": f"{zh} {shown}", "en": f"{en} {shown}"})
    return out


def _win_type(value: str) -> str:
    from erren.scoring.xiamen.context import WinType  # noqa: PLC0415

    try:
        kind = WinType(value)
    except ValueError:
        return value
    return f"{kind.chinese} {kind.english}"


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
    from erren.scoring.xiamen.context import WinType  # noqa: PLC0415

    return [
        {"id": t.value, "zh": t.chinese, "en": t.english, "m": t.multiplier, "bonus": t.bonus}
        for t in WinType
    ]


@cache
def _cached(family: str, table: str | None) -> dict[str, Any]:
    which = book(family, table)
    unit = {"zh": "水", "en": "water"} if family == "xiamen" else {"zh": "番", "en": "fan"}
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
