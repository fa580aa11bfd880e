"""The prose of the rules pages, in Chinese and English: each family's tiles, turn flow, special
actions and scoring (its page's ``sections``, written in the family's package), short and each
paragraph citing the clause of ``/spec`` it summarises.  The values of fans, patterns and 水
items are not in the prose: they come from the scorers' tables (:mod:`erren.rules.rows`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Para", "Section"]


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph in both languages and the spec clause it follows."""

    zh: str
    en: str
    ref: str


@dataclass(frozen=True, slots=True)
class Section:
    """A section of a rules page: ``id`` (``tiles``, ``flow``, ``special``, ``scoring``)."""

    id: str
    title_zh: str
    title_en: str
    paras: tuple[Para, ...]
