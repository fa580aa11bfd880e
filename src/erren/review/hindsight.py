"""Hindsight: the line that would have done best for a seat with every tile known.

This is hindsight, never advice: it reads the whole wall and the opponent's recorded play,
which no player has during a hand.  It answers "with the tiles known, what was there to
get?" beside the review of the hand (``docs/review.md``, section "Hindsight").

**What is searched.**  A *line* is a sequence of the seat's moves, one per decision of his (any
legal move: discards, 报听, claims, kongs, wins and passes, and the family's own verbs such
as xiamen's 游金 throws or arcade's exchange and pick, which are simply legal moves).  The
engine is deterministic given the moves: the wall and the other chance outcomes are the
record's, in order (a chance action the record does not hold, in a line that outlasts it, is
drawn from a generator seeded by the record's seed and the number of actions played).

**What the opponent does.**  Until the line departs from the record, everything is replayed
as recorded (his 托管, timeouts, even a win he passed).  From the first departure on, at
each of his decisions (:func:`~erren.review.hindsight_line.follow`):

1. he takes a win whenever one is legal to him, so a line that deals in is never shown as a
   win;
2. else he plays the first of his next three recorded moves that is legal in the new position
   (the same kind and tile; a recorded timeout is the engine's default move), skipping the
   ones before it;
3. else he passes a claim he did not record;
4. else he throws the tile he drew (or claimed) last, else his first legal throw.

托管 switches and escapes of either seat are not played after the departure: the line plays
the hand out.  After the departure the seat's own *default* move follows the same rule over
his own recorded moves; a move other than the default is a *departure*.

**The search.**  Limited-discrepancy search: first the record itself, then every line with one
departure from the default (depth first, a win tried first at each decision, then the legal
moves in the engine's order), then the lines with more, up to ``max_departures`` (default 2),
their first departure taken best first (by the points of its one-departure line).  It is
bounded by ``budget``, a count of engine steps (actions applied; deterministic, never a
clock): once the budget is spent no departure is opened and the lines under way stop at their
next decision, so the steps pass the budget by at most about one line's length.  The record
is always played, so a result always exists and is never worse than the actual one.  The
search is *complete* when every line with up to ``max_departures`` departures was played.

**The points** are the seat's change in the table's unit: ``HandResult.deltas[seat]`` of the
line's end, counted in the family's ``point_unit``.  Ties keep the line found first (fewer
departures, earlier in the order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from erren.engine.actions import Action
from erren.engine.record import Record
from erren.engine.registry import find_family
from erren.review.hindsight_line import Line, play_line, start_line

__all__ = ["DEFAULT_BUDGET", "DEFAULT_DEPARTURES", "Hindsight", "hindsight", "play_line"]

DEFAULT_BUDGET = 8_000
"""Engine steps: a hand is searched in under a second on one core, every family
(``benchmarks/bench_hindsight.py``; arcade's steps are the dearest, about 15,000 a second)."""

DEFAULT_DEPARTURES = 2
"""Lines with up to two departures from the default moves are searched."""


@dataclass(frozen=True, slots=True)
class Hindsight:
    """The best line found for ``seat``.  ``actual`` and ``best`` are the seat's points
    (``HandResult.deltas[seat]``) in the family's ``point_unit``; ``moves`` are the seat's
    moves of the line, one per decision; ``departs_at`` the index in ``moves`` of its first
    move off the record (``None``: the record was best) and ``departs_action`` the index of the
    recorded action it replaces; ``actions`` the line's whole action list (a record of it
    replays with :func:`erren.engine.record.replay` to ``best``)."""

    seat: int
    unit: str
    actual: int
    best: int
    moves: tuple[str, ...]
    departs_at: int | None
    departs_action: int | None
    departures: int
    ending: str
    """How the line's hand ends: a :class:`~erren.engine.result.ResultKind` value."""
    result: str
    actions: tuple[str, ...]
    complete: bool
    steps: int
    lines: int

    @property
    def gain(self) -> int:
        return self.best - self.actual

    def record(self, of: Record) -> Record:
        """The line as a hand record (the original's ruleset, options, seat and wall)."""
        return Record(
            of.ruleset,
            of.options,
            of.seed,
            of.dealer,
            of.round_wind,
            self.actions,
            self.result,
            of.streak,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "unit": self.unit,
            "actual": self.actual,
            "best": self.best,
            "gain": self.gain,
            "moves": list(self.moves),
            "departs_at": self.departs_at,
            "departs_action": self.departs_action,
            "departures": self.departures,
            "ending": self.ending,
            "result": self.result,
            "actions": list(self.actions),
            "complete": self.complete,
            "steps": self.steps,
            "lines": self.lines,
        }

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)


