"""The mechanics of a hindsight line (see :mod:`erren.review.hindsight`): a hand replayed from
its record where one seat's decisions may depart from what he played, the opponent answering
by the documented rule (:func:`follow`), the wall and the other chance outcomes as recorded.

A line is fully named by the record, the seat and the seat's moves, one per decision of his:
:func:`play_line` rebuilds it from them, and :class:`Line` is the same walk kept open for a
search to branch from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.record import Record, replay
from erren.engine.state import State

__all__ = ["LOOKAHEAD", "Line", "Queues", "follow", "play_line", "start_line"]

LOOKAHEAD = 3
"""How many of a seat's next recorded moves are tried, in order, against the position."""

_LEAVES = (ActionKind.TRUSTEE, ActionKind.ESCAPE)
"""Recorded actions that are no decision: dropped once a line has departed."""


@dataclass(frozen=True, slots=True)
class Queues:
    """What is left of the record once a line departs at action ``at``: each seat's recorded
    moves (托管 and escapes dropped) and the chance actions, in order."""

    at: int
    moves: tuple[tuple[Action, ...], tuple[Action, ...]]
    chance: tuple[Action, ...]

    @classmethod
    def after(cls, actions: Sequence[Action], at: int) -> Queues:
        """The queues of a line departing at the recorded action ``at`` (that action, the
        move the seat did not play, is not among them)."""
        rest = actions[at + 1 :]
        seat_moves = tuple(
            tuple(a for a in rest if a.player == p and a.kind not in _LEAVES) for p in (0, 1)
        )
        return cls(at, (seat_moves[0], seat_moves[1]), tuple(a for a in rest if a.player == CHANCE))


def follow(
    state: State, legal: Sequence[Action], queue: tuple[Action, ...], j: int
) -> tuple[Action, int]:
    """The move of a seat playing from his recorded moves ``queue[j:]`` in a position the
    record did not reach, and where his queue stands after it:

    1. a win, whenever one is legal to him (the first listed);
    2. else the first of his next :data:`LOOKAHEAD` recorded moves that is legal now (the same
       kind and tile; a recorded ``timeout`` always is), the moves before it skipped;
    3. else ``pass`` when he may pass (a claim he did not record);
    4. else a throw of the tile he drew (or claimed) last, else his first legal throw, else
       his first legal move; the queue does not move.
    """
    for a in legal:
        if a.kind.is_win:
            return a, j
    for t in range(j, min(j + LOOKAHEAD, len(queue))):
        a = queue[t]
        if a.kind is ActionKind.TIMEOUT or a in legal:
            return a, t + 1
    drawn = state.last_added[state.actor]
    throw_drawn: Action | None = None
    throw_any: Action | None = None
    for a in legal:
        kind = a.kind
        if kind is ActionKind.PASS:
            return a, j
        if throw_any is None and kind.throws:
            throw_any = a
        if throw_drawn is None and kind is ActionKind.DISCARD and a.tile_kind() == drawn:
            throw_drawn = a
    if throw_drawn is not None:
        return throw_drawn, j
    return (throw_any if throw_any is not None else legal[0]), j


@dataclass(slots=True)
class Line:
    """A line being walked: the hand, where it stands against the record, the seat's moves."""

    state: State
    seat: int
    actions: tuple[Action, ...]
    """The record's actions."""
    seed: int
    """Seeds chance outcomes the record does not hold (a line that outlasts it)."""
    at: int = 0
    """The next recorded action (before the line departs)."""
    queues: Queues | None = None
    """Set when the line departed."""
    heads: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Where seat 0's, seat 1's and the chance queue stand."""
    moves: tuple[Action, ...] = ()
    departures: int = 0
    departs_at: int | None = None
    """The index in :attr:`moves` of the first move off the record."""
    steps: int = 0
    """Engine steps (actions applied) spent on this line since its last clone."""

    def clone(self) -> Line:
        return Line(
            self.state.clone(),
            self.seat,
            self.actions,
            self.seed,
            self.at,
            self.queues,
            list(self.heads),
            self.moves,
            self.departures,
            self.departs_at,
        )

    def recorded(self) -> Action | None:
        """The seat's recorded move at this decision (before the line departs)."""
        return None if self.queues is not None else self.actions[self.at]

    def default(self, legal: Sequence[Action]) -> tuple[Action, int]:
        """The seat's move when he does not depart (his recorded one, then :func:`follow`) and
        where his queue stands after it."""
        if self.queues is None:
            return self.actions[self.at], 0
        seat = self.seat
        return follow(self.state, legal, self.queues.moves[seat], self.heads[seat])

    def play(self, move: Action, legal: Sequence[Action]) -> None:
        """The seat plays ``move`` at his decision (a departure when it is not the default)."""
        default, head = self.default(legal)
        self.moves += (move,)
        if move == default:
            if self.queues is None:
                self.at += 1
                self._apply_recorded(move)
                return
            self.heads[self.seat] = head
        else:
            self.departures += 1
            if self.queues is None:
                self.queues = Queues.after(self.actions, self.at)
                self.departs_at = len(self.moves) - 1
        self._apply(move)

    def advance(self) -> bool:
        """Walk on to the seat's next decision; ``False`` when the hand ended first."""
        state, seat = self.state, self.seat
        while not state.is_terminal:
            if self.queues is None:
                if self.at >= len(self.actions):
                    raise ValueError("the record ends before its hand does")
                a = self.actions[self.at]
                if a.player == seat and a.kind not in _LEAVES and state.actor == seat:
                    return True
                self.at += 1
                self._apply_recorded(a)
            elif state.actor == CHANCE:
                self._apply(self._chance())
            elif state.actor == seat:
                return True
            else:
                self._opponent()
        return False

    def _opponent(self) -> None:
        assert self.queues is not None
        q = self.state.actor
        legal = self.state.legal_actions()
        move, self.heads[q] = follow(self.state, legal, self.queues.moves[q], self.heads[q])
        self._apply(move)

    def _chance(self) -> Action:
        assert self.queues is not None
        kind = self.state.next_chance()
        chance, j = self.queues.chance, self.heads[2]
        if j < len(chance) and chance[j].kind is kind:
            self.heads[2] = j + 1
            return chance[j]
        rng = random.Random(self.seed * 1_000_003 + len(self.state.history))
        return self.state.sample_chance(rng)

    def _apply(self, action: Action) -> None:
        self.steps += 1
        if action.kind.is_system:
            self.state.apply_system(action)
        else:
            self.state.apply(action)

    def _apply_recorded(self, action: Action) -> None:
        self.steps += 1
        self.state.apply_recorded(action)


def start_line(record: Record, seat: int) -> Line:
    """A line at the start of ``record``'s hand, for ``seat``."""
    state = replay(record, upto=0)
    actions = tuple(Action.parse(text) for text in record.actions)
    return Line(state, seat, actions, record.seed or 0)


def play_line(record: Record, seat: int, moves: Sequence[Action]) -> Line:
    """The line of ``seat`` playing ``moves`` at his decisions, walked to the hand's end (the
    last moves the line has no decision for are ignored; a line shorter than its decisions
    goes on with the default moves)."""
    line = start_line(record, seat)
    for move in moves:
        if not line.advance():
            return line
        line.play(move, line.state.legal_actions())
    while line.advance():
        legal = line.state.legal_actions()
        line.play(line.default(legal)[0], legal)
    return line
