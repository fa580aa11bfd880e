"""Events have a schema: a kind from :class:`EventKind`, ``data`` with the kind's keys and value
types, an English line and sentences in both languages rendered from the data, and no client
that reads prose back."""

from __future__ import annotations

import copy
import pickle
import random
import re
from pathlib import Path

import pytest

from erren.engine import Action, ActionKind, Event, EventKind, State, find_family
from erren.engine.describe import LANGS, describe, tile_name
from erren.engine.events import (
    EVENT_DATA,
    AnyEventKind,
    check_event_data,
    event_kinds,
    event_rule,
)
from erren.families.arcade.game import stage_options
from erren.families.arcade.game.vocabulary import ArcadeEvent
from erren.families.xiamen.game.vocabulary import XiamenEvent
from erren.notation import parse_tile
from erren.tiles import Tile

SRC = Path(__file__).resolve().parents[2] / "src" / "erren"

RULESETS = [
    ("guobiao-2p", {}),
    ("guobiao-2p", {"flowers": True, "ting_enabled": True}),
    ("xiamen", {}),
    ("arcade", {}),
    ("arcade", stage_options(4)),
    ("arcade", {"claim_privacy": True, "pung_offer_prob": 0.5, "pick_any_prob": 0.5}),
]


def _games(seeds: range) -> list[State]:
    """Finished random games of every family, timeouts and 托管 switches mixed in."""
    out = []
    for name, options in RULESETS:
        for seed in seeds:
            rng = random.Random(seed)
            state = State.new(find_family(name, options), seed=seed)
            while not state.is_terminal:
                player = state.current_player()
                roll = rng.random()
                if roll < 0.03:
                    state.apply_system(Action.make(ActionKind.TIMEOUT, player))
                elif roll < 0.05:
                    state.apply_system(Action.trustee(player, not state.trustee[player]))
                else:
                    state.apply(rng.choice(state.legal_actions()))
            out.append(state)
    return out


GAMES = _games(range(12))


def _fits(kind: object, value: object) -> bool:
    if kind is Tile:
        return isinstance(value, str) and str(parse_tile(value)) == value
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is tuple:
        return isinstance(value, tuple) and all(isinstance(v, int) for v in value)
    if isinstance(kind, tuple):
        return value in kind
    return isinstance(value, kind)  # type: ignore[arg-type]


def test_every_event_has_its_kinds_data() -> None:
    seen: set[AnyEventKind] = set()
    for state in GAMES:
        for event in state.events:
            assert isinstance(event.kind, AnyEventKind)
            check_event_data(event.kind, event.data)
            spec = EVENT_DATA[event.kind]
            assert set(event.data) == set(spec), event
            for key, kind in spec.items():
                assert _fits(kind, event.data[key]), (event, key)
            seen.add(event.kind)
    # the random games reach the common kinds of every family
    assert {
        EventKind.SHUFFLE,
        EventKind.DICE,
        EventKind.DEAL,
        EventKind.DRAW,
        EventKind.DISCARD,
        EventKind.END,
        XiamenEvent.GOLD,
        ArcadeEvent.WILD,
        ArcadeEvent.EXCHANGE,
        EventKind.TIMEOUT,
        EventKind.TRUSTEE,
    } <= seen


def test_event_kinds_keep_the_wire_names() -> None:
    """The shared kinds, then each built-in family's own (``event_kinds``), with the wire names
    they always had; every one has its data schema."""
    built_in = list(event_kinds())
    assert [k for k in EventKind] == built_in[: len(EventKind)]
    assert sorted(k.value for k in built_in) == sorted(
        [
            "shuffle",
            "dice",
            "deal",
            "flower",
            "draw",
            "discard",
            "ting",
            "chi",
            "peng",
            "minggang",
            "angang",
            "jiagang",
            "pass",
            "hu",
            "zimo",
            "huangzhuang",
            "escape",
            "trustee",
            "timeout",
            "end",
            "gold",
            "you",
            "wild",
            "exchange",
            "pick-offer",
            "pick",
            "pung-offer",
            "takepung",
            "give",
            "haidi",
        ]
    )
    assert set(XiamenEvent) | set(ArcadeEvent) == set(built_in[len(EventKind) :])
    assert set(EVENT_DATA) >= set(built_in)


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (
            Event(0, EventKind.SHUFFLE, -2, private=True, data={"count": 136}),
            "#0 table shuffle  136 tiles",
        ),
        (Event(2, EventKind.DICE, -1, data={"dice": (5, 1, 1, 5)}), "#2 table dice  5,1,1,5"),
        (
            Event(6, EventKind.DRAW, 1, Tile.M7, private=True, data={"from": "back"}),
            "#6 seat 1 draw 7m back",
        ),
        (
            Event(9, EventKind.DRAW, 0, Tile.P2, private=True, data={"from": "front"}),
            "#9 seat 0 draw 2p",
        ),
        (
            Event(1, ArcadeEvent.WILD, -1, Tile.P8, data={"flower": "5z"}),
            "#1 table wild 8p flower 5z",
        ),
        (
            Event(7, ArcadeEvent.EXCHANGE, 0, private=True, data={"count": 0}),
            "#7 seat 0 exchange  0 tile(s)",
        ),
        (Event(3, XiamenEvent.YOU, 1, data={"level": 2}), "#3 seat 1 you  2 双游"),
        (Event(4, EventKind.TRUSTEE, 0, data={"on": False}), "#4 seat 0 trustee  off"),
        (
            Event(5, EventKind.HU, 0, Tile.S9, data={"how": "qianggang"}),
            "#5 seat 0 hu 9s qianggang",
        ),
        (Event(8, EventKind.END, -1, data={"result": "win"}), "#8 table end  win"),
        (Event(8, XiamenEvent.GOLD, -1, Tile.EAST), "#8 table gold 1z indicator"),
        (
            Event(8, EventKind.FLOWER, 0, Tile.F1, data={"during": "gold_reveal"}),
            "#8 seat 0 flower 1f gold reveal",
        ),
        (Event(8, EventKind.DISCARD, 1, Tile.M5, data={"why": "turn"}), "#8 seat 1 discard 5m"),
        (Event(8, ArcadeEvent.HAIDI, 1, data={"draws": 5}), "#8 seat 1 haidi  5 draws"),
    ],
)
def test_the_english_line_is_rendered_from_the_data(event: Event, line: str) -> None:
    """``str(event)``: the transcripts' line, exactly as it read when events carried text."""
    assert str(event) == line


