"""The expert's xiamen play (erren.families.xiamen.bot.expert): legal, deterministic, and the two
rules
it keeps — the race against an opponent at a 游 level and the opening pass for 游金 (xiamen.md
R-2.3, R-2.9, R-4.6)."""

from __future__ import annotations

import dataclasses
import random

from erren.bots.efficiency import EfficiencyBot
from erren.bots.expert import ExpertBot
from erren.engine import Action, find_family
from erren.engine.resample import resample
from erren.families.xiamen.bot.expert import XiamenKnobs, configure, you_ready_opening
from erren.families.xiamen.scoring import WinType, XiamenContext, score_xiamen, settle_xiamen
from erren.hand import Hand
from erren.sim import simulate
from erren.tiles import Tile

from ._support import GOLD, actions, xiamen_observation

COMPLETE = "123m456m111z222z7m9m"
"""A complete hand with a gold (9m) paired with 7m: throwing 7m leaves it 游金-ready."""


# ---------------------------------------------------------------- the race


def test_race_takes_the_zimo_when_the_opponent_is_at_a_you_level() -> None:
    """With the wall long, the efficiency bot throws 7m into 游金-ready instead of 自摸; the
    expert does the same against a level-0 opponent but wins at once against one at 游金
    (who would win on its next draw)."""
    legal = actions("0:zimo", "0:discard:7m", "0:discard:1m", "0:discard:9m")
    calm = xiamen_observation(COMPLETE, levels=(0, 0))
    racing = xiamen_observation(COMPLETE, levels=(0, 1))
    assert EfficiencyBot().choose(racing, legal) == Action.parse("0:discard:7m")
    assert ExpertBot(budget_ms=0).choose(calm, legal) == Action.parse("0:discard:7m")
    assert ExpertBot(budget_ms=0).choose(racing, legal) == Action.parse("0:zimo")


def test_race_wins_instead_of_climbing_to_double_you() -> None:
    legal = actions("0:win", "0:discardgold")
    calm = xiamen_observation("123m456m111z222z9m9m", phase="you_choice", levels=(1, 0))
    racing = xiamen_observation("123m456m111z222z9m9m", phase="you_choice", levels=(1, 1))
    assert EfficiencyBot().choose(racing, legal) == Action.parse("0:discardgold")
    assert ExpertBot(budget_ms=0).choose(calm, legal) == Action.parse("0:discardgold")
    assert ExpertBot(budget_ms=0).choose(racing, legal) == Action.parse("0:win")


def test_race_is_a_knob() -> None:
    bot = ExpertBot(budget_ms=0)
    configure(bot, XiamenKnobs(race=False))
    legal = actions("0:zimo", "0:discard:7m", "0:discard:1m")
    assert bot.choose(xiamen_observation(COMPLETE, levels=(0, 1)), legal) == Action.parse(
        "0:discard:7m"
    )


# ---------------------------------------------------------------- the opening


def test_opening_passes_a_you_ready_hand_for_youjin() -> None:
    """123m456m111z222z + a gold is 游金-ready: it passes 抢金胡; ready without a gold
    (123m456m111z222z7m, waiting on 7m) it robs the gold."""
    legal = actions("0:qiangjin", "0:pass")
    you = xiamen_observation("123m456m111z222z9m", phase="opening")
    plain = xiamen_observation("123m456m111z222z7m", phase="opening")
    assert EfficiencyBot().choose(you, legal) == Action.parse("0:qiangjin")
    assert ExpertBot(budget_ms=0).choose(you, legal) == Action.parse("0:pass")
    assert ExpertBot(budget_ms=0).choose(plain, legal) == Action.parse("0:qiangjin")


def test_opening_test_for_the_dealer_looks_one_discard_ahead() -> None:
    assert you_ready_opening(xiamen_observation(COMPLETE, phase="opening"), int(GOLD))
    assert not you_ready_opening(
        xiamen_observation("123m456m111z22z3z5z9m", phase="opening"), int(GOLD)
    )
    assert not you_ready_opening(
        xiamen_observation("123m456m111z222z7m", phase="opening"), int(GOLD)
    )


