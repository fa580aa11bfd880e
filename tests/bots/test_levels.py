"""The computer's levels (入门, 普通, 高手, 大师) and the novice bot behind 入门."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from erren.bots import Bot, EfficiencyBot, Level, NoviceBot, find_bot, level_bot, parse_level
from erren.bots.expert import ExpertBot
from erren.bots.expert.knobs import Knobs
from erren.bots.levels import level_names
from erren.bots.novice import discard_tiers
from erren.engine import Action, ActionKind, Observation, State, find_family
from erren.families.arcade.bot.expert import ArcadeKnobs
from erren.families.arcade.bot.expert import knobs_of as arcade_knobs
from erren.families.arcade.game import stage_options
from erren.families.xiamen.bot.expert import XiamenKnobs
from erren.families.xiamen.bot.expert import knobs_of as xiamen_knobs
from erren.families.xiamen.game.vocabulary import XiamenVerb
from erren.notation import parse_tile, parse_tiles
from erren.testing.deals import start
from erren.tiles import Tile

AK = ActionKind
RULES = find_family("guobiao-2p")
FAMILIES = {
    "guobiao-2p": RULES,
    "xiamen": find_family("xiamen"),
    "arcade": find_family("arcade", {**stage_options(4), "pung_offer_prob": 0.3}),
}
_WINS = {AK.HU, AK.ZIMO, XiamenVerb.WIN, XiamenVerb.SANJINDAO, XiamenVerb.QIANGJIN}


# ---------------------------------------------------------------------------- the levels
@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("novice", Level.NOVICE),
        ("入门", Level.NOVICE),
        ("Beginner", Level.NOVICE),
        ("normal", Level.NORMAL),
        ("普通", Level.NORMAL),
        ("  STRONG ", Level.STRONG),
        ("高手", Level.STRONG),
        ("master", Level.MASTER),
        ("大师", Level.MASTER),
        ("Master", Level.MASTER),
    ],
)
def test_a_level_is_named_by_its_id_or_its_chinese_or_english_name(text: str, level: Level) -> None:
    assert parse_level(text) is level


def test_an_unknown_level_names_itself_and_the_known_ones() -> None:
    with pytest.raises(ValueError) as err:
        parse_level("grandmaster")
    message = str(err.value)
    assert "'grandmaster'" in message
    for known in ("novice", "入门", "normal", "普通", "strong", "高手", "master", "大师"):
        assert known in message
    assert level_names().startswith("novice (入门, Beginner), normal (普通, Normal)")


def test_the_ids_and_the_names_of_the_four_levels() -> None:
    assert [lv.value for lv in Level] == ["novice", "normal", "strong", "master"]
    assert [lv.chinese for lv in Level] == ["入门", "普通", "高手", "大师"]
    assert [lv.english for lv in Level] == ["Beginner", "Normal", "Strong", "Master"]
    assert Level.STRONG.computer("zh") == "电脑·高手"
    assert Level.STRONG.computer("en") == "Computer (Strong)"
    assert Level.NOVICE.computer() == "Computer (Beginner)"
    assert repr(Level.MASTER) == "Level.MASTER"


def test_each_level_builds_its_bot_bound_to_the_table() -> None:
    xiamen = FAMILIES["xiamen"]
    novice = level_bot(Level.NOVICE, seed=1, ruleset=xiamen)
    assert type(novice) is NoviceBot
    assert type(level_bot(Level.NORMAL, seed=1)) is EfficiencyBot
    strong = level_bot(Level.STRONG, seed=1, ruleset=xiamen)
    master = level_bot(Level.MASTER, seed=1, ruleset=xiamen)
    assert isinstance(strong, ExpertBot) and isinstance(master, ExpertBot)
    assert (strong.budget_ms, master.budget_ms) == (30.0, 150.0)
    assert (strong.knobs.lookahead, strong.knobs.two_away_width, strong.knobs.break_factor) == (
        False,
        0,
        0.0,
    )
    assert master.knobs == Knobs()
    assert xiamen_knobs(strong) == XiamenKnobs(race_pass=False, open_you=False, open_best=False)
    assert arcade_knobs(strong) == ArcadeKnobs(exchange=False, events=False)
    assert (xiamen_knobs(master), arcade_knobs(master)) == (XiamenKnobs(), ArcadeKnobs())
    assert strong.ruleset is xiamen and master.ruleset is xiamen


# ---------------------------------------------------------------------------- the novice
class _Watch(Bot):
    """The novice, checked at every decision: a legal win is always taken."""

    name = "watch"

    def __init__(self, seed: int) -> None:
        self.inner = NoviceBot(seed=seed)
        self.wins_offered = 0

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        action = self.inner.choose(observation, legal_actions)
        assert action in legal_actions
        if any(a.kind in _WINS for a in legal_actions):
            self.wins_offered += 1
            assert action.kind in _WINS
        return action


def _play(family: str, seed: int) -> tuple[tuple[str, ...], int]:
    state = State.new(FAMILIES[family], seed=seed, dealer=seed % 2)
    bots = [_Watch(seed), _Watch(seed + 1000)]
    while not state.is_terminal:
        seat = state.actor
        obs = state.observe(seat)
        state.apply(bots[seat].choose(obs, obs.legal_actions))
    return state.record().actions, bots[0].wins_offered + bots[1].wins_offered


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_novice_plays_legally_takes_every_win_and_repeats_itself(family: str) -> None:
    offered = 0
    for seed in range(25):
        actions, wins = _play(family, seed)
        offered += wins
        assert _play(family, seed)[0] == actions
    assert offered > 0  # some wins came up, and each was taken


def test_the_registry_knows_the_novice() -> None:
    assert type(find_bot("novice", seed=3)) is NoviceBot


def _discards(dealer: str, other: str, seeds: int = 40) -> set[str]:
    state = start(RULES, dealer, other)
    obs = state.observe(0)
    chosen: set[str] = set()
    for seed in range(seeds):
        action = NoviceBot(seed=seed, ting_chance=0.0).choose(obs, obs.legal_actions)
        assert action.kind is AK.DISCARD and action.tile is not None
        chosen.add(str(action.tile))
    return chosen


def test_the_novice_throws_a_loose_tile_while_it_has_one() -> None:
    # 9m, 5z and 6z have no neighbour within two ranks: the three loose tiles
    assert _discards("123m777z444z11z5z6z9m", "445566788m2233z") == {"9m", "5z", "6z"}


def test_the_novice_keeps_its_made_melds_while_a_partial_shape_can_go() -> None:
    # no loose tile (4m and 6m are two ranks apart); they are the only tiles outside the
    # pungs 111m, 999m, 111z and 222z
    assert _discards("111m999m111z222z46m", "223355778m3344z") == {"4m", "6m"}


def test_the_discard_tiers() -> None:
    counts = [0] * 34
    for t in parse_tiles("123m455p77s9s1z"):
        counts[t] += 1
    tiers = discard_tiers(counts, wild=int(parse_tile("1z")))
    names = [[str(Tile(k)) for k in tier] for tier in tiers]
    # 9s: 7s is two ranks away, so not loose; 1z is the wild
    assert names == [[], ["4p", "5p", "7s", "9s"], ["1m", "2m", "3m"], ["1z"]]


def test_the_novice_claims_and_declares_only_as_often_as_told() -> None:
    state = start(RULES, "123m777z444z11z5z6z9m", "445566788m2233z")
    obs = state.observe(0)
    never = NoviceBot(seed=5, claim_chance=0.0, ting_chance=0.0)
    for _ in range(30):
        assert never.choose(obs, obs.legal_actions).kind is AK.DISCARD
