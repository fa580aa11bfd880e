"""A toy fourth family, written only against the public plug-in contract.

``toy``: one suit (1m..9m, four copies, no honors, no flowers), no chows (its one-rule twist),
and a phase of its own before the first discard: the dealer may *call* a kind (``call:X``, the
family's own verb, announced by its own event) or ``pass``; a win whose winning tile is the
called kind pays 2 points instead of 1.  It uses only
:class:`~erren.engine.family.Family`'s hooks and :class:`~erren.engine.state.State`'s public
transition API (``tests/engine/test_family_plugin.py`` checks that no family module touches a
private name of the state).  The ``toy_family`` fixture of ``conftest.py`` registers it for
one test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from erren.engine import (
    Action,
    ActionKind,
    Family,
    FamilyData,
    FamilyPhase,
    HandResult,
    Options,
    State,
    WinClaim,
)
from erren.engine.actions import AnyActionKind, Argument, VerbRule
from erren.engine.events import AnyEventKind, EventKind, EventRule, ValueWords
from erren.engine.result import ResultKind
from erren.engine.views import ViewFacts
from erren.tiles import Tile

TOY = "toy"


class ToyVerb(AnyActionKind):
    CALL = "call"
    """The dealer names a kind (``0:call:5m``)."""


class ToyEvent(AnyEventKind):
    CALL = "call"
    """The dealer called a kind (``tile``)."""


VERBS = {ToyVerb.CALL: VerbRule(Argument.TILE, words=lambda a, w: f"call {w.name(a.tile_kind())}")}
"""The toy's verbs and their rules (registered by :mod:`erren.testing.toy.plugin`)."""
EVENTS = {ToyEvent.CALL: EventRule({}, "{who} 叫 {tile}", "{who} called {tile}")}
"""The toy's event kinds and their rules."""
VALUES = {(EventKind.FLOWER, "during"): {"call": ValueWords("（叫牌时）", " (during the call)")}}
"""The toy's own values of shared events' fields, with their words (a plug-in's flower set aside
during its call phase, were it dealt flowers)."""


class ToyPhase(FamilyPhase):
    CALL = "call"
    """The dealer, before his first decision: name a kind (``call:X``) or ``pass``."""


class ToyData(FamilyData):
    """The called kind (-1: none)."""

    __slots__ = ("called",)

    def __init__(self) -> None:
        self.called = -1

    def clone(self) -> ToyData:
        new = ToyData()
        new.called = self.called
        return new

    def fingerprint(self) -> tuple[object, ...]:
        return (self.called,)


def toy_data(state: State) -> ToyData:
    data = state.data
    assert isinstance(data, ToyData)
    return data


@dataclass(frozen=True)
class ToyOptions(Options):
    """No options of its own."""


@dataclass(frozen=True, slots=True)
class ToyView(ViewFacts):
    """What a seat sees of the toy's own facts: the called kind (public once called)."""

    called: Tile | None = None
    family: Literal["toy"] = "toy"

    def transcript_line(self) -> str | None:
        return None if self.called is None else f"called={self.called}"


class ToyFamily(Family):
    """One suit, no chows, the dealer's call."""

    name: ClassVar[str] = TOY
    parts: ClassVar[Mapping[str, str]] = {"rl": "erren.testing.toy.rl:RL"}
    options: ToyOptions

    def __init__(self, **options: Any) -> None:
        self.options = ToyOptions.parse(self.name, options)
        self.claim_privacy = self.options.claim_privacy
        self.kinds = tuple(range(9))
        self.tiles = tuple(k for k in self.kinds for _ in range(4))

    def new_data(self) -> ToyData:
        return ToyData()

    def after_chance(self, state: State, action: Action, step: int) -> None:
        if step == len(self.chance_plan) and state.deal_tiles():
            state.enter(ToyPhase.CALL, state.dealer)
            state.run_auto()

    def phase_actions(self, state: State, player: int) -> list[Action]:
        calls = [Action.make(ToyVerb.CALL, player, k) for k in self.kinds]
        return [*calls, Action.make(ActionKind.PASS, player)]

    def view(self, state: State, player: int) -> ToyView:
        called = toy_data(state).called
        return ToyView(None if called < 0 else Tile(called))

    def perform(self, state: State, action: Action, auto: bool) -> bool:
        if state.phase is not ToyPhase.CALL:
            return False
        if action.kind is ToyVerb.CALL:
            toy_data(state).called = action.tile_kind()
            state.emit(ToyEvent.CALL, action.player, action.tile_kind(), auto=auto)
        else:
            state.emit(EventKind.PASS, action.player, auto=auto)
        state.start_play()
        return True

    def claim_options(self, state: State, q: int, x: int) -> list[Action]:
        """No chows: the shared claims without them (nothing left but pass: no window)."""
        out = [a for a in state.base_claim_options(q, x) if a.kind is not ActionKind.CHI]
        if len(out) == 1 and out[0].kind is ActionKind.PASS:
            return []
        return out

    def score_win(self, state: State, claim: WinClaim) -> HandResult:
        winning = claim.hand.winning
        called = winning is not None and int(winning) == toy_data(state).called
        points = 2 if called else 1
        winner = claim.winner
        return HandResult(
            ResultKind.WIN,
            winner=winner,
            loser=1 - winner,
            how=claim.how,
            hand=claim.hand,
            claim=claim,
            fans=(("called kind" if called else "win", points, 1),),
            fan_total=points,
            points=points,
            deltas=(points, -points) if winner == 0 else (-points, points),
        )
