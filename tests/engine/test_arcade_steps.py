"""arcade's multi-tile choices as steps (R2.21, R2.22): ``give:X`` one tile at a time, then
``exchange`` (the opening exchange) or the third ``give`` (the pung offer), so that at every
step ``legal_actions`` lists exactly what ``apply`` accepts; the composite forms of older records
(``exchange:tiles``, ``takepung:abc``) are refused from a player and replayed as their steps."""

from __future__ import annotations

import hashlib
import json
import random
import re

import pytest

from erren.engine import Action, ActionKind, Phase, State, find_family
from erren.engine.record import Record, replay
from erren.errors import IllegalActionError
from erren.families.arcade.game import ArcadePhase, arcade_data, stage_options
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeEvent, ArcadeVerb
from erren.tiles import NUM_KINDS, Tile

from ._support import act, start_arcade

AK = ActionKind
HAND_0 = "123m456m789p123s77z"
HAND_1 = "234m567m234p45s77p"

# A record made on main before the steps (efficiency bots, seed 3, dealer 1, pung offers and
# pick-any at 0.3): seat 1 exchanges 47z, seat 0 exchanges 2m9p46z, seat 1 takes a pung for 334m.
OLD_SHUFFLE = (
    "c:shuffle:3s7z4m1s5s7s3p7m3m2z2p4z6m8m4p6z3m1p8s9s4z9p6s2m4s8s2z1s8m1m3p7p4m9m5z"
    "8p6m5z8p1p2s1m6p4p3s6p1z3m7m5s6m8s2s7p1z8m4s2m5m3s1p2s2p2z4m2p9s9m7s2p2z5p9p3p5s"
    "6s8p5p8s5p7z7m7p4s2m4m3p5m6p1s3z5p5z3z6s2s6z9m6z9s1p2m1s7s6m3m7s4s1m7z4p6z1z3z3z"
    "8m5m1z3s4p5z9p9s9p7z5s7m6p8p4z1m5m4z6s9m7p"
)
OLD_ACTIONS = [
    OLD_SHUFFLE,
    "c:dice:3,4,3,5",
    "c:seed:5058378230718854481",
    "1:exchange:47z",
    "0:exchange:2m9p46z",
    "1:discard:9p",
    "0:pick:5p",
    "0:ting:8p",
    "1:takepung:334m",
    "1:discard:8m",
    "1:discard:3p",
    "1:discard:4m",
    "1:discard:1s",
    "1:discard:6m",
    "0:zimo",
]
OLD_OPTIONS = {
    "base_points": 1,
    "escape_penalty_points": 13,
    "opening_exchange": True,
    "pung_offer_prob": 0.3,
    "pick_any_prob": 0.3,
    "haidi_draws": 3,
    "human_seat": None,
    "haidi_draws_human": None,
    "bleed_normal_prob": 0.0,
    "bleed_yakuman_prob": 0.0,
    "bleed_normal_gap": 1,
    "bleed_yakuman_gap": 2,
    "flower_replacement_is_kong": True,
    "turn_timeout_s": 20,
    "claim_timeout_s": 10,
    "exchange_timeout_s": 20,
    "auto_trustee_after": 2,
    "claim_privacy": False,
}
LOG = 17
"""The event log's place in :meth:`State.fingerprint`."""
OLD_FINGERPRINT = "16595704624fa57b74362b4171e343336b39c5d31e88b659903583e195bd9ac5"
"""sha256 of ``repr(replay(record).fingerprint())`` as on main before the steps (b40de00, with
the structured events: 3dabde61…d7e75).  The one difference since is how an event's empty data
prints (``{}``, before ``mappingproxy({})``): putting that text back gives b40de00's digest."""


def _view(state: State, seat: int) -> ArcadeView:
    view = state.observe(seat).view
    assert isinstance(view, ArcadeView)
    return view


def _offer(state: State, seat: int) -> Tile | None:
    return _view(state, seat).offer


