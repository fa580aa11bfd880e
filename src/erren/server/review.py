"""The quick review after a hand: what the computer would have done at the player's own
decisions, and the few where it matters most.

:func:`review` replays a finished hand's record.  At each of the seat's own decisions (a move
he chose among two or more legal ones: not 托管's, not 报听's frozen discards, not a timeout's
default) it asks a bot for its move from the seat's observation *at that moment* — the
opponent's concealed tiles and the wall never enter the advice, even though the hand is over.
Each decision is of one :class:`Judged` kind, the question it put to the player:

* ``win``: a win was on offer (胡, 自摸, 游金, 三金倒, 抢金): take it or not;
* ``ting``: 报听 was on offer at his turn (declare or not, and with which discard);
* ``claim``: the opponent's discard could be claimed (吃, 碰, 杠 or 过);
* ``discard``: his turn otherwise (which tile to throw, or a concealed or added kong).

Both moves are measured by the same yardstick, from the same observation: how far from ready
the hand is left (shanten) and how many unseen tiles would bring it closer (the waits' unseen
copies once ready; :mod:`erren.bots.hints`) — for a claim, a pass or a kong only the shanten
after it (and the best discard), as the hint's reason counts it.

The decisions shown are those where the bot moved otherwise, ranked by what the player's move
cost in that yardstick: first a missed win (the bot would have won there, he did not), then the
shanten lost, then the useful tiles lost; between equal costs a win before a 报听 before a
claim before a discard.  A decision where the bot gave up speed on purpose (to defend, or for
value) costs nothing in it and comes last.  This is cheap (one kernel call per move compared)
and says in the player's own terms what the computer saw; it does not weigh points or danger,
which the bot's choice itself does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any

from erren.analysis.waits import improving
from erren.bots.base import Bot
from erren.bots.hints import hand_view, reason
from erren.engine import Action, ActionKind, Observation, Record
from erren.engine.actions import AnyActionKind
from erren.engine.record import replay_moves
from erren.server.protocol import action_text
from erren.tiles import Tile

__all__ = ["Decision", "Judged", "Shape", "review", "review_json"]

AK = ActionKind
_CLAIMS = (AK.CHI, AK.PENG, AK.MING_GANG)
_KONGS = (AK.AN_GANG, AK.JIA_GANG)
_JUDGED = frozenset((*_CLAIMS, *_KONGS, AK.PASS))
"""With every throw and every win (:attr:`~erren.engine.actions.AnyActionKind.throws`,
``is_win``), the moves a review judges (an arcade exchange, pick or pung offer is not)."""


def _judges(kind: AnyActionKind) -> bool:
    return kind.throws or kind.is_win or kind in _JUDGED


class Judged(Enum):
    """The question a decision put to the player, in the order the review ranks equal costs
    (the first is shown first)."""

    WIN = "win"
    TING = "ting"
    CLAIM = "claim"
    DISCARD = "discard"


_RANK = {kind: i for i, kind in enumerate(Judged)}


@dataclass(frozen=True, slots=True)
class Shape:
    """The hand left by a move: ``shanten`` (0: ready) and ``left``, the unseen tiles that
    bring it closer (its waits' unseen copies when ready; ``None`` after a claim, a pass or a
    kong, which are measured by the shanten alone)."""

    shanten: int
    left: int | None


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the player's decisions where the bot moved otherwise: its ``kind``, ``n`` the
    event number he decided at, the ``hand`` he held, the tile he ``drawn`` and the discard
    ``offered`` to claim (or ``None``), what he ``played`` and what the bot would have
    (``expert``), and the :class:`Shape` each leaves (``None``: a win)."""

    kind: Judged
    n: int
    hand: tuple[Tile, ...]
    drawn: Tile | None
    offered: Tile | None
    played: Action
    expert: Action
    played_shape: Shape | None
    expert_shape: Shape | None

    @property
    def cost(self) -> tuple[int, int, int, int]:
        """The ranking key (larger costs more): a missed win, shanten lost, tiles lost, then
        the kind (a win before a 报听 before a claim before a discard)."""
        rank = len(Judged) - _RANK[self.kind]
        if self.expert_shape is None:
            return (1 if self.played_shape is not None else 0, 0, 0, rank)
        if self.played_shape is None:  # he won where the bot would not: it cost nothing
            return (0, 0, 0, rank)
        mine, theirs = self.played_shape, self.expert_shape
        left = 0
        if mine.left is not None and theirs.left is not None:
            left = theirs.left - mine.left
        return (0, mine.shanten - theirs.shanten, left, rank)


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


