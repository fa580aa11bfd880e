"""The quick review after a hand: what the computer would have discarded at the player's own
decisions, and the few where it matters most.

:func:`review` replays a finished hand's record.  At each of the seat's turns where he threw a
tile (a discard, a 报听, a drawn gold) it asks a bot for its move from the seat's observation *at
that moment* — the opponent's concealed tiles and the wall never enter the advice, even though
the hand is over — and measures both discards by the same yardstick, from the same observation:
how far from ready the hand is left (shanten) and how many unseen tiles would bring it closer
(the waits' unseen copies once ready; :mod:`erren.bots.hints`).

The decisions shown are those where the bot threw another tile, ranked by what the player's
discard cost in that yardstick: first a missed win (the bot would have won there), then the
shanten lost, then the useful tiles lost.  A decision where the bot gave up speed on purpose (to
defend, or for value) costs nothing in it and comes last.  This is cheap (one kernel call per
discard compared) and says in the player's own terms what the computer saw; it does not weigh
points or danger, which the bot's choice itself does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from erren.analysis.waits import improving
from erren.bots.base import Bot
from erren.bots.hints import hand_view
from erren.engine import Action, ActionKind, Observation, Record
from erren.engine.record import replay_moves
from erren.server.protocol import action_text
from erren.tiles import Tile

__all__ = ["Decision", "Shape", "review", "review_json"]

AK = ActionKind
_THROWS = (AK.DISCARD, AK.TING, AK.DISCARD_GOLD)
_WINS = (AK.HU, AK.ZIMO, AK.WIN, AK.SANJINDAO, AK.QIANGJIN)


@dataclass(frozen=True, slots=True)
class Shape:
    """The hand left by a discard: ``shanten`` (0: ready) and ``left``, the unseen tiles that
    bring it closer (its waits' unseen copies when ready)."""

    shanten: int
    left: int


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the player's discards: ``n`` the event number he decided at, the ``hand`` he held
    and the tile he ``drawn``, what he ``played`` and what the bot would have (``expert``), and
    the :class:`Shape` each leaves (``None``: the bot's move throws nothing — a win)."""

    n: int
    hand: tuple[Tile, ...]
    drawn: Tile | None
    played: Action
    expert: Action
    played_shape: Shape
    expert_shape: Shape | None

    @property
    def cost(self) -> tuple[int, int, int]:
        """The ranking key (larger costs more): a missed win, shanten lost, tiles lost."""
        if self.expert_shape is None:
            return (1, 0, 0)
        return (
            0,
            self.played_shape.shanten - self.expert_shape.shanten,
            self.expert_shape.left - self.played_shape.left,
        )


def shape_after(obs: Observation, tile: int) -> Shape:
    """The :class:`Shape` of ``obs``'s hand after throwing ``tile``, from ``obs`` alone."""
    view = hand_view(obs)
    counts, wilds = view.without(tile)
    found = view.waits(counts, wilds)
    if found:
        return Shape(0, sum(n for _, n in found))
    now, kinds = improving(counts, wilds=wilds, shapes=view.shapes)
    extra = view.wilds_left if view.wild is not None else 0
    return Shape(now, sum(view.unseen(k) for k in kinds) + extra)


def _throw(action: Action) -> int | None:
    return int(action.tile) if action.kind in _THROWS and action.tile is not None else None


def review(record: Record, seat: int, bot: Bot) -> tuple[list[Decision], int]:
    """``(decisions, count)``: the seat's discards where ``bot`` would have thrown another tile
    (or won), costliest first (:attr:`Decision.cost`), and how many discards he made."""
    out: list[Decision] = []
    count = 0
    before: Observation | None = None
    for state, move in replay_moves(record):
        if before is not None and move is not None and move.player == seat:
            tile = _throw(move)
            if tile is not None:
                count += 1
                advice = bot.choose(before, before.legal_actions)
                other = _throw(advice)
                if advice.kind in _WINS or (other is not None and other != tile):
                    out.append(
                        Decision(
                            before.event_seq,
                            before.hand,
                            before.last_drawn,
                            move,
                            advice,
                            shape_after(before, tile),
                            None if other is None else shape_after(before, other),
                        )
                    )
        before = None
        if not state.is_terminal and state.actor == seat:
            before = state.observe(seat)
    out.sort(key=lambda d: d.cost, reverse=True)
    return out, count


def _shape_json(shape: Shape | None) -> dict[str, int] | None:
    return None if shape is None else {"shanten": shape.shanten, "left": shape.left}


def review_json(decisions: list[Decision], count: int, *, top: int = 3) -> dict[str, Any]:
    """The review for the client: the ``top`` costliest ``decisions`` (event number, hand,
    drawn tile, played, expert's, each one's shape after), how many discards there were and
    how many the bot agreed with."""
    return {
        "count": count,
        "agreed": count - len(decisions),
        "decisions": [
            {
                "n": d.n,
                "hand": [str(t) for t in d.hand],
                "drawn": None if d.drawn is None else str(d.drawn),
                "played": action_text(d.played),
                "expert": action_text(d.expert),
                "played_after": _shape_json(d.played_shape),
                "expert_after": _shape_json(d.expert_shape),
            }
            for d in decisions[:top]
        ],
    }
