"""arcade's settlement glue: a win's context (R2.4, R2.15, R2.19) for the arcade scorer."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from erren.engine.state import HandResult, Origin, Phase, ResultKind, WinHow
from erren.families.arcade.game.options import ALL_KINDS, TILES, ArcadePhase, arcade_data
from erren.hand import Hand
from erren.tiles import Tile

if TYPE_CHECKING:
    from erren.engine.state import State, WinClaim
    from erren.families.arcade.game.family import ArcadeFamily

__all__ = ["score_hand"]


def score_hand(rules: ArcadeFamily, state: State, claim: WinClaim) -> HandResult:
    """The settlement of a win (R2.25) through :func:`erren.families.arcade.scoring.score_arcade`:
    ``points`` are versus points (``P ×`` ``base_points``)."""
    from erren.families.arcade.scoring import (  # noqa: PLC0415 - scoring imports the engine's deps
        ArcadeContext,
        Baoting,
        FirstTurn,
        score_arcade,
    )

    d = arcade_data(state)
    p = claim.winner
    how = claim.how
    offered = d.pung_kind[p]
    if how is WinHow.ZIMO and offered >= 0 and state.phase is Phase.TURN:
        # R2.4: completed after an accepted pung offer, the winning tile is of that kind
        h = state.hands[p]
        rest = tuple(TILES[t] for t in ALL_KINDS for _ in range(h[t] - (t == offered)))
        hand = Hand(rest, claim.hand.melds, TILES[offered], claim.hand.flowers)
        claim = replace(claim, hand=hand)
    dealer = p == state.dealer
    interrupted = bool(state.melds[0] or state.melds[1])
    haidi = state.phase is ArcadePhase.HAIDI
    zimo = how is WinHow.ZIMO
    origin = state.origin
    first = FirstTurn.NONE
    if zimo and origin is Origin.DEAL and dealer:
        first = FirstTurn.TIANHU
    elif (
        how is WinHow.DISCARD
        and not dealer
        and not interrupted
        and state.n_discards[state.dealer] == 1
        and state.n_discards[p] == 0
    ):
        first = FirstTurn.DIHU
    elif (
        zimo
        and not dealer
        and not haidi
        and not interrupted
        and origin is Origin.DRAW
        and state.n_discards[p] == 0
    ):
        first = FirstTurn.RENHU
    if haidi:
        kong = d.haidi_replaced and rules.flower_replacement_is_kong
    else:
        kong = zimo and origin is not Origin.DEAL and state.kong_draw
    ctx = ArcadeContext(
        wild=Tile(d.wild),
        flowers=len(state.flowers[p]),
        self_drawn=zimo,
        robbing_kong=how is WinHow.ROBBING,
        kong_replacement=kong,
        last_tile=not haidi and how is not WinHow.ROBBING and state.head > state.tail,
        haidi=haidi,
        baoting=Baoting(d.baoting_kind[p] or "none"),
        first_turn=first,
        dealer=dealer,
    )
    hand = Hand(claim.hand.concealed, claim.hand.melds, claim.hand.winning, ())
    result = score_arcade(hand, ctx)
    points = result.versus_points(rules.options.base_points)
    deltas = (points, -points) if p == 0 else (-points, points)
    return HandResult(
        ResultKind.WIN,
        winner=p,
        loser=1 - p,
        how=how,
        hand=hand,
        claim=claim,
        fans=tuple((hit.pattern.name, hit.value, hit.count) for hit in result.patterns),
        fan_total=result.fan,
        points=points,
        deltas=deltas,
        detail=result,
    )
