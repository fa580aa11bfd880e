"""大师's xiamen value model (erren.families.xiamen.bot.value, .master): exact choices on built
positions, each backed by the payments of xiamen.md Section 4 computed here, the switch back to
the 大师 before it, and a bot against itself at exactly 0 in the duplicate arena."""

from __future__ import annotations

import dataclasses

from erren.analysis.golds import complete, you_ready
from erren.bots.efficiency import EfficiencyBot
from erren.bots.expert import ExpertBot
from erren.bots.expert.knobs import Knobs
from erren.engine import Action, find_family
from erren.families.xiamen.bot.master import SWITCH_MARGIN, payments_of
from erren.families.xiamen.bot.value import Payments, flower_water
from erren.families.xiamen.scoring import WinType
from erren.notation import parse_tiles
from erren.sim.arena import arena
from erren.tiles import Tile

from ._support import actions, xiamen_observation

KINDS = [*range(9), *range(27, 34)]


def _master() -> ExpertBot:
    return ExpertBot(budget_ms=0)


def _before() -> ExpertBot:
    """The 大师 before the value model (``expert[value_model=false]``)."""
    return ExpertBot(budget_ms=0, knobs=Knobs.parse("value_model=false"))


def _pay(water: int, win: WinType) -> int:
    """R-4.1/R-4.6 with 底 8 and cap 100: min((8 + 水) × M, 100) + bonus."""
    return min((8 + water) * win.multiplier, 100) + win.bonus


COMPLETE = "123m456m111z222z7m9m"
"""A complete hand with a gold (9m) paired with 7m: throwing 7m leaves it 游金-ready."""


# ---------------------------------------------------------------- payments


def test_payments_follow_the_spec() -> None:
    """X-13: the dealer on 连庄数 3 (底 32) wins 游金 with 水 5: (32 + 5) × 4 = 148, capped at
    100, plus the bonus 50 outside the cap; 平和 with 水 3 on a fresh dealer: 8 + 3."""
    obs = dataclasses.replace(xiamen_observation(COMPLETE), streak=2)
    table = payments_of(obs, find_family("xiamen"))
    assert table == Payments(base=32, cap=100)
    assert table.pay(5, WinType.YOUJIN) == 150
    assert Payments(base=8, cap=100).pay(3, WinType.PINGHU) == 11
    assert Payments(base=8, cap=0).pay(20, WinType.SHUANGYOU) == (8 + 20) * 8 + 100
    assert flower_water([int(Tile.F1), int(Tile.F2), int(Tile.F3), int(Tile.F4), 38]) == 8 + 1


# ---------------------------------------------------------------- discards


def test_swims_for_youjin_late_where_the_zimo_pays_less() -> None:
    """Complete with 4 tiles left: 自摸 pays (8 + 水 5) × 2 = 26 (a gold, two concealed honor
    pungs); throwing 7m into 游金 pays min(13 × 4, 100) + 50 = 102 if the opponent does not
    win on its one turn first — worth more unless that chance exceeds 1 − 26/102 (75 %).  The
    大师 before (like 普通) swims only with 8 tiles or more in the wall.  With 1 tile left no
    draw would follow the opponent's (R-2.10): 自摸."""
    assert _pay(5, WinType.ZIMO) == 26
    assert _pay(5, WinType.YOUJIN) == 102
    legal = actions("0:zimo", "0:discard:7m", "0:discard:1m", "0:discard:9m")
    late = xiamen_observation(COMPLETE, wall=4)
    assert _before().choose(late, legal) == Action.parse("0:zimo")
    assert _master().choose(late, legal) == Action.parse("0:discard:7m")
    last = xiamen_observation(COMPLETE, wall=1)
    assert _master().choose(last, legal) == Action.parse("0:zimo")


def _ready_payments(hand: list[int], part: list[int], golds: int, discount: float) -> float:
    """Σ over the unseen tiles completing ``part`` (seen: the 14 tiles of the hand alone) of
    their copies × the best payment: 自摸, or 游金 (× ``discount`` for the opponent's turn)
    when a discard leaves the 14 tiles 游金-ready.  水: golds + 1 per suit and 2 per honor
    concealed pung (R-4.3)."""

    def water(counts: list[int], k: int) -> int:
        return k + sum((2 if t >= 27 else 1) for t in KINDS if counts[t] >= 3)

    total = 0.0
    for t in [*KINDS, -1]:  # -1: a gold
        if t == int(Tile.WHITE):
            continue  # every White plays as the gold kind 9m
        copies = 3 - 1 if t < 0 else 4 - hand[t]  # golds: three in play, one held
        k = golds + (t < 0)
        counts = list(part)
        if t >= 0:
            counts[t] += 1
        if not complete(counts, k):
            continue
        best = float(_pay(water(counts, k), WinType.ZIMO))
        for d in KINDS:
            if counts[d]:
                counts[d] -= 1
                if you_ready(counts, k):
                    best = max(best, discount * _pay(water(counts, k), WinType.YOUJIN))
                counts[d] += 1
        total += copies * best
    return total


