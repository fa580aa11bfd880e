"""A network bot sees exactly what a local bot sees: the observation and event JSON of the
protocol go through the generic codec, and decoding them gives back every field — the family
view's included — for random states of all three families."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from erren.engine import Action, ActionKind, Event, EventKind, Observation, State, find_family
from erren.families.arcade.game import stage_options
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeEvent
from erren.families.guobiao.view import GuobiaoView
from erren.families.xiamen.game.view import XiamenView
from erren.server.protocol import (
    event_from_json,
    event_json,
    observation_from_json,
    observation_json,
)
from erren.tiles import Tile

FAMILIES = [
    ("guobiao-2p", {}, GuobiaoView),
    ("guobiao-2p", {"flowers": True, "ting_enabled": True}, GuobiaoView),
    ("xiamen", {}, XiamenView),
    ("arcade", {}, ArcadeView),
    ("arcade", stage_options(4), ArcadeView),
    ("arcade", {"pung_offer_prob": 0.5, "pick_any_prob": 0.5, "haidi_draws": 5}, ArcadeView),
]


def _wire(obs: Observation) -> Observation:
    """The observation after a trip through the server's JSON text."""
    return observation_from_json(json.loads(json.dumps(observation_json(obs))))


@pytest.mark.parametrize(("name", "options", "view"), FAMILIES, ids=lambda x: str(x)[:30])
def test_observations_and_events_round_trip(
    name: str, options: dict[str, object], view: type
) -> None:
    views = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = State.new(find_family(name, options), seed=seed)
        while not state.is_terminal:
            for seat in (0, 1):
                obs = state.observe(seat)
                assert isinstance(obs.view, view)
                assert _wire(obs) == obs, (seat, state)
                views += 1
            player = state.current_player()
            if rng.random() < 0.03:
                state.apply_system(Action.make(ActionKind.TIMEOUT, player))
            else:
                state.apply(rng.choice(state.legal_actions()))
        for seat in (0, 1):
            obs = state.observe(seat)
            assert _wire(obs) == dataclasses.replace(obs, result=None)
            for event in state.events_since(seat):
                data = json.loads(json.dumps(event_json(event, event.seq + 1)))
                assert event_from_json(data) == event
    assert views > 100


def test_observation_json_exact() -> None:
    """The wire form of an arcade observation at the deal: core fields by their names, the
    family's under ``view``."""
    state = State.new(find_family("arcade"), seed=3)
    data = observation_json(state.observe(0))
    view = data["view"]
    assert set(view) == {
        "family",
        "wild",
        "flower_kind",
        "reserve_count",
        "offer",
        "baoting",
        "haidi_player",
        "haidi_left",
        "bleed",
        "giving",
    }
    assert view["family"] == "arcade" and view["reserve_count"] == 64 and view["offer"] is None
    assert view["baoting"] == ["", ""] and view["haidi_player"] is None and view["bleed"] == ""
    assert view["giving"] == []
    assert set(data) == {
        "player",
        "dealer",
        "round_wind",
        "phase",
        "to_act",
        "origin",
        "pending",
        "hand",
        "last_drawn",
        "melds",
        "hidden_kongs",
        "discards",
        "claimed",
        "flowers",
        "concealed_count",
        "wall_count",
        "ting",
        "trustee",
        "dice",
        "legal",
        "wins",
        "timer",
        "last_n",
        "result",
        "view",
        "streak",
        "ting_at",
    }
    assert data["ting_at"] == [-1, -1]  # nobody has declared 报听 at the deal
    xiamen = observation_json(State.new(find_family("xiamen"), seed=3).observe(1))["view"]
    assert set(xiamen) == {"family", "gold", "indicator_taken", "you_level"}
    assert xiamen["family"] == "xiamen" and xiamen["you_level"] == [0, 0]
    guobiao = observation_json(State.new(find_family("guobiao-2p"), seed=3).observe(0))
    assert guobiao["view"] == {"family": "guobiao-2p"}


@pytest.mark.parametrize(
    ("event", "wire"),
    [
        (
            Event(6, EventKind.DRAW, 1, Tile.M7, private=True, data={"from": "back"}),
            {
                "n": 7,
                "kind": "draw",
                "player": 1,
                "tile": "7m",
                "private": True,
                "data": {"from": "back"},
            },
        ),
        (
            Event(1, ArcadeEvent.WILD, -1, Tile.P8, data={"flower": "5z"}),
            {"n": 2, "kind": "wild", "player": -1, "tile": "8p", "data": {"flower": "5z"}},
        ),
        (
            Event(2, EventKind.DICE, -1, data={"dice": (5, 1, 1, 5)}),
            {"n": 3, "kind": "dice", "player": -1, "data": {"dice": [5, 1, 1, 5]}},
        ),
        (
            Event(9, EventKind.TRUSTEE, 0, auto=True, data={"on": True}),
            {"n": 10, "kind": "trustee", "player": 0, "auto": True, "data": {"on": True}},
        ),
        (
            Event(4, EventKind.PENG, 0, tiles=(Tile.S3, Tile.S3, Tile.S3)),
            {"n": 5, "kind": "peng", "player": 0, "tiles": ["3s", "3s", "3s"], "data": {}},
        ),
    ],
)
def test_event_json_exact(event: Event, wire: dict[str, object]) -> None:
    assert event_json(event, event.seq + 1) == wire
    assert event_from_json(wire) == event
