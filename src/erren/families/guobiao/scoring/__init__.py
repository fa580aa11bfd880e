"""Guobiao scoring: the fan tables `gb` (81 fans) and `2p` (54 fans), guobiao-2p §4–§6.

>>> from erren.hand import Hand
>>> from erren.families.guobiao.scoring import score
>>> print(score(Hand.parse("123456789m5z [111z'] +5z"), table="2p"))
清龙 16 + 幺九刻 2 = 18

:func:`score` explains itself (each fan's groups, the reading chosen) and memoises: settlement
screens use it.  The hot path — the engine's 起和 check of every offered win and 报听 wait
(``GuobiaoFamily.win_value``), through which the bots value their waits and the simulator
plays — uses :func:`score_fast`, the same total and fans with counts from one C call
(``_fastfan.c``, no cache), which the tests hold equal to :func:`score`:

>>> total, fans = score_fast(Hand.parse("123456789m5z [111z'] +5z"), table="2p")
>>> total, [(fan.name, count) for fan, count in fans]
(18, [('清龙', 1), ('幺九刻', 1)])
"""

from __future__ import annotations

from erren.families.guobiao.scoring.calculator import (
    NotAWinError,
    score,
    score_fast,
    score_readings,
)
from erren.families.guobiao.scoring.context import WinContext
from erren.families.guobiao.scoring.fan import Fan, FanHit, ScoreResult
from erren.families.guobiao.scoring.fans import FANS_2P, FANS_GB, fan_table

__all__ = [
    "FANS_2P",
    "FANS_GB",
    "Fan",
    "FanHit",
    "NotAWinError",
    "ScoreResult",
    "WinContext",
    "fan_table",
    "score",
    "score_fast",
    "score_readings",
]
