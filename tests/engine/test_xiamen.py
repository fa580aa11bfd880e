"""xiamen rules on crafted walls and positions: setup (R-1), turn flow (R-2), every legality
example of xiamen.md §5.2 (L-01..L-09) and the engine side of the scoring examples."""

from __future__ import annotations

import itertools
import random

import pytest

from erren.engine import Action, Match, Origin, State, find_family, replay
from erren.engine.phases import Phase
from erren.engine.result import HandResult, ResultKind, WinHow
from erren.errors import IllegalActionError
from erren.families.xiamen.game import complete, functional, xiamen_data, you_ready
from erren.families.xiamen.game.data import XiamenPhase, XiamenWinHow
from erren.families.xiamen.scoring import XiamenScore, XiamenSettlement
from erren.notation import parse_tiles
from erren.tiles import NUM_KINDS

from ._support import act, phase_of, start_xiamen, tile_census


def _settlement(result: HandResult | None) -> XiamenSettlement:
    """The xiamen settlement behind a win's detail."""
    assert result is not None and isinstance(result.detail, XiamenScore)
    return result.detail.settlement


# A dealer hand with no win, no gold of 3z/9m/5m and no 6z: it only discards.
DEALER = "1m4m7m2m5m8m2z4z5z1m4m7m2z4z"


def counts(text: str) -> list[int]:
    c = [0] * NUM_KINDS
    for t in parse_tiles(text):
        c[t] += 1
    return c


def legal(state: State) -> set[str]:
    return {str(a).split(":", 1)[1] for a in state.legal_actions()}


def set_hand(state: State, seat: int, text: str) -> None:
    """Give ``seat`` a crafted concealed part (positions only: no census after this)."""
    state.hands[seat] = counts(text)
    state._legal = None


# ---------------------------------------------------------------------------- setup
def test_72_tiles_deal_and_opening_flowers() -> None:
    state = start_xiamen(DEALER, "123m456m789m11z3f8f", "3z", back="1z6z")
    assert len(state.ruleset.tiles) == 72
    assert state.flowers == [[], [36, 41]]
    assert sum(state.hands[0]) == 14 and sum(state.hands[1]) == 13
    assert state.wall_count == 44 - 2 - 0  # 44 - f1 - f2
    assert tile_census(state) == __import__("collections").Counter(state.ruleset.tiles)


def test_l07_gold_reveal_flower_goes_to_the_dealer() -> None:
    """L-07: dice 3 + 4 → index 21 = W[48] = 3f (dealer's), then W[49] = 6m the indicator."""
    from ._support import make_xiamen_wall  # noqa: PLC0415

    wall = list(make_xiamen_wall(DEALER, "123m456m789m111z3z", "6m", dice=(3, 4)))
    flower = wall.index(36)  # 3f somewhere in the wall: swap it to W[48], 6m to W[49]
    wall[48], wall[flower] = wall[flower], wall[48]
    assert wall[49] == 5 or 5 in wall
    six = [i for i, t in enumerate(wall) if t == 5 and i >= 27]
    wall[49], wall[six[0]] = wall[six[0]], wall[49]
    state = State(find_family("xiamen"))
    state.apply(Action.shuffle(tuple(wall)))
    state.apply(Action.dice(3, 4))
    assert xiamen_data(state).gold == 5 and xiamen_data(state).indicator == 5
    assert 36 in state.flowers[0]
    assert state.wall_count == 44 - 0 - 1 == 43
    phys = xiamen_data(state).phys
    assert phys is not None and phys[5] == 31  # Whites play as 6m


# ---------------------------------------------------------------------------- 跟打
def test_l01_follow_discard_two_honors_qualify() -> None:
    state = start_xiamen(DEALER, "123m456m789m111z3z", "9m")
    act(state, "0:pass", "1:pass")
    set_hand(state, 0, "123m456m1z33z7z6z88m5m")
    state.discards[1] = [int(t) for t in parse_tiles("2m7z4m1z")]
    assert {a for a in legal(state) if a.startswith("discard")} == {"discard:1z", "discard:7z"}
    with pytest.raises(IllegalActionError) as err:
        act(state, "0:discard:3z")
    assert err.value.rule == "follow-discard" and "跟打" in str(err.value)


