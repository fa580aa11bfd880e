"""鸣牌保护 (``claim_privacy``, guobiao-2p §2.4 *Added*; the same in every family).

With the option on, every discard opens a claim window and every 加杠 a rob window for the
opponent — ``pass`` alone when he has nothing else — and the families' post-draw windows
(xiamen's 三游 last draw, arcade's 海底 draws) open after every draw, so the seat that waits sees
the same thing whether or not the other seat had a choice.  The pair test below plays the same
move in a hand and in its twin whose hidden tiles (the opponent's hand, the wall, the reserve)
were shuffled, and compares what the mover sees next.  With the option off the hand flows as
before (the saved transcripts check that byte for byte).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from erren.engine import Action, ActionKind, Record, State, find_family, replay
from erren.engine.phases import FamilyPhase, Phase
from erren.engine.result import HandResult
from erren.errors import IllegalActionError
from erren.families.arcade.game import arcade_data, stage_options
from erren.families.arcade.game.options import ArcadePhase
from erren.families.xiamen.game import XiamenData
from erren.families.xiamen.game.data import XiamenPhase, XiamenWinHow
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.families.xiamen.scoring import XiamenScore, XiamenSettlement
from erren.melds import MeldKind
from erren.server.protocol import observation_json

from ._support import act, resample_hidden, start, start_xiamen


def _settlement(result: HandResult | None) -> XiamenSettlement:
    """The xiamen settlement behind a win's detail."""
    assert result is not None and isinstance(result.detail, XiamenScore)
    return result.detail.settlement


AK = ActionKind
FAMILIES: list[tuple[str, dict[str, Any], int]] = [
    ("guobiao-2p", {}, 300),
    ("guobiao-2p", {"flowers": True, "ting_auto_hu": False}, 250),
    ("guobiao-2p", {"fan_table": "gb", "suit": "s", "flowers": True}, 200),
    ("xiamen", {}, 300),
    ("arcade", {"pung_offer_prob": 0.2, "pick_any_prob": 0.2}, 200),
    ("arcade", stage_options(3, human_seat=1), 150),
]
IDS = ["guobiao-2p", "guobiao-flowers-ting-asks", "guobiao-gb", "xiamen", "arcade", "arcade-stage3"]
_WINDOWS: frozenset[Phase | FamilyPhase] = frozenset(
    {Phase.CLAIM, Phase.ROB, XiamenPhase.LAST_DRAW, ArcadePhase.HAIDI}
)
_GIVES = frozenset({AK.DISCARD, AK.TING, AK.JIA_GANG, XiamenVerb.DISCARD_GOLD, AK.PASS})
"""Moves after which the opponent may answer a window."""


def _view(state: State, seat: int, since: int) -> tuple[object, ...]:
    """Everything ``seat`` is shown: the observation, its JSON and the new events."""
    obs = state.observe(seat)
    return obs, observation_json(obs), state.events_since(seat, since)


def _drew(state: State, seat: int, since: int) -> bool:
    return any(e[0] == "draw" and e[1] == seat for e in state._log[since:])


def _pairs(name: str, options: dict[str, Any], hands: int) -> dict[str, int]:
    """Play ``hands`` random hands; before moves, build a twin with the mover's hidden
    opponent tiles shuffled, play the move in both and compare what the mover then sees
    while the opponent decides.  Returns the counts (pairs compared, differing views, pairs
    where only one twin's opponent had a choice)."""
    ruleset = find_family(name, options)
    counts = {"pairs": 0, "differ": 0, "choice_in_one": 0, "windows": 0}
    for seed in range(hands):
        rng = random.Random(seed)
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            mover = state.actor
            legal = state.legal_actions()
            action = rng.choice(legal)
            if rng.random() < 0.03:
                seat = rng.randrange(2)
                state.apply_system(Action.trustee(seat, not state.trustee[seat]))
                continue
            twin = None
            # (a xiamen player in the 游 chain shows that his hidden hand is 游金-ready: no twin)
            data = state.data
            chain = isinstance(data, XiamenData) and data.you_level[1 - mover]
            if action.kind in _GIVES and not chain:
                twin = resample_hidden(state, mover, rng)
                assert action in twin.legal_actions()
            since = state.event_count
            state.apply(action)
            if twin is None:
                continue
            twin.apply(action)
            other = 1 - mover
            if (
                state.is_terminal
                or twin.is_terminal
                or state.actor != other
                or twin.actor != other
                or state.trustee[other]
                or _drew(state, mover, since)
                or _drew(twin, mover, since)
            ):
                continue  # the opponent won, or the mover drew from the (shuffled) wall
            counts["pairs"] += 1
            counts["windows"] += state.phase in _WINDOWS
            if _view(state, mover, since) != _view(twin, mover, since):
                counts["differ"] += 1
            choice = [len(s.legal_actions()) > 1 for s in (state, twin)]
            counts["choice_in_one"] += choice[0] != choice[1]
        record = state.record()
        assert record.options["claim_privacy"] is options.get("claim_privacy", False)
        again = replay(Record.from_json(record.to_json()))
        assert again.fingerprint() == state.fingerprint()
    return counts


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options", "hands"), FAMILIES, ids=IDS)
def test_the_waiting_seat_cannot_tell_whether_the_opponent_had_a_choice(
    name: str, options: dict[str, Any], hands: int
) -> None:
    counts = _pairs(name, {**options, "claim_privacy": True}, hands)
    assert counts["differ"] == 0, counts
    assert counts["choice_in_one"] > hands // 10, counts  # the interesting pairs do occur
    assert counts["windows"] > hands, counts


