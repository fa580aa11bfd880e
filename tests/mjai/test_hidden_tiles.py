"""Seat 1's stream does not depend on seat 0's hidden tiles: change one of seat 0's dealt tiles
(swapped with a tile nobody ever draws) and, as long as the hand plays the same for seat 1, seat
1's stream is the same message for message, up to the end where the winner's hand is shown.

arcade is left to ``test_stream``'s field-by-field check: its live wall is nearly always drawn
to the end (no undrawn tile to swap with), and its hidden tiles also steer the event generator
(the kind a pung offer names), so a changed tile rarely leaves seat 1's play alone."""

from __future__ import annotations

import pytest

from erren.engine import Action, ActionKind, EventKind, Record, replay
from erren.errors import IllegalActionError
from erren.mjai.export import hand_messages
from erren.tiles import Tile

from ._support.play import play, ruleset_of

REVEAL = {"hora", "ryukyoku", "end_kyoku"}
DEALER_POSITIONS = (0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 26)
"""The wall positions dealt to the dealer (4-4-4-1-1-1 from the front)."""


def _swapped(record: Record) -> Record | None:
    """``record`` with seat 0's first dealt tile swapped for an undrawn tile of another kind
    that seat 0 never names in a move; ``None`` if there is none or the hand no longer plays."""
    final = replay(record)
    wall = list(Action.parse(record.actions[0]).data)
    named = {Action.parse(a).tile for a in record.actions if a.startswith("0:")}
    dealt = [p for p in DEALER_POSITIONS if wall[p] < Tile.F1 and Tile(wall[p]) not in named]
    undrawn = [q for q in range(final.head + 1, final.tail) if wall[q] < Tile.F1]
    pairs = [(p, q) for p in dealt for q in undrawn if wall[p] != wall[q]]
    if not pairs:
        return None
    p, q = pairs[0]
    wall[p], wall[q] = wall[q], wall[p]
    shuffle = str(Action(ActionKind.SHUFFLE, -1, None, tuple(wall)))
    changed = Record.from_dict({**record.to_dict(), "actions": [shuffle, *record.actions[1:]]})
    try:
        replay(changed)
    except IllegalActionError:
        return None
    return changed


def _before_end(messages: list[dict[str, object]]) -> list[dict[str, object]]:
    out = []
    for m in messages:
        if m["type"] in REVEAL:
            break
        out.append(m)
    return out


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen"])
def test_seat_1_stream_ignores_seat_0_hidden_tiles(family: str) -> None:
    compared = 0
    for seed in range(0, 400, 2):  # even seeds: seat 0 deals
        record = play(ruleset_of(family, privacy=True), seed, system=False).record()
        changed = _swapped(record)
        if changed is None:
            continue
        seen = [
            [e.seen_by(1) for e in replay(r).events if e.kind is not EventKind.END]
            for r in (record, changed)
        ]
        if seen[0] != seen[1]:
            continue  # the change altered the play seat 1 sees: not a comparison
        full = [hand_messages(r, None)[0] for r in (record, changed)]
        assert full[0] != full[1]  # the hands do differ
        streams = [_before_end(hand_messages(r, 1)[0]) for r in (record, changed)]
        assert streams[0] == streams[1]
        compared += 1
        if compared == 8:
            break
    assert compared == 8