@pytest.mark.parametrize(
    ("gold", "held", "bound"),
    [("6z", "5z", True), ("4m", "5z", False)],
    ids=["white-is-honor", "white-is-suit"],
)
def test_l02_follow_discard_with_whites(gold: str, held: str, bound: bool) -> None:
    state = start_xiamen(DEALER, "123m456m789m111z3z", gold)
    act(state, "0:pass", "1:pass")
    set_hand(state, 0, "123m456m789m11z22z" + held)
    state.discards[1] = [31]
    discards = {a for a in legal(state) if a.startswith("discard")}
    assert (discards == {"discard:5z"}) is bound


def test_l02_a_discarded_gold_creates_no_obligation() -> None:
    state = start_xiamen(DEALER, "123m456m789m111z3z", "6z")
    act(state, "0:pass", "1:pass")
    set_hand(state, 0, "123m456m789m11z22z6z")
    state.discards[1] = [int(parse_tiles("6z")[0])]
    assert len([a for a in legal(state) if a.startswith("discard")]) > 1


def test_l03_follow_discard_never_blocks_a_win_or_a_kong() -> None:
    state = start_xiamen(DEALER, "123m456m789m111z3z", "9m")
    act(state, "0:pass", "1:pass")
    state.origin = Origin.DRAW
    set_hand(state, 0, "2222m34m678m333z1z9m")  # 1z + gold 9m as the pair: complete
    state.discards[1] = [27]  # the opponent discarded 1z: F = {1z}
    assert {a for a in legal(state) if a.startswith("discard")} == {"discard:1z"}


# ---------------------------------------------------------------------------- claims
def test_l04_a_discarded_gold_is_dead() -> None:
    """Gold 5m: the non-dealer holds 46m and two Whites and waits on 5m, yet no claim."""
    state = start_xiamen("5m1m4m7m2m8m2z4z3z1m4m7m2z4z", "46m123m789m5z5z11z3z", "5m")
    act(state, "0:pass", "1:pass", "0:discard:5m")
    assert state.phase is Phase.TURN and state.actor == 1
    with pytest.raises(IllegalActionError) as err:
        act(state, "1:peng")
    assert err.value.rule == "dead-gold"


def test_l05_no_pinghu_for_a_gold_holder() -> None:
    state = start_xiamen("3z1m4m7m2m8m2z4z6z1m4m7m2z4z", "46m5m888m123m99m33z", "5m")
    act(state, "0:pass", "1:pass", "0:discard:3z")
    assert state.phase is Phase.CLAIM
    assert legal(state) == {"peng", "pass"}
    with pytest.raises(IllegalActionError) as err:
        act(state, "1:hu")
    assert err.value.rule == "gold-holder-no-pinghu"


def test_a_meld_never_uses_a_gold() -> None:
    """Gold 5m: one natural 3z plus a gold is no pair for a peng; a gold is no chow tile."""
    state = start_xiamen("3z6m1m4m7m2m2z4z6z1m4m7m2z4z", "4m7m5m888m123m99m3z1z", "5m")
    act(state, "0:pass", "1:pass", "0:discard:3z")
    assert state.phase is Phase.TURN  # no claim at all: nothing was offered
    state2 = start_xiamen("6m3z1m4m7m2m2z4z6z1m4m7m2z4z", "4m7m5m888m123m99m3z3z", "5m")
    act(state2, "0:pass", "1:pass", "0:discard:6m")
    assert "chi:456m" not in legal(state2)
    with pytest.raises(IllegalActionError) as err:
        act(state2, "1:chi:456m")
    assert err.value.rule == "gold-in-meld"


