"""Player actions and system actions are two doors (issue 11, item 7).

``State.apply`` takes only what a player may choose: one of the acting seat's listed actions
(and the chance outcomes of the setup).  ``timeout``, ``trustee:on|off`` and ``escape`` are
decided by the table and go through ``State.apply_system``; a bot handing them to ``apply`` —
for itself or for its opponent, in any phase — is refused and changes nothing.  Records keep
both kinds and replay exactly.
"""

from __future__ import annotations

import random

import pytest

from erren.engine import Action, ActionKind, Record, State, find_family, replay
from erren.engine.result import ResultKind
from erren.errors import IllegalActionError
from erren.notation import parse_tile

from ._support import act, start

FAMILIES = [
    ("guobiao-2p", {}),
    ("guobiao-2p", {"fan_table": "gb", "flowers": True}),
    ("xiamen", {}),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}),
]
IDS = ["guobiao-2p", "guobiao-gb-flowers", "xiamen", "arcade-events"]


def _system_actions() -> list[Action]:
    out: list[Action] = []
    for seat in (0, 1):
        out += [
            Action.make(ActionKind.TIMEOUT, seat),
            Action.make(ActionKind.ESCAPE, seat),
            Action.trustee(seat, True),
            Action.trustee(seat, False),
        ]
    return out


SYSTEM = _system_actions()


@pytest.mark.parametrize(("name", "options"), FAMILIES, ids=IDS)
def test_a_player_can_never_apply_a_system_action(name: str, options: dict[str, object]) -> None:
    """At every step of 60 random hands, each of the eight system actions (both seats) sent
    through ``apply`` is refused with ``system-action`` and leaves the hand as it was."""
    ruleset = find_family(name, options)
    refused = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            before = state.fingerprint()
            for action in SYSTEM:
                with pytest.raises(IllegalActionError) as caught:
                    state.apply(action)
                assert caught.value.rule == "system-action", caught.value
                refused += 1
            assert state.fingerprint() == before
            state.apply(rng.choice(state.legal_actions()))
    assert refused > 60 * 8 * 20


def test_the_system_door_takes_only_system_actions() -> None:
    state = State.new(find_family("guobiao-2p"), seed=3)
    move = state.legal_actions()[0]
    before = state.fingerprint()
    with pytest.raises(IllegalActionError) as caught:
        state.apply_system(move)
    assert caught.value.rule == "not-a-system-action"
    assert state.fingerprint() == before
    # a timeout is for the seat whose timer runs, never the other one
    idle = 1 - state.actor
    with pytest.raises(IllegalActionError) as caught:
        state.apply_system(Action.make(ActionKind.TIMEOUT, idle))
    assert caught.value.rule == "out-of-turn"
    assert state.fingerprint() == before


RULES = find_family("guobiao-2p")
DEALER = "1234567m 9m 11z 222z 3z"
OTHER = "99m 333z 444z 55z 6z 7z 1m"


def test_escape_through_the_system_door_aborts_with_the_penalty() -> None:
    """guobiao-2p §2.10 / Appendix A: the escaping seat pays ``escape_penalty_points`` (13)."""
    state = start(RULES, DEALER, OTHER, draws="7z 9m")
    with pytest.raises(IllegalActionError):
        state.apply(Action.parse("1:escape"))  # the dealer's bot cannot make seat 1 leave
    state.apply_system(Action.parse("1:escape"))
    assert state.is_terminal and state.result is not None
    assert state.result.kind is ResultKind.ABORT and state.result.loser == 1
    assert state.result.deltas == (13, -13)


def test_xiamen_escape_costs_its_penalty() -> None:
    """xiamen R-2.12: the escaping seat pays ``escape_penalty`` (400 by default)."""
    state = State.new(find_family("xiamen"), seed=4)
    state.apply_system(Action.parse("0:escape"))
    assert state.result is not None and state.result.deltas == (-400, 400)


def test_timeouts_and_trustee_through_the_system_door() -> None:
    """§2.9: a timeout plays the default move (the dealer's latest tile, W[26]); two in a row
    put the seat in 托管, which the seat's table can switch off again."""
    state = start(RULES, DEALER, OTHER, draws="7z 9m")
    state.apply_system(Action.parse("0:timeout"))
    assert state.discards[0] == [int(parse_tile("3z"))]  # W[26], the dealer's last tile
    assert state.timeouts[0] == 1 and not state.trustee[0]
    state.apply_system(Action.parse("1:trustee:on"))
    assert state.trustee[1]
    state.apply_system(Action.parse("1:trustee:off"))
    assert not state.trustee[1]
    record = state.record()
    assert record.actions[-3:] == ("0:timeout", "1:trustee:on", "1:trustee:off")
    again = replay(Record.from_json(record.to_json()))
    assert again.fingerprint() == state.fingerprint()


@pytest.mark.parametrize(("name", "options"), FAMILIES, ids=IDS)
def test_records_with_system_actions_replay_exactly(name: str, options: dict[str, object]) -> None:
    """Hands mixing player moves, timeouts, 托管 switches and an escape replay to the identical
    state through ``replay`` (system actions through the system door)."""
    ruleset = find_family(name, options)
    systems = 0
    for seed in range(80):
        rng = random.Random(seed)
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            roll = rng.random()
            if roll < 0.05:
                state.apply_system(Action.make(ActionKind.TIMEOUT, state.actor))
            elif roll < 0.08:
                seat = rng.randrange(2)
                state.apply_system(Action.trustee(seat, not state.trustee[seat]))
            elif roll < 0.081:
                state.apply_system(Action.make(ActionKind.ESCAPE, rng.randrange(2)))
            else:
                state.apply(rng.choice(state.legal_actions()))
                continue
            systems += 1
        again = replay(Record.from_json(state.record().to_json()))
        assert again.fingerprint() == state.fingerprint()
        # and step by step: every prefix replays through the same doors
        if seed % 10 == 0:
            twin = State(ruleset, dealer=state.dealer, round_wind=state.round_wind)
            for action in state.history:
                twin.apply_recorded(action)
            assert twin.fingerprint() == state.fingerprint()
    assert systems > 80


def test_act_helper_routes_recorded_system_actions() -> None:
    """The test helper (like every replay) sends recorded system actions to the system door."""
    state = start(RULES, DEALER, OTHER, draws="7z 9m")
    act(state, "0:trustee:on")
    assert state.trustee[0]
