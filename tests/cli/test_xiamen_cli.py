"""``erren simulate --rules xiamen`` and ``erren play --rules xiamen`` end to end."""

from __future__ import annotations

import io

from erren.bots import find_bot
from erren.cli.play import play
from erren.display import Palette
from erren.engine import find_family
from erren.sim import simulate


def test_simulate_table_lists_the_win_types() -> None:
    stats = simulate(find_family("xiamen"), ("efficiency", "random"), hands=40, seed=1)
    table = stats.table(timings=False)
    assert "win types" in table and "avg 水 per win" in table


def test_play_shows_the_gold_and_takes_advice_until_quit() -> None:
    answers = "\n".join(["a"] * 3 + ["q"]) + "\n"
    out = io.StringIO()
    code = play(
        io.StringIO(answers),
        out,
        ruleset=find_family("xiamen"),
        bot=find_bot("efficiency", seed=1),
        seed=5,
        palette=Palette(ascii=True),
    )
    text = out.getvalue()
    assert code == 0
    assert "金 gold" in text and "Advice:" in text and "Bye!" in text