def test_whites_make_chows_and_pungs_as_the_gold_kind() -> None:
    """Gold 3m: [2m 5z 4m] is a chow of 2-3-4m; two Whites pung a discarded White."""
    state = start_xiamen("3m1m4m7m2m8m2z4z5z1m6m7m2z4z", "24m5z789m5z11z666m2z", "3m")
    act(state, "0:pass", "1:pass", "0:discard:5z")
    assert {"chi:234m", "peng"} <= legal(state)
    act(state, "1:chi:234m")
    meld = state.melds[1][0]
    assert [str(t) for t in meld.tiles] == ["2m", "4m", "5z"]


# ---------------------------------------------------------------------------- the 游 chain
def test_x11_youjin_entered_after_a_discard_and_forced_on_a_non_gold() -> None:
    state = start_xiamen(DEALER, "123m456m789m11z3f8f", "3z", draws="3z3m9m", back="1z6z")
    act(state, "0:pass", "1:pass", "0:discard:5z")
    assert "zimo" in legal(state)
    act(state, "1:discard:6z")
    assert xiamen_data(state).you_level == [0, 1]
    assert any(e.kind == "you" and e.player == 1 for e in state.events)
    act(state, "0:discard:3m")
    result = state.result
    assert result is not None and result.how is XiamenWinHow.YOUJIN and result.winner == 1
    assert (result.fan_total, result.points) == (5, 102)


def test_l06_you_ready_table() -> None:
    g = int(parse_tiles("3z")[0])
    for text, ready in [
        ("123m456m789m111z3z", True),
        ("12m3z456m789m111z9m", False),
        ("123m456m789m11z3z3z", True),
        ("123m456m78m111z55z", False),
    ]:
        assert you_ready(counts(text), g) is ready, text


def test_you_ready_equals_complete_for_every_drawable_kind() -> None:
    """R-3.5 property: 游金-ready ⟺ complete whatever kind is added (random 13-tile parts)."""
    rng = random.Random(5)
    kinds = [*range(9), *range(27, 34)]
    pool = [k for k in kinds for _ in range(4)]
    checked = 0
    for _ in range(3000):
        g = rng.choice(kinds)
        hand = counts("")
        for t in rng.sample(pool, 13):
            hand[t] += 1
        if max(hand) >= 4:
            continue
        every = True
        for t in kinds:
            hand[t] += 1
            ok = complete(hand, g)
            hand[t] -= 1
            if not ok:
                every = False
                break
        assert you_ready(hand, g) == (every and hand[g] > 0), hand
        checked += 1
    assert checked > 1000


def test_complete_with_golds_equals_brute_force_substitution() -> None:
    rng = random.Random(9)
    kinds = [*range(9), *range(27, 34)]
    g = 27
    for _ in range(400):
        hand = counts("")
        for t in rng.sample([k for k in kinds if k != g for _ in range(4)], 14 - 2):
            hand[t] += 1
        hand[g] = 2
        c, k = functional(hand, g)
        brute = False
        for combo in itertools.combinations_with_replacement(kinds, k):
            trial = list(c)
            for t in combo:
                trial[t] += 1
            if _plain_complete(trial):
                brute = True
                break
        assert complete(hand, g) == brute


def _plain_complete(c: list[int]) -> bool:
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            ok = _groups(c)
            c[p] += 2
            if ok:
                return True
    return False


def _groups(c: list[int]) -> bool:
    i = next((k for k in range(NUM_KINDS) if c[k]), -1)
    if i < 0:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _groups(c)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for j in (i, i + 1, i + 2):
            c[j] -= 1
        ok = _groups(c)
        for j in (i, i + 1, i + 2):
            c[j] += 1
        return ok
    return False


