"""The computer of stage mode (erren.families.arcade.bot.stage): it plays for the stage's
objective at its level, and the levels play differently there."""

from __future__ import annotations

import dataclasses
import random

import pytest

from erren.analysis.shapes import ARCADE
from erren.analysis.waits import discard_table
from erren.bots.base import Bot
from erren.bots.levels import Level, level_bot
from erren.engine import Action, ActionKind, Family, Observation, State, find_family
from erren.engine.phases import Phase
from erren.families.arcade.bot.stage import STAGE_PLAY, certainly_safe, stage_move
from erren.families.arcade.campaign import HUMAN, CampaignParams
from erren.families.arcade.campaign.table import ruleset
from erren.families.arcade.game import stage_options
from erren.families.arcade.game.view import ArcadeView
from erren.hand import Hand
from erren.notation import parse_tile
from erren.tiles import Tile

AK = ActionKind
COMPUTER = 1 - HUMAN
WILD = Tile(17)
"""9p, the wild kind of the hand-built positions; all three wild tiles lie in the human's
river before his 报听, so none is held or can be drawn."""


def _tiles(text: str) -> tuple[Tile, ...]:
    return Hand.parse(text, check_size=False).concealed


def _river(text: str) -> tuple[Tile, ...]:
    """Tiles in the order written, two characters each (``5z9s1m``)."""
    return tuple(parse_tile(text[i : i + 2]) for i in range(0, len(text), 2))


def _rules(stage: int = 4) -> Family:
    return ruleset(CampaignParams().features(stage), human=HUMAN)


def _position(
    hand: str,
    *,
    phase: Phase = Phase.TURN,
    river: str = "",
    ting_at: int = -1,
    pending: str | None = None,
) -> Observation:
    """The computer's observation holding ``hand`` (no melds), the human's river ``9p9p9p`` +
    ``river`` and, with ``ting_at`` ≥ 0, his 报听 at that index of his river."""
    state = State.new(find_family("arcade", **stage_options(4)), seed=5)
    while state.phase is not Phase.TURN:
        state.apply(state.legal_actions()[0])
    obs = state.observe(state.actor)
    assert isinstance(obs.view, ArcadeView)
    view = dataclasses.replace(obs.view, wild=WILD, flower_kind=Tile(31), offer=None, giving=())
    human_river = (WILD,) * 3 + _river(river)
    ting = ting_at >= 0
    return dataclasses.replace(
        obs,
        player=COMPUTER,
        phase=phase,
        hand=tuple(sorted(_tiles(hand))),
        melds=((), ()),
        hidden_kongs=(0, 0),
        discards=(human_river, ()),
        claimed=((), ()),
        flowers=((), ()),
        last_drawn=None,
        pending=_tiles(pending)[0] if pending else None,
        ting=(ting, False),
        ting_at=(ting_at, -1),
        view=view,
    )


def _turn_legal(obs: Observation, *, ting: bool = False) -> list[Action]:
    kinds = sorted({int(t) for t in obs.hand})
    legal = [Action.make(AK.DISCARD, COMPUTER, t) for t in kinds]
    if ting:
        legal += [Action.make(AK.TING, COMPUTER, t) for t in kinds]
    return legal


def _bot(level: Level, rules: Family | None = None) -> Bot:
    return level_bot(level, seed=1, ruleset=rules if rules is not None else _rules())


def _fastest(obs: Observation) -> int:
    """The efficiency's discard: the first row of the discard table (no wild held)."""
    counts = [0] * 34
    for t in obs.hand:
        counts[t] += 1
    visible = list(counts)
    for t in obs.discards[HUMAN]:
        visible[t] += 1
    row = discard_table(counts, wilds=0, shapes=ARCADE, visible=visible)[0]
    assert row.discard is not None
    return row.discard


# ---------------------------------------------------------------- blocking the 报听 human

BLOCK_HAND = "123456789m11z59s2z"
"""One from ready whichever loose tile goes (5s, 9s or 2z): 2z, the loosest, is the fastest."""


def test_certainly_safe_are_the_tiles_a_locked_hand_let_pass() -> None:
    # the human's river: 9p 9p 9p 5z (his 报听 discard, index 3), then 9s and 1m
    obs = _position(BLOCK_HAND, river="5z9s1m", ting_at=3)
    assert certainly_safe(obs) == {int(t) for t in _tiles("9s1m")}
    assert certainly_safe(_position(BLOCK_HAND, river="5z9s1m")) == frozenset()


