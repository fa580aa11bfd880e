"""xiamen's part of the RL encodings (:mod:`erren.rl.layout`), in layout version 1: its phases,
the 游 levels, the gold and the indicator taken by 抢金胡, and its own moves."""

from __future__ import annotations

from erren.engine.views import FamilyView
from erren.families.xiamen.game.data import XiamenPhase
from erren.families.xiamen.game.view import XiamenView
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.rl.layout import EVERY_KIND, NO_TILE, FamilyLayout, PlaneWriter

__all__ = ["RL"]

_LEVEL = "xiamen 游 level / 3"
_TAKEN = "xiamen indicator taken by 抢金胡"
_GOLD = "xiamen.gold"


def _encode(out: PlaneWriter, view: FamilyView) -> None:
    """xiamen's cells: each seat's 游 level, the gold, the indicator taken."""
    if not isinstance(view, XiamenView):
        return
    for seat, level in enumerate(view.you_level):
        out.seat(seat, _LEVEL, level, 3)
    out.tile(_GOLD, view.gold)
    out.game(_TAKEN, view.indicator_taken)


RL = FamilyLayout(
    version=1,
    phases=tuple(phase.value for phase in XiamenPhase),
    seat_columns=(_LEVEL,),
    game_columns=(_TAKEN,),
    planes=((_GOLD, "xiamen: the gold kind, once turned"),),
    moves=(
        (XiamenVerb.SANJINDAO, NO_TILE),
        (XiamenVerb.QIANGJIN, EVERY_KIND),
        (XiamenVerb.QIANGJIN, NO_TILE),
        (XiamenVerb.WIN, NO_TILE),
        (XiamenVerb.DISCARD_GOLD, NO_TILE),
    ),
    encode=_encode,
)
"""xiamen's ``rl`` part."""
