"""A match: a series of hands at one table, dealer rotation, 连庄 and cumulative scores.

guobiao-2p §1.3: the dealer wins → he deals again (连庄, the streak is shown, no bonus); the
non-dealer wins or the hand is drawn (荒庄) → the other seat deals; an escape ends the match.
The round wind (§1.2) is East unless ``round_wind="rotating"``, when it advances each time the
deal returns to the seat that dealt hand 1.  Chance for each hand comes from the match's own
seeded generator, so a match is reproducible from its seed::

    match = Match(find_family("guobiao-2p"), seed=1)
    state = match.new_hand()
    ...                      # play it through state.apply
    match.finish_hand(state)  # scores, next dealer
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from erren.engine.family import Family
from erren.engine.record import Record
from erren.engine.result import ResultKind
from erren.engine.state import HandResult, State
from erren.tiles import Tile

__all__ = ["Match", "MatchHand"]


@dataclass(frozen=True, slots=True)
class MatchHand:
    """One finished hand of a match."""

    number: int
    dealer: int
    round_wind: Tile
    result: HandResult
    record: Record


@dataclass
class Match:
    """``first_ready`` is the seat that pressed ready first (option ``first_dealer``)."""

    ruleset: Family
    seed: int | None = None
    first_ready: int = 0
    scores: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[MatchHand] = field(default_factory=list)
    streak: int = 0
    over: bool = False

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.dealer = self.ruleset.first_dealer(self.rng, self.first_ready)
        self.first_dealer = self.dealer
        self.round_wind = Tile.EAST
        self._current: State | None = None

    def new_hand(self, *, seed: int | None = None) -> State:
        """The next hand, dealt with chance from ``seed`` (a server's committed seed) or, by
        default, from the match's generator."""
        if self.over:
            raise ValueError("the match is over")
        if seed is None:
            seed = self.rng.getrandbits(63)
        streak = self.streak if self.ruleset.uses_streak else 0
        state = State.new(
            self.ruleset, seed=seed, dealer=self.dealer, round_wind=self.round_wind, streak=streak
        )
        self._current = state
        return state

    def finish_hand(self, state: State) -> HandResult:
        """Book a finished hand: scores, streak, next dealer and round wind."""
        result = state.result
        if result is None:
            raise ValueError("the hand is not finished")
        self.scores[0] += result.deltas[0]
        self.scores[1] += result.deltas[1]
        self.hands.append(
            MatchHand(len(self.hands) + 1, state.dealer, state.round_wind, result, state.record())
        )
        if result.kind is ResultKind.ABORT:
            self.over = True
            return result
        before = self.dealer
        self.dealer, self.streak = self.ruleset.next_dealer(self.dealer, self.streak, result)
        if self.dealer != before:
            self.round_wind = self.ruleset.next_round_wind(
                self.round_wind, self.dealer, self.first_dealer
            )
        self._current = None
        return result