def test_the_master_blocks_with_a_safe_tile_as_fast_the_strong_does_not() -> None:
    """R2.12–R2.13: after his 报听 the human let 9s pass, so 9s cannot win for him; 9s keeps the
    hand one from ready as 2z does.  大师 throws 9s, 高手 the fastest (2z)."""
    obs = _position(BLOCK_HAND, river="5z9s", ting_at=3)
    legal = _turn_legal(obs)
    assert _fastest(obs) == int(parse_tile("2z"))
    master = _bot(Level.MASTER).choose(obs, legal)
    strong = _bot(Level.STRONG).choose(obs, legal)
    assert master == Action.make(AK.DISCARD, COMPUTER, int(parse_tile("9s")))
    assert strong == Action.make(AK.DISCARD, COMPUTER, int(parse_tile("2z")))
    # before any 报听 the master plays for speed alone
    calm = _position(BLOCK_HAND, river="5z9s")
    assert _bot(Level.MASTER).choose(calm, legal) == strong


def test_no_safe_tile_as_fast_means_the_fastest() -> None:
    """The safe 1m would break a set (two from ready): 大师 keeps its speed."""
    obs = _position(BLOCK_HAND, river="5z1m", ting_at=3)
    assert _bot(Level.MASTER).choose(obs, _turn_legal(obs)) == Action.make(
        AK.DISCARD, COMPUTER, int(parse_tile("2z"))
    )


# ---------------------------------------------------------------- 报听 for the 海底 seat

READY_HAND = "123456789m11z568s"
"""Ready after 8s (waits 4s and 7s: eight unseen tiles) or after 5s (6s8s: 7s, four)."""


def test_the_master_declares_to_take_the_haidi_seat_the_gentle_levels_do_not() -> None:
    """R2.18: the first to declare is the 海底 player.  大师 and 高手 declare with their fastest
    ready discard (≥ 3 unseen winning tiles); 普通 plays the same tile (8s, off its 混一色 of 万)
    undeclared, 入门 a tile off it at random, undeclared."""
    obs = _position(READY_HAND)
    legal = _turn_legal(obs, ting=True)
    fastest = _fastest(obs)
    for level in (Level.MASTER, Level.STRONG):
        assert _bot(level).choose(obs, legal) == Action.make(AK.TING, COMPUTER, fastest)
    assert _bot(Level.NORMAL).choose(obs, legal) == Action.make(AK.DISCARD, COMPUTER, fastest)
    novice = _bot(Level.NOVICE).choose(obs, legal)  # a random tile off its 万: no 报听
    assert novice.kind is AK.DISCARD and novice.tile_kind() in {int(t) for t in _tiles("568s")}


# ---------------------------------------------------------------- the gentle stages' hand

HUNT_HAND = "12456789m56p55z13z"
"""Mostly 万 (8 tiles) and honors: speed throws an isolated honor (1z), the 混一色 of 万 throws
the 筒子 (5p first, though it leaves the hand two from ready)."""


def test_the_gentle_levels_play_a_half_flush_of_their_longest_suit() -> None:
    """普通 throws the fastest tile off its 混一色 of 万 (5p), 入门 one of them at random."""
    obs = _position(HUNT_HAND)
    legal = _turn_legal(obs)
    fastest = _fastest(obs)
    off_suit = {int(t) for t in _tiles("56p")}
    assert fastest not in off_suit  # speed alone throws an honor first
    assert _bot(Level.MASTER).choose(obs, legal) == Action.make(AK.DISCARD, COMPUTER, fastest)
    normal = _bot(Level.NORMAL).choose(obs, legal)
    assert normal == Action.make(AK.DISCARD, COMPUTER, int(parse_tile("5p")))
    for seed in range(8):  # 入门 throws one of them at random
        novice = level_bot(Level.NOVICE, seed=seed, ruleset=_rules()).choose(obs, legal)
        assert novice.kind is AK.DISCARD and novice.tile_kind() in off_suit


# ---------------------------------------------------------------- claims


CLAIM_HAND = "13m456p789p55s123z"
"""Two from ready; a chi of 2m (123m) or a peng of 5s (555s) takes it to one."""