def shape_of(obs: Observation, action: Action) -> Shape | None:
    """The :class:`Shape` ``action`` leaves from ``obs`` alone (``None``: a win)."""
    if action.kind.is_win:
        return None
    if action.kind.throws and action.tile is not None:
        return shape_after(obs, int(action.tile))
    why = reason(obs, action)
    return Shape(why.params.get("shanten", 0), None)


def _kind(obs: Observation) -> Judged:
    """The question ``obs`` put to the player (see the module's docstring)."""
    legal = obs.legal_actions
    if any(a.kind.is_win for a in legal):
        return Judged.WIN
    if any(a.kind is AK.TING for a in legal):
        return Judged.TING
    if obs.pending is not None and any(a.kind in _CLAIMS for a in legal):
        return Judged.CLAIM
    return Judged.DISCARD


def _judge(obs: Observation, move: Action, bot: Bot) -> tuple[Judged, Decision | None]:
    """The kind of the player's ``move`` at ``obs`` and, when the bot moves otherwise, the
    :class:`Decision`."""
    advice = bot.choose(obs, obs.legal_actions)
    kind = _kind(obs)
    if action_text(advice) == action_text(move):
        return kind, None
    return kind, Decision(
        kind,
        obs.event_seq,
        obs.hand,
        obs.last_drawn,
        obs.pending,
        move,
        advice,
        shape_of(obs, move),
        shape_of(obs, advice),
    )


def review(record: Record, seat: int, bot: Bot) -> tuple[list[Decision], Counter[Judged]]:
    """``(decisions, judged)``: the seat's decisions where ``bot`` would have moved otherwise,
    costliest first (:attr:`Decision.cost`), and how many decisions of each kind he made."""
    out: list[Decision] = []
    judged: Counter[Judged] = Counter()
    before: Observation | None = None
    for state, move in replay_moves(record):
        if (
            before is not None
            and move is not None
            and move.player == seat
            and _judges(move.kind)
            and len(before.legal_actions) > 1
        ):
            kind, decision = _judge(before, move, bot)
            judged[kind] += 1
            if decision is not None:
                out.append(decision)
        before = None
        if not state.is_terminal and state.actor == seat:
            before = state.observe(seat)
    out.sort(key=lambda d: d.cost, reverse=True)
    return out, judged


def _shape_json(shape: Shape | None) -> dict[str, int | None] | None:
    return None if shape is None else {"shanten": shape.shanten, "left": shape.left}


def _tile(tile: Tile | None) -> str | None:
    return None if tile is None else str(tile)


def review_json(
    decisions: list[Decision], judged: Counter[Judged], *, top: int = 3
) -> dict[str, Any]:
    """The review for the client: how many decisions there were and how many the bot agreed
    with, in all and by kind (``kinds``: only the kinds he met, in :class:`Judged` order), and
    the ``top`` costliest ``decisions`` (kind, event number, hand, drawn tile, the discard
    offered, played, expert's, each one's shape after)."""
    differ = Counter(d.kind for d in decisions)
    count = sum(judged.values())
    return {
        "count": count,
        "agreed": count - len(decisions),
        "kinds": {
            k.value: {"count": judged[k], "agreed": judged[k] - differ[k]}
            for k in Judged
            if judged[k]
        },
        "decisions": [
            {
                "kind": d.kind.value,
                "n": d.n,
                "hand": [str(t) for t in d.hand],
                "drawn": _tile(d.drawn),
                "offered": _tile(d.offered),
                "played": action_text(d.played),
                "expert": action_text(d.expert),
                "played_after": _shape_json(d.played_shape),
                "expert_after": _shape_json(d.expert_shape),
            }
            for d in decisions[:top]
        ],
    }