def test_every_kind_is_described_in_both_languages() -> None:
    for kind in event_kinds():
        rule = event_rule(kind)
        assert rule.zh and rule.en and rule.zh != rule.en, kind
    for state in GAMES:
        for event in state.events:
            for viewer in (0, 1):
                seen = event.seen_by(viewer)
                for lang in LANGS:
                    text = describe(seen, lang, viewer)
                    assert text and "{" not in text and "}" not in text, (seen, lang)


@pytest.mark.parametrize(
    ("event", "viewer", "zh", "en"),
    [
        (
            Event(3, EventKind.DISCARD, 1, Tile.M5, data={"why": "turn"}),
            0,
            "对手 打出 五万",
            "Opponent discarded 5 Characters",
        ),
        (
            Event(3, EventKind.DRAW, 0, Tile.RED, private=True, data={"from": "back"}),
            0,
            "你 摸牌 红中（杠后）",
            "You drew Red from the back",
        ),
        (
            Event(3, EventKind.DRAW, 0, private=True, data={"from": "front"}),
            1,
            "对手 摸牌 ？",
            "Opponent drew ?",
        ),
        (
            Event(1, ArcadeEvent.WILD, -1, Tile.P8, data={"flower": "5z"}),
            0,
            "财神：八饼，花牌：白板",
            "The wild is 8 Dots; the flowers are White",
        ),
        (
            Event(4, XiamenEvent.YOU, 1, data={"level": 1}),
            1,
            "你 进入游金",
            "You: 游 level 1 (游金)",
        ),
        (
            Event(4, EventKind.TRUSTEE, 0, auto=True, data={"on": True}),
            1,
            "对手 托管开启",
            "Opponent auto-play on",
        ),
        (
            Event(4, EventKind.DICE, -1, data={"dice": (3, 4)}),
            0,
            "掷骰：3, 4",
            "Dice: 3, 4",
        ),
    ],
)
def test_describe_exact_sentences(event: Event, viewer: int, zh: str, en: str) -> None:
    assert describe(event, "zh", viewer) == zh
    assert describe(event, "en", viewer) == en


def test_tile_names() -> None:
    assert [
        tile_name(t, "zh") for t in (Tile.M1, Tile.P9, Tile.S5, Tile.EAST, Tile.WHITE, Tile.F8)
    ] == [
        "一万",
        "九饼",
        "五条",
        "东风",
        "白板",
        "菊",
    ]
    assert tile_name(Tile.S5, "en") == "5 Bamboo" and tile_name(Tile.GREEN, "en") == "Green"


_PY_TEXT = re.compile(r"\b(?:event|ev|e|evt|flower_ev|last)\.text\b")
_JS_TEXT = re.compile(r"\b(?:event|ev|e|evt|flowerEv|last)\.text\b|/flower \(")


def test_no_client_reads_event_prose() -> None:
    """No module of erren reads an event's text back (the events have none: the clients render
    from ``kind`` and ``data``)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _PY_TEXT.search(line):
                found.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    for path in sorted(SRC.rglob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _JS_TEXT.search(line):
                found.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    assert found == []
    assert "text" not in Event._fields


def test_a_state_with_events_copies_and_pickles() -> None:
    """Events without data share one empty mapping; a state still deep-copies and pickles."""
    state = State.new(find_family("guobiao-2p"), seed=1)
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin.fingerprint() == state.fingerprint()