def test_youjin_pays_more_than_robbing_the_gold() -> None:
    """The exact payments behind the opening pass (R-4.3, R-4.6; 底 8, cap 100).

    抢金胡: 123m456m111z222z + 9m (a gold) + the indicator: 水 = 2 golds + two concealed honor
    pungs 2 + 2 = 6, (8 + 6) × 4 = 56, no bonus.  游金 on a 5m drawn next: one gold 1 + 2 + 2
    → 水 5, min((8 + 5) × 4, 100) = 52, plus the bonus 50 → 102."""
    rob = score_xiamen(
        Hand.parse("123m456m111z222z9m +9m"), XiamenContext(gold=GOLD, win_type=WinType.QIANGJIN)
    )
    you = score_xiamen(
        Hand.parse("123m456m111z222z9m +5m"), XiamenContext(gold=GOLD, win_type=WinType.YOUJIN)
    )
    assert settle_xiamen(rob).total == (8 + 1 + 1 + 2 + 2) * 4
    assert settle_xiamen(you).total == min((8 + 1 + 2 + 2) * 4, 100) + 50


# ---------------------------------------------------------------- whole hands


def test_expert_plays_legal_deterministic_xiamen_hands() -> None:
    """Every move goes through State.apply (which refuses an illegal one, 跟打 included); the
    same seed gives the same hands."""
    rules = find_family("xiamen")
    first = simulate(rules, ("expert", "efficiency"), hands=80, seed=11)
    again = simulate(rules, ("expert", "efficiency"), hands=80, seed=11)
    assert sum(first.wins) + first.draws + first.aborts == 80
    assert first.points == again.points
    assert first.by_how == again.by_how


def test_opening_declares_the_robbing_that_pays_most() -> None:
    """Dealer 111m234m5m6m222z333z, gold 9m, 底 8: laying out 1m leaves 11m + 56m and the
    indicator, 水 = 1 gold + 2 + 2 (honor pungs) = 5, (8 + 5) × 4 = 52; laying out 2m, 5m or
    6m keeps the 111m pung, 水 = 1 + 1 + 2 + 2 = 6, (8 + 6) × 4 = 56.  The efficiency bot
    declares the first offered (1m), the expert one that pays 56."""
    obs = xiamen_observation("111m234m56m222z333z", phase="opening", wall=44)
    legal = actions("0:qiangjin:1m", "0:qiangjin:2m", "0:qiangjin:5m", "0:qiangjin:6m", "0:pass")
    assert EfficiencyBot().choose(obs, legal) == Action.parse("0:qiangjin:1m")
    chosen = ExpertBot(budget_ms=0).choose(obs, legal)
    assert chosen in actions("0:qiangjin:2m", "0:qiangjin:5m", "0:qiangjin:6m")
    rules = find_family("xiamen")
    for tile, pays in (("1m", (8 + 1 + 2 + 2) * 4), (str(chosen.tile), (8 + 1 + 1 + 2 + 2) * 4)):
        state = resample(rules, obs, random.Random(1))
        state.apply(Action.parse(f"0:qiangjin:{tile}"))
        assert state.result is not None
        assert state.result.deltas[0] == pays


def test_race_passes_a_chow_that_spends_the_draw() -> None:
    """12m567m111z222z4z7z and the opponent's 3m: the chow makes the hand one discard from
    ready, and the efficiency bot takes it; against an opponent at 游金 (who wins on its next
    draw) the expert passes to draw, its only chance of a win first."""
    hand = "12m567m111z222z4z7z"
    calm = dataclasses.replace(xiamen_observation(hand, phase="claim"), pending=Tile.M3)
    racing = dataclasses.replace(
        xiamen_observation(hand, phase="claim", levels=(0, 1)), pending=Tile.M3
    )
    legal = actions("0:chi:123m", "0:pass")
    assert EfficiencyBot().choose(racing, legal) == Action.parse("0:chi:123m")
    assert ExpertBot(budget_ms=0).choose(calm, legal) == Action.parse("0:chi:123m")
    assert ExpertBot(budget_ms=0).choose(racing, legal) == Action.parse("0:pass")
