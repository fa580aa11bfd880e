"""The expert's xiamen play: the efficiency bot's, steered towards 游金 while it holds a gold.

A 游金-ready hand (xiamen.md R-3.5: a gold as the lone pair tile, every other tile in sets)
wins on *any* next own draw at ×4 plus a bonus of 50 (R-4.6), where an ordinary ready hand
holding a gold may only win by 自摸 on its waits at ×2 (a gold holder cannot 平和, R-2.6).  So
while the hand holds a gold, the expert measures each discard by its distance to 游金-ready as
well as by its ordinary shanten, and takes the discard nearest to 游金 when that costs at most
``you_slack`` ordinary shanten (:class:`XiamenKnobs`).

The distance to 游金-ready is an ordinary shanten (:func:`~erren.analysis.waits.discard_table`)
of the hand with one gold swapped for a tile of a kind no xiamen tile can join (``1p``: xiamen
has no 饼 suit): the hand left by a discard is then ready on that kind exactly when it is
游金-ready, the borrowed pair :func:`~erren.analysis.golds.you_ready` uses for the test itself.

Everything else (wins, the 游 chain, claims, kongs, hands without a gold) is the efficiency
bot's: :func:`xiamen_expert_choice` returns ``None`` there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from erren.analysis.golds import you_ready
from erren.analysis.shapes import XIAMEN
from erren.analysis.waits import DiscardOption, discard_table
from erren.bots.efficiency import gold_counts
from erren.engine import Action, ActionKind, Observation, XiamenView
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.bots.expert import ExpertBot

__all__ = ["XiamenKnobs", "configure", "xiamen_expert_choice", "you_distance_rows"]

AK = ActionKind
_WHITE = int(Tile.WHITE)
_BORROWED = 9
"""``1p``: a kind absent from the xiamen set, so its borrowed pair joins no natural tile."""


@dataclass(frozen=True, slots=True)
class XiamenKnobs:
    """Which xiamen decisions the expert makes differently from the efficiency bot."""

    you_steer: bool = True
    """While holding a gold, discard towards 游金-ready."""
    you_slack: int = 1
    """Ordinary shanten the expert gives up to be nearer 游金-ready."""
    you_max: int = 2
    """Steer only when the best discard leaves the hand at most this far from 游金-ready."""
    open_you: bool = True
    """Pass 三金倒 and 抢金胡 (×4) when the opening hand is, or one discard from, 游金-ready
    (×4 plus 50 on the next draw)."""
    race: bool = True
    """While the opponent is at a 游 level (it wins on its next draw), take a 自摸 or a 游
    win at once instead of climbing."""
    when_ready: bool = False
    """Steer also when a discard leaves the hand ready (the efficiency bot then prefers only a
    discard that enters 游金 at once)."""
    reach_first: bool = False
    """Among discards as near to 游金-ready, prefer more tiles that bring it nearer to a lower
    ordinary shanten."""


_KNOBS: WeakKeyDictionary[ExpertBot, XiamenKnobs] = WeakKeyDictionary()


def configure(bot: ExpertBot, knobs: XiamenKnobs) -> None:
    """Make ``bot`` play xiamen with ``knobs`` (default :class:`XiamenKnobs`)."""
    _KNOBS[bot] = knobs


def you_distance_rows(
    counts: Sequence[int], golds: int, visible: Sequence[int]
) -> list[DiscardOption]:
    """The discard table towards 游金-ready of a ``3n + 2`` hand (natural tiles by functional
    kind, ``golds`` ≥ 1 golds): each row's ``shanten`` is how far the hand left by that discard
    is from 游金-ready (0: it is), its ``remaining`` the unseen tiles that bring it nearer.
    A row with ``discard`` ``None`` throws a gold."""
    extended = list(counts)
    extended[_BORROWED] += 1
    seen = list(visible)
    seen[_BORROWED : _BORROWED + 9] = [4] * 9  # no 饼 tile is ever drawn
    rows = discard_table(extended, wilds=golds - 1, shapes=XIAMEN, visible=seen)
    return [row for row in rows if row.discard != _BORROWED]


def _physical(kind: int, gold: int) -> int:
    return _WHITE if kind == gold and gold != _WHITE else kind


def _you_ready_after(counts: list[int], golds: int, gold: int, tile: int) -> bool:
    """Whether throwing the physical ``tile`` leaves a 游金-ready hand (R-3.5)."""
    if tile == gold:
        return you_ready(counts, golds - 1)
    kind = gold if tile == _WHITE else tile
    counts[kind] -= 1
    ready = you_ready(counts, golds)
    counts[kind] += 1
    return ready


def xiamen_expert_choice(
    bot: ExpertBot, observation: Observation, legal: Sequence[Action]
) -> Action | None:
    """The expert's choice in a xiamen hand, or ``None`` to let the efficiency policy decide."""
    view = observation.view
    if not isinstance(view, XiamenView) or view.gold is None or len(legal) < 2:
        return None
    knobs = _KNOBS.get(bot) or XiamenKnobs()
    gold = int(view.gold)
    racing = knobs.race and view.you_level[observation.opponent] >= 1
    if observation.phase == "opening":
        return _opening(knobs, observation, gold, legal)
    if racing and observation.phase in ("turn", "you_choice"):
        win = next((a for a in legal if a.kind in (AK.ZIMO, AK.WIN)), None)
        if win is not None:
            return win
    if observation.phase == "turn" and knobs.you_steer:
        return _you_discard(knobs, observation, int(view.gold), legal)
    return None


