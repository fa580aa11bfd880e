"""A refusal tells the sender about his own situation only (issue 11, item 5).

Thousands of random hands of every family (guobiao-2p with both fan tables and flowers, xiamen,
arcade in versus and stage mode, each also with 鸣牌保护): at random moments — and at every
moment the acting seat has a choice (claim and rob windows, the xiamen opening window and 游金
choices, arcade's exchange, pick-any, pung offers and 海底 draws) — both seats send random
illegal actions.  Then:

* a seat that is not to act gets one and the same ``(rule, message)`` for the same action in
  every state of every hand: nothing the opponent holds or may do changes a word;
* the acting seat gets the same refusal in a twin state whose hidden tiles (the opponent's
  concealed hand, the wall, arcade's reserve) were shuffled while its own observation stayed
  identical, and every action string, tile and number in the message can be read from its
  own observation (or is the action it sent);
* the refused action changes nothing.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.engine.phases import FamilyPhase, Phase
from erren.errors import IllegalActionError
from erren.families.arcade.game import stage_options
from erren.families.arcade.game.options import ArcadePhase
from erren.families.arcade.game.view import ArcadeView
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.families.xiamen.game.data import XiamenPhase
from erren.families.xiamen.game.view import XiamenView
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.notation import parse_tiles
from erren.tiles import Tile

from ._support import resample_hidden

AK = ActionKind
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    # ruleset, options, hands
    ("guobiao-2p", {}, 500),
    ("guobiao-2p", {"flowers": True, "claim_privacy": True}, 400),
    ("guobiao-2p", {"fan_table": "gb", "flowers": True}, 300),
    ("guobiao-2p", {"fan_table": "gb", "suit": "p", "claim_privacy": True}, 300),
    ("guobiao-2p", {"suit": "s", "ting_auto_hu": False}, 300),
    ("xiamen", {}, 400),
    ("xiamen", {"claim_privacy": True}, 300),
    ("arcade", {"pung_offer_prob": 0.3, "pick_any_prob": 0.3}, 300),
    ("arcade", {"claim_privacy": True, "pung_offer_prob": 0.2, "pick_any_prob": 0.2}, 200),
    ("arcade", stage_options(4), 150),
]
_CHOICE_PHASES: frozenset[Phase | FamilyPhase] = frozenset(
    {
        Phase.CLAIM,
        Phase.ROB,
        XiamenPhase.OPENING,
        XiamenPhase.YOU_CHOICE,
        XiamenPhase.LAST_DRAW,
        ArcadePhase.EXCHANGE,
        ArcadePhase.PICK,
        ArcadePhase.HAIDI,
    }
)

_ACTION_RE = re.compile(r"(?<![\w])[01c]:[a-z]+(?::[0-9a-z]+)?")
_SPEC_RE = re.compile(r"§[\d.]+|\bR-?[\d.]+[a-z]?|\b[DNL]-?\d+")
_TILES_RE = re.compile(r"(?<![\w.])(?:\d+[mpszf])+(?![\w])")
_NUMBER_RE = re.compile(r"\d+")


def _universe(kinds: tuple[int, ...], seat: int) -> list[Action]:
    """Every move a player could send, legal or not, for ``seat``."""
    out = [
        Action.make(kind, seat)
        for kind in (
            AK.HU,
            AK.ZIMO,
            AK.PASS,
            AK.PENG,
            AK.MING_GANG,
            XiamenVerb.SANJINDAO,
            XiamenVerb.QIANGJIN,
            XiamenVerb.WIN,
            XiamenVerb.DISCARD_GOLD,
        )
    ]
    for kind in (
        AK.DISCARD,
        AK.TING,
        AK.AN_GANG,
        AK.JIA_GANG,
        XiamenVerb.QIANGJIN,
        ArcadeVerb.PICK,
    ):
        out += [Action.make(kind, seat, k) for k in kinds]
    out += [Action.make(AK.CHI, seat, k) for k in kinds if k < 27 and k % 9 <= 6]
    rng = random.Random(seat)
    for size in (0, 1, 2, 3, 5):
        for _ in range(4):
            out.append(Action.tiles_action(ArcadeVerb.EXCHANGE, seat, rng.choices(kinds, k=size)))
    for _ in range(12):
        out.append(Action.tiles_action(ArcadeVerb.TAKE_PUNG, seat, rng.choices(kinds, k=3)))
    out += [
        Action.make(AK.TIMEOUT, seat),
        Action.make(AK.ESCAPE, seat),
        Action.trustee(seat, True),
        Action.trustee(seat, False),
    ]
    return list(dict.fromkeys(out))


def _visible_tiles(obs: Observation) -> set[int]:
    """Every tile kind the seat's observation shows."""
    seen: set[int] = set(map(int, obs.hand))
    for side in (0, 1):
        seen.update(int(t) for t in obs.discards[side])
        seen.update(int(t) for t in obs.flowers[side])
        for meld in obs.melds[side]:
            seen.update(int(t) for t in meld.tiles)
    family: tuple[Tile | None, ...] = ()
    match obs.view:
        case XiamenView(gold=gold):
            family = (gold,)
        case ArcadeView(wild=wild, flower_kind=flower, offer=offer):
            family = (wild, flower, offer)
    for tile in (obs.pending, obs.last_drawn, *family):
        if tile is not None:
            seen.add(int(tile))
    for action in obs.legal_actions:
        seen.update(_action_tiles(action))
    return seen


