"""Xiamen 水 scoring (``../shared/spec/xiamen.md`` Section 4): the 水 table, the maximum over
every decomposition, win-type multipliers, 底 with the 连庄 doubling, bonuses, the cap, the next
dealer and the settlement record.

>>> from erren.hand import Hand
>>> from erren.tiles import Tile
>>> ctx = XiamenContext(gold=Tile.M2, win_type=WinType.ZIMO)
>>> result = score_xiamen(Hand.parse("1m2m3m5z5z5z456m789m1z +1z"), ctx)
>>> print(result)
金牌 1 + 普通暗刻 1 = 水 2
>>> settle_xiamen(result).total
20
"""

from __future__ import annotations

from erren.families.xiamen.scoring.calculator import (
    NotAWinError,
    WaterItem,
    XiamenResult,
    score_xiamen,
)
from erren.families.xiamen.scoring.context import (
    XIAMEN_KINDS,
    WinType,
    XiamenContext,
    XiamenSettings,
)
from erren.families.xiamen.scoring.hands import (
    complete,
    gold_wilds,
    hand_counts,
    split_golds,
    you_ready,
)
from erren.families.xiamen.scoring.settlement import (
    Outcome,
    XiamenScore,
    XiamenSettlement,
    settle_xiamen,
    settle_xiamen_draw,
    settle_xiamen_escape,
)
from erren.families.xiamen.scoring.water import WATER, WaterRow

__all__ = [
    "WATER",
    "XIAMEN_KINDS",
    "NotAWinError",
    "Outcome",
    "WaterItem",
    "WaterRow",
    "WinType",
    "XiamenContext",
    "XiamenResult",
    "XiamenScore",
    "XiamenSettings",
    "XiamenSettlement",
    "complete",
    "gold_wilds",
    "hand_counts",
    "score_xiamen",
    "settle_xiamen",
    "settle_xiamen_draw",
    "settle_xiamen_escape",
    "split_golds",
    "you_ready",
]
