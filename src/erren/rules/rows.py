"""The rows of a rules book, read from the scorers' own tables (never a copy of them): each
family's fans, patterns or 水 items with their id, names, value and a short note built from the
row's data (what it excludes, whether it needs a concealed hand, whether it counts per
occurrence).

A *book* is what one rules page lists: ``guobiao-2p`` with fan table ``2p`` or ``gb``
(the room's option ``fan_table``), ``xiamen`` (the 水 table, R-4.3) and ``arcade`` (the
pattern table, §4: the 18 limit hands, then the 28 others).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BOOKS", "Book", "RuleRow", "book", "table_rows"]


@dataclass(frozen=True, slots=True)
class Book:
    """One rules page: a family and, for guobiao-2p, its fan table."""

    family: str
    table: str | None = None

    @property
    def key(self) -> str:
        """``guobiao-2p/2p``, ``guobiao-2p/gb``, ``xiamen``, ``arcade``."""
        return self.family if self.table is None else f"{self.family}/{self.table}"


BOOKS: tuple[Book, ...] = (
    Book("guobiao-2p", "2p"),
    Book("guobiao-2p", "gb"),
    Book("xiamen"),
    Book("arcade"),
)
"""Every rules page."""


def book(family: str, table: str | None = None) -> Book:
    """The book of ``family`` (guobiao-2p: ``table`` ``2p``, the default, or ``gb``); a
    ValueError naming the problem otherwise."""
    if family == "guobiao-2p":
        chosen = table or "2p"
        if chosen not in ("2p", "gb"):
            raise ValueError(f"unknown fan table {chosen!r} (expected 2p or gb)")
        return Book(family, chosen)
    if family in ("xiamen", "arcade"):
        if table is not None:
            raise ValueError(f"family {family!r} has one table; leave out table")
        return Book(family)
    raise ValueError(f"unknown family {family!r} (expected guobiao-2p, xiamen or arcade)")


@dataclass(frozen=True, slots=True)
class RuleRow:
    """One row of a book: its id in the scorer's table, names, value (fan, 水 per occurrence,
    or an arcade limit hand's yakuman multiple) and a note in both languages."""

    id: str
    name_zh: str
    name_en: str
    value: int
    note_zh: str
    note_en: str
    limit: bool = False


def _join(names: list[tuple[str, str]]) -> tuple[str, str]:
    return "、".join(n[0] for n in names), ", ".join(n[1] for n in names)


def _guobiao(table: str) -> tuple[RuleRow, ...]:
    from erren.families.guobiao.scoring.fans import TABLES  # noqa: PLC0415

    fans = TABLES[table]
    by_id = {f.id: (f.name, f.english) for f in fans}
    out = []
    for fan in fans:
        zh: list[str] = []
        en: list[str] = []
        excluded = [by_id[i] for i in fan.excludes if i in by_id]
        if excluded:
            a, b = _join(excluded)
            zh.append(f"不计{a}")
            en.append(f"not counted with it: {b}")
        if fan.per:
            zh.append("每个计一次")
            en.append("counted once per occurrence")
        if fan.bonus:
            zh.append("每张花计一次，不计入起和")
            en.append("once per flower; not part of the minimum fan")
        if fan.fallback:
            zh.append("无其他番时计")
            en.append("only when no other fan scores")
        out.append(RuleRow(fan.id, fan.name, fan.english, fan.value, "；".join(zh), "; ".join(en)))
    return tuple(out)


def _arcade() -> tuple[RuleRow, ...]:
    from erren.families.arcade.scoring.patterns import PATTERNS  # noqa: PLC0415

    by_id = {p.id: (p.name, p.english) for p in PATTERNS}
    out = []
    for p in PATTERNS:
        zh: list[str] = []
        en: list[str] = []
        if p.limit:
            zh.append(f"役满 ×{p.value}")
            en.append(f"limit hand ×{p.value}")
        if p.closed:
            zh.append("须门清")
            en.append("concealed hands only")
        if p.fallback:
            zh.append("无其他番（花牌除外）时计")
            en.append("only when no other pattern but Flowers scores")
        elif p.excludes:
            a, b = _join([by_id[i] for i in p.excludes if i in by_id])
            zh.append(f"不计{a}")
            en.append(f"not counted with it: {b}")
        if p.bonus:
            zh.append("每张花计一次")
            en.append("once per flower")
        out.append(RuleRow(p.id, p.name, p.english, p.value, "；".join(zh), "; ".join(en), p.limit))
    return tuple(out)


def _xiamen() -> tuple[RuleRow, ...]:
    from erren.families.xiamen.scoring.water import WATER  # noqa: PLC0415

    by_id = {r.id: (r.name, r.english) for r in WATER}
    out = []
    for r in WATER:
        zh = ["每个计"]
        en = ["per occurrence"]
        if r.replaces:
            a, b = _join([by_id[i] for i in r.replaces])
            zh.append(f"不计{a}")
            en.append(f"replaces {b}")
        out.append(RuleRow(r.id, r.name, r.english, r.value, "；".join(zh), "; ".join(en)))
    return tuple(out)


def table_rows(which: Book) -> tuple[RuleRow, ...]:
    """The rows of a book, in the scorer's table order."""
    if which.family == "guobiao-2p":
        return _guobiao(which.table or "2p")
    if which.family == "arcade":
        return _arcade()
    return _xiamen()
