"""The scoring names the settlement screen shows, from the scoring tables themselves: each
family's fan, pattern and 水 rows (Chinese name → English name and id) and the xiamen win types
(id → Chinese, English, multiplier ``M`` and bonus)."""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["names"]


@cache
def names() -> dict[str, Any]:
    from erren.families.arcade.scoring.patterns import PATTERNS  # noqa: PLC0415
    from erren.families.guobiao.scoring.fans import TABLES  # noqa: PLC0415
    from erren.families.xiamen.scoring.context import WinType  # noqa: PLC0415
    from erren.families.xiamen.scoring.water import WATER  # noqa: PLC0415

    fans: dict[str, dict[str, str]] = {}
    for table in TABLES.values():
        for fan in table:
            fans.setdefault(fan.name, {"en": fan.english, "id": fan.id})
    arcade = {p.name: {"en": p.english, "id": p.id} for p in PATTERNS}
    water = {f"{r.id} {r.name}": {"en": r.english, "id": r.id} for r in WATER}
    win_types = {
        t.value: {"zh": t.chinese, "en": t.english, "m": t.multiplier, "bonus": t.bonus}
        for t in WinType
    }
    return {"guobiao-2p": fans, "arcade": arcade, "xiamen": water, "xiamen_win": win_types}
