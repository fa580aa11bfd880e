"""What a finished arcade hand would pay, seen from one player's observation (arcade §4, §5,
R2.25).

The payment is the table's own: :func:`erren.families.arcade.scoring.score_arcade` on the hand with
its
财神 wilds and flowers, turned into versus points (13 for a yakuman, else ``min(13, F)``, times
``base_points``).  A hand that is not a win pays 0.

A ready hand's worth is the sum over its waits of (unseen copies × mean payment of a win on
that tile): a natural wait is won self-drawn with weight :data:`ZIMO_SHARE` and on a discard
otherwise; a wild is only ever self-drawn (a discarded wild is dead, R1.9c), and it completes
the hand as the best tile it can stand for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from erren.analysis.shapes import ARCADE
from erren.analysis.waits import waits
from erren.bots.common import visible_counts
from erren.engine import Observation
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.scoring import ArcadeContext, Baoting, score_arcade
from erren.hand import Hand
from erren.melds import Meld
from erren.tiles import NUM_KINDS, Tile

__all__ = ["ZIMO_SHARE", "ArcadeValuer", "ReadyHand", "held_counts", "unseen_counts"]

ZIMO_SHARE = 0.5
"""The share of natural wins assumed self-drawn when a wait is valued before it comes."""

_TILES = tuple(Tile(i) for i in range(NUM_KINDS))


@dataclass(frozen=True, slots=True)
class ReadyHand:
    """A 13-form hand as the valuer sees it: ``counts`` the natural concealed tiles (34 kinds,
    the wild kind at 0), ``wilds`` the wild tiles held, ``melds`` and ``flowers`` set aside."""

    counts: tuple[int, ...]
    wilds: int
    melds: tuple[Meld, ...]
    flowers: int


class ArcadeValuer:
    """Payments of hypothetical arcade wins for one wild kind, cached by hand."""

    def __init__(self, wild: int, base_points: int = 1) -> None:
        self.wild = wild
        self.base_points = base_points
        self._cache: dict[tuple[object, ...], int] = {}

    def pay(
        self,
        hand: ReadyHand,
        winning: int,
        *,
        self_drawn: bool,
        baoting: Baoting = Baoting.NONE,
    ) -> int:
        """Versus points of ``hand`` + ``winning`` (a kind; the wild kind is a wild tile), 0 when
        that is not a win."""
        key = (hand, winning, self_drawn, baoting)
        found = self._cache.get(key)
        if found is not None:
            return found
        w = self.wild
        concealed = [_TILES[k] for k in range(NUM_KINDS) for _ in range(hand.counts[k])]
        concealed += [_TILES[w]] * hand.wilds
        ctx = ArcadeContext(
            wild=_TILES[w], flowers=min(4, hand.flowers), self_drawn=self_drawn, baoting=baoting
        )
        try:
            result = score_arcade(Hand(tuple(sorted(concealed)), hand.melds, _TILES[winning]), ctx)
            points = result.versus_points(self.base_points)
        except ValueError:  # not a win (NotAWinError), or a win the rules never produce
            points = 0
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[key] = points
        return points

    def ready_value(
        self,
        hand: ReadyHand,
        unseen: Sequence[int],
        *,
        baoting: Baoting = Baoting.NONE,
        held: Sequence[int] | None = None,
    ) -> tuple[float, int]:
        """``(value, outs)``: Σ over the waits of unseen copies × mean payment, and the number
        of unseen winning tiles (``unseen[wild]`` is the count of unseen wild tiles)."""
        value = 0.0
        outs = 0
        kinds = waits(hand.counts, wilds=hand.wilds, shapes=ARCADE, held=held, max_copies=4)
        for t in kinds:
            n = unseen[t]
            if n <= 0 or t == self.wild:
                continue
            zimo = self.pay(hand, t, self_drawn=True, baoting=baoting)
            ron = self.pay(hand, t, self_drawn=False, baoting=baoting)
            value += n * (ZIMO_SHARE * zimo + (1 - ZIMO_SHARE) * ron)
            outs += n
        n = unseen[self.wild]
        if kinds and n > 0:
            value += n * self.pay(hand, self.wild, self_drawn=True, baoting=baoting)
            outs += n
        return value, outs

    def ready_discards(
        self,
        c: list[int],
        k: int,
        melds: tuple[Meld, ...],
        *,
        flowers: int,
        unseen: Sequence[int],
        baoting: Baoting = Baoting.NONE,
    ) -> list[tuple[float, int, int]]:
        """``(value, outs, tile)`` of every discard of the 14-form (``c`` natural counts, ``k``
        wilds) that leaves it ready, valued by :meth:`ready_value` with ``baoting`` (``tile`` is
        the wild kind for a wild)."""
        w = self.wild
        held = held_counts(melds)
        out: list[tuple[float, int, int]] = []
        for t in [*(t for t in range(NUM_KINDS) if c[t]), *([w] if k else [])]:
            wild = t == w
            if wild:
                k -= 1
            else:
                c[t] -= 1
            hand = ReadyHand(tuple(c), k, melds, flowers)
            if wild:
                k += 1
            else:
                c[t] += 1
            value, outs = self.ready_value(hand, unseen, baoting=baoting, held=held)
            if outs or value:
                out.append((value, outs, t))
        return out


def held_counts(melds: Sequence[Meld]) -> list[int]:
    """Tiles of each kind in ``melds``."""
    held = [0] * NUM_KINDS
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    return held


def unseen_counts(obs: Observation, view: ArcadeView, wild: int) -> list[int]:
    """Copies of each kind the player cannot see; for the wild kind, the wild tiles (the
    indicator is out of play); 0 for the flower kind (a natural flower never wins, R1.12)."""
    _, visible = visible_counts(obs, flowers=True)
    out = [max(0, 4 - visible[t]) for t in range(NUM_KINDS)]
    out[wild] = max(0, 3 - visible[wild])
    if view.flower_kind is not None:
        out[int(view.flower_kind)] = 0
    return out
