"""The two-seat mjai profile's streams (docs/mjai-2p.md): what each seat sees, and answers."""

from __future__ import annotations

import json

import pytest

from erren.engine import Action, ActionKind, EventKind, Record, State, find_family, replay
from erren.engine.result import ResultKind
from erren.errors import NotationError
from erren.mjai.export import export_mjai, hand_messages
from erren.mjai.stream import (
    MjaiError,
    MjaiStream,
    action_to_mjai,
    join_reach,
    mjai_to_action,
)
from erren.mjai.tiles import HIDDEN, mjai_tile

from ._support.play import FAMILIES, play, ruleset_of

PRIVATE_TYPES = {
    "tsumo": ("pai",),
    "ankan": ("consumed",),
    "erren:give": ("pai",),
    "erren:exchange": ("received",),
    "erren:pick": ("pai",),
    "erren:pung_offer": ("pai",),
    "erren:take_pung": ("pai", "consumed"),
}
"""Messages about a seat's private tiles, and their tile fields."""


def _hidden(value: object) -> bool:
    """Every tile of a tile field is ``?``."""
    assert isinstance(value, str | list)
    return value == HIDDEN if isinstance(value, str) else all(v == HIDDEN for v in value)


def _shown(value: object) -> bool:
    """No tile of a tile field is ``?``."""
    assert isinstance(value, str | list)
    return value != HIDDEN if isinstance(value, str) else HIDDEN not in value


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_seat_streams_hide_the_opponents_tiles(family: str) -> None:
    for seed in range(12):
        state = play(ruleset_of(family, privacy=seed % 2 == 1), seed)
        record = state.record()
        full, _ = hand_messages(record, None)
        json.dumps(full)
        for seat in (0, 1):
            other = 1 - seat
            messages, _ = hand_messages(record, seat)
            text = json.dumps(messages)
            assert "erren:shuffle" not in text and "erren:seed" not in text
            start = messages[0]
            assert start["type"] == "start_kyoku"
            assert start["tehais"][other] == [HIDDEN] * 13  # type: ignore[index]
            assert HIDDEN not in start["tehais"][seat]  # type: ignore[index]
            theirs = [m for m in messages if m.get("actor") == other and m["type"] in PRIVATE_TYPES]
            for m in theirs:
                for field in PRIVATE_TYPES[str(m["type"])]:
                    assert _hidden(m[field]), m
            mine = [m for m in messages if m.get("actor") == seat and m["type"] in PRIVATE_TYPES]
            for m in mine:
                for field in PRIVATE_TYPES[str(m["type"])]:
                    assert _shown(m[field]), m
            # every draw of the opponent is there, blank: as many tsumo as draw events
            draws = sum(1 for e in state.events if e.kind is EventKind.DRAW and e.player == other)
            dealt = 1 if other == record.dealer else 0
            assert sum(1 for m in theirs if m["type"] == "tsumo") == draws + dealt


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_full_log_shows_every_draw_and_the_wall(family: str) -> None:
    for seed in range(6):
        state = play(ruleset_of(family), seed)
        messages, _ = hand_messages(state.record(), None)
        assert HIDDEN not in json.dumps([m for m in messages if m["type"] != "start_kyoku"])
        walls = [m["wall"] for m in messages if m["type"] == "erren:shuffle"]
        assert walls == [[mjai_tile(t) for t in state.history[0].data]]
        draws = [e.tile for e in state.events if e.kind is EventKind.DRAW]
        tsumo = [m["pai"] for m in messages if m["type"] == "tsumo"][1:]  # after the dealer's 14th
        assert tsumo == [mjai_tile(t) for t in draws]


def test_start_kyoku_and_first_moves_of_a_guobiao_hand() -> None:
    ruleset = find_family("guobiao-2p")
    state = State.new(ruleset, seed=3, dealer=0)
    deal = [e for e in state.events if e.kind is EventKind.DEAL]
    stream = MjaiStream(ruleset, 1, dealer=0, round_wind=state.round_wind, scores=(5, -5))
    out: list[dict[str, object]] = []
    for event in state.events:
        out += stream.feed(event.seen_by(1))
    assert out[0] == {
        "type": "start_kyoku",
        "bakaze": "E",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "dora_marker": "?",
        "scores": [5, -5],
        "tehais": [["?"] * 13, [mjai_tile(t) for t in deal[1].tiles]],
    }
    dice = next(e for e in state.events if e.kind is EventKind.DICE).data["dice"]
    assert out[1] == {"type": "erren:dice", "dice": list(dice)}  # type: ignore[arg-type]
    assert out[2] == {"type": "tsumo", "actor": 0, "pai": "?"}
    # the dealer discards: seat 1 sees the tile, not whether it was the 14th
    seen = state.event_count
    move = state.legal_actions()[0]
    state.apply(move)
    shown = [m for e in state.events_since(1, seen) for m in stream.feed(e)]
    assert shown[0] == {
        "type": "dahai",
        "actor": 0,
        "pai": mjai_tile(move.tile),
        "tsumogiri": False,
    }