def _as_on_main(text: str) -> str:
    """A fingerprint's repr as main wrote it: a result's kind and way were plain strings then
    (``kind='win'``), string enums now (``kind=<ResultKind.WIN: 'win'>``), and arcade's own
    event kinds were members of the shared ``EventKind`` (now ``ArcadeEvent``)."""
    text = text.replace("<ArcadeEvent.", "<EventKind.")
    return re.sub(r"<(?:ResultKind|WinHow)\.\w+: ('\w+')>", r"\1", text)


def _old_record() -> Record:
    data = {
        "format": "erren-hand",
        "version": 1,
        "ruleset": "arcade",
        "options": OLD_OPTIONS,
        "seed": 3,
        "dealer": 1,
        "round_wind": "1z",
        "actions": OLD_ACTIONS,
        "result": None,
    }
    return Record.from_json(json.dumps(data))


# ---------------------------------------------------------------------------- old records
def test_an_old_record_with_composite_forms_replays_to_the_same_state() -> None:
    state = replay(_old_record())
    # the same state as on main before the steps, but for the one ``give`` event each step
    # now adds to the log (private to the giver)
    fingerprint = state.fingerprint()
    log = fingerprint[LOG]
    assert isinstance(log, tuple)
    gives = [entry for entry in log if entry[0] is ArcadeEvent.GIVE]
    assert len(gives) == 2 + 4 + 3  # 47z and 2m9p46z exchanged, 334m for the pung
    kept = tuple(e for e in log if e[0] is not ArcadeEvent.GIVE)
    before = (*fingerprint[:LOG], kept, *fingerprint[LOG + 1 :])
    digest = hashlib.sha256(_as_on_main(repr(before)).encode()).hexdigest()
    assert digest == OLD_FINGERPRINT
    assert str(state.result).startswith("seat 0 wins by zimo")
    # the history holds the steps: exchange:47z is give:4z give:7z exchange
    steps = [str(a) for a in state.history[3:9]]
    assert steps == ["1:give:4z", "1:give:7z", "1:exchange", "0:give:2m", "0:give:9p", "0:give:4z"]
    assert "1:give:3m" in {str(a) for a in state.history}
    # and the steps' record replays to the same state again
    again = replay(state.record())
    assert again.fingerprint() == state.fingerprint()


def test_the_composite_forms_are_refused_from_a_player() -> None:
    state = start_arcade(HAND_0, HAND_1, opening_exchange=True)
    assert state.phase is ArcadePhase.EXCHANGE and state.actor == 0
    before = state.fingerprint()
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action.parse("0:exchange:1m7z"))
    assert err.value.rule == "one-tile-at-a-time"
    assert state.fingerprint() == before
    act(state, "0:exchange", "1:exchange")
    state = start_arcade(HAND_0, HAND_1, draws="6z", pung_offer_prob=1.0)
    act(state, "0:discard:7z")
    assert _offer(state, 1) is not None
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action.parse("1:takepung:234m"))
    assert err.value.rule == "one-tile-at-a-time"


def test_steps_of_expands_a_composite_form_only_where_it_applies() -> None:
    state = start_arcade(HAND_0, HAND_1, opening_exchange=True)
    rules = state.ruleset
    texts = [str(a) for a in rules.steps_of(state, Action.parse("0:exchange:7z1m1m"))]
    assert texts == ["0:give:1m", "0:give:1m", "0:give:7z", "0:exchange"]
    assert rules.steps_of(state, Action.parse("0:exchange")) == (Action.parse("0:exchange"),)
    # not seat 1's exchange yet, and no pung offer: the composite stays whole (and is refused)
    one = Action.parse("1:exchange:2m")
    assert rules.steps_of(state, one) == (one,)
    pung = Action.parse("0:takepung:123m")
    assert rules.steps_of(state, pung) == (pung,)


