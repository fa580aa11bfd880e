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
from erren.families.arcade.bot.stage import STAGE_PLAY, certainly_safe, feeding, stage_move
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
    undeclared; 入门 feeds a tile, undeclared."""
    obs = _position(READY_HAND)
    legal = _turn_legal(obs, ting=True)
    fastest = _fastest(obs)
    assert fastest == int(parse_tile("8s"))
    for level in (Level.MASTER, Level.STRONG):
        assert _bot(level).choose(obs, legal) == Action.make(AK.TING, COMPUTER, fastest)
    assert _bot(Level.NORMAL).choose(obs, legal) == Action.make(AK.DISCARD, COMPUTER, fastest)
    for seed in range(8):
        novice = level_bot(Level.NOVICE, seed=seed, ruleset=_rules()).choose(obs, legal)
        assert novice.kind is AK.DISCARD


# ---------------------------------------------------------------- the gentle stages' hand

HUNT_HAND = "12456789m56p55z13z"
"""Mostly 万 (8 tiles) and honors: speed throws an isolated honor (1z), the 混一色 of 万 throws
the 筒子 (5p first, though it leaves the hand two from ready)."""

FAR_HAND = "159m258p369s1234z5z"
"""Far from ready (five away whatever goes): 高手 still plays its 混一色 here."""


def test_the_gentle_levels_play_a_half_flush_of_their_longest_suit() -> None:
    """普通 throws the fastest tile off its 混一色 of 万 (5p); 高手, one or two from ready,
    plays for speed as 大师 does."""
    obs = _position(HUNT_HAND)
    legal = _turn_legal(obs)
    fastest = _fastest(obs)
    assert fastest not in {int(t) for t in _tiles("56p")}  # speed alone throws an honor first
    assert _bot(Level.MASTER).choose(obs, legal) == Action.make(AK.DISCARD, COMPUTER, fastest)
    assert _bot(Level.STRONG).choose(obs, legal) == Action.make(AK.DISCARD, COMPUTER, fastest)
    normal = _bot(Level.NORMAL).choose(obs, legal)
    assert normal == Action.make(AK.DISCARD, COMPUTER, int(parse_tile("5p")))


def test_the_strong_hunts_while_three_or_more_from_ready() -> None:
    """Far from ready, 高手 throws a tile off its 混一色 of 万 (three suits of three tiles:
    the lowest), where speed (大师) throws the 5m."""
    obs = _position(FAR_HAND)
    legal = _turn_legal(obs)
    assert _fastest(obs) == int(parse_tile("5m"))
    assert _bot(Level.MASTER).choose(obs, legal) == Action.make(AK.DISCARD, COMPUTER, _fastest(obs))
    strong = _bot(Level.STRONG).choose(obs, legal)
    assert strong.kind is AK.DISCARD
    assert strong.tile_kind() in {int(t) for t in _tiles("258p369s")}


# ---------------------------------------------------------------- 入门 feeds the player


def test_the_teacher_throws_its_wild_first() -> None:
    """入门 holds a 财神 (9p): it throws it before any natural tile."""
    obs = _position("123456789m11z56p")
    hand = dataclasses.replace(obs, hand=tuple(sorted((*obs.hand, WILD))))
    legal = _turn_legal(hand)
    assert Action.make(AK.DISCARD, COMPUTER, int(WILD)) in legal
    for seed in range(4):
        bot = level_bot(Level.NOVICE, seed=seed, ruleset=_rules())
        assert bot.choose(hand, legal) == Action.make(AK.DISCARD, COMPUTER, int(WILD))


def test_the_teacher_feeds_the_suit_the_player_throws_least() -> None:
    """The human threw 9p ×3, 1z, 2z and 1m: the 索子 is the suit he threw least (none), so 入门
    throws one of its 索子 (5s, 6s or 8s), at random."""
    obs = _position(READY_HAND, river="1z2z1m")
    legal = _turn_legal(obs)
    seen = set()
    for seed in range(16):
        novice = level_bot(Level.NOVICE, seed=seed, ruleset=_rules()).choose(obs, legal)
        seen.add(novice.tile_kind())
    assert seen == {int(t) for t in _tiles("568s")}


def test_the_teacher_never_feeds_a_kind_the_player_threw() -> None:
    """Held: 5s, 6s and 1z.  The human threw 5s once and 1z twice: of the kinds he has not
    thrown (6s) 入门 feeds the suit he threw least — 6s every time, never 5s."""
    obs = _position(READY_HAND, river="5s1z1z")
    discards = {int(t): Action.make(AK.DISCARD, COMPUTER, int(t)) for t in _tiles("56s1z")}
    for seed in range(8):
        assert feeding(obs, int(WILD), discards, random.Random(seed)) == int(parse_tile("6s"))
    # a player who threw every kind held leaves any of them
    thrown = _position(READY_HAND, river="5s6s1z")
    assert feeding(thrown, int(WILD), discards, None) in discards


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


PENG_HAND = "13m4556p789p5s123z"
"""Two from ready, mostly 筒子; a peng of 5p takes it to one."""


def test_peng_by_level() -> None:
    """大师 and 高手 peng 5p (高手 within its 混一色 of 筒子); the gentle levels never claim.
    Of the 5s (off the 筒子) 高手 passes where 大师 pengs."""
    passing = Action.make(AK.PASS, COMPUTER)
    obs = _position(PENG_HAND, phase=Phase.CLAIM, pending="5p")
    peng = Action.make(AK.PENG, COMPUTER, int(parse_tile("5p")))
    for level in (Level.MASTER, Level.STRONG):
        assert _bot(level).choose(obs, [peng, passing]) == peng
    for level in (Level.NORMAL, Level.NOVICE):
        assert _bot(level).choose(obs, [peng, passing]) == passing
    off = _position(CLAIM_HAND, phase=Phase.CLAIM, pending="5s")
    peng = Action.make(AK.PENG, COMPUTER, int(parse_tile("5s")))
    assert _bot(Level.MASTER).choose(off, [peng, passing]) == peng
    assert _bot(Level.STRONG).choose(off, [peng, passing]) == passing


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


@dataclasses.dataclass(frozen=True)
class Deal:
    """The computer's moves in one deal, and the deal's wild kind."""

    moves: tuple[Action, ...]
    wild: int

    def throws_wild(self) -> bool:
        return any(a.kind is AK.DISCARD and a.tile_kind() == self.wild for a in self.moves)


def _records(level: Level) -> list[Deal]:
    """The computer's deals at ``level`` on the same seeded deals."""
    rules = _rules(4)
    rng = random.Random(30)
    out = []
    for i in range(DEALS):
        seed = rng.getrandbits(63)
        bots = (level_bot(Level.NORMAL, seed=1, ruleset=rules), level_bot(level, ruleset=rules))
        state = State.new(rules, seed=seed, dealer=i % 2)
        chance = random.Random(seed)
        moves = []
        wild = -1
        while not state.is_terminal:
            seat = state.actor
            if seat not in (0, 1):
                state.apply(state.sample_chance(chance))
                continue
            obs = state.observe(seat)
            action = bots[seat].choose(obs, obs.legal_actions)
            if seat == COMPUTER:
                moves.append(action)
                if isinstance(obs.view, ArcadeView) and obs.view.wild is not None:
                    wild = int(obs.view.wild)
            state.apply(action)
        out.append(Deal(tuple(moves), wild))
    return out


