"""The fixed action encoding: its rows (from the table of docs/rl.md) and the round trip of
every move the families make."""

from __future__ import annotations

from typing import Any

import pytest

from erren.engine import Action, ActionKind
from erren.engine.actions import AnyActionKind
from erren.families.arcade.game.vocabulary import ArcadeVerb
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.rl.actions import (
    ACTIONS,
    NUM_ACTIONS,
    action_index,
    action_mask,
    describe,
    index_action,
    legal_move,
)

from ._support import FAMILIES, FAMILY_IDS, random_hands

AK = ActionKind


def test_the_table_has_269_rows() -> None:
    # 7 tile-naming kinds of 34 (discard, ting, angang, jiagang, qiangjin, pick, give),
    # 21 chows (1-7 of three suits) and 10 moves without a tile (peng, minggang, hu, zimo,
    # pass, sanjindao, qiangjin, win, discardgold, exchange).
    assert NUM_ACTIONS == 7 * 34 + 21 + 10 == 269
    assert len(set(ACTIONS)) == NUM_ACTIONS


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("0:discard:1m", 0),
        ("0:discard:7z", 33),
        ("1:ting:5m", 34 + 4),
        ("1:chi:123m", 68),
        ("1:chi:345p", 68 + 7 + 2),
        ("1:chi:789s", 88),
        ("1:peng", 89),
        ("1:minggang", 90),
        ("0:angang:1z", 91 + 27),
        ("0:jiagang:9p", 125 + 17),
        ("1:hu", 159),
        ("0:zimo", 160),
        ("1:pass", 161),
        ("0:sanjindao", 162),
        ("0:qiangjin:3z", 163 + 29),
        ("1:qiangjin", 197),
        ("0:win", 198),
        ("0:discardgold", 199),
        ("0:exchange", 200),
        ("1:pick:3s", 201 + 20),
        ("0:give:9m", 235 + 8),
        ("1:give:7z", 268),
    ],
)
def test_rows_follow_the_documented_table(text: str, index: int) -> None:
    action = Action.parse(text)
    assert action_index(action) == index
    assert index_action(index, action.player) == action
    assert describe(index) == text.split(":", 1)[1]


@pytest.mark.parametrize(
    "text",
    [
        "c:dice:3,5",
        "c:seed:7",
        "0:timeout",
        "0:trustee:on",
        "1:escape",
        "0:exchange:19m",
        "0:takepung:14m9p",
    ],
)
def test_moves_no_player_chooses_have_no_index(text: str) -> None:
    with pytest.raises(ValueError, match="has no index"):
        action_index(Action.parse(text))


@pytest.mark.parametrize("index", [-1, NUM_ACTIONS, 10_000])
def test_an_index_outside_the_table_is_refused(index: int) -> None:
    with pytest.raises(ValueError, match=f"action index {index} is outside 0..268"):
        index_action(index, 0)


def test_an_illegal_index_names_itself_and_the_legal_moves() -> None:
    legal = [Action.parse("1:peng"), Action.parse("1:pass")]
    assert legal_move(161, 1, legal) is legal[1]
    with pytest.raises(
        ValueError,
        match=r"action 159 \(hu\) is not legal for player_1 now \(legal: 89 peng, 161 pass\)",
    ):
        legal_move(159, 1, legal)


@pytest.mark.parametrize(("rules", "options"), FAMILIES, ids=FAMILY_IDS)
def test_every_legal_move_round_trips_and_fills_the_mask(
    rules: str, options: dict[str, Any]
) -> None:
    kinds: set[AnyActionKind] = set()
    for state in random_hands(rules, options, 40):
        legal = state.legal_actions()
        mask = action_mask(legal)
        assert int(mask.sum()) == len(legal)
        for action in legal:
            index = action_index(action)
            assert mask[index] == 1
            assert index_action(index, action.player) is action
            kinds.add(action.kind)
    # The common moves and each family's frequent own ones occur in 40 random hands (the
    # rare ones, 三金倒 or the 游 chain's choice, are in the table test above; under the GB
    # table a random hand seldom has a fan to win with).
    expected = {AK.DISCARD, AK.CHI, AK.PENG, AK.PASS, AK.AN_GANG}
    family: dict[str, set[AnyActionKind]] = {
        "guobiao-2p": {AK.TING},
        "xiamen": {XiamenVerb.QIANGJIN, AK.HU, AK.ZIMO},
        "arcade": {AK.TING, ArcadeVerb.EXCHANGE, ArcadeVerb.GIVE, ArcadeVerb.PICK, AK.HU},
    }
    assert expected | family.get(rules, set()) <= kinds
