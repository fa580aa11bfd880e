"""The plug-in contract of a family: typed hooks, State's public transition API only.

No family module (the three built-in ones and the toy family of ``erren/testing/toy``) reads or
writes a private name of :class:`~erren.engine.state.State`; the shared phases are the five of
§2.2 and each family's phases keep their names; a hook left at its default is not called.
"""

from __future__ import annotations

import ast
import random
from dataclasses import fields
from pathlib import Path

import pytest

from erren.engine import ActionKind, Event, EventKind, Phase, State, find_family
from erren.engine.describe import describe
from erren.engine.events import EVENT_DATA, ValueWords, check_event_data, register_event_values
from erren.engine.result import ResultKind
from erren.families.arcade.game import ArcadePhase
from erren.families.arcade.game.view import ArcadeView
from erren.families.guobiao.view import GuobiaoView
from erren.families.xiamen.game import XiamenPhase
from erren.families.xiamen.game.view import XiamenView
from erren.testing import toy
from erren.testing.toy.game import ToyEvent, ToyPhase
from erren.tiles import Tile

SRC = Path(__file__).resolve().parents[2] / "src" / "erren"
FAMILY_MODULES = [
    *sorted((SRC / "families").glob("*/game.py")),
    *sorted((SRC / "families").glob("*/game/*.py")),
    *sorted((SRC / "testing" / "toy").glob("*.py")),
]


def _state_private_names() -> set[str]:
    state = State.new(find_family("guobiao-2p"), seed=1)
    on_class = (n for cls in State.__mro__ for n in vars(cls))  # State and its bases
    names = {n for n in (*on_class, *vars(state)) if n.startswith("_")}
    return {n for n in names if not n.startswith("__")}


def test_family_modules_touch_no_private_name_of_the_state() -> None:
    private = _state_private_names()
    assert {"_log", "_legal", "_perform", "_draw"} & private  # the check sees them
    offences = []
    for path in FAMILY_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__"):
                continue
            owner = node.value
            on_state = isinstance(owner, ast.Name) and owner.id in ("state", "twin")
            if on_state or (node.attr in private and not _is_self(owner)):
                offences.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert offences == []


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls", "rules")


def test_the_shared_phases_are_those_of_the_spec_and_family_phases_keep_their_names() -> None:
    assert [p.value for p in Phase] == ["deal", "turn", "claim", "rob", "end"]
    assert [p.value for p in XiamenPhase] == ["opening", "you_choice", "last_draw"]
    assert [p.value for p in ArcadePhase] == ["exchange", "pick", "haidi"]


def test_guobiao_keeps_every_hot_hook_at_its_default() -> None:
    hooks = find_family("guobiao-2p").overrides
    assert [f.name for f in fields(hooks) if getattr(hooks, f.name) is not None] == []
    xiamen = find_family("xiamen").overrides
    assert xiamen.can_win is not None and xiamen.chow_tiles is not None
    assert xiamen.turn_actions is None  # the shared turn, through discard_filter


def test_the_toy_family_offers_no_chow_and_pays_the_called_kind_double(toy_family: str) -> None:
    rules = find_family(toy_family)
    called_wins = plain_wins = calls = 0
    for seed in range(200):
        rng = random.Random(seed)
        state = State.new(rules, seed=seed)
        assert state.phase is ToyPhase.CALL and state.actor == state.dealer
        assert state.observe(state.dealer).phase is ToyPhase.CALL
        while not state.is_terminal:
            legal = state.legal_actions()
            assert all(a.kind is not ActionKind.CHI for a in legal)
            state.apply(rng.choice(legal))
        calls += any(e.kind is ToyEvent.CALL for e in state.events)
        result = state.result
        assert result is not None
        if result.kind is ResultKind.WIN:
            assert result.hand is not None
            winning = result.hand.winning
            called = [e.tile for e in state.events if e.kind is ToyEvent.CALL]
            if called and winning is not None and called[0] == winning:
                assert result.points == 2
                called_wins += 1
            else:
                assert result.points == 1
                plain_wins += 1
    assert calls and plain_wins and called_wins


def test_family_views_of_an_observation_before_the_setup_are_the_defaults() -> None:
    assert State(find_family("xiamen")).observe(0).view == XiamenView()
    assert State(find_family("arcade")).observe(0).view == ArcadeView()
    assert State(find_family("guobiao-2p")).observe(0).view == GuobiaoView()


def _during() -> tuple[str, ...]:
    """The values a flower's ``during`` may take now."""
    during = EVENT_DATA[EventKind.FLOWER]["during"]
    assert isinstance(during, tuple)
    return during


def test_the_toy_family_registers_its_own_value_of_a_shared_field(toy_family: str) -> None:
    """A family adds a value of a shared event's closed field with its words, from its own
    package (the toy's flower set aside ``during`` its call); the value is known while the
    family is and refused once it is forgotten."""
    flower = Event(5, EventKind.FLOWER, 0, Tile.F2, data={"during": "call"})
    # the shared values first, then the families' by name (xiamen's, arcade's and the toy's)
    assert _during() == ("deal", "draw", "call", "exchange", "gold_reveal", "haidi")
    check_event_data(EventKind.FLOWER, flower.data)
    assert describe(flower, "zh", 0) == "你 补花 夏（叫牌时）"
    assert describe(flower, "en", 1) == "Opponent set a flower aside: Summer (during the call)"
    assert str(flower) == "#5 seat 0 flower 2f call"
    toy.unregister()
    try:
        assert _during() == ("deal", "draw", "exchange", "gold_reveal", "haidi")
        with pytest.raises(ValueError, match="'during' is 'call', not one of deal, draw"):
            check_event_data(EventKind.FLOWER, flower.data)
        assert describe(flower, "en", 1) == "Opponent set a flower aside: Summer"
    finally:
        toy.register()


def test_a_value_of_no_closed_field_is_refused() -> None:
    with pytest.raises(ValueError, match="no closed data field 'how'"):
        register_event_values(EventKind.HU, "how", {"x": ValueWords("甲", "a")})
    with pytest.raises(ValueError, match="already has other words"):
        register_event_values(EventKind.DRAW, "from", {"back": ValueWords("甲", "a")})