def test_you_choice_discard_gold_to_three_swims() -> None:
    """Non-dealer at level 1 draws golds twice and discards them: 双游 then 三游; the dealer's
    single draw misses → 三游, 16 × and bonus 150."""
    state = start_xiamen(DEALER, "234m567m111z9m777z", "9m", draws="9m3m9m6m")
    act(state, "0:pass", "1:pass", "0:discard:5z")
    assert state.phase is XiamenPhase.YOU_CHOICE and state.actor == 1
    assert legal(state) == {"win", "discardgold"}
    act(state, "1:discardgold")
    assert xiamen_data(state).you_level == [0, 2]
    assert (phase_of(state), state.actor) == (Phase.TURN, 0)  # a normal turn
    with pytest.raises(IllegalActionError):
        act(state, "1:peng")
    act(state, "0:discard:3m")
    assert state.phase is XiamenPhase.YOU_CHOICE
    act(state, "1:discardgold")
    result = state.result
    assert result is not None and result.how is XiamenWinHow.SANYOU and result.winner == 1
    assert result.hand is not None and result.hand.winning is None
    assert len(result.hand.concealed) == 13
    assert _settlement(result).bonus == 150 and _settlement(result).multiplier == 16


def test_l09_level_two_gold_on_the_last_tile_wins_three_swims() -> None:
    state = start_xiamen(DEALER, "234m567m111z9m777z", "9m", draws="9m3m9m")
    act(state, "0:pass", "1:pass", "0:discard:5z", "1:discardgold", "0:discard:3m")
    state.tail = state.head - 1  # crafted: the gold just drawn was the last tile
    act(state, "1:discardgold")
    assert state.result is not None and state.result.how is XiamenWinHow.SANYOU


def test_l09_last_discard_only_hu_or_pass_then_huangzhuang() -> None:
    state = start_xiamen(DEALER, "123m456m789m1z1z3z6z", "9m", draws="2z")
    act(state, "0:pass", "1:pass")
    state.tail = state.head  # one tile left: the non-dealer draws it
    act(state, "0:discard:2z")
    assert state.wall_count == 0
    if state.phase is Phase.CLAIM:
        assert legal(state) <= {"hu", "pass"}
        act(state, f"{state.actor}:pass")
    else:
        state.apply(next(a for a in state.legal_actions() if a.kind.value == "discard"))
        if phase_of(state) is Phase.CLAIM:
            act(state, f"{state.actor}:pass")
    assert state.result is not None and state.result.kind is ResultKind.DRAW


# ---------------------------------------------------------------------------- opening window
def test_x17_non_dealer_robs_the_gold() -> None:
    state = start_xiamen(DEALER, "123m567m999m22z77z", "4z")
    act(state, "0:pass")
    assert legal(state) == {"qiangjin", "pass"}
    act(state, "1:qiangjin")
    result = state.result
    assert result is not None and result.how is XiamenWinHow.QIANGJIN and result.winner == 1
    assert xiamen_data(state).indicator_taken and _settlement(result).multiplier == 4


def test_x18_dealer_robs_the_gold_naming_the_tile() -> None:
    state = start_xiamen("234m456m888m11z55z3z", "123m456m789m444z6z", "2z")
    assert "qiangjin:3z" in legal(state)
    act(state, "0:qiangjin:3z")
    result = state.result
    assert result is not None and result.how is XiamenWinHow.QIANGJIN and result.winner == 0
    assert (result.fan_total, result.points) == (2, 40)
    assert state.discards[0] == [int(parse_tiles("3z")[0])]


def test_x19_l08_three_golds_fall_and_the_dealer_decides_first() -> None:
    state = start_xiamen("234m456m888m22z55z3z", "777m111z2m5m9m3z4z6z5z", "7m")
    assert state.actor == 0 and "qiangjin:3z" in legal(state)  # L-08: the dealer first
    act(state, "0:pass")
    assert "sanjindao" in legal(state)
    act(state, "1:sanjindao")
    result = state.result
    assert (
        result is not None and result.how is XiamenWinHow.SANJINDAO and result.points == 4 * (8 + 5)
    )