def test_claims_by_level() -> None:
    """大师 chis toward speed; 高手 never chis (pengs only); 入门 never claims; 普通 claims
    only toward its 混一色 (2m is not of its longest suit, 筒子 here)."""
    obs = _position(CLAIM_HAND, phase=Phase.CLAIM, pending="2m")
    chi = Action.make(AK.CHI, COMPUTER, int(parse_tile("1m")))
    passing = Action.make(AK.PASS, COMPUTER)
    legal = [chi, passing]
    assert _bot(Level.MASTER).choose(obs, legal) == chi
    for level in (Level.STRONG, Level.NOVICE, Level.NORMAL):
        assert _bot(level).choose(obs, legal) == passing


def test_peng_by_level() -> None:
    obs = _position(CLAIM_HAND, phase=Phase.CLAIM, pending="5s")
    peng = Action.make(AK.PENG, COMPUTER, int(parse_tile("5s")))
    passing = Action.make(AK.PASS, COMPUTER)
    legal = [peng, passing]
    assert _bot(Level.STRONG).choose(obs, legal) == peng
    assert _bot(Level.NOVICE).choose(obs, legal) == passing


# ---------------------------------------------------------------- where it applies


def test_only_the_computer_seat_of_a_stage_hand_plays_the_stage() -> None:
    obs = _position(HUNT_HAND)
    legal = _turn_legal(obs)
    for level in Level:
        assert stage_move(_bot(level), obs, legal) is not None
        human = dataclasses.replace(obs, player=HUMAN)
        assert stage_move(_bot(level), human, legal) is None
        assert stage_move(_bot(level, find_family("arcade")), obs, legal) is None
    assert set(STAGE_PLAY) == set(Level)


# ---------------------------------------------------------------- the levels differ


DEALS = 16
"""Stage-4 deals played by each level against 普通 (the human's seat)."""


def _records(level: Level) -> list[list[Action]]:
    """The computer's moves, deal by deal, at ``level`` on the same seeded deals."""
    rules = _rules(4)
    rng = random.Random(30)
    out = []
    for i in range(DEALS):
        seed = rng.getrandbits(63)
        bots = (level_bot(Level.NORMAL, seed=1, ruleset=rules), level_bot(level, ruleset=rules))
        state = State.new(rules, seed=seed, dealer=i % 2)
        chance = random.Random(seed)
        moves = []
        while not state.is_terminal:
            seat = state.actor
            if seat not in (0, 1):
                state.apply(state.sample_chance(chance))
                continue
            obs = state.observe(seat)
            action = bots[seat].choose(obs, obs.legal_actions)
            if seat == COMPUTER:
                moves.append(action)
            state.apply(action)
        out.append(moves)
    return out


def test_the_levels_play_different_hands_in_stage_mode() -> None:
    """The issue's symptom was 高手 and 大师 playing identical hands on every deal.  A deal where
    大师 chis cannot be played alike by 高手 (who never chis); one where 高手 declares 报听
    not by 普通 (who never does); one where 普通 claims not by 入门 (who never claims).  So the
    identical deals number at most ``DEALS`` minus those — and each pair has at least one."""
    plays = {level: _records(level) for level in Level}

    def count(level: Level, kinds: set[ActionKind]) -> int:
        return sum(any(a.kind in kinds for a in moves) for moves in plays[level])

    def identical(a: Level, b: Level) -> int:
        return sum(x == y for x, y in zip(plays[a], plays[b], strict=True))

    assert count(Level.STRONG, {AK.CHI}) == 0
    assert count(Level.NORMAL, {AK.TING}) == 0
    assert count(Level.NOVICE, {AK.CHI, AK.PENG, AK.MING_GANG}) == 0
    pairs = (
        (Level.STRONG, Level.MASTER, count(Level.MASTER, {AK.CHI})),
        (Level.NORMAL, Level.STRONG, count(Level.STRONG, {AK.TING})),
        (Level.NOVICE, Level.NORMAL, count(Level.NORMAL, {AK.CHI, AK.PENG, AK.MING_GANG})),
    )
    for weaker, stronger, telling in pairs:
        assert telling >= 1, (weaker, stronger)
        assert identical(weaker, stronger) <= DEALS - telling, (weaker, stronger)


@pytest.mark.parametrize("stage", [1, 2, 3, 4])
def test_the_stage_level_is_bound_to_the_stage_rules(stage: int) -> None:
    rules = _rules(stage)
    bot = level_bot(Level.NORMAL, ruleset=rules)
    assert bot.ruleset is rules
