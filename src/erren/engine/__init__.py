"""The rules engine: one state machine for every family.

>>> import random
>>> from erren.engine import State, find_family
>>> state = State.new(find_family("guobiao-2p"), seed=1)
>>> rng = random.Random(1)
>>> while not state.is_terminal:
...     state.apply(rng.choice(state.legal_actions()))
>>> state.result is not None
True

Modules: :mod:`~erren.engine.actions` (moves and their strings), :mod:`~erren.engine.events`
(numbered events: a kind, structured data, visibility), :mod:`~erren.engine.describe` (events in
Chinese and English), :mod:`~erren.engine.family` (the typed :class:`Family` plug-in),
:mod:`~erren.engine.registry` (the families by name), :mod:`~erren.engine.state` (the hand: its
transitions and hot path) with
:mod:`~erren.engine.phases` (phases, origins, family data), :mod:`~erren.engine.board` (the hand's
fields, queries and event log), :mod:`~erren.engine.moves` (the shared turn moves and claims),
:mod:`~erren.engine.wins` (win claims and the end by a win), :mod:`~erren.engine.refusals` (why a
move is refused), :mod:`~erren.engine.autoplay` (timeout and auto-play moves) and
:mod:`~erren.engine.setup` (chance actions, the deal), :mod:`~erren.engine.observation` (one
player's view: the common core), :mod:`~erren.engine.views` (each family's part of it),
:mod:`~erren.engine.codec` (values to JSON and back, from their type hints),
:mod:`~erren.engine.record` (JSON records and replay), :mod:`~erren.engine.match` (a series of
hands), the families :mod:`~erren.families.guobiao.game`, :mod:`~erren.families.xiamen.game` and
:mod:`~erren.families.arcade.game`, :mod:`~erren.engine.winning` (the fast shape tables of the hot
path).
"""

from __future__ import annotations

from erren.engine.actions import CHANCE, Action, ActionKind
from erren.engine.events import Event, EventKind
from erren.engine.family import Family, Options
from erren.engine.match import Match, MatchHand
from erren.engine.observation import Observation, Timer, observe
from erren.engine.record import Record, replay
from erren.engine.registry import family_names, find_family, register_family
from erren.engine.state import (
    TERMINAL,
    AnyWinHow,
    FamilyData,
    FamilyPhase,
    HandResult,
    Origin,
    Phase,
    ResultKind,
    State,
    WinClaim,
    WinHow,
)
from erren.engine.views import FamilyView, PlainView, ViewFacts, register_view

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionKind",
    "AnyWinHow",
    "Event",
    "EventKind",
    "Family",
    "FamilyData",
    "FamilyPhase",
    "FamilyView",
    "HandResult",
    "Match",
    "MatchHand",
    "Observation",
    "Options",
    "Origin",
    "Phase",
    "PlainView",
    "Record",
    "ResultKind",
    "State",
    "Timer",
    "ViewFacts",
    "WinClaim",
    "WinHow",
    "family_names",
    "find_family",
    "observe",
    "register_family",
    "register_view",
    "replay",
]
