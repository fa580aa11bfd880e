"""A match across hands: dealer, 连庄 and the round wind (guobiao-2p §1.2, §1.3).

§1.3: the dealer deals again when he wins; a non-dealer win or 荒庄 passes the deal.  §1.2 with
option ``round_wind = rotating``: the round wind starts at East and moves on (东 → 南 → 西 → 北 →
东) each time the deal comes back to the player who dealt hand 1; ``fixed_east`` stays East.
The expected winds are computed here from those two rules and each hand's result.
"""

from __future__ import annotations

import random

import pytest

from erren.engine import Match, find_family
from erren.engine.result import ResultKind
from erren.tiles import Tile

WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)


@pytest.mark.parametrize("option", ["rotating", "fixed_east"])
def test_the_round_wind_follows_the_deal(option: str) -> None:
    match = Match(find_family("guobiao-2p", round_wind=option), seed=3)
    rng = random.Random(4)
    first = match.dealer
    dealer, wind, passes_back = first, Tile.EAST, 0
    for _ in range(24):
        state = match.new_hand()
        assert (state.dealer, state.round_wind) == (dealer, wind)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        result = match.finish_hand(state)
        if not (result.kind is ResultKind.WIN and result.winner == dealer):
            dealer = 1 - dealer
            if dealer == first:
                passes_back += 1
                if option == "rotating":
                    wind = WINDS[passes_back % 4]
    assert passes_back >= 4  # the winds went all the way round (rotating) at least once
