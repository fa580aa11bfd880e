"""The hidden-information check itself: it passes the messages a table sends for a hand played
in-process, and it finds every kind of leak planted among them (no server needed)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from erren.engine import Record, State, find_family
from erren.review import review_hand, reviewer
from erren.review.hindsight import hindsight
from erren.server.protocol import event_json, observation_json, result_json

from ._support.leaks import Audit, _ints, audit_seat, tiles_in

SALT = "5a1f" * 8


def _hand(family: str, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any], list[State]]:
    """The messages seat 0 gets for one random hand (as the table builds them), its record,
    and the state after each step."""
    rng = random.Random(seed)
    state = State.new(find_family(family, {}), seed=seed)
    start = {
        "n": 0,
        "kind": "start",
        "game": 1,
        "hand": 1,
        "dealer": 0,
        "round_wind": "1z",
        "streak": 0,
        "commitment": "c" * 64,
        "seats": ["a", "b"],
    }
    events = [start, *(event_json(e, e.seq + 1) for e in state.events_since(0, 0))]
    messages: list[dict[str, Any]] = [
        {"type": "welcome", "user": {"id": 1, "name": "a", "guest": True}, "version": 1},
        {
            "type": "events",
            "game": 1,
            "events": events,
            "state": observation_json(state.observe(0), hints=True),
        },
    ]
    steps = [state.clone()]
    while not state.is_terminal:
        before = state.event_count
        state.apply(rng.choice(state.legal_actions(state.actor)))
        messages.append(
            {
                "type": "events",
                "table": "t1",
                "game": 1,
                "events": [event_json(e, e.seq + 1) for e in state.events_since(0, before)],
                "state": observation_json(state.observe(0), hints=True),
            }
        )
        steps.append(state.clone())
    record = state.record().to_dict()
    record.update(seed=seed, fairness={"commitment": "c" * 64, "salt": SALT}, game=1)
    messages.append(
        {
            "type": "events",
            "table": "t1",
            "game": 1,
            "events": [
                {
                    "n": state.event_count + 1,
                    "kind": "settlement",
                    "game": 1,
                    "result": result_json(state.result),
                    "stake": None,
                    "beans": [0, 0],
                    "record": record,
                }
            ],
            "state": None,
        }
    )
    return messages, record, steps


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen", "arcade"])
def test_a_clean_hand_passes(family: str) -> None:
    for seed in range(5):
        messages, record, _ = _hand(family, seed)
        # the hint at a decision of seat 0, and the review once the hand is settled
        at = next(i for i, m in enumerate(messages) if (m.get("state") or {}).get("legal"))
        state = messages[at]["state"]
        hint = {"type": "advice", "n": state["last_n"], "action": state["legal"][0]}
        hint["reason"] = {"code": "other", "params": {}}
        # 大师's review of seat 0 from the settled record and the seat's hindsight (the first
        # hand of each family; an empty review and a small search for the others, to keep the
        # test short)
        if seed == 0:
            body = review_hand(Record.from_dict(record), 0, reviewer()).to_dict()
            known = hindsight(Record.from_dict(record), 0).to_dict()
        else:
            body = {"hand": 0, "ruleset": family, "seat": 0, "decisions": []}
            known = hindsight(Record.from_dict(record), 0, budget=300).to_dict()
        review = {"type": "review", "game": 1, "seat": 0, "review": body, "hindsight": known}
        messages = [*messages[: at + 1], hint, *messages[at + 1 :], review]
        audit = Audit()
        audit_seat(messages, 0, [record], audit)
        assert not audit.leaks, audit.summary()
        assert audit.checked == len(messages)


def _review_with(found: dict[str, Any]) -> dict[str, Any]:
    """A review message of seat 0 after game 1's settlement, with ``found`` as its hindsight."""
    empty = {"hand": 0, "ruleset": "guobiao-2p", "seat": 0, "decisions": []}
    return {"type": "review", "game": 1, "seat": 0, "review": empty, "hindsight": found}