def test_ting_is_reach_then_dahai_and_answers_join() -> None:
    ruleset = find_family("guobiao-2p")
    for seed in range(200):
        state = play(ruleset, seed, system=False)
        record = state.record()
        if any(":ting:" in a for a in record.actions):
            break
    messages, _ = hand_messages(record, None)
    i = next(i for i, m in enumerate(messages) if m["type"] == "reach")
    ting = next(Action.parse(a) for a in record.actions if ":ting:" in a)
    assert messages[i] == {"type": "reach", "actor": ting.player}
    assert messages[i + 1]["type"] == "dahai"
    assert messages[i + 1]["pai"] == mjai_tile(ting.tile)
    joined = join_reach(
        {"type": "reach", "actor": 0},
        {"type": "dahai", "actor": 0, "pai": "5m", "tsumogiri": False},
    )
    assert joined == {"type": "reach", "actor": 0, "pai": "5m", "tsumogiri": False}


def test_hora_carries_fans_and_scores() -> None:
    ruleset = find_family("guobiao-2p")
    for seed in range(300):
        state = play(ruleset, seed, system=False)
        if state.result is not None and state.result.kind is ResultKind.WIN:
            break
    result = state.result
    assert result is not None and result.winner is not None
    messages, scores = hand_messages(state.record(), 1 - result.winner, scores=(10, 20))
    hora = next(m for m in messages if m["type"] == "hora")
    assert hora["actor"] == result.winner
    assert hora["erren:fans"] == [[n, v, c] for n, v, c in result.fans]
    assert hora["erren:fan_total"] == result.fan_total
    assert hora["deltas"] == list(result.deltas)
    assert hora["scores"] == [10 + result.deltas[0], 20 + result.deltas[1]]
    assert scores == (10 + result.deltas[0], 20 + result.deltas[1])
    assert messages[-1] == {"type": "end_kyoku"}


def test_export_starts_and_ends_the_game_once_per_ruleset() -> None:
    g = ruleset_of("guobiao-2p")
    x = ruleset_of("xiamen")
    records = [play(r, s, system=False).record() for r, s in ((g, 1), (g, 2), (x, 3))]
    messages = list(export_mjai(records, 0, names=("alice", "bob")))
    kinds = [m["type"] for m in messages]
    assert kinds.count("start_game") == 2 and kinds.count("end_game") == 2
    assert kinds.count("start_kyoku") == 3 and kinds.count("end_kyoku") == 3
    assert messages[0]["type"] == "start_game"
    assert messages[0]["id"] == 0 and messages[0]["names"] == ["alice", "bob"]
    assert messages[0]["erren:ruleset"] == "guobiao-2p"
    starts = [m for m in messages if m["type"] == "start_kyoku"]
    first = replay_deltas(records[0])
    assert starts[1]["scores"] == list(first)


def replay_deltas(record: Record) -> tuple[int, int]:
    result = replay(record).result
    return (0, 0) if result is None else result.deltas


def _decision(family: str) -> State:
    state = State.new(ruleset_of(family), seed=11, dealer=0)
    return state


def test_answers_that_are_not_moves_are_refused_with_a_reason() -> None:
    state = _decision("guobiao-2p")
    obs = state.observe(state.actor)
    legal = state.legal_actions()
    with pytest.raises(MjaiError, match="needs a string 'type'"):
        mjai_to_action({"pai": "5m"}, legal, obs)
    with pytest.raises(MjaiError, match="unknown message type 'dance'"):
        mjai_to_action({"type": "dance"}, legal, obs)
    with pytest.raises(MjaiError, match="not an mjai tile: '0m'"):
        mjai_to_action({"type": "dahai", "pai": "0m", "tsumogiri": False}, legal, obs)
    with pytest.raises(MjaiError, match="dahai needs 'pai'"):
        mjai_to_action({"type": "dahai"}, legal, obs)
    with pytest.raises(MjaiError, match="actor 1 is not this seat"):
        mjai_to_action({"type": "dahai", "actor": 1, "pai": "5m"}, legal, obs)
    # guobiao-2p plays one suit (m) and the honors: a 1p is never in the hand
    with pytest.raises(MjaiError, match=r"dahai is not legal now; the legal moves are: .*dahai"):
        mjai_to_action({"type": "dahai", "pai": "1p"}, legal, obs)
    with pytest.raises(MjaiError, match="none is not legal now"):
        mjai_to_action({"type": "none"}, legal, obs)
    assert issubclass(MjaiError, NotationError)


def test_system_and_chance_actions_have_no_answer() -> None:
    state = _decision("guobiao-2p")
    obs = state.observe(state.actor)
    with pytest.raises(ValueError, match="not a seat's move"):
        action_to_mjai(Action.parse("0:timeout"), obs)
    assert ActionKind.TIMEOUT.is_system