# ---------------------------------------------------------------------------- the exchange
def test_the_exchange_gives_tiles_in_canonical_order_then_ends() -> None:
    state = start_arcade(HAND_0, HAND_1, reserve="3m6m", opening_exchange=True)
    legal = [str(a) for a in state.legal_actions()]
    assert legal == [
        "0:exchange",
        *(f"0:give:{t}" for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p")),
        *(f"0:give:{t}" for t in ("1s", "2s", "3s", "7z")),
    ]
    act(state, "0:give:2m")
    assert _view(state, 0).giving == (state.observe(0).hand[1],)
    assert [str(t) for t in _view(state, 0).giving] == ["2m"]
    assert _view(state, 1).giving == ()
    legal = [str(a) for a in state.legal_actions()]
    assert "0:give:1m" not in legal and "0:give:2m" not in legal  # 2m: the only copy went
    assert legal[:3] == ["0:exchange", "0:give:3m", "0:give:4m"]
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action.parse("0:give:1m"))
    assert err.value.rule == "give-in-order"
    act(state, "0:give:7z", "0:exchange")
    h = state.hands[0]
    assert h[1] == 0 and h[33] == 1 and h[2] == 2 and h[5] == 2  # 2m 7z out, 3m 6m in
    assert state.phase is ArcadePhase.EXCHANGE and state.actor == 1
    assert arcade_data(state).giving == []
    exchange = next(e for e in reversed(state.events) if e.kind == "exchange")
    assert exchange.number("count") == 2 and exchange.player == 0


def test_a_timeout_or_trustee_in_the_middle_of_the_exchange_exchanges_nothing() -> None:
    for system in (Action.make(AK.TIMEOUT, 0), Action.trustee(0, True)):
        state = start_arcade(HAND_0, HAND_1, opening_exchange=True)
        hand = list(state.hands[0])
        act(state, "0:give:1m", "0:give:7z")
        state.apply_system(system)
        assert state.hands[0] == hand and state.actor == 1  # R2.16, R2.17: no exchange
        exchange = next(e for e in reversed(state.events) if e.kind == "exchange")
        assert exchange.number("count") == 0 and exchange.auto
        assert arcade_data(state).giving == []


# ---------------------------------------------------------------------------- the pung offer
def _offered() -> State:
    state = start_arcade(HAND_0, HAND_1, draws="6z", pung_offer_prob=1.0)
    act(state, "0:discard:7z")
    assert state.phase is Phase.TURN and state.actor == 1 and _offer(state, 1) is not None
    return state


def test_the_pung_offer_is_answered_one_tile_at_a_time() -> None:
    state = _offered()
    offered = _offer(state, 1)
    assert offered is not None
    k = int(offered)
    legal = state.legal_actions()
    gives = [str(a) for a in legal if a.kind is ArcadeVerb.GIVE]
    # 5s and 6z would leave too few tiles after them for the three (canonical order)
    assert gives == [f"1:give:{t}" for t in ("2m", "3m", "4m", "5m", "6m", "7m")] + [
        f"1:give:{t}" for t in ("2p", "3p", "4p", "7p", "4s")
    ]
    assert any(a.kind is AK.DISCARD for a in legal)  # declining: any other move of the turn
    act(state, "1:give:7p")
    texts = [str(a) for a in state.legal_actions()]
    # only gives now, at or after 7p, leaving a tile for the third: 7p (a second copy), 4s, 5s
    assert texts == ["1:give:7p", "1:give:4s", "1:give:5s"]
    assert [str(t) for t in _view(state, 1).giving] == ["7p"]
    with pytest.raises(IllegalActionError) as err:
        state.apply(Action.parse("1:discard:2m"))
    assert err.value.rule == "pung-answer-open"
    act(state, "1:give:7p")
    assert [str(a) for a in state.legal_actions()] == ["1:give:4s", "1:give:5s", "1:give:6z"]
    act(state, "1:give:6z")
    assert state.hands[1][k] >= 3 and state.hands[1][15] == 0  # 7p 7p 6z out, k k k in
    taken = next(e for e in reversed(state.events) if e.kind == "takepung")
    assert [str(t) for t in taken.tiles] == ["7p", "7p", "6z"]
    assert arcade_data(state).offer[1] == -1 and arcade_data(state).giving == []
    assert state.phase is Phase.TURN and state.actor == 1
    assert not any(a.kind is ArcadeVerb.GIVE for a in state.legal_actions())


