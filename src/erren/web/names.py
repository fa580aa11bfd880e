"""The scoring names the settlement screen shows, from the scoring tables themselves: each
family's fan, pattern and 水 rows (Chinese name → English name and id) and its other tables
(xiamen's win types: id → Chinese, English, multiplier ``M`` and bonus), as each family's
rules page gives them (:attr:`~erren.rules.page.FamilyRules.names`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from erren.engine.registry import families

__all__ = ["names"]


@cache
def names() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for family in families():
        page = family.rules_page()
        if page is not None:
            out.update(page.names())
    return out