def test_planted_leaks_are_found() -> None:
    messages, record, steps = _hand("guobiao-2p", 7)
    line = hindsight(Record.from_dict(record), 0, budget=300).to_dict()
    early = steps[0]
    shown = tiles_in(str(messages[1]))
    hidden = sorted({str(t) for t in early.concealed(1)} - shown)
    assert hidden, "the opponent holds some kind seat 0 cannot see"
    opp_hand = observation_json(early.observe(1))["hand"]
    wrong_state = dict(messages[1]["state"], hand=opp_hand)
    # ready hints that name a tile only the opponent holds (as if counted from his hand)
    wrong_hints = dict(messages[1]["state"], hints={"discards": {}, "waits": [[hidden[0], 1]]})
    planted: list[tuple[str, dict[str, Any]]] = [
        ("error-names-an-action", {"type": "error", "code": "x", "message": "seat 1 may 1:peng"}),
        ("error-names-an-action", {"type": "error", "code": "x", "message": "c:shuffle:1m2m"}),
        (
            "error-names-a-hidden-tile",
            {"type": "error", "code": "x", "message": f"seat 1 holds {hidden[0]}"},
        ),
        (
            "error-names-a-count",
            {"type": "error", "code": "x", "message": "seat 1 can choose among 987 moves"},
        ),
        (  # a pace error's text naming a number its params do not state
            "error-names-a-count",
            {
                "type": "error",
                "code": "chat-too-fast",
                "message": "one chat message per 3 s; wait 987 ms",
                "params": {"retry_ms": 30, "interval_s": 3.0},
            },
        ),
        ("error-fields", {"type": "error", "code": "x", "message": "no", "hand": []}),
        ("error-action", {"type": "error", "code": "x", "message": "no", "action": "1:pass"}),
        (
            "state-not-the-observation",
            {"type": "events", "game": 1, "events": [], "state": wrong_state},
        ),
        (
            "hints-not-the-observation",
            {"type": "events", "game": 1, "events": [], "state": wrong_hints},
        ),
        ("presence", {"type": "presence", "seat": 1, "online": True, "hand": opp_hand}),
        ("ready", {"type": "ready", "seat": 1, "legal": ["peng"]}),
        ("secret-before-settlement", {"type": "pong", "salt": SALT}),
        (
            "closed-balance",
            {
                "type": "closed",
                "table": "t1",
                "code": "opponent-below-entry",
                "reason": "x",
                "params": {"balance": 12},
            },
        ),
        ("unknown-message", {"type": "hint", "text": "he waits on 5m"}),
        (
            "advice-not-own-move",
            {
                "type": "advice",
                "n": messages[1]["state"]["last_n"],
                "action": "peng",
                "reason": None,
            },
        ),
        (
            "review-before-end",
            {
                "type": "review",
                "game": 1,
                "seat": 0,
                "review": {"seat": 0, "decisions": []},
                "hindsight": None,
            },
        ),
        (
            "review-fields",
            {"type": "review", "game": 1, "seat": 0, "count": 0, "decisions": []},
        ),
        (  # the opponent's review sent to seat 0
            "review-not-own-seat",
            {
                "type": "review",
                "game": 1,
                "seat": 1,
                "review": {"seat": 1, "decisions": []},
                "hindsight": None,
            },
        ),
        (  # a decision at a step where the seat did not move (the shuffle)
            "review-not-own-view",
            {
                "type": "review",
                "game": 1,
                "seat": 0,
                "review": {
                    "seat": 0,
                    "decisions": [
                        {
                            "step": 0,
                            "seat": 0,
                            "player": {"text": "discard:1z", "tiles": ["1z"]},
                            "bot": {"text": "discard:2z", "tiles": ["2z"]},
                        }
                    ],
                },
                "hindsight": None,
            },
        ),
        (  # a hindsight line whose wall is not the record's (another shuffle)
            "hindsight-not-the-record",
            _review_with(dict(line, actions=["c:shuffle:1m2m", *line["actions"][1:]])),
        ),
        (  # the opponent's hindsight sent to seat 0
            "hindsight-not-own-seat",
            _review_with(dict(line, seat=1)),
        ),
        ("hindsight-fields", _review_with(dict(line, wall=["1m"]))),
    ]
    for kind, message in planted:
        audit = Audit()
        audit_seat([*messages[:2], message, *messages[2:]], 0, [record], audit)
        assert kind in {leak.kind for leak in audit.leaks}, (kind, audit.summary())
    private = next(
        e
        for m in messages
        for e in m.get("events", ())
        if e.get("private") and e.get("player") == 1
    )
    shown_draw = dict(private, tile=hidden[0])
    audit = Audit()
    tampered = [
        {**m, "events": [shown_draw if e is private else e for e in m["events"]]}
        if m.get("type") == "events"
        else m
        for m in messages
    ]
    audit_seat(tampered, 0, [record], audit)
    assert "event-not-seen-by" in {leak.kind for leak in audit.leaks}


def test_a_refusal_naming_the_seats_own_pace_or_a_server_limit_names_no_count() -> None:
    """A ``chat-too-fast`` refusal says how long until *this* seat may speak again, from when he
    last spoke: its milliseconds are his, even when they equal nothing else he was shown."""
    messages, record, _ = _hand("guobiao-2p", 7)
    view = messages[1]["state"]
    assert 30 not in _ints(view) and 987 not in _ints(view)
    for ms in (30, 987):
        refusal = {
            "type": "error",
            "code": "chat-too-fast",
            "message": f"one chat message per 3 s; wait {ms} ms",
            "params": {"retry_ms": ms, "interval_s": 3.0},
        }
        audit = Audit()
        audit_seat([*messages[:2], refusal, *messages[2:]], 0, [record], audit)
        assert not audit.leaks, audit.summary()
    # the server's public limit the review process's refusal names (its `waiting`)
    full = {"type": "error", "code": "busy", "params": {"work": "review", "waiting": 987}}
    audit = Audit()
    busy = dict(full, message="the server is busy: 987 review jobs are already waiting")
    audit_seat([*messages[:2], busy, *messages[2:]], 0, [record], audit)
    assert not audit.leaks, audit.summary()


def test_a_claim_window_only_the_claimer_could_cause_is_found() -> None:
    same, differs = Audit(), Audit()
    same.windows["f"] = {True: Counter(waiting=4), False: Counter(waiting=9)}
    differs.windows["f"] = {True: Counter(claim=4), False: Counter(turn=9)}
    same.close_windows()
    differs.close_windows()
    assert not same.known and not same.leaks
    assert [leak.kind for leak in differs.leaks] == ["claim-window-visible-to-the-discarder"]


def test_a_rare_view_on_the_claim_side_by_chance_is_not_a_leak() -> None:
    """A 加杠's rob window seen once, when the opponent could rob: 0.25 ** 1 is no evidence; the
    same view seen four times only on the claim side (0.25 ** 4 < 0.01) is."""
    once, often = Audit(), Audit()
    once.windows["f"] = {True: Counter(waiting=9, rob=1), False: Counter(waiting=30)}
    often.windows["f"] = {True: Counter(waiting=6, rob=4), False: Counter(waiting=30)}
    once.close_windows()
    often.close_windows()
    assert not once.leaks
    assert [leak.message["shape"] for leak in often.leaks] == ["rob"]
