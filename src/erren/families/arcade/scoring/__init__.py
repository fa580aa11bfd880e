"""The arcade family's counting (arcade §4–§5): patterns N1–N28, limit hands L1–L18, every
interpretation with 财神 wilds, the value key ``(N, min(13, F), F)`` and the points.

>>> from erren.hand import Hand
>>> from erren.families.arcade.scoring import ArcadeContext, score_arcade
>>> print(score_arcade(Hand.parse("234m567m234p45s77p +3s")))
门清 1 + 平和 1 + 断幺九 1 = 3
>>> result = score_arcade(Hand.parse("1113334466z [222z'] +4z"))
>>> print(result, result.points, result.stage_payout())
大四喜 ×2 + 字一色 ×1 = 3倍役满 13 30000
"""

from __future__ import annotations

from erren.families.arcade.scoring.calculator import (
    FAN_CAP,
    ArcadeResult,
    Evaluation,
    ImpossibleWinError,
    NotAWinError,
    PatternHit,
    evaluate,
    interpretations,
    score_arcade,
)
from erren.families.arcade.scoring.context import ArcadeContext, Baoting, FirstTurn, flower_kind
from erren.families.arcade.scoring.facts import Form, Interpretation, Wait
from erren.families.arcade.scoring.patterns import (
    LIMIT_HANDS,
    NON_LIMIT,
    PATTERNS,
    Pattern,
    pattern,
)

__all__ = [
    "FAN_CAP",
    "LIMIT_HANDS",
    "NON_LIMIT",
    "PATTERNS",
    "ArcadeContext",
    "ArcadeResult",
    "Baoting",
    "Evaluation",
    "FirstTurn",
    "Form",
    "ImpossibleWinError",
    "Interpretation",
    "NotAWinError",
    "Pattern",
    "PatternHit",
    "Wait",
    "evaluate",
    "flower_kind",
    "interpretations",
    "pattern",
    "score_arcade",
]