def test_the_levels_play_different_hands_in_stage_mode() -> None:
    """The issue's symptom was 高手 and 大师 playing identical hands on every deal.  A deal where
    大师 chis cannot be played alike by 高手 (who never chis); one where 高手 claims or declares
    报听 not by 普通 (who does neither); one where 入门 throws its 财神 not by 普通 (who throws
    a wild only when no natural tile serves as well, and here never does).  So the identical deals
    number at most ``DEALS`` minus those — and each pair has at least one."""
    plays = {level: _records(level) for level in Level}

    def count(level: Level, kinds: set[ActionKind]) -> int:
        return sum(any(a.kind in kinds for a in deal.moves) for deal in plays[level])

    def identical(a: Level, b: Level) -> int:
        return sum(x.moves == y.moves for x, y in zip(plays[a], plays[b], strict=True))

    claims = {AK.CHI, AK.PENG, AK.MING_GANG}
    assert count(Level.STRONG, {AK.CHI}) == 0
    for gentle in (Level.NORMAL, Level.NOVICE):
        assert count(gentle, claims | {AK.TING}) == 0
    assert not any(deal.throws_wild() for deal in plays[Level.NORMAL])
    pairs = (
        (Level.STRONG, Level.MASTER, count(Level.MASTER, {AK.CHI})),
        (Level.NORMAL, Level.STRONG, count(Level.STRONG, claims | {AK.TING})),
        (Level.NOVICE, Level.NORMAL, sum(deal.throws_wild() for deal in plays[Level.NOVICE])),
    )
    for weaker, stronger, telling in pairs:
        assert telling >= 1, (weaker, stronger)
        assert identical(weaker, stronger) <= DEALS - telling, (weaker, stronger)


@pytest.mark.parametrize("stage", [1, 2, 3, 4])
def test_the_stage_level_is_bound_to_the_stage_rules(stage: int) -> None:
    rules = _rules(stage)
    bot = level_bot(Level.NORMAL, ruleset=rules)
    assert bot.ruleset is rules
