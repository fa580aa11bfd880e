"""``erren score --rules``: one command, three families."""

from __future__ import annotations

import pytest

from erren.cli.main import main


def test_xiamen_through_the_main_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "--rules", "xiamen", "--gold", "5m", "123678m222z9m [111z'] +9m"])
    out = capsys.readouterr().out
    assert code == 0
    assert "水        3" in out and "total     11 points" in out


def test_arcade_through_the_main_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--rules", "arcade", "1112223334z555s +4z", "--wild", "5s", "--self-drawn"]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0
    assert "大四喜" in out and "4倍役满" in out


@pytest.mark.parametrize(
    "argv",
    [["--gold", "5m"], ["--wild", "5s"], ["--dealer"], ["--stake", "3"], ["--streak", "1"]],
)
def test_family_options_are_refused_for_guobiao(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code = main(["score", "123m456m789m1z [555z'] +1z", *argv])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert "not a guobiao-2p option" in captured.err
