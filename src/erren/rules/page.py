"""What a family gives its rules page (:meth:`~erren.engine.family.Family.rules_page`): its
prose, its rows read from its scorer's table, the unit and cap its rows add up in, its fan
tables, its extra table (xiamen's win types) and the words of its example hands' fields.

The shared code (:mod:`erren.rules`) lays the page out; nothing there knows a family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from erren.rules.prose import Section
from erren.rules.rows import RuleRow
from erren.scoring.detail import ScoreUnit

__all__ = ["Both", "FamilyRules", "Label", "Words", "label"]

Both = tuple[str, str]
"""A text in Chinese and English."""
Label = dict[str, Any]
"""A circumstance of an example hand in words: ``{"zh", "en", "tiles"}``."""


def label(zh: str, en: str, tiles: list[str] | None = None) -> Label:
    """A label in both languages, with the tiles it names."""
    return {"zh": zh, "en": en, "tiles": tiles or []}


def _no_label(key: str, value: Any) -> Label | None:
    return None


def _no_extras() -> list[dict[str, Any]]:
    return []


def _no_names() -> dict[str, Any]:
    return {}


@dataclass(frozen=True, slots=True)
class Words:
    """How the fields of a family's score request read as labels: flags (``自摸``), fields
    whose value is a tile (the tile is drawn), fields whose value is a word of the scorer
    (the field's name, then the word's), and counts."""

    flags: Mapping[str, Both] = field(default_factory=dict)
    tiles: Mapping[str, Both] = field(default_factory=dict)
    words: Mapping[str, tuple[Both, Mapping[str, Both]]] = field(default_factory=dict)
    counts: Mapping[str, Both] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FamilyRules:
    """A family's rules page.

    ``rows(table)`` lists the rows of one book (``table`` one of ``tables``, or ``None`` for
    a family with one table), in the scorer's order; ``unit`` and ``cap`` say how an
    example's rows add up (a sum above ``cap`` counts as ``cap``); ``win_types`` is the extra
    table of the page (empty by default); ``words`` and ``value_label`` word the example
    hands' fields; ``constructed`` gives hands written for rows the corpus never scores
    (fan table, ``None`` for the one table → row id → hand and context); ``names`` are the
    entries of ``/web/names.json`` the settlement screen reads (:mod:`erren.web.names`)."""

    sections: tuple[Section, ...]
    rows: Callable[[str | None], tuple[RuleRow, ...]]
    unit: ScoreUnit = ScoreUnit.FAN
    tables: tuple[str, ...] = ()
    cap: int | None = None
    win_types: Callable[[], list[dict[str, Any]]] = _no_extras
    words: Words = field(default_factory=Words)
    value_label: Callable[[str, Any], Label | None] = _no_label
    constructed: Mapping[str | None, Mapping[str, tuple[str, dict[str, Any]]]] = field(
        default_factory=dict
    )
    names: Callable[[], dict[str, Any]] = _no_names