def _opening(
    knobs: XiamenKnobs, obs: Observation, gold: int, legal: Sequence[Action]
) -> Action | None:
    """The pass of the opening window when the hand is (or, dealing, one discard from)
    游金-ready; ``None`` (take the win) otherwise."""
    if not knobs.open_you:
        return None
    counts, golds, _ = gold_counts(obs, gold)
    if golds < 1:
        return None
    if len(obs.hand) % 3 == 1:
        ready = you_ready(counts, golds)
    else:
        ready = any(_you_ready_after(counts, golds, gold, int(t)) for t in set(obs.hand))
    return next((a for a in legal if a.kind is AK.PASS), None) if ready else None


def _you_discard(
    knobs: XiamenKnobs, obs: Observation, gold: int, legal: Sequence[Action]
) -> Action | None:
    """The discard nearest to 游金-ready, when the hand holds a gold and it costs at most
    ``you_slack`` ordinary shanten; ``None`` otherwise."""
    kinds = {a.kind for a in legal}
    if AK.ZIMO in kinds or AK.AN_GANG in kinds or AK.JIA_GANG in kinds:
        return None
    counts, golds, visible = gold_counts(obs, gold)
    if golds < 1:
        return None
    discards = {int(a.tile): a for a in legal if a.kind is AK.DISCARD and a.tile is not None}
    if len(discards) < 2:
        return None
    ordinary = discard_table(counts, wilds=golds, shapes=XIAMEN, visible=visible)
    by_tile: dict[int, int] = {}
    for row in ordinary:
        tile = gold if row.discard is None else _physical(row.discard, gold)
        by_tile.setdefault(tile, row.shanten)
    legal_ordinary = [s for t, s in by_tile.items() if t in discards]
    if not legal_ordinary:
        return None
    floor = min(legal_ordinary)
    if floor == 0 and not knobs.when_ready:
        return None  # ready: the efficiency bot already prefers a discard into 游金
    best: tuple[int, int, int, int, int] | None = None
    for row in you_distance_rows(counts, golds, visible):
        tile = gold if row.discard is None else _physical(row.discard, gold)
        if tile not in discards or tile not in by_tile:
            continue
        if by_tile[tile] > floor + knobs.you_slack:
            continue
        order = (
            (-row.remaining, by_tile[tile])
            if knobs.reach_first
            else (by_tile[tile], -row.remaining)
        )
        key = (row.shanten, int(tile == gold), *order, tile)
        if best is None or key < best:
            best = key
    if best is None or best[0] > knobs.you_max:
        return None
    return discards[best[4]]