def test_opening_declarations_outside_the_window_are_refused() -> None:
    state = start_xiamen(DEALER, "123m456m789m111z6z", "3z")
    act(state, "0:pass", "1:pass")
    for text, code in [
        ("0:sanjindao", "opening-closed"),
        ("0:qiangjin:1m", "opening-closed"),
        ("0:win", "no-gold-choice"),
        ("0:discardgold", "no-gold-choice"),
    ]:
        with pytest.raises(IllegalActionError) as err:
            act(state, text)
        assert err.value.rule == code


def test_no_heavenly_win_for_the_dealer() -> None:
    state = start_xiamen("123m456m789m111z22z", "123m456m789m4z5z6z7z", "9m")
    assert any(a.startswith("qiangjin") for a in legal(state))
    act(state, "0:pass", "1:pass")
    assert "zimo" not in legal(state)
    with pytest.raises(IllegalActionError) as err:
        act(state, "0:zimo")
    assert err.value.rule == "no-heavenly-win"


# ---------------------------------------------------------------------------- kongs
def test_x10_robbing_an_added_kong() -> None:
    """Gold 2m: the dealer pungs 8m and adds the fourth; the gold-free non-dealer robs."""
    state = start_xiamen("88m1m4m7m3m5m3z4z6z1m4m7m3z", "67m345m111z444z99m", "2m", draws="8m7z8m")
    act(state, "0:pass", "1:pass", "0:discard:6z", "1:discard:8m", "0:peng", "0:discard:1m")
    act(state, "1:discard:7z")
    assert "jiagang:8m" in legal(state)
    act(state, "0:jiagang:8m")
    assert state.phase is Phase.ROB and legal(state) == {"hu", "pass"}
    act(state, "1:hu")
    assert state.result is not None and state.result.how is WinHow.ROBBING
    assert _settlement(state.result).multiplier == 2


# ---------------------------------------------------------------------------- system moves
def test_timeout_auto_discard_prefers_the_drawn_tile_and_never_a_gold() -> None:
    state = start_xiamen(DEALER, "123m456m789m11z4z6z", "9m", draws="9m")
    act(state, "0:pass", "1:pass", "0:discard:2z")
    assert state.last_added[1] == 8  # drew the gold 9m
    act(state, "1:timeout")
    assert state.discards[1][-1] == 32  # not the gold: the highest functional kind, 6z


def test_trustee_wins_in_the_you_chain() -> None:
    state = start_xiamen(DEALER, "234m567m111z9m777z", "9m", draws="9m")
    act(state, "0:pass", "1:pass")
    state.apply_system(Action.trustee(1, True))
    act(state, "0:discard:5z")
    assert state.result is not None and state.result.how is XiamenWinHow.YOUJIN


def test_escape_costs_400() -> None:
    state = start_xiamen(DEALER, "123m456m789m111z6z", "3z")
    act(state, "0:pass", "1:pass", "1:escape")
    assert state.result is not None and state.result.deltas == (400, -400)


def test_match_keeps_the_dealer_after_huangzhuang_and_records_the_streak() -> None:
    rules = find_family("xiamen")
    match = Match(rules, seed=3)
    seen_streak = False
    for _ in range(30):
        if match.over:
            break
        dealer, streak = match.dealer, match.streak
        state = match.new_hand()
        assert state.streak == streak
        rng = random.Random(len(match.hands))
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        result = match.finish_hand(state)
        if result.kind is ResultKind.DRAW:
            assert (match.dealer, match.streak) == (dealer, streak)
        elif result.winner == dealer:
            assert (match.dealer, match.streak) == (dealer, streak + 1)
        else:
            assert (match.dealer, match.streak) == (1 - dealer, 0)
        record = match.hands[-1].record
        seen_streak |= record.streak > 0
        assert replay(record).fingerprint() == state.fingerprint()
    assert seen_streak
