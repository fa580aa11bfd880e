"""Observations built by hand for the xiamen and arcade bot tests (shared by the tests of the
expert's rules and of 大师's value models)."""

from __future__ import annotations

import dataclasses

from erren.engine import Action, Observation, State, find_family
from erren.engine.phases import Phase
from erren.families.arcade.game.view import ArcadeView
from erren.families.xiamen.game.view import XiamenView
from erren.hand import Hand
from erren.tiles import Tile

GOLD = Tile.M9
"""The gold kind of the hand-built observations: every 9m in a hand is a gold."""


def xiamen_observation(
    hand: str,
    *,
    phase: str = "turn",
    levels: tuple[int, int] = (0, 0),
    wall: int = 30,
    streak: int | None = None,
) -> Observation:
    """Seat 0's observation with ``hand`` (no melds, flowers or discards), gold 9m, the 游
    levels ``levels``, ``wall`` tiles in the live wall and, when given, the dealer streak."""
    state = State.new(find_family("xiamen"), seed=5)
    while state.phase is not Phase.TURN:
        state.apply(state.legal_actions()[0])
    obs = state.observe(0)
    assert isinstance(obs.view, XiamenView)
    view = dataclasses.replace(obs.view, gold=GOLD, you_level=levels)
    built = dataclasses.replace(
        obs,
        phase=state.ruleset.phase_named(phase),
        hand=tuple(sorted(Hand.parse(hand, check_size=False).concealed)),
        melds=((), ()),
        hidden_kongs=(0, 0),
        discards=((), ()),
        claimed=((), ()),
        flowers=((), ()),
        wall_count=wall,
        view=view,
    )
    return built if streak is None else dataclasses.replace(built, streak=streak)


def actions(*texts: str) -> list[Action]:
    return [Action.parse(t) for t in texts]


def arcade_observation(
    hand: str, *, river: tuple[Tile, ...], phase: str, wild: Tile, flower: Tile
) -> Observation:
    """The arcade dealer's first-turn observation with ``hand`` (no melds, no flowers), in
    ``phase``, the opponent's discards ``river``, the wild kind ``wild`` and the flower kind
    ``flower`` (no pung offer, nothing being given)."""
    state = State.new(find_family("arcade", opening_exchange=False), seed=5)
    while state.phase is not Phase.TURN:
        state.apply(state.legal_actions()[0])
    obs = state.observe(state.actor)
    rivers = ((), river) if obs.player == 0 else (river, ())
    assert isinstance(obs.view, ArcadeView)
    view = dataclasses.replace(obs.view, wild=wild, flower_kind=flower, offer=None, giving=())
    return dataclasses.replace(
        obs,
        phase=state.ruleset.phase_named(phase),
        hand=tuple(sorted(Hand.parse(hand, check_size=False).concealed)),
        melds=((), ()),
        hidden_kongs=(0, 0),
        discards=rivers,
        claimed=((), ()),
        flowers=((), ()),
        last_drawn=None,
        view=view,
    )
