"""Support code shared by the review's tests (not a test module): a hand-built position."""

from __future__ import annotations

import dataclasses
import random

from erren.engine import State, find_family
from erren.engine.phases import Origin, Phase
from erren.engine.resample import resample
from erren.notation import parse_tiles
from erren.tiles import Tile

RULES = "guobiao-2p"


def tiles(text: str) -> tuple[Tile, ...]:
    """``text``'s tiles, sorted."""
    return tuple(sorted(parse_tiles(text)))


def last_discard_against_ting() -> State:
    """Seat 1 (the dealer) declared 报听 on 1234567899m555z (ready on 3m, 6m, 9m); the wall is
    empty and seat 0 throws the hand's last discard from 112468m1234567z3z.  Every other tile
    is in the pools, so the opponent's hand is the only one the observation allows: every
    world resampled from it is the true one."""
    rules = find_family(RULES)
    seen = State.new(rules, seed=0, dealer=1).observe(0)
    built = dataclasses.replace(
        seen,
        player=0,
        dealer=1,
        phase=Phase.TURN,
        to_act=0,
        origin=Origin.DRAW,
        pending=None,
        hand=tiles("112468m12345673z"),
        last_drawn=parse_tiles("6m")[0],
        melds=((), ()),
        hidden_kongs=(0, 0),
        discards=(
            tuple(parse_tiles("333669912244555777m")[:18]),
            tuple(parse_tiles("88m11122233444666777z")[:19]),
        ),
        claimed=((), ()),
        flowers=((), ()),
        concealed_count=(14, 13),
        wall_count=0,
        ting=(False, True),
        trustee=(False, False),
        ting_at=(-1, 12),
        legal_actions=(),
    )
    state = resample(rules, built, random.Random(0))
    assert state.concealed(1) == tiles("1234567899m555z")
    return state