class _Search:
    """Limited-discrepancy search over one seat's lines (see the module's docstring)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.steps = 0
        self.lines = 0
        self.cut = False
        self.best: Line | None = None
        self.best_points = 0

    def run(self, root: Line, max_departures: int) -> None:
        """The record, every line with one departure, then the lines with more, the first
        departures taken best first (by the points of their one-departure line)."""
        self.explore(root.clone(), 0)
        if max_departures == 0:
            return
        firsts: list[tuple[int, int, Line]] = []
        self.explore(root.clone(), 1, firsts)
        if self.cut or max_departures == 1:
            return
        firsts.sort(key=lambda first: (-first[0], first[1]))
        for _, _, branch in firsts:
            if self.steps >= self.budget:
                self.cut = True
                return
            self.explore(branch, max_departures - 1)
            if self.cut:
                return

    def explore(
        self, line: Line, allowed: int, firsts: list[tuple[int, int, Line]] | None = None
    ) -> None:
        """Play ``line`` on from where it stands with at most ``allowed`` more departures;
        with ``firsts``, keep each departure's line as it starts, with its points."""
        while True:
            going = line.advance()
            self.steps += line.steps
            line.steps = 0
            if not going:
                self.finish(line)
                return
            legal = line.state.legal_actions()
            default = line.default(legal)[0]
            if allowed > 0:
                for move in _order(legal, default):
                    if self.steps >= self.budget:
                        self.cut = True
                        return
                    child = line.clone()
                    child.play(move, legal)
                    start = child.clone() if firsts is not None else None
                    self.explore(child, allowed - 1)
                    if firsts is not None and start is not None:
                        firsts.append((_points(child), len(firsts), start))
                    if self.cut:
                        return
            line.play(default, legal)

    def finish(self, line: Line) -> None:
        self.lines += 1
        points = _points(line)
        if self.best is None or points > self.best_points:
            self.best, self.best_points = line, points


def _points(line: Line) -> int:
    result = line.state.result
    assert result is not None
    return result.deltas[line.seat]


def _order(legal: list[Action], default: Action) -> list[Action]:
    """The departures at a decision: the wins first, then the engine's order."""
    others = [a for a in legal if a != default]
    return [a for a in others if a.kind.is_win] + [a for a in others if not a.kind.is_win]


def hindsight(
    record: Record | str,
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    max_departures: int = DEFAULT_DEPARTURES,
) -> Hindsight:
    """The best line for ``seat`` in the finished hand of ``record`` (see the module)."""
    if isinstance(record, str):
        record = Record.from_json(record)
    if seat not in (0, 1):
        raise ValueError(f"seat is 0 or 1, not {seat}")
    actual_line = play_line(record, seat, ())
    actual = actual_line.state.result
    if actual is None or actual_line.queues is not None:
        raise ValueError("hindsight needs a finished hand")
    search = _Search(budget)
    search.run(start_line(record, seat), max_departures)
    best = search.best
    assert best is not None and best.state.result is not None
    departs = None if best.queues is None else best.queues.at
    return Hindsight(
        seat=seat,
        unit=find_family(record.ruleset, record.options).point_unit.en,
        actual=actual.deltas[seat],
        best=search.best_points,
        moves=tuple(str(m) for m in best.moves),
        departs_at=best.departs_at,
        departs_action=departs,
        departures=best.departures,
        ending=best.state.result.kind.value,
        result=str(best.state.result),
        actions=tuple(str(a) for a in best.state.history),
        complete=not search.cut,
        steps=search.steps,
        lines=search.lines,
    )
