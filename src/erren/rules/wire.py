"""The JSON shapes of ``GET /rules/{family}`` and ``GET /tutorial``, as typed dicts: the web
client's typedefs are generated from them (:mod:`erren.server.jsdoc`), and a test checks that
the answers have exactly these fields, so neither side drifts."""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = [
    "RULES_SHAPES",
    "RuleBoth",
    "RuleExample",
    "RuleLabel",
    "RuleParagraph",
    "RuleRow",
    "RuleSection",
    "RuleTerm",
    "RuleWinType",
    "RulesPage",
    "Tutorial",
    "TutorialStep",
]


class RuleBoth(TypedDict):
    """A text in Chinese and English."""

    zh: str
    en: str


class RuleParagraph(TypedDict):
    """A paragraph of a rules section and the spec clause it follows."""

    zh: str
    en: str
    ref: str


class RuleSection(TypedDict):
    """A section: ``tiles``, ``flow``, ``special`` or ``scoring``."""

    id: str
    title: RuleBoth
    paras: list[RuleParagraph]


class RuleLabel(TypedDict):
    """A circumstance of an example hand in words (``自摸``, ``金``), with the tiles it names
    (the gold, the flowers held, a wind), drawn as tiles, never written in notation."""

    zh: str
    en: str
    tiles: list[str]


class RuleTerm(TypedDict):
    """A row of an example's sum: its name, its value for one occurrence (``each``: fan, 水,
    or a limit hand's multiple) and how many times it counts."""

    zh: str
    en: str
    each: int
    count: int


class RuleExample(TypedDict):
    """A hand that scores the row: the notation, the scorer's request fields, their labels,
    and what the scorer answers (``[name, value, count]`` rows as the conformance corpus
    writes them, ``total``).  ``terms`` are the rows as they add up: ``sum`` = Σ ``each`` ×
    ``count``, counted in ``unit`` (番, 水, or 役满 for limit hands); ``capped`` is what the
    family counts of a sum above its cap (arcade's 13 fan), else null."""

    hand: str
    context: dict[str, Any]
    labels: list[RuleLabel]
    rows: list[tuple[str, int, int]]
    total: int
    terms: list[RuleTerm]
    sum: int
    unit: RuleBoth
    capped: int | None


class RuleRow(TypedDict):
    """A row of the scorer's table."""

    id: str
    name_zh: str
    name_en: str
    value: int
    limit: bool
    note: RuleBoth
    example: RuleExample | None


class RuleWinType(TypedDict):
    """A xiamen win type: its multiplier ``m`` and bonus (R-4.6)."""

    id: str
    zh: str
    en: str
    m: int
    bonus: int


class RulesPage(TypedDict):
    """``GET /rules/{family}``."""

    family: str
    table: str | None
    tables: list[str]
    unit: RuleBoth
    rows_title: RuleBoth
    sections: list[RuleSection]
    rows: list[RuleRow]
    win_types: list[RuleWinType]


class TutorialStep(TypedDict):
    """One taught move and seat 0's observation before it (the ``Observation`` typedef)."""

    id: str
    move: str
    zh: str
    en: str
    obs: dict[str, Any]


class Tutorial(TypedDict):
    """``GET /tutorial``."""

    ruleset: str
    options: dict[str, Any]
    steps: list[TutorialStep]
    end: dict[str, Any]


RULES_SHAPES: tuple[type, ...] = (
    RuleBoth,
    RuleParagraph,
    RuleSection,
    RuleLabel,
    RuleTerm,
    RuleExample,
    RuleRow,
    RuleWinType,
    RulesPage,
    TutorialStep,
    Tutorial,
)
"""Every shape, each after those it uses (the typedefs' order)."""
