"""``erren play`` driven with scripted input: to a settlement screen and a clean quit."""

from __future__ import annotations

import io
import sys

import pytest

from erren.bots import find_bot
from erren.cli.main import main
from erren.cli.play import play
from erren.display import Palette, use_color
from erren.engine import find_family

RULE = "─" * 78


class ScreenReader(io.StringIO):
    """Stdin that answers what is on the screen: ``q`` at the settlement prompt, ``h`` when a
    win is offered, Enter (pass) on a claim, otherwise the first tile of the hand."""

    def __init__(self, screen: io.StringIO, *, hands: int = 1) -> None:
        super().__init__()
        self.screen = screen
        self.hands = hands
        self.asked: list[str] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        text = self.screen.getvalue()
        current = text[text.rfind(RULE) :]
        if text.rstrip().endswith("q quit:"):
            self.hands -= 1
            answer = "q" if self.hands <= 0 else ""
        elif "\n  h    " in current:
            answer = "h"
        elif "Claim it?" in current or "rob the kong" in current:
            answer = ""
        else:
            answer = "1"
        self.asked.append(answer)
        return answer + "\n"


def _play(inp: io.StringIO, out: io.StringIO, seed: int = 5) -> int:
    return play(
        inp,
        out,
        ruleset=find_family("guobiao-2p"),
        bot=find_bot("efficiency", seed=seed),
        seed=seed,
        palette=Palette(),
    )


@pytest.mark.parametrize("seed", [1, 5, 8])
def test_plays_to_a_settlement_screen_and_quits(seed: int) -> None:
    out = io.StringIO()
    reader = ScreenReader(out)
    assert _play(reader, out, seed) == 0
    text = out.getvalue()
    assert "Hand 1 — settlement" in text
    assert "Fans (番):" in text or "荒庄" in text
    assert "Match score" in text
    assert "Bye! 1 hand played" in text
    assert "Your hand" in text and "tiles left" in text and "Computer" in text
    assert "\x1b[" not in text


def test_two_hands_keep_the_match_score() -> None:
    out = io.StringIO()
    assert _play(ScreenReader(out, hands=2), out) == 0
    text = out.getvalue()
    assert "Hand 2 — settlement" in text and "Bye! 2 hands played" in text


def test_bad_input_reprompts_and_loses_nothing() -> None:
    out = io.StringIO()
    assert _play(io.StringIO("zzz\n99\n\nq\n"), out) == 0
    text = out.getvalue()
    assert text.count("is not one of the choices") == 2
    assert text.count("Nothing typed") == 1
    assert text.count("Your choice") == 4  # the same question, four times
    assert "Bye! 0 hands played" in text


def test_help_and_advice() -> None:
    out = io.StringIO()
    assert _play(io.StringIO("?\na\n"), out) == 0  # then end of input
    text = out.getvalue()
    assert "to discard it and declare 报听" in text
    assert "Advice: discard" in text


@pytest.mark.parametrize("script", ["", "q\n", "quit\n"])
def test_quit_and_end_of_input(script: str) -> None:
    out = io.StringIO()
    assert _play(io.StringIO(script), out) == 0
    assert "Bye!" in out.getvalue()


def test_ctrl_c_quits_cleanly() -> None:
    class Interrupt(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    out = io.StringIO()
    assert _play(Interrupt(), out) == 0
    assert "Bye!" in out.getvalue()


def test_main_with_scripted_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a fixed script: try a win, discard tile 1, pass — bad answers are re-asked
    monkeypatch.setattr(sys, "stdin", io.StringIO("h\n1\nx\n" * 120 + "q\n"))
    assert main(["play", "--seed", "3", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "settlement" in out and "Bye!" in out
    assert "\x1b[" not in out


def test_unknown_bot_or_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bot", "ghost"]) == 2
    assert main(["play", "--rules", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot" in err and "unknown ruleset" in err


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty()) and not use_color(io.StringIO())
    assert not use_color(Tty(), disabled=True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())
    assert "\x1b[31m" in Palette(color=True).tile(4)
    assert Palette(ascii=True).face(31) == "5z "


@pytest.mark.parametrize(
    ("level", "shown"),
    [("高手", "Computer (Strong)"), ("novice", "Computer (Beginner)"), (None, "Computer (Normal)")],
)
def test_the_computer_is_shown_by_its_level(
    level: str | None,
    shown: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    chosen = ["--level", level] if level is not None else []
    assert main(["play", "--seed", "3", "--ascii", *chosen]) == 0
    out = capsys.readouterr().out
    assert f"Your opponent: {shown}." in out
    assert f": {shown} +0" in out  # the header's score
    assert "EfficiencyBot" not in out and "efficiency" not in out


def test_a_bot_chosen_by_name_is_shown_by_that_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--seed", "3", "--bot", "random"]) == 0
    assert "Your opponent: Computer (random)." in capsys.readouterr().out


def test_a_bad_level_or_a_level_with_a_bot_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--level", "grandmaster"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("erren play: unknown level 'grandmaster' (known: novice (入门, Beginner)")
    assert "master (大师, Master)" in err
    assert main(["play", "--level", "strong", "--bot", "random"]) == 2
    err = capsys.readouterr().err
    assert "--bot and --level both choose the computer; give one of them" in err
