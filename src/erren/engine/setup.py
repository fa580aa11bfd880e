"""The setup of a hand (guobiao-2p §1.4-§1.6): the chance actions (shuffle, dice, seed) checked
and laid on the table, then the deal and the opening 补花.

Functions of the state, behind :meth:`~erren.engine.state.State.apply` (the chance actions)
and :meth:`~erren.engine.state.State.deal_tiles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.actions import Action, ActionKind
from erren.engine.events import NOBODY, EventKind
from erren.errors import IllegalActionError
from erren.tiles import NUM_KINDS

if TYPE_CHECKING:
    from erren.engine.state import State

__all__ = ["deal_tiles", "lay_chance"]

AK = ActionKind


def lay_chance(state: State, action: Action) -> None:
    """Check the chance ``action`` is the one due and valid, and lay its outcome on the table
    (the wall of a shuffle, the dice); the state counts the step."""
    expected = state.next_chance()
    if expected is None or action.kind is not expected:
        raise IllegalActionError(
            "chance-out-of-order",
            f"{action.kind.value} is not due (expected {expected and expected.value})",
        )
    if action.kind is AK.SHUFFLE:
        if sorted(action.data) != sorted(state.ruleset.tiles):
            raise IllegalActionError(
                "not-a-shuffle", "the wall is not a permutation of the ruleset's tiles (§1.4)"
            )
        state.wall = list(action.data)
        state.head, state.tail = 0, len(state.wall) - 1
        state.emit(EventKind.SHUFFLE, NOBODY, private=True, data={"count": len(state.wall)})
    elif action.kind is AK.DICE:
        if not action.data or any(not 1 <= v <= 6 for v in action.data):
            raise IllegalActionError("not-dice", "dice show 1..6")
        state.dice = tuple(action.data)
        state.emit(EventKind.DICE, -1, data={"dice": tuple(state.dice)})
    elif action.kind is AK.SEED and (len(action.data) != 1 or action.data[0] < 0):
        raise IllegalActionError("not-a-seed", "an event seed is one whole number ≥ 0")


def deal_tiles(state: State, flower_kind: int) -> bool:
    """The deal (27 tiles, 4-4-4-1-1-1 from the front) and the opening 补花, dealer first, the
    ``flower_kind`` (-1: none) set aside like the flowers; ``False`` if the wall ran out."""
    d, n = state.dealer, 1 - state.dealer
    wall = state.wall
    got: list[list[int]] = [[], []]
    for who, start, size in (
        (d, 0, 4),
        (n, 4, 4),
        (d, 8, 4),
        (n, 12, 4),
        (d, 16, 4),
        (n, 20, 4),
        (d, 24, 1),
        (n, 25, 1),
        (d, 26, 1),
    ):
        got[who].extend(wall[start : start + size])
    state.head = 27
    for p in (d, n):
        h = state.hands[p]
        for t in got[p]:
            if t < NUM_KINDS and t != flower_kind:
                h[t] += 1
                state.last_added[p] = t
        state.emit(EventKind.DEAL, p, tiles=tuple(sorted(got[p])), private=True)
    for p in (d, n):
        for t in got[p]:
            if t >= NUM_KINDS or t == flower_kind:
                state.flowers[p].append(t)
                state.emit(EventKind.FLOWER, p, t, data={"during": "deal"})
                if not state.draw(p, back=True, kong=False):
                    return False
    return True
