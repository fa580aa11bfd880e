"""The rows of a rules book, read from the scorers' own tables (never a copy of them): each
family's fans, patterns or 水 items with their id, names, value and a short note built from the
row's data (what it excludes, whether it needs a concealed hand, whether it counts per
occurrence).  Each family builds its rows (its :class:`~erren.rules.page.FamilyRules`).

A *book* is what one rules page lists: a family and, for a family with several fan tables
(guobiao-2p's ``2p`` and ``gb``, the room's option ``fan_table``), one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from erren.engine.registry import families

if TYPE_CHECKING:
    from erren.rules.page import FamilyRules

__all__ = ["Book", "RuleRow", "book", "books", "join_names", "page_of", "table_rows"]


@dataclass(frozen=True, slots=True)
class Book:
    """One rules page: a family and, for a family with several fan tables, one of them."""

    family: str
    table: str | None = None

    @property
    def key(self) -> str:
        """``guobiao-2p/2p``, ``guobiao-2p/gb``, ``xiamen``, ``arcade``."""
        return self.family if self.table is None else f"{self.family}/{self.table}"


def _pages() -> dict[str, FamilyRules]:
    """Every family's rules page by family name, in listing order."""
    out = {}
    for family in families():
        page = family.rules_page()
        if page is not None:
            out[family.name] = page
    return out


def page_of(family: str) -> FamilyRules:
    """The rules page of ``family``; a ValueError names the families that have one."""
    pages = _pages()
    page = pages.get(family)
    if page is None:
        names = list(pages)
        known = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        raise ValueError(f"unknown family {family!r} (expected {known})")
    return page


def books() -> tuple[Book, ...]:
    """Every rules page: each family's, one per fan table."""
    return tuple(
        Book(name, table) for name, page in _pages().items() for table in (page.tables or (None,))
    )


def book(family: str, table: str | None = None) -> Book:
    """The book of ``family`` (with several fan tables: ``table``, the first by default); a
    ValueError naming the problem otherwise."""
    page = page_of(family)
    if page.tables:
        chosen = table or page.tables[0]
        if chosen not in page.tables:
            expected = ", ".join(page.tables[:-1]) + " or " + page.tables[-1]
            raise ValueError(f"unknown fan table {chosen!r} (expected {expected})")
        return Book(family, chosen)
    if table is not None:
        raise ValueError(f"family {family!r} has one table; leave out table")
    return Book(family)


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


def join_names(names: list[tuple[str, str]]) -> tuple[str, str]:
    """Names ``(zh, en)`` listed in each language."""
    return "、".join(n[0] for n in names), ", ".join(n[1] for n in names)


def table_rows(which: Book) -> tuple[RuleRow, ...]:
    """The rows of a book, in the scorer's table order."""
    return page_of(which.family).rows(which.table)
