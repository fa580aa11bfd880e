"""The efficiency bot at the xiamen table: golds wild, 游金 sought, 跟打 always kept."""

from __future__ import annotations

from erren.engine import find_family
from erren.families.xiamen.game.data import XiamenWinHow
from erren.sim import simulate


def test_efficiency_beats_random_and_swims_for_gold() -> None:
    stats = simulate(find_family("xiamen"), ("efficiency", "random"), hands=150, seed=4)
    assert stats.hands == 150
    assert stats.wins[0] > 5 * stats.wins[1]
    swam = stats.by_how.get(XiamenWinHow.YOUJIN, 0) + stats.by_how.get(XiamenWinHow.SHUANGYOU, 0)
    assert swam > 0


def test_efficiency_mirror_plays_legal_games() -> None:
    # every bot move goes through State.apply, which refuses a 跟打 violation
    stats = simulate(find_family("xiamen"), ("efficiency", "efficiency"), hands=60, seed=2)
    assert sum(stats.wins) + stats.draws + stats.aborts == 60
