"""``Family.is_ready``: whether a seat's 3n+1 concealed part is ready (听), as its family judges
it — the settlement tells each seat's 听 at a drawn hand with it.

Checked on the drawn hands of seeded bot play in every family (one seat playing for a ready
hand without ever winning, the other throwing back what he draws, so that both answers occur)
against the hints' analysis of the hand each seat holds (:func:`erren.bots.hints.hand_view`:
some kind completes it, golds and 财神 wild), and on a few hands written out.
"""

from __future__ import annotations

import random

import pytest

from erren.bots import find_bot
from erren.bots.hints import hand_view
from erren.engine import Action, ActionKind, State, find_family
from erren.engine.result import ResultKind
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.testing.deals import start

WINS = frozenset(
    {ActionKind.HU, ActionKind.ZIMO, XiamenVerb.WIN, XiamenVerb.SANJINDAO, XiamenVerb.QIANGJIN}
)


def _calm(state: State, seat: int, bot_seed: int) -> Action:
    view = state.observe(seat)
    legal = [a for a in view.legal_actions if a.kind not in WINS and a.kind is not ActionKind.TING]
    if seat == 1:  # throws back what he draws, claims nothing
        for kind in (ActionKind.PASS, ActionKind.DISCARD):
            chosen = [a for a in legal if a.kind is kind]
            if kind is ActionKind.DISCARD and view.last_drawn is not None:
                chosen = [a for a in chosen if a.tile == view.last_drawn] or chosen
            if chosen:
                return chosen[0]
    return find_bot("efficiency", seed=bot_seed).choose(view, legal or view.legal_actions)


def _drawn_hands(family: str, count: int) -> list[State]:
    rng = random.Random(family)
    out: list[State] = []
    for _ in range(count * 20):
        state = State.new(find_family(family), seed=rng.getrandbits(63), dealer=0)
        bots = rng.getrandbits(32)
        while not state.is_terminal:
            state.apply(_calm(state, state.current_player(), bots))
        if state.result is not None and state.result.kind is ResultKind.DRAW:
            out.append(state)
            if len(out) == count:
                break
    return out


def _analysis(state: State, seat: int) -> bool:
    view = hand_view(state.observe(seat))
    return bool(view.waits(view.counts, view.wilds))


@pytest.mark.parametrize("family", ["guobiao-2p", "xiamen", "arcade"])
def test_is_ready_agrees_with_the_analysis_at_drawn_hands(family: str) -> None:
    states = _drawn_hands(family, 12)
    assert len(states) == 12
    answers = [(s.ruleset.is_ready(s, p), _analysis(s, p)) for s in states for p in (0, 1)]
    assert all(mine == theirs for mine, theirs in answers), answers
    assert {mine for mine, _ in answers} == {True, False}  # both answers were seen


def test_is_ready_on_written_hands() -> None:
    """guobiao-2p, the dealer at seat 0 (14 tiles: no 3n+1 part, never ready) and the other at
    seat 1: 1112345678999m waits on every kind of the suit; six pairs and a single wait on the
    single; five pairs and three lone honors wait on nothing."""
    rules = find_family("guobiao-2p")
    cases = (("1112345678999m", True), ("113355779m1122z", True), ("1133557799m123z", False))
    for other, ready in cases:
        state = start(rules, "2244668m3344556z", other)
        assert rules.is_ready(state, 1) is ready, other
        assert rules.is_ready(state, 0) is False