def test_keeps_the_ready_hand_whose_waits_lead_to_youjin() -> None:
    """1234m 66m 7m 9m(gold) 111z 222z.  普通 and the 大师 before throw 7m, the widest wait
    (1234m 66m + the gold); the value model throws 1m: 234m 66m 7m + the gold completes on
    5m, 6m or 8m into a hand that a discard (6m or 7m) leaves 游金-ready (102+), where the
    other's 游金 draws are 5m and 6m only — worth more a draw by more than the margin the
    model asks before it leaves the efficiency bot's discard (15 %), whatever the opponent's
    chance on its one turn before the 游金 draw (0 %, 22 %, 30 % here: 1,422 against 1,144,
    1,149.2 against 960.96, 1,050 against 894.4 points × copies)."""
    hand = "1m2m3m4m6m6m7m9m1z1z1z2z2z2z"
    legal = actions(*(f"0:discard:{t}" for t in ("1m", "2m", "3m", "4m", "6m", "7m", "9m")))
    legal += actions("0:discard:1z", "0:discard:2z")
    obs = xiamen_observation(hand)
    assert EfficiencyBot().choose(obs, legal) == Action.parse("0:discard:7m")
    assert _before().choose(obs, legal) == Action.parse("0:discard:7m")
    assert _master().choose(obs, legal) == Action.parse("0:discard:1m")
    naturals = [0] * 34  # by functional kind: the gold 9m is not among them
    for tile in parse_tiles("1234667m111222z"):
        naturals[int(tile)] += 1
    wide, swim = list(naturals), list(naturals)
    wide[int(Tile.M7)] -= 1
    swim[int(Tile.M1)] -= 1
    for discount in (1.0, 0.78, 0.7):
        worth = _ready_payments(naturals, swim, 1, discount)
        assert worth > (1 + SWITCH_MARGIN) * _ready_payments(naturals, wide, 1, discount)


# ---------------------------------------------------------------- the 游 chain and the race


def test_climbs_to_double_you_while_a_draw_is_left() -> None:
    """At 游金 with a gold drawn and 4 tiles left: 游金 now pays min((8 + 2 golds + 2 + 2) ×
    4, 100) + 50 = 106; throwing the gold, 双游 on the next draw pays min((8 + 5) × 8, 100) +
    100 = 200, worth more unless the opponent wins its one turn with a chance over 47 %.  The
    大师 before climbs only with 8 tiles or more; with 1 left no draw would follow: 游金."""
    assert _pay(6, WinType.YOUJIN) == 106
    assert _pay(5, WinType.SHUANGYOU) == 200
    legal = actions("0:win", "0:discardgold")
    hand = "123m456m111z222z9m9m"
    late = xiamen_observation(hand, phase="you_choice", levels=(1, 0), wall=4)
    assert _before().choose(late, legal) == Action.parse("0:win")
    assert _master().choose(late, legal) == Action.parse("0:discardgold")
    last = xiamen_observation(hand, phase="you_choice", levels=(1, 0), wall=1)
    assert _master().choose(last, legal) == Action.parse("0:win")


def test_passes_a_chow_while_the_opponent_is_at_a_you_level() -> None:
    """The opponent at 游金 wins on its next draw unless it draws a gold: the 大师 passes the
    chow that would spend its own draw (12m567m111z222z4z7z and 3m), and takes it otherwise."""
    hand = "12m567m111z222z4z7z"
    legal = actions("0:chi:123m", "0:pass")
    calm = dataclasses.replace(xiamen_observation(hand, phase="claim"), pending=Tile.M3)
    racing = dataclasses.replace(
        xiamen_observation(hand, phase="claim", levels=(0, 1)), pending=Tile.M3
    )
    assert _master().choose(calm, legal) == Action.parse("0:chi:123m")
    assert _master().choose(racing, legal) == Action.parse("0:pass")


# ---------------------------------------------------------------- the arena


def test_master_against_itself_is_exactly_even() -> None:
    result = arena(find_family("xiamen"), ("master", "master"), deals=6, seed=1)
    assert result.advantages == [0.0] * 6
    assert result.mean == 0.0


def test_the_value_model_is_a_knob() -> None:
    assert Knobs().value_model
    assert not Knobs.parse("value_model=false").value_model