def test_the_last_gives_leave_enough_tiles_for_three() -> None:
    state = _offered()
    act(state, "1:give:4s")  # after 4s: 5s and 6z, both needed (a 6z second would strand it)
    assert [str(a) for a in state.legal_actions()] == ["1:give:5s"]
    act(state, "1:give:5s")
    assert [str(a) for a in state.legal_actions()] == ["1:give:6z"]


def test_a_timeout_in_the_middle_of_the_pung_answer_declines_it() -> None:
    state = _offered()
    hand = list(state.hands[1])
    act(state, "1:give:2m", "1:give:3m")
    state.apply_system(Action.make(AK.TIMEOUT, 1))
    assert state.discards[1] == [32]  # R2.16: the drawn 6z, no pung taken
    hand[32] -= 1
    assert state.hands[1] == hand
    assert arcade_data(state).giving == [] and arcade_data(state).offer[1] == -1


# ---------------------------------------------------------------------------- completeness
def _candidates(p: int) -> list[Action]:
    """Well-formed moves of seat ``p`` (composite forms included)."""
    out: list[Action] = []
    for kind in (AK.DISCARD, AK.TING, AK.AN_GANG, AK.JIA_GANG, ArcadeVerb.PICK, ArcadeVerb.GIVE):
        out += [Action.make(kind, p, t) for t in range(NUM_KINDS)]
    out += [Action.make(AK.CHI, p, t) for t in range(27) if t % 9 <= 6]
    out += [Action.make(k, p) for k in (AK.PENG, AK.MING_GANG, AK.HU, AK.ZIMO, AK.PASS)]
    out.append(Action.make(ArcadeVerb.EXCHANGE, p))
    out += [Action.tiles_action(ArcadeVerb.EXCHANGE, p, (t,)) for t in range(NUM_KINDS)]
    out += [Action.tiles_action(ArcadeVerb.TAKE_PUNG, p, (t, t, t)) for t in range(NUM_KINDS)]
    return out


RULESETS = [
    {"pung_offer_prob": 0.5, "pick_any_prob": 0.3},
    {**stage_options(2), "pung_offer_prob": 0.5, "pick_any_prob": 0.3},
    {**stage_options(4), "pung_offer_prob": 0.4},
]


@pytest.mark.parametrize("options", RULESETS)
def test_legal_actions_list_exactly_what_apply_accepts(options: dict[str, object]) -> None:
    """At every step of random hands: every listed move is accepted (on a clone), a sample of
    the unlisted well-formed moves of both seats is refused and leaves the state as it was; the
    choosing seat's ``giving`` is what it gave so far.  Timeouts and 托管 come now and then."""
    rules = find_family("arcade", options)
    rng = random.Random(12)
    gives = takes = 0
    for seed in range(8):
        state = State.new(rules, seed=seed, dealer=seed % 2)
        while not state.is_terminal:
            p = state.actor
            legal = state.legal_actions()
            assert legal, state
            for action in legal:
                state.clone().apply(action)
            listed = set(legal)
            others = [a for a in _candidates(0) + _candidates(1) if a not in listed]
            before = state.fingerprint()
            for action in rng.sample(others, 12):
                with pytest.raises(IllegalActionError):
                    state.clone().apply(action)
            assert state.fingerprint() == before
            given = arcade_data(state).giving
            assert [int(t) for t in _view(state, p).giving] == given
            if rng.random() < 0.02:
                state.apply_system(Action.make(AK.TIMEOUT, p))
                continue
            choice = rng.choice(legal)
            if given and rng.random() < 0.7:  # finish what was started, mostly
                choice = next((a for a in legal if a.kind is ArcadeVerb.GIVE), choice)
            gives += choice.kind is ArcadeVerb.GIVE
            state.apply(choice)
            takes += state.events[-1].kind == "takepung" if state.events else 0
    assert gives > 20 and takes > 0, (gives, takes)
