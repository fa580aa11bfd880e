"""What a family gives the conformance corpus (:meth:`~erren.engine.family.Family.conformance`):
how its win rows are answered and generated, how its shape rows are analysed, generated and
cross-checked against a reference library, its spec's worked examples and the options its
sequences are played with.  The shared modules (:mod:`.expect`, :mod:`.generate`,
:mod:`.check`) call it; none of them knows a family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erren.analysis.shapes import Shape
from erren.engine.registry import families, find_family

if TYPE_CHECKING:
    from erren.conformance.crosscheck import Verdict
    from erren.conformance.inputs import ShapeInput, WinInput

__all__ = [
    "Checked",
    "ConformanceAdapter",
    "Expected",
    "ShapeAnswer",
    "ShapeQuery",
    "WinSource",
    "adapter_of",
    "corpus_families",
]

Expected = dict[str, Any]
ShapeAnswer = tuple[dict[Shape, int], list[int] | None]
"""Shanten by shape, and the waits (kinds) of a 3n+1 hand (``None`` otherwise)."""
Checked = tuple[str, "Verdict | None"]
"""The cross-check's name (the tally's line) and its verdict (``None``: not checked)."""


@dataclass(frozen=True, slots=True)
class ShapeQuery:
    """A shape row's hand as counts: concealed ``counts`` (as parsed, a White playing as the
    gold kind in xiamen), ``held`` in melds, ``physical`` (both), whether it is a 3n+1
    hand (``ready``: list the waits), the shape set and the row's fields (``gold``,
    ``wild``)."""

    counts: list[int]
    held: list[int]
    physical: list[int]
    ready: bool
    shapes: str
    fields: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class WinSource:
    """One stream of generated wins: the rows' id part ``tag`` (``…/win/TAG/00001``), the
    name of its size in :class:`~erren.conformance.generate.Sizes` and its default, the
    candidates for ``(n, seed)`` (erren's refusals are dropped, the first ``n`` kept), and
    the cross-check of a kept row against a reference library (``None``: none)."""

    tag: str
    size: str
    default: int
    items: Callable[[int, int], Iterable[WinInput]]
    crosscheck: Callable[[WinInput, Expected], Checked] | None = None


def _natural(fields: Mapping[str, Any]) -> dict[int, int] | None:
    return None


@dataclass(frozen=True, slots=True)
class ConformanceAdapter:
    """A family's part of the corpus.

    ``answer`` scores a win row's request (a JSON line: ``hand`` and the row's ``context``)
    into its ``expected``; ``plays_as`` says which kinds play as others when a row's hand is
    parsed (xiamen's White as the gold kind), from the row's fields.  ``shape_sets`` are the
    sets a shape row may name, ``shape_needs`` the fields it must have, ``shape`` its
    analysis; ``shape_inputs(n, seed)`` generates shape rows and ``shape_check``
    cross-checks one.  ``wins`` are the generated win streams, after the spec's worked
    ``examples`` (label, hand, context); ``sequence_options`` the options the sequences are
    played with, in turn."""

    answer: Callable[[str], Expected]
    shape_sets: tuple[str, ...]
    shape: Callable[[ShapeQuery], ShapeAnswer]
    shape_inputs: Callable[[int, int], list[ShapeInput]]
    shape_check: Callable[[ShapeInput, Expected], Checked]
    wins: tuple[WinSource, ...]
    examples: tuple[tuple[str, str, dict[str, Any]], ...] = ()
    plays_as: Callable[[Mapping[str, Any]], dict[int, int] | None] = _natural
    shape_needs: tuple[str, ...] = ()
    sequence_options: tuple[dict[str, Any], ...] = field(default=({},))


def adapter_of(family: str) -> ConformanceAdapter | None:
    """The corpus adapter of ``family``; ``None`` for an unknown family or one without."""
    try:
        return find_family(family).conformance()
    except ValueError:
        return None


def corpus_families() -> tuple[str, ...]:
    """The families with corpus files, in listing order."""
    return tuple(f.name for f in families() if f.conformance() is not None)
