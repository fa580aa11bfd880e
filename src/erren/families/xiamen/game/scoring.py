"""xiamen's settlement glue: the one call into the 水 scorer (R-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from erren.engine.state import AnyWinHow, HandResult, ResultKind, WinHow
from erren.families.xiamen.game.data import XiamenOptions, xiamen_data
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.state import State, WinClaim

__all__ = ["score_hand"]

_WIN_TYPE_ID: dict[AnyWinHow, str] = {WinHow.DISCARD: "pinghu", WinHow.ROBBING: "qianggang"}
"""The engine's ``how`` to the scorer's :class:`~erren.families.xiamen.scoring.WinType` id."""


def score_hand(state: State, claim: WinClaim, options: XiamenOptions) -> HandResult:
    """The settlement of a win (R-4): the one call into the 水 scorer
    (:func:`erren.families.xiamen.scoring.score_xiamen`, then
    :func:`~erren.families.xiamen.scoring.settle_xiamen`).

    ``fans`` holds the 水 items as ``(id name, 水, 1)`` rows, ``fan_total`` the 水, ``points``
    the total paid (bonus included) and ``detail`` a :class:`XiamenScore` (the 水 rows and the
    settlement, whose ``steps`` explain every figure)."""
    from erren.families.xiamen.scoring import (  # noqa: PLC0415 - scoring imports the engine's deps
        WinType,
        XiamenContext,
        XiamenScore,
        XiamenSettings,
        score_xiamen,
        settle_xiamen,
    )

    hand = claim.hand
    ctx = XiamenContext(
        gold=Tile(xiamen_data(state).gold),
        win_type=WinType(_WIN_TYPE_ID.get(claim.how, claim.how.value)),
        flowers=hand.flowers,
        dealer=claim.dealer,
        streak=state.streak,
        settings=XiamenSettings(
            base=options.base,
            cap=options.cap,
            escape_penalty=options.escape_penalty,
        ),
    )
    result = score_xiamen(hand, ctx)
    settlement = settle_xiamen(result, winner=claim.winner)
    items = tuple((f"{item.id} {item.name}", item.value, 1) for item in result.items)
    return HandResult(
        ResultKind.WIN,
        winner=claim.winner,
        loser=1 - claim.winner,
        how=claim.how,
        hand=hand,
        claim=claim,
        fans=items,
        fan_total=result.water,
        points=settlement.total,
        deltas=settlement.deltas,
        detail=XiamenScore(result, settlement),
    )