def _action_tiles(action: Action) -> set[int]:
    if action.kind.is_chance:
        return set()
    tiles = (
        set(action.data) if action.kind in (ArcadeVerb.EXCHANGE, ArcadeVerb.TAKE_PUNG) else set()
    )
    if action.tile is not None:
        t = int(action.tile)
        tiles.update((t, t + 1, t + 2) if action.kind is AK.CHI else (t,))
    return tiles


def _check_words(message: str, action: Action, obs: Observation, allowed: set[str]) -> None:
    """Every action string, tile and number in ``message`` comes from ``obs`` or ``action``
    (``allowed``: the strings of the seat's legal actions)."""
    for found in _ACTION_RE.findall(message):
        assert found == str(action) or found in allowed, (found, message)
    rest = _SPEC_RE.sub(" ", _ACTION_RE.sub(" ", message))
    tiles = _TILES_RE.findall(rest)
    if tiles:
        visible = _visible_tiles(obs) | _action_tiles(action)
        for found in tiles:
            for tile in parse_tiles(found):
                assert int(tile) in visible, (str(tile), message)
        rest = _TILES_RE.sub(" ", rest)
    own = len(obs.hand)
    counts = {str(n) for n in (obs.player, own, own - 1, 13)}  # 13: a hand's size, the rule
    for number in _NUMBER_RE.findall(rest):
        assert number in counts, (number, message)


def _refusal(state: State, action: Action) -> tuple[str, str]:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    return caught.value.rule, caught.value.message


def _illegal(state: State, action: Action, legal: list[Action]) -> bool:
    if action in legal:
        return False
    accepts = getattr(state.ruleset, "accepts", None)
    return not (accepts is not None and action.player == state.actor and accepts(state, action))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "options", "hands"),
    CONFIGS,
    ids=[f"{n}:{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o, _ in CONFIGS],
)
def test_refusals_are_built_from_the_senders_view(
    name: str, options: dict[str, Any], hands: int
) -> None:
    ruleset = find_family(name, options)
    universe = [[(a, str(a)) for a in _universe(ruleset.kinds, seat)] for seat in (0, 1)]
    idle_answers: dict[str, tuple[str, str]] = {}
    counts = {"idle": 0, "idle_while_choice": 0, "actor": 0}
    for seed in range(hands):
        rng = random.Random(seed * 7919 + len(name))
        state = State.new(ruleset, seed=seed)
        while not state.is_terminal:
            actor = state.actor
            legal = state.legal_actions()
            window = state.phase in _CHOICE_PHASES
            roll = rng.random()
            if window or roll < 0.1:
                before = state.fingerprint()
                for action, text in rng.sample(universe[1 - actor], 3):
                    answer = _refusal(state, action)
                    assert idle_answers.setdefault(text, answer) == answer, (
                        f"the refusal of {text} changed with the opponent's state",
                        answer,
                        idle_answers[text],
                    )
                    counts["idle"] += 1
                    counts["idle_while_choice"] += len(legal) > 1
                if roll < (0.3 if window else 0.04):
                    obs = state.observe(actor)
                    twin = resample_hidden(state, actor, rng)
                    assert twin.observe(actor) == obs, "an observation depends on hidden tiles"
                    allowed = {str(a) for a in legal}
                    for action, _ in rng.sample(universe[actor], 8):
                        if not _illegal(state, action, legal):
                            continue
                        rule, message = _refusal(state, action)
                        _check_words(message, action, obs, allowed)
                        assert _refusal(twin, action) == (rule, message), action
                        counts["actor"] += 1
                assert state.fingerprint() == before
            roll = rng.random()
            if roll < 0.02:
                state.apply_system(Action.make(AK.TIMEOUT, actor))
            elif roll < 0.03:
                seat = rng.randrange(2)
                state.apply_system(Action.trustee(seat, not state.trustee[seat]))
            else:
                state.apply(rng.choice(legal))
    # the refusals of a seat not to act are one sentence each, whatever the state
    assert {rule for rule, _ in idle_answers.values()} <= {"out-of-turn", "system-action"}
    assert counts["idle_while_choice"] > hands, counts
    assert counts["actor"] > hands, counts


def test_an_idle_seat_hears_the_same_sentence_during_any_window() -> None:
    """The issue's example: during the xiamen opening window the waiting seat used to be told
    the dealer's options (``seat 1 may only choose among 0:qiangjin:3z, 0:pass``); now it hears
    one sentence in every hand, whatever the dealer may declare."""
    ruleset = find_family("xiamen")
    answers = set()
    declarations = 0
    for seed in range(300):
        state = State.new(ruleset, seed=seed)
        assert state.phase is XiamenPhase.OPENING and state.actor == 0
        declarations += len(state.legal_actions()) > 1
        answers.add(_refusal(state, Action.parse("1:pass")))
        answers.add(_refusal(state, Action.parse("1:qiangjin")))
    assert declarations > 0
    assert answers == {
        ("out-of-turn", "1:pass: it is not your turn; the opponent is deciding (§2.2)"),
        ("out-of-turn", "1:qiangjin: it is not your turn; the opponent is deciding (§2.2)"),
    }


def test_the_acting_seat_is_told_its_own_choices() -> None:
    """The acting seat may hear its own legal actions (xiamen's opening window), never one of
    the other seat's."""
    state = State.new(find_family("xiamen"), seed=1)
    actor = state.actor
    rule, message = _refusal(state, Action.make(AK.DISCARD, actor, int(state.concealed(actor)[0])))
    assert rule == "not-now"
    for action in state.legal_actions():
        assert str(action) in message
    assert f"{1 - actor}:" not in message
