"""``erren simulate --rules arcade`` and ``erren play --rules arcade`` end to end."""

from __future__ import annotations

import io

from erren.bots import find_bot
from erren.cli.main import main
from erren.cli.play import play
from erren.display import Palette
from erren.engine import find_family


def test_simulate_arcade_from_the_command_line(capsys: object) -> None:
    code = main(
        [
            "simulate",
            "--rules",
            "arcade",
            "--games",
            "30",
            "--bots",
            "efficiency,random",
            "--seed",
            "1",
        ]
    )
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert code == 0 and "arcade · 30 hands" in out


def test_play_shows_the_wild_the_exchange_and_takes_advice() -> None:
    answers = "\n".join(["e 1 2", "a", "a", "1", "q"]) + "\n"
    out = io.StringIO()
    code = play(
        io.StringIO(answers),
        out,
        ruleset=find_family("arcade"),
        bot=find_bot("efficiency", seed=1),
        seed=3,
        palette=Palette(ascii=True),
    )
    text = out.getvalue()
    assert code == 0
    assert "财神 wild" in text and "reserve" in text and "Opening exchange" in text
    assert "opening exchange of 2 tile(s)" in text and "Advice:" in text and "Bye!" in text


def test_play_a_whole_arcade_hand_with_advice() -> None:
    # Enter: no exchange / pass / the blind draw; then always the first discard
    answers = "\n".join(["", *(["1", ""] * 60), "q"]) + "\n"
    out = io.StringIO()
    play(
        io.StringIO(answers),
        out,
        ruleset=find_family("arcade", pick_any_prob=0.5, pung_offer_prob=0.5),
        bot=find_bot("efficiency", seed=2),
        seed=11,
        palette=Palette(ascii=True),
    )
    text = out.getvalue()
    assert "settlement" in text