@pytest.mark.parametrize(("name", "options", "hands"), FAMILIES, ids=IDS)
def test_without_the_option_the_flow_shows_a_claim_chance(
    name: str, options: dict[str, Any], hands: int
) -> None:
    """The pair test has teeth: without 鸣牌保护 the discarder sees a window only when the
    opponent could claim (today's behaviour, kept for bot tables)."""
    counts = _pairs(name, options, hands // 5)
    assert counts["differ"] > 0, counts


def _play_passing(state: State, rng: random.Random) -> list[int]:
    """Play at random; return the history indices of the passes of pass-only windows (the
    ones the option adds)."""
    added = []
    while not state.is_terminal:
        legal = state.legal_actions()
        action = rng.choice(legal)
        if legal == [Action.make(AK.PASS, state.actor)] and state.phase in _WINDOWS:
            added.append(len(state.history))
        state.apply(action)
    return added


@pytest.mark.parametrize(("name", "options", "hands"), FAMILIES, ids=IDS)
def test_the_option_changes_nothing_but_the_windows(
    name: str, options: dict[str, Any], hands: int
) -> None:
    """A hand with 鸣牌保护, minus the passes of its pass-only windows, is the same hand without
    it: the same result and the same events, the passes aside."""
    on = find_family(name, {**options, "claim_privacy": True})
    off = find_family(name, options)
    added_total = 0
    for seed in range(hands // 3):
        state = State.new(on, seed=seed)
        added = set(_play_passing(state, random.Random(seed)))
        added_total += len(added)
        plain = State(off, dealer=state.dealer, round_wind=state.round_wind)
        for i, action in enumerate(state.history):
            if i not in added:
                plain.apply(action)
        assert plain.result == state.result
        assert [e for e in plain._log if e[0] != "pass"] == [
            e for e in state._log if e[0] != "pass"
        ]
    assert added_total > hands // 3


# ---------------------------------------------------------------------------- windows by hand
RULES = find_family("guobiao-2p", claim_privacy=True)
DEALER = "1234567m 9m 11z 222z 3z"
OTHER = "99m 333z 444z 55z 6z 7z 1m"


def test_a_discard_nobody_can_claim_still_opens_a_pass_only_window() -> None:
    """Seat 1 holds no 1z and cannot win: today the engine passes for him and he draws at
    once; with 鸣牌保护 he answers a window of ``pass`` alone, and the discarder sees the same
    ``claim`` phase as after his 9m, which seat 1 could peng."""
    state = start(RULES, DEALER, OTHER, draws="7z 9m")
    act(state, "0:discard:1z")
    assert (state.phase, state.actor) == (Phase.CLAIM, 1)
    assert [str(a) for a in state.legal_actions()] == ["1:pass"]
    seen = state.observe(0)
    assert seen.legal_actions == () and seen.timer is not None and seen.timer.kind == "claim"
    claimable = start(RULES, DEALER, OTHER, draws="7z 9m")
    act(claimable, "0:discard:9m")
    assert [str(a) for a in claimable.legal_actions()] == ["1:peng", "1:pass"]
    a, b = observation_json(seen), observation_json(claimable.observe(0))
    differing = {k for k in a if a[k] != b[k]}
    assert differing == {"hand", "discards", "pending"}  # only what seat 0 did himself
    act(state, "1:pass")
    assert (state.phase, state.actor) == (Phase.TURN, 1)
    plain = start(find_family("guobiao-2p"), DEALER, OTHER, draws="7z 9m")
    act(plain, "0:discard:1z")
    assert (plain.phase, plain.actor) == (Phase.TURN, 1)  # option off: today's flow
    assert plain.hands == state.hands and plain.wall_count == state.wall_count


def test_a_timeout_in_a_pass_only_window_passes() -> None:
    """§2.9: the default of a claim window is pass (a 报听 player's default win only when the
    win is there)."""
    state = start(RULES, DEALER, OTHER, draws="7z 9m")
    act(state, "0:discard:1z")
    state.apply_system(Action.parse("1:timeout"))
    assert (state.phase, state.actor) == (Phase.TURN, 1)
    assert state.events[-3].kind == "timeout" and state.events[-3].data == {"move": "1:pass"}


def _search(
    name: str, options: dict[str, Any], found: Any, *, seeds: int = 400
) -> tuple[State, int]:
    """The first state of random hands (with 鸣牌保护) where ``found(state)`` holds."""
    ruleset = find_family(name, {**options, "claim_privacy": True})
    for seed in range(seeds):
        rng = random.Random(seed)
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            if found(state):
                return state, seed
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such moment in the searched hands")


def _pass_only(state: State, phase: Phase | FamilyPhase) -> bool:
    return state.phase is phase and state.legal_actions() == [Action.make(AK.PASS, state.actor)]


def test_a_ready_player_answers_his_pass_only_window_himself() -> None:
    """报听 auto-play does not pass a window under 鸣牌保护 (the table answers it after its
    fixed pause); a timeout then passes, never a win that is not there."""
    state, _ = _search(
        "guobiao-2p", {}, lambda s: _pass_only(s, Phase.CLAIM) and s.ting[s.actor], seeds=600
    )
    seat = state.actor
    state.apply_system(Action.make(AK.TIMEOUT, seat))
    assert state.result is None or state.result.winner != seat
    assert state.events[-1].kind != "hu" or state.events[-1].player != seat


def test_an_added_kong_nobody_can_rob_opens_a_pass_only_rob_window() -> None:
    state, _ = _search("guobiao-2p", {}, lambda s: _pass_only(s, Phase.ROB), seeds=2000)
    seat = state.actor
    kong = state.pending
    act(state, f"{seat}:pass")
    kongs = [int(m.tiles[0]) for m in state.melds[1 - seat] if m.kind is MeldKind.JIA_GANG]
    assert kong in kongs  # the 加杠 stands


def test_a_trustee_seat_passes_at_once() -> None:
    """托管 plays every window itself, with or without a choice: no window waits for it."""
    state = start(RULES, DEALER, OTHER, draws="7z 9m")
    state.apply_system(Action.parse("1:trustee:on"))
    act(state, "0:discard:1z")
    assert state.actor == 0  # seat 1 passed, drew and discarded; seat 0 answers that discard
    passes = [e for e in state.events if e.kind == "pass"]
    assert [(e.player, e.auto) for e in passes] == [(1, True)]


def test_arcade_haidi_draws_ask_every_time() -> None:
    """arcade R2.19 with 鸣牌保护: each 海底 draw opens the window, ``pass`` alone on a miss."""
    state, _ = _search("arcade", {"haidi_draws": 5}, lambda s: _pass_only(s, ArcadePhase.HAIDI))
    left = arcade_data(state).haidi_left
    seat = state.actor
    discards = len(state.discards[seat])
    act(state, f"{seat}:pass")
    assert len(state.discards[seat]) == discards + 1  # the missed tile goes to the pool
    assert state.is_terminal or (
        state.phase is ArcadePhase.HAIDI and arcade_data(state).haidi_left < left
    )


def test_xiamen_three_swims_last_draw_is_always_a_window() -> None:
    """R-2.9.4 with 鸣牌保护: the dealer's single draw misses, yet he answers a window of
    ``pass`` alone; then the non-dealer wins 三游 (16 ×, bonus 150) as without the option."""
    state = start_xiamen(
        "1m4m7m2m5m8m2z4z5z1m4m7m2z4z",
        "234m567m111z9m777z",
        "9m",
        draws="9m3m9m6m",
        claim_privacy=True,
    )
    act(state, "0:pass", "1:pass", "0:discard:5z")
    assert [str(a) for a in state.legal_actions()] == ["1:pass"]  # 游 players never claim
    act(state, "1:pass", "1:discardgold", "0:discard:3m", "1:pass", "1:discardgold")
    assert (state.phase, state.actor) == (XiamenPhase.LAST_DRAW, 0)
    assert [str(a) for a in state.legal_actions()] == ["0:pass"]
    with pytest.raises(IllegalActionError):
        act(state, "0:zimo")
    state.apply_system(Action.parse("0:timeout"))  # the default: pass
    result = state.result
    assert result is not None and result.how is XiamenWinHow.SANYOU and result.winner == 1
    assert _settlement(result).bonus == 150 and _settlement(result).multiplier == 16


def test_the_option_is_in_every_family_and_in_records() -> None:
    for name in ("guobiao-2p", "xiamen", "arcade"):
        assert find_family(name).options_dict()["claim_privacy"] is False
        ruleset = find_family(name, claim_privacy=True)
        assert ruleset.claim_privacy is True
        record = State.new(ruleset, seed=1).record()
        assert replay(record).ruleset.claim_privacy is True
        with pytest.raises(ValueError, match="claim_privacy"):
            find_family(name, claim_privacy="yes")
