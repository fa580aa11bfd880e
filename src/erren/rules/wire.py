"""The JSON shapes of ``GET /rules/{family}`` and ``GET /tutorial``, as typed dicts: the web
client's typedefs are generated from them (:mod:`erren.server.jsdoc`), and a test checks that
the answers have exactly these fields, so neither side drifts."""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = [
    "RULES_SHAPES",
    "RuleBoth",
    "RuleExample",
    "RuleParagraph",
    "RuleRow",
    "RuleSection",
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


class RuleExample(TypedDict):
    """A hand that scores the row: the notation, the scorer's request fields, their labels,
    and what the scorer answers (``[name, value, count]`` rows, total)."""

    hand: str
    context: dict[str, Any]
    labels: list[RuleBoth]
    rows: list[tuple[str, int, int]]
    total: int


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
    RuleExample,
    RuleRow,
    RuleWinType,
    RulesPage,
    TutorialStep,
    Tutorial,
)
"""Every shape, each after those it uses (the typedefs' order)."""
