"""What a hand's settlement reveals to both seats: every hand, and at a drawn hand who was ready.

Until the end no message may show a seat the opponent's concealed tiles (the leak audit of
``tests/server/_support/leaks.py`` replays every message).  Once the hand is over nothing is
secret any more — the settlement carries the record with the seed, from which the whole wall can
be rebuilt — so the settlement shows both seats the same thing, as QQ and 雀魂 do:

* ``hands``: each seat's hand, ``{"hand": notation, "flowers": [tiles]}``: the concealed tiles
  and declared melds in the shared notation (a concealed kong face up, ``[7777m#]``), the winner's
  exactly as scored (``result.hand`` with its ``+X`` winning tile, flowers left out), and the
  tiles he set aside as flowers (xiamen's and guobiao's flowers, arcade's playing flowers);
* ``ready``: at a drawn hand (荒庄), whether each seat was ready (听), as its family judges it
  (:meth:`erren.engine.Family.is_ready`: wilds count); ``None`` after a win or an escape.

>>> from erren.engine import State, find_family
>>> state = State.new(find_family("guobiao-2p"), seed=5, dealer=0)
>>> [sorted(h) for h in hands_json(state)]
[['flowers', 'hand'], ['flowers', 'hand']]
>>> ready_json(state) is None
True
"""

from __future__ import annotations

from typing import Any

from erren.engine import State
from erren.engine.result import ResultKind
from erren.hand import Hand
from erren.tiles import Tile

__all__ = ["hands_json", "ready_json"]


def _seat_hand(state: State, seat: int) -> Hand:
    """The hand ``seat`` holds now (the winner's as scored), flowers apart."""
    result = state.result
    if (
        result is not None
        and result.kind is ResultKind.WIN
        and result.winner == seat
        and result.hand
    ):
        won = result.hand
        return Hand(won.concealed, won.melds, won.winning)
    counts = state.hands[seat]
    concealed = tuple(Tile(k) for k, n in enumerate(counts) for _ in range(n))
    return Hand(concealed, tuple(state.melds[seat]))


def hands_json(state: State) -> list[dict[str, Any]]:
    """Both seats' hands as the settlement shows them (see the module's docstring)."""
    return [
        {
            "hand": str(_seat_hand(state, seat)),
            "flowers": [str(Tile(f)) for f in sorted(state.flowers[seat])],
        }
        for seat in (0, 1)
    ]


def ready_json(state: State) -> list[bool] | None:
    """At a drawn hand, whether each seat was ready (听) by its family's rules; else ``None``."""
    if state.result is None or state.result.kind is not ResultKind.DRAW:
        return None
    return [state.ruleset.is_ready(state, seat) for seat in (0, 1)]
