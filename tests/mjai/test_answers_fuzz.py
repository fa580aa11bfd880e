"""Any JSON object a bot may send: ``mjai_to_action`` gives a legal action or an MjaiError."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from erren.engine import State
from erren.mjai.stream import MjaiError, action_to_mjai, mjai_to_action
from erren.mjai.tiles import mjai_tile

from ._support.play import FAMILIES, ruleset_of

TYPES = ["dahai", "reach", "chi", "pon", "daiminkan", "ankan", "kakan", "hora", "none", "tsumo"]
TILES = [mjai_tile(t) for t in range(42)] + ["?", "5mr", "0m", "", "Z"]
VALUES = st.one_of(
    st.sampled_from(TILES),
    st.integers(-2, 3),
    st.booleans(),
    st.none(),
    st.lists(st.sampled_from(TILES), max_size=4),
)
MESSAGES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from([*TYPES, "erren:give", "erren:pick", "erren:sanjindao"])},
        optional={
            "actor": st.one_of(st.integers(-1, 2), st.booleans()),
            "target": VALUES,
            "pai": VALUES,
            "consumed": VALUES,
            "tsumogiri": VALUES,
        },
    ),
    st.dictionaries(st.text(max_size=6), VALUES, max_size=4),
)


def _decision(family: str, seed: int) -> State:
    """A state at some seat's decision, a few random moves into a hand."""
    rng = random.Random(seed)
    state = State.new(ruleset_of(family), seed=seed, dealer=seed % 2)
    for _ in range(rng.randrange(40)):
        legal = state.legal_actions()
        if state.is_terminal or not legal:
            break
        move = rng.choice(legal)
        state.apply(move)
        if state.is_terminal:
            state = State.new(ruleset_of(family), seed=seed + 1)
    return state


@given(st.sampled_from(sorted(FAMILIES)), st.integers(0, 50), MESSAGES)
def test_an_answer_is_a_legal_action_or_a_named_refusal(
    family: str, seed: int, message: dict[str, object]
) -> None:
    state = _decision(family, seed)
    legal = state.legal_actions()
    obs = state.observe(state.actor)
    try:
        action = mjai_to_action(message, legal, obs)
    except MjaiError as err:
        assert str(err)
        return
    assert action in legal
    # what was read is what the seat asked for: the same type, and the canonical form reads back
    assert action_to_mjai(action, obs)["type"] == message["type"]
    assert mjai_to_action(action_to_mjai(action, obs), legal, obs) == action
